"""setupgen: legal random Catan boards, table sheets and tournaments.

The public API (everything in ``__all__``), loaded on first use so that
``import setupgen`` stays instant::

    import setupgen

    layout = setupgen.load_layout("base-3-4")
    board = setupgen.from_seed(layout, "club-night/t1")
    assert setupgen.check_board(board) == []
    svg = setupgen.render_sheet(board, layout, lang="de")

The pipeline, stage by stage (README, "Architecture"): :mod:`setupgen.core`
(hex grid, vocabulary and rules, layouts, boards, seeds and setup IDs),
:mod:`setupgen.generate`, :mod:`setupgen.check`, :mod:`setupgen.render`,
:mod:`setupgen.tournament`, and the command line :mod:`setupgen.cli`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: public name -> (module, attribute); no name may be that of a subpackage
#: or module of the package (``check``, ``generate``), which Python binds on
#: import
_EXPORTS: dict[str, tuple[str, str]] = {
    # layouts
    "Layout": ("setupgen.core.layout", "Layout"),
    "load_layout": ("setupgen.core.layout", "load"),
    "scenario_names": ("setupgen.core.layout", "scenario_names"),
    # boards and their JSON
    "Board": ("setupgen.core.board", "Board"),
    "Tile": ("setupgen.core.board", "Tile"),
    "Harbor": ("setupgen.core.board", "Harbor"),
    "read_board": ("setupgen.core.board", "read_board"),
    "write_board": ("setupgen.core.board", "write_board"),
    # generation
    "generate_board": ("setupgen.generate.pipeline", "generate"),
    "from_seed": ("setupgen.generate.pipeline", "from_seed"),
    "from_setup_id": ("setupgen.generate.pipeline", "from_setup_id"),
    "stream": ("setupgen.core.rng", "from_seed"),
    # checking
    "check_board": ("setupgen.check", "check"),
    "check_file": ("setupgen.check", "check_file"),
    "validate": ("setupgen.check", "validate"),
    "Violation": ("setupgen.check", "Violation"),
    # rendering
    "render_sheet": ("setupgen.render.sheet", "render_sheet"),
    "render_key": ("setupgen.render.key", "render_key"),
    "board_bytes": ("setupgen.render.export", "board_bytes"),
    "svgs_to_pdf": ("setupgen.render.pdf", "svgs_to_pdf"),
    # tournaments
    "Tournament": ("setupgen.tournament.model", "Tournament"),
    "load_tournament": ("setupgen.tournament.model", "load"),
    "Player": ("setupgen.tournament.model", "Player"),
    "Scoring": ("setupgen.tournament.scoring", "Scoring"),
    "plan_schedule": ("setupgen.tournament.schedule", "plan"),
    "Schedule": ("setupgen.tournament.schedule", "Schedule"),
    "read_results": ("setupgen.tournament.standings", "read_results"),
    "standings": ("setupgen.tournament.standings", "standings"),
    # errors
    "SetupgenError": ("setupgen.core.errors", "SetupgenError"),
    "LayoutError": ("setupgen.core.errors", "LayoutError"),
    "UnknownScenarioError": ("setupgen.core.errors", "UnknownScenarioError"),
    "BoardFormatError": ("setupgen.core.errors", "BoardFormatError"),
    "GenerationError": ("setupgen.core.errors", "GenerationError"),
    "SetupIdError": ("setupgen.core.errors", "SetupIdError"),
    "IllegalBoardError": ("setupgen.core.errors", "IllegalBoardError"),
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # the same names, for type checkers and editors
    from .check import Violation, check_file, validate
    from .check import check as check_board
    from .core.board import Board, Harbor, Tile, read_board, write_board
    from .core.errors import (
        BoardFormatError,
        GenerationError,
        IllegalBoardError,
        LayoutError,
        SetupgenError,
        SetupIdError,
        UnknownScenarioError,
    )
    from .core.layout import Layout, scenario_names
    from .core.layout import load as load_layout
    from .core.rng import from_seed as stream
    from .generate.pipeline import from_seed, from_setup_id
    from .generate.pipeline import generate as generate_board
    from .render.export import board_bytes
    from .render.key import render_key
    from .render.pdf import svgs_to_pdf
    from .render.sheet import render_sheet
    from .tournament.model import Player, Tournament
    from .tournament.model import load as load_tournament
    from .tournament.schedule import Schedule
    from .tournament.schedule import plan as plan_schedule
    from .tournament.scoring import Scoring
    from .tournament.standings import read_results, standings


def __getattr__(name: str) -> Any:
    """Load a public name on first use (PEP 562)."""
    try:
        module, attr = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'setupgen' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
