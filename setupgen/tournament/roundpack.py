"""Round packs: one board per table, one multi-page PDF (director's page
first, then a sheet per table, each followed by its almanac page), each
table's SVGs and board JSON, and a ``manifest.json``; written atomically
into one folder.

With the almanac the PDF is laid out for duplex printing: the director's
pages are padded to an even count (a blank back), then every table's
sheet and almanac follow as pages ``2k-1`` and ``2k`` of their own, so each
pair lands on one sheet of paper (``docs/sheet.md``, the almanac page).

Table ``t`` (1-based) of seed ``S`` is seeded with the text ``S/t<t>``, so
the board of seed ``S/t3`` is table 3 alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import generate as gen
from ..core import almanac as rules
from ..core import atomic, balance, templates
from ..core import layout as layoutmod
from ..core.board import Board
from ..core.errors import SetupgenError, quoted
from ..core.layout import Layout
from ..core.limits import MAX_ROUND, MAX_TEXT, MAX_VP, MIN_VP, check_text
from ..core.rules import FINALS_STAGES

if TYPE_CHECKING:  # annotations only: the sheet is imported when a table is rendered
    from ..render.sheet import SheetContext

MAX_TABLES = 500
MANIFEST_FORMAT = "setupgen.round/1"


@dataclass(frozen=True, slots=True)
class RoundRequest:
    """What a round pack is made of. ``tables`` >= 1; ``numbers``/``harbors``
    None take the layout's defaults; ``paper`` ``a4``/``letter``;
    ``lang`` a template language; ``seating`` ``start`` (players listed in
    starting order) or ``choose`` (finals: by rank, choosing their start
    positions in that order); ``victory_points`` the round's win threshold
    (None: the scenario's); ``almanac`` what the almanac pages print
    (None: no almanac pages); ``limits`` the balance limits every table's
    board must meet (an even round: a score interval), each board still
    drawn from its own seed (docs/balance.md); ``balance_line`` whether
    the sheets print the board's balance as the table sees it;
    ``table_urls`` (one per table, or none) the result page of each table
    in the director's console, printed as a QR code in the sheet's header
    (docs/console.md); ``results_template`` the text of the pack's
    ``results-round-N.csv`` (a tournament round's rows to fill in: round,
    table, player, empty VP and winner; None: no such file)."""

    scenario: str
    tables: int
    seed: str
    numbers: str | None = None
    harbors: str | None = None
    lang: str = "en"
    paper: str = "a4"
    title: str | None = None
    round: int | None = None
    table_seeds: tuple[str, ...] = ()
    players: tuple[tuple[str, ...], ...] = ()
    seating: str = "start"
    victory_points: int | None = None
    almanac: rules.AlmanacRequest | None = rules.AlmanacRequest()
    limits: balance.Limits = balance.Limits()
    balance_line: bool = False
    table_urls: tuple[str, ...] = ()
    results_template: str | None = None
    #: the console's base URL the ``table_urls`` lead to (kept in the manifest, so a pack with QR codes is not
    #: replaced by one without them by accident, :func:`check_console`); None: no QR codes
    console_url: str | None = None
    #: a finals pack's stage (``semi-final`` or ``final``), named on every
    #: page instead of a round; None: a round's pack
    stage: str | None = None
    #: what a position means (``start``, or ``selection``: the players listed
    #: in selection order, the slip with a box for the play order each chose;
    #: docs/rules.md section 6, "Selection order")
    positions: str = "start"

    def seed_of(self, table: int) -> str:
        """The seed text of table ``table`` (1-based): ``table_seeds`` when
        given (tournament rounds), else ``<seed>/t<table>``."""
        return self.table_seeds[table - 1] if self.table_seeds else table_seed(self.seed, table)


def table_seed(seed: str, table: int) -> str:
    """The seed text of table ``table`` (1-based) of a round seeded ``seed``."""
    return f"{seed}/t{table}"


def check_request(request: RoundRequest) -> None:
    """Raise :class:`SetupgenError` for a table count outside 1..MAX_TABLES,
    a round number below 1, an unknown scenario, language or paper, a
    method the scenario cannot use, a threshold outside MIN_VP..MAX_VP, or
    an almanac request naming an unknown preset, rule key or variant (the
    seed is not looked at; whether the almanac fits one page is known when
    it is laid out)."""
    if not 1 <= request.tables <= MAX_TABLES:
        raise SetupgenError(f"tables must be between 1 and {MAX_TABLES}, got {request.tables}", field="tables")
    if request.table_seeds and len(request.table_seeds) != request.tables:
        raise SetupgenError(f"{len(request.table_seeds)} table seeds for {request.tables} tables")
    if request.players and len(request.players) != request.tables:
        raise SetupgenError(f"{len(request.players)} player lists for {request.tables} tables")
    if request.table_urls and len(request.table_urls) != request.tables:
        raise SetupgenError(f"{len(request.table_urls)} table addresses for {request.tables} tables")
    if request.round is not None and not 1 <= request.round <= MAX_ROUND:
        raise SetupgenError(
            f"the round number must be from 1 to {MAX_ROUND}, got {quoted(request.round, 20)}", field="round"
        )
    if request.stage is not None and (request.stage not in FINALS_STAGES or request.round is not None):
        raise SetupgenError(f"a finals pack's stage is one of {', '.join(FINALS_STAGES)}, with no round number")
    if request.title is not None:
        check_text(request.title, "the title", field="title")
    if request.seed:
        # each table's seed adds "/t<table>" (table_seed), so leave room for it
        room = MAX_TEXT if request.table_seeds else MAX_TEXT - len(table_seed("", request.tables))
        check_text(request.seed, "the seed", field="seed", limit=room)
    vp = request.victory_points
    if vp is not None and (not isinstance(vp, int) or isinstance(vp, bool) or not MIN_VP <= vp <= MAX_VP):
        raise SetupgenError(
            f"the victory points must be a whole number from {MIN_VP} to {MAX_VP}, got {quoted(vp, 20)}",
            field="victory_points",
        )
    gen.resolve_methods(layoutmod.load(request.scenario), request.numbers, request.harbors)
    templates.texts(request.lang)
    templates.paper_size(request.paper)
    if request.almanac is not None:
        rules.check_request(request.almanac)


def round_boards(request: RoundRequest) -> list[Board]:
    """The boards of every table, table 1 first. Raises
    :class:`SetupgenError` for a bad request."""
    check_request(request)
    layout = layoutmod.load(request.scenario)
    return [
        gen.from_seed_within(layout, request.seed_of(t), request.limits, request.numbers, request.harbors)
        for t in range(1, request.tables + 1)
    ]


def write_round(
    request: RoundRequest,
    out_dir: str | Path,
    progress: Callable[[str], None] | None = None,
    *,
    replace: bool = False,
    lock: Path | None = None,
) -> dict[str, Any]:
    """Make the round pack of ``request`` in folder ``out_dir`` (replaced as
    a whole, atomically: after an error or interrupt it is left as it was).

    Files: ``round.pdf``, ``table-NN.svg``, ``table-NN-almanac.svg`` (with
    the almanac), ``table-NN.json``, ``manifest.json``, and ``key.pdf`` (the director's key: a summary of
    every table's face-down hexes, then one page per table) when the
    scenario has face-down hexes. ``progress(step)`` is called once per
    step (each board generated, each page rendered, the PDF written); see
    :func:`steps`. Returns the manifest.

    An existing folder is replaced only when it is an earlier pack holding
    nothing but the files its manifest lists, unchanged (their digests
    match), or a pack made before manifests listed their files and
    ``replace`` is given (see :func:`check_target`).

    ``lock``: a tournament folder whose lock (:func:`~setupgen.core.atomic.
    folder_lock`) is held while the finished pack takes the folder's place
    (not while it is made).

    Raises :class:`SetupgenError` (bad request, unwritable folder, a folder
    holding files setupgen did not write).
    """
    tick = progress if progress is not None else (lambda _step: None)
    check_target(out_dir, replace=replace)
    layout = layoutmod.load(request.scenario)
    boards = round_boards(request)
    for _ in boards:
        tick("board")
    files, entries = _pack_files(request, layout, boards, tick)
    template = results_template_name(request)
    if template is not None and request.results_template is not None:
        files[template] = request.results_template.encode("utf-8")
    tick("pdf")
    manifest = _manifest(request, boards, entries, files, template)
    files["manifest.json"] = (json.dumps(manifest, indent=2, ensure_ascii=True) + "\n").encode("utf-8")
    with contextlib.ExitStack() as held:
        if lock is not None:
            held.enter_context(atomic.folder_lock(lock))
        with atomic.staged_dir(out_dir, pack_owner(replace)) as tmp:
            for name in sorted(files):
                (tmp / name).write_bytes(files[name])
    return manifest


def _manifest(
    request: RoundRequest,
    boards: Sequence[Board],
    entries: list[dict[str, Any]],
    files: dict[str, bytes],
    template: str | None,
) -> dict[str, Any]:
    """The pack's ``manifest.json`` (without itself among its files)."""
    manifest = {
        "format": MANIFEST_FORMAT,
        "scenario": request.scenario,
        "seed": request.seed,
        "tables": request.tables,
        "number_method": boards[0].number_method,
        "harbor_method": boards[0].harbor_method,
        "lang": request.lang,
        "paper": request.paper,
        "title": request.title,
        "round": request.round,
        "victory_points": request.victory_points,
        "limits": request.limits.to_dict() if request.limits else None,
        "balance_preset": request.limits.preset,
        "almanac": None if request.almanac is None else _almanac_entry(request.almanac),
        "pdf": "round.pdf",
        "duplex": request.almanac is not None,
        "key": "key.pdf" if "key.pdf" in files else None,
        "boards": entries,
        "files": {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())},
    }
    if template is not None:
        manifest["results_template"] = template
    if request.console_url is not None:
        manifest["console_url"] = request.console_url
    return manifest


def check_console(out_dir: str | Path, console_url: str | None, drop: bool = False) -> None:
    """Refuse to replace a pack of ``out_dir`` whose sheets carry QR codes
    to a console (its manifest's ``console_url``) with one whose codes lead
    elsewhere or that has none (``console_url`` None), unless ``drop``.
    Raises :class:`SetupgenError` (field ``console_url``, remedy
    ``drop_console_url``)."""
    path = Path(out_dir) / "manifest.json"
    try:
        made = json.loads(path.read_text(encoding="utf-8")).get("console_url")
    except (OSError, ValueError, AttributeError):
        return  # no pack there, or not one of ours: check_target decides
    if drop or made is None or made == console_url:
        return
    now = "without QR codes" if console_url is None else f"with QR codes to {console_url}"
    raise SetupgenError(
        f"{atomic.shown(Path(out_dir))} was made with QR codes to the console at {made}; making it "
        f"again {now} would leave the printed codes dead: give the console's address {made}",
        field="console_url",
        remedy="drop_console_url",
    )


def results_template_name(request: RoundRequest) -> str | None:
    """``results-round-N.csv`` when the request has a results template (a
    finals stage's: ``results-<stage>-blank.csv``, so it is never taken for
    the stage's results file that ``placings`` reads), else None."""
    if request.results_template is None:
        return None
    if request.stage is not None:
        return f"results-{request.stage}-blank.csv"
    return f"results-round-{request.round}.csv" if request.round is not None else "results-template.csv"


def _almanac_entry(req: rules.AlmanacRequest) -> dict[str, Any]:
    """The manifest's record of what the almanac pages print."""
    return {
        "preset": req.preset,
        "final": req.final,
        "drop": list(req.drop),
        "add": list(req.add),
        "variant": req.variant,
    }


def _pack_files(
    request: RoundRequest, layout: Layout, boards: list[Board], tick: Callable[[str], None]
) -> tuple[dict[str, bytes], list[dict[str, Any]]]:
    """Every file of the pack but the manifest (name -> bytes), and the
    manifest's board entries. ``key.pdf`` (the director's key: face-down
    hexes revealed, never for the tables) only when a board has them.
    Sheets are laid out in a worker process while this process draws
    ``round.pdf``, and ``key.pdf`` is made whole in another
    (:mod:`setupgen.render.batch`)."""
    from ..render import batch, director  # rendering is imported only when a pack is made

    contexts = [table_context(request, t, b, layout) for t, b in enumerate(boards, start=1)]
    entries: list[dict[str, Any]] = []
    files: dict[str, bytes] = {}
    has_key = any(t.hidden for b in boards for t in b.tiles)
    notes = director.notes_for(layout, request.lang, request.positions)
    keys = (
        batch.key_document(
            boards,
            layout,
            contexts,
            lang=request.lang,
            paper=request.paper,
            title=request.title,
            round=request.round,
            seed=request.seed,
            notes=notes,
        )
        if has_key
        else None
    )
    try:
        files["round.pdf"] = _round_pdf(request, layout, boards, contexts, files, entries, tick, has_key, notes)
        if keys is not None:
            files["key.pdf"] = keys.result()
    finally:
        if keys is not None:
            keys.close()
    return files, entries


def _round_pdf(
    request: RoundRequest,
    layout: Layout,
    boards: list[Board],
    contexts: list[Any],
    files: dict[str, bytes],
    entries: list[dict[str, Any]],
    tick: Callable[[str], None],
    has_key: bool,
    notes: Sequence[str],
) -> bytes:
    """``round.pdf``: the director's pages (padded to an even count with the
    almanac, for duplex printing), then each sheet and its almanac page as
    the worker lays them out; each table's SVGs and board JSON go into
    ``files`` and its manifest entry into ``entries`` on the way."""
    from ..render import batch, pdf

    width = max(2, len(str(request.tables)))
    sheets = batch.sheets(boards, layout, contexts, lang=request.lang, paper=request.paper, almanac=request.almanac)

    def tables() -> Iterator[Any]:
        for t, (board, (svg, back, board_json)) in enumerate(zip(boards, sheets), start=1):
            stem = f"table-{t:0{width}d}"
            files[f"{stem}.svg"] = svg.encode("utf-8")
            files[f"{stem}.json"] = (board_json + "\n").encode("utf-8")
            entry = {
                "table": t,
                "seed": board.seed,
                "setup_id": board.setup_id,
                "json": f"{stem}.json",
                "svg": f"{stem}.svg",
            }
            if back is not None:
                files[f"{stem}-almanac.svg"] = back.encode("utf-8")
                entry["almanac"] = f"{stem}-almanac.svg"
            entries.append(entry)
            tick("page")
            yield svg
            if back is not None:
                yield back

    try:  # the workers lay out the sheets meanwhile; they end with this, however it ends
        front = _director_front(request, layout, boards, contexts, has_key, notes)
        return pdf.pages_to_pdf(itertools.chain(front, tables()))
    finally:
        batch.close(sheets)


def _director_front(
    request: RoundRequest, layout: Layout, boards: list[Board], contexts: list[Any], has_key: bool, notes: Sequence[str]
) -> list[Any]:
    """The director's pages: every table's players, material and balance
    (face-down hexes counted), padded to an even count with the almanac."""
    from ..render import almanac, director

    variant = None if request.almanac is None else request.almanac.variant
    rows = [
        director.DirectorRow(
            t,
            request.scenario,
            b.setup_id,
            b.seed,
            c.players,
            rules.table_material(
                request.scenario, len(c.players) if c.players else almanac.table_players(layout), variant
            ),
            balance.measure(b, start_barred=layout.start_barred),
        )
        for t, (b, c) in enumerate(zip(boards, contexts), start=1)
    ]
    front = director.render_director_pages(
        rows,
        title=request.title,
        lang=request.lang,
        paper=request.paper,
        seed=request.seed,
        round=request.round,
        blank_round=not request.players,
        key_file="key.pdf" if has_key else None,
        notes=notes,
        stage=request.stage,
    )
    if request.almanac is not None and len(front) % 2:
        front.append(almanac.blank_back(lang=request.lang, paper=request.paper))
    return front


def check_target(out_dir: str | Path, *, replace: bool = False) -> Path:
    """Raise :class:`~setupgen.core.atomic.OutputError` unless ``out_dir``
    can take a new pack: missing, empty, or an earlier pack of setupgen's
    own (:func:`pack_owner`). Returns the resolved folder."""
    return atomic.check_dir_target(out_dir, pack_owner(replace))


def pack_owner(replace: bool) -> atomic.OwnerCheck:
    """The owner check of a pack folder: it must hold a ``manifest.json``
    of this format and nothing but the files it lists, each with its
    recorded SHA-256 digest (a file added or edited since is not
    setupgen's). A manifest without digests (an earlier version's) is
    replaced only with ``replace``, and then only when the folder holds
    nothing but the files that manifest names."""

    def check(folder: Path) -> None:
        where = f"cannot replace {atomic.shown(folder)}"
        manifest = _read_manifest(folder)
        if manifest is None:
            raise atomic.OutputError(
                f"{where}: the folder holds other files and is not a setupgen round pack", field="output"
            )
        present = sorted(p.name for p in folder.iterdir())
        foreign: list[str]
        files = manifest.get("files")
        if not isinstance(files, dict):
            if not replace:
                raise atomic.OutputError(
                    f"{where}: it is a pack made before setupgen recorded its files, so they cannot be verified",
                    field="output",
                    remedy="replace",
                )
            known = {"manifest.json", manifest.get("pdf"), manifest.get("key")} | {
                b.get(k) for b in manifest.get("boards", []) if isinstance(b, dict) for k in ("json", "svg", "almanac")
            }
            foreign = [n for n in present if n not in known or not (folder / n).is_file()]
        else:
            foreign = [f for f in (_foreign(folder / n, files) for n in present if n != "manifest.json") if f]
        if foreign:
            more = f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
            raise atomic.OutputError(
                f"{where}: it holds files setupgen did not write: {', '.join(foreign[:5])}{more}", field="output"
            )

    return check


def _read_manifest(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("format") == MANIFEST_FORMAT else None


def _foreign(path: Path, files: dict[str, Any]) -> str | None:
    """The name of ``path`` (marked when changed) if it is not a file the
    manifest lists with this digest, else None."""
    if not path.is_file() or path.is_symlink():
        return f"{path.name} (a folder or link)" if path.name in files or path.is_dir() else path.name
    if path.name not in files:
        return path.name
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return f"{path.name} (unreadable)"
    return None if digest == files[path.name] else f"{path.name} (changed since it was written)"


def table_context(request: RoundRequest, table: int, board: Board, layout: Layout) -> SheetContext:
    """The :class:`~setupgen.render.sheet.SheetContext` of table ``table``
    (1-based) of a round pack: tournament, round, table, its players, the
    round's threshold, and with ``balance_line`` the balance of ``board``
    as its table sees it (face-down hexes unknown)."""
    from ..render.sheet import SheetContext

    players = request.players[table - 1] if request.players else ()
    line = None
    if request.balance_line:
        from ..render.sheet import balance_line

        line = balance_line(balance.measure(board, start_barred=layout.start_barred, table=True), request.lang)
    qr = request.table_urls[table - 1] if request.table_urls else None
    return SheetContext(
        tournament=request.title,
        round=request.round,
        table=table,
        players=players,
        seating=request.seating,
        victory_points=request.victory_points,
        balance=line,
        qr=qr,
        stage=request.stage,
        positions=request.positions,
    )


def steps(request: RoundRequest) -> int:
    """How many times :func:`write_round` calls ``progress``."""
    return 2 * request.tables + 1


__all__: Sequence[str] = (
    "RoundRequest",
    "table_seed",
    "table_context",
    "round_boards",
    "write_round",
    "steps",
    "MAX_TABLES",
)
