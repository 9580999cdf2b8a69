"""Where the shipped data lives: the ``layouts/`` and ``templates/``
folders (layouts, words, sheet style) a director can read and edit."""

from __future__ import annotations

from pathlib import Path


def data_dir(name: str) -> Path:
    """A shipped data folder (``layouts`` or ``templates``): the copy inside
    an installed wheel (``setupgen/_data/<name>``), else the top-level folder
    of a source checkout. Raises ``FileNotFoundError`` when neither exists."""
    package = Path(__file__).resolve().parent.parent
    for cand in (package / "_data" / name, package.parent / name):
        if cand.is_dir():
            return cand
    raise FileNotFoundError(f"setupgen data folder {name!r} not found (broken installation)")


__all__ = ["data_dir"]
