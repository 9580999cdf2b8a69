"""The players' side of the console (docs/console.md, "The players'
side"), every page in the event's language (the tournament file's
``language``; words in ``templates/<lang>.toml``, ``[console]``):

* ``/public`` the current stage (a round's tables, the semi-finals, the
  final, then the final placings), its round clock, the announcements and
  the standings; ``/public?screen=1`` the same for a projector, large
  type, paging through the tables by itself (``&page=k``);
* ``/public/players`` the player list (``?q=`` searches, without script
  too) and ``/public/players/<id>`` a player's own page;
* a table's own page ``/t/...`` (opened by its token): its board as the
  sheet draws it, the result form, the state of its result;
* ``/public/status.json`` and ``/t/.../status.json``, the update channel:
  a stamp that changes when the page would, and the clock;
  ``/console.js`` polls it every 5 s (pages work without it).

Nothing here is secret: no session, no director's data.
"""

from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from ..core import cldr
from ..core.board import Board
from ..core.errors import SetupgenError
from ..tournament import tokens
from ..tournament.games import Game, GameError, seating_stamp
from . import calls, hall, security, store
from . import day as dayday
from .clock import Clock, format_left
from .day import Day
from .hall import Stage
from .pages import (
    Refusal,
    client_host,
    day_of,
    form_rows,
    game_headings,
    game_of,
    placings_context,
    posted_result,
    posted_seating,
    read_form,
    render,
    scenario_name,
    seating_refusal,
    standings_context,
    static_file,
)
from .words import Words, local_clock, local_time

__all__: Sequence[str] = (
    "public_page",
    "players_page",
    "player_page",
    "public_status",
    "table_report",
    "table_status",
    "table_page_response",
    "linked_or_refused",
    "console_js",
    "LOCALIZED",
    "SCREEN_TABLES",
    "SCREEN_SECONDS",
    "POLL_SECONDS",
    "inline_svg",
    "qr_svg",
    "clock_context",
    "words_of",
    "refuse",
)

#: tables a projector page shows at once, and the seconds before it turns to the next
SCREEN_TABLES = 6
SCREEN_SECONDS = 15
#: how often console.js asks the update channel (seconds; the issue's limit: at most every 5 s)
POLL_SECONDS = 5
#: a request's scope key set when its error message is in the event's language already
LOCALIZED = "setupgen.localized"


def words_of(day: Day) -> Words:
    """The event's words (the tournament file's ``language``)."""
    return Words(day.t.language, day.t.positions)


def refuse(request: Request, status: int, key: str) -> HTTPException:
    """An HTTP error whose message is the event's word ``key`` (for :func:`~setupgen.console.app` error pages)."""
    request.scope[LOCALIZED] = True
    return HTTPException(status, str(words_of(day_of(request))(key)))


def clock_context(day: Day, stage: Stage, words: Words, now: float, game: Game | None = None) -> dict | None:
    """The stage's clock for a page (None before it started): its state,
    seconds left and the line shown; with ``game``, that table's own clock
    (the minutes added to it after a ruling counted, issue 49)."""
    clock = _clock_of(day, stage, game)
    if clock is None:
        return None
    state, left = clock.state(now), clock.left(now)
    if state == "running":
        text = words("clock_running", left=_left_span(left), end=local_clock(now + left, day.t.timezone))
    elif state == "paused":
        text = words("clock_paused", left=_left_span(left))
    else:
        text = words("clock_up" if state == "up" else "clock_ended")
    return {"state": state, "left": left, "text": text}


def _clock_of(day: Day, stage: Stage, game: Game | None) -> Clock | None:
    """The stage's round clock, for ``game`` extended by the time added to its table."""
    clock = day.store.round_clock(stage.stage, stage.round)
    if clock is None or game is None:
        return clock
    return clock.extended(calls.added_time(day.store, game))


def _left_span(left: int) -> Markup:
    """The time left as the clock's ``<span class="left">`` (what console.js counts down)."""
    return Markup('<span class="left">{}</span>').format(format_left(left))


def _hall_context(day: Day, stage: Stage, words: Words, now: float, game: Game | None = None) -> dict:
    """What every hall page shows: the clock, the announcements, the update channel's stamp."""
    return {
        "clock": clock_context(day, stage, words, now, game),
        "announcements": day.store.announcements(store.SHOWN_ANNOUNCEMENTS),
        "stamp": hall.stamp(day, game, now),
    }


def _stage_heading(day: Day, stage: Stage, words: Words) -> str:
    from ..render.sheet import stage_word

    return stage_word(stage.stage, words.tx) if stage.is_finals else str(words("round", n=stage.round))


def _seating(day: Day, stage: Stage) -> list[dict]:
    names = day.names()
    return [
        {"table": t, "players": [names.get(p, p) for p in players]}
        for t, players in enumerate(hall.stage_tables(day, stage), start=1)
    ]


# ---------------------------------------------------------------- /public


async def public_page(request: Request) -> Response:
    """The current stage, its clock, the announcements and the standings
    (or with ``screen=1`` the projector's view, ``page=k`` its page). Made
    once per change (and every 15 s while a clock runs) and served from
    there; the projector's pages are kept apart from the phones' page."""
    day = day_of(request)
    screen = request.query_params.get("screen") == "1"
    now = time.time()
    stage = hall.current_stage(day)
    k = _screen_page(day, stage, _int(request.query_params.get("page"), 1)) if screen else 0
    name = f"public-screen-{k}" if screen else "public"
    key = (stage, hall.stamp(day, None, now), math.floor(now / 15) if _clock_runs(day, stage) else 0)
    found = day.peek(name, packs=True, extra=key)
    if found is dayday.NO_VIEW:
        make = (
            (lambda: _screen_html(request, day, stage, k, now))
            if screen
            else (lambda: _public_html(request, day, stage, now))
        )
        found = await run_in_threadpool(day.view, name, make, packs=True, extra=key)
    return HTMLResponse(found)


def _screen_page(day: Day, stage: Stage, page: int) -> int:
    """``page`` (1-based) of the projector's pages, wrapped to the pages there are."""
    placed, _ = dayday.final_placings(day)
    rows = len(placed) or len(hall.stage_tables(day, stage))
    return (page - 1) % max(1, math.ceil(rows / SCREEN_TABLES)) + 1


def _int(text: str | None, default: int) -> int:
    try:
        return max(1, min(10_000, int(text))) if text is not None else default
    except ValueError:
        return default


def _clock_runs(day: Day, stage: Stage) -> bool:
    clock = day.store.round_clock(stage.stage, stage.round)
    return clock is not None and clock.running


def _public_context(day: Day, stage: Stage, words: Words, now: float) -> dict:
    placings = placings_context(day, words)
    return {
        "heading": _stage_heading(day, stage, words),
        "stage": stage,
        "scenario": "" if stage.is_finals or stage.round not in day.rounds else scenario_name(day, stage.round),
        "tables": _seating(day, stage),
        "seats": day.t.table_size,
        "words": words,
        "director_nav": False,
        "public_nav": True,
        "logged_in": False,
        "csrf": "",
        "status_url": "/public/status.json",
        **_hall_context(day, stage, words, now),
        **standings_context(day, words),
        **placings,
    }


def _public_html(request: Request, day: Day, stage: Stage, now: float) -> str:
    words = words_of(day)
    page = render(request, "public.html", **_public_context(day, stage, words, now))  # console.js follows it
    return bytes(page.body).decode("utf-8")


def _screen_html(request: Request, day: Day, stage: Stage, page: int, now: float) -> str:
    """The projector's page ``page`` (1-based, wrapping): :data:`SCREEN_TABLES` tables (or placings) a page."""
    words = words_of(day)
    context = _public_context(day, stage, words, now)
    rows = context["placings"] or context["tables"]
    pages = max(1, math.ceil(len(rows) / SCREEN_TABLES))
    k = page
    shown = rows[(k - 1) * SCREEN_TABLES : k * SCREEN_TABLES]
    context.update(shown=shown, k=k, pages=pages, screen_next=f"/public?screen=1&page={k % pages + 1}")
    body = render(request, "screen.html", refresh=f"{SCREEN_SECONDS};url={context['screen_next']}", **context)
    return bytes(body.body).decode("utf-8")


async def public_status(request: Request) -> Response:
    """The update channel of the public pages: ``{"stamp": ..., "clock": {"state", "left"} or null}``."""
    day = day_of(request)
    now = time.time()
    stage = hall.current_stage(day)
    return _status(day, stage, None, now)


def _status(day: Day, stage: Stage, game: Game | None, now: float) -> Response:
    clock = _clock_of(day, stage, game)
    body = {
        "stamp": hall.stamp(day, game, now),
        "poll": POLL_SECONDS,
        "clock": None if clock is None else {"state": clock.state(now), "left": clock.left(now)},
    }
    return JSONResponse(body)


# ---------------------------------------------------------------- players


async def players_page(request: Request) -> Response:
    """The player list, ``?q=`` searching names and ids (a plain form: no
    script needed); the whole list is made once per change and kept."""
    day = day_of(request)
    query = request.query_params.get("q", "")[:100]
    stage = hall.current_stage(day)
    if query.strip():
        return HTMLResponse(_players_html(request, day, stage, query))
    key = (stage, hall.stamp(day, None, time.time()))
    found = day.peek("players", packs=True, extra=key)
    if found is dayday.NO_VIEW:
        found = await run_in_threadpool(
            day.view, "players", lambda: _players_html(request, day, stage, ""), packs=True, extra=key
        )
    return HTMLResponse(found)


def _players_html(request: Request, day: Day, stage: Stage, query: str) -> str:
    words = words_of(day)
    label = "choosing" if stage.is_finals else "start"
    table = str(words("table"))
    seats = {p: f"{table} {t}, {words(label, k=k)}" for p, (t, k) in hall.seats(day, stage).items()}
    found = [(p, name, seats.get(p)) for p, name in hall.find_players(day, query)]
    page = render(
        request,
        "players.html",
        words=words,
        query=query,
        found=found,
        total=len(day.names()),
        heading=_stage_heading(day, stage, words),
        director_nav=False,
        public_nav=True,
        logged_in=False,
        csrf="",
    )
    return bytes(page.body).decode("utf-8")


async def player_page(request: Request) -> Response:
    """A player's own page: this stage's table and seat, the confirmed games, the rank."""
    day = day_of(request)
    words = words_of(day)
    stage = hall.current_stage(day)
    try:
        view = hall.player_view(day, request.path_params["player"], stage)
    except SetupgenError:
        raise refuse(request, 404, "no_player") from None
    now = time.time()
    return render(
        request,
        "player.html",
        words=words,
        view=view,
        heading=_stage_heading(day, stage, words),
        stage=stage,
        games=_game_rows(view, words),
        ranked=len(dayday.live_standings(day).ranked),
        director_nav=False,
        public_nav=True,
        logged_in=False,
        csrf="",
        status_url="/public/status.json",
        **_hall_context(day, stage, words, now),
    )


def _game_rows(view: hall.PlayerView, words: Words) -> list[dict]:
    from ..render.sheet import stage_word

    return [
        {
            "game": stage_word(g.game.stage, words.tx) if g.game.is_finals else words("round", n=g.game.round),
            "table": g.game.table,
            "seat": g.seat,
            "vp": g.vp,
            "won": g.won,
            "points": "" if g.points is None else cldr.decimal(g.points, words.tx),
        }
        for g in view.games
    ]


# ---------------------------------------------------------------- a table's own page


async def table_report(request: Request) -> Response:
    """A table's own page, opened by its token alone (any game: ``/t/N/T/token``
    of a round, ``/t/STAGE/T/token`` of a finals table): the board, the
    reported result and (until the director confirms) the form to report it."""
    day = day_of(request)
    game = linked_or_refused(request, day)
    players = day.players_of(game)
    words = words_of(day)
    problems: list[Markup | str] | None = None
    vp: list[str] | None = None
    winner: str | None = None
    status = 200
    csrf = security.table_csrf(day.key, game.round, game.table, game.stage)
    if request.method == "POST":
        form = await read_form(request, csrf)
        vp, winner = posted_result(form, len(players))
        try:
            dayday.report(day, game, vp, winner, posted_seating(form), _submission(form))  # about 1 ms: no thread hop
            return RedirectResponse(request.url.path, status_code=303)
        except dayday.ResultRefused as exc:
            problems, status = [words.problem(p, who) for who, p in exc.problems], 400
        except dayday.SeatingChanged as exc:  # the form was for other players: shown again, empty, for these
            players, vp, winner = exc.players, None, None
            problems, status = [seating_refusal(day, players, words)], 409
        except SetupgenError as exc:
            confirmed = day.state(game) == dayday.CONFIRMED
            problems, status = [str(words("refused_confirmed")) if confirmed else words.said(exc)], 409
    return await table_page_response(request, day, game, problems, status, players, vp, winner)


async def table_page_response(
    request: Request,
    day: Day,
    game: Game,
    problems: list[Markup | str] | None = None,
    status: int = 200,
    players: tuple[str, ...] | None = None,
    vp: list[str] | None = None,
    winner: str | None = None,
) -> Response:
    """A table's own page (status ``status``; ``problems`` of a refused
    report or call; ``players``, ``vp``, ``winner`` what the form shows,
    default the seating with nothing typed)."""
    words = words_of(day)
    seated = day.players_of(game) if players is None else players
    result = day.store.result(game)
    heading, title = game_headings(game, words)
    at = local_time(result.at, day.t.timezone, words.tx) if result else ""
    stage = Stage(game.stage, game.round)
    now = time.time()
    path = "/" + "/".join(request.url.path.split("/")[1:5])  # the page itself, also for its /call
    return render(
        request,
        "tablepage.html",
        status,
        title=title,
        heading=heading,
        state=day.state(game),
        problems=problems,
        message=None,
        players=form_rows(day, seated, vp, winner, result),
        reported=form_rows(day, seated, None, None, result),
        at=at,
        threshold=day.threshold(game),
        path=path,
        director_nav=False,
        public_nav=True,
        statuses=(),
        csrf=security.table_csrf(day.key, game.round, game.table, game.stage),
        words=words,
        seating=seating_stamp(seated),
        finals=game.is_finals,
        board=await _board_svg(day, game),
        status_url=path + "/status.json",
        call=hall.call_state(day, game, now),
        added=calls.added_time(day.store, game) // 60,
        **_hall_context(day, stage, words, now, game),
    )


#: a report's submission id as the phone's outbox makes it (console.js: 128 random bits, hex)
SUBMISSION = re.compile(r"[0-9a-f]{32}")


def _submission(form: Any) -> str | None:
    """The report's submission id (None: a form sent without the script);
    400 for one that is not :data:`SUBMISSION`."""
    given = form.get("submission")
    if given is None or given == "":
        return None
    if not isinstance(given, str) or not SUBMISSION.fullmatch(given):
        raise Refusal(400, "bad_request")
    return given


async def table_status(request: Request) -> Response:
    """The update channel of a table's page (its token checked as the page's)."""
    day = day_of(request)
    game = linked_or_refused(request, day)
    return _status(day, Stage(game.stage, game.round), game, time.time())


def linked_or_refused(request: Request, day: Day) -> Game:
    """The game of a table's link; 429 after too many wrong links from one device, 404 for a wrong one."""
    limit, client = request.app.state.tokens, client_host(request)
    if limit.blocked(client):
        raise refuse(request, 429, "too_many")
    game = _linked_game(request, day, request.path_params["token"])
    if game is None:
        limit.fail(client)
        raise refuse(request, 404, "bad_link")
    return game


def _linked_game(request: Request, day: Day, token: str) -> Game | None:
    """The game of a table's link when its token matches and the game is
    scheduled (a finals table: seated), else None."""
    try:
        game = game_of(request.path_params)
    except GameError:
        return None
    if not tokens.token_matches(day.key, game.round, game.table, token, game.stage):
        return None
    try:
        day.players_of(game)
    except SetupgenError:
        return None
    return game


async def _board_svg(day: Day, game: Game) -> tuple[str, bool] | None:
    """The table's board as inline SVG and whether it has face-down hexes
    (None until its pack is made), made once per pack file."""
    path = hall.board_file(day, game)
    if path is None:
        return None
    try:
        mark = path.stat().st_mtime_ns
    except OSError:
        return None
    name = f"board-{game.stage}-{game.round}-{game.table}"
    found = day.peek(name, extra=mark)
    if found is dayday.NO_VIEW:
        found = await run_in_threadpool(day.view, name, lambda: _inline_board(path, day.t.language), extra=mark)
    return found


def _inline_board(path: Path, lang: str) -> tuple[str, bool] | None:
    """A pack's board file drawn as the sheet draws it, as SVG for inside a
    page (no XML declaration, scaling), and whether a hex is face down."""
    from ..render.sheet import board_picture

    try:
        board = Board.from_json(path.read_text(encoding="utf-8"))
        return inline_svg(str(board_picture(board, lang)), "board"), any(t.hidden for t in board.tiles)
    except (OSError, UnicodeError, ValueError, SetupgenError):
        return None


def inline_svg(svg: str, css_class: str) -> str:
    """A page's SVG text for inside HTML: no XML declaration, its size in
    mm replaced by ``class`` (the style sheet sizes it; the viewBox kept)."""
    head, rest = svg[svg.index("<svg") :].split(">", 1)
    head = re.sub(r' width="[^"]*" height="[^"]*"', f' class="{css_class}"', head, count=1)
    return head + ">" + rest


@functools.lru_cache(maxsize=4)
def qr_svg(text: str) -> str:
    """A QR code of ``text`` as the sheets draw theirs, as inline SVG (class
    ``qr``); drawn once per text (the home page reloads at every change)."""
    from ..core import templates
    from ..render.page import drawing, finish
    from ..render.sheet import qr_code

    dwg = drawing(40.0, 40.0)
    qr_code(dwg, text, 2.0, 2.0, 36.0, templates.style())
    return inline_svg(str(finish(dwg)), "qr")


async def console_js(request: Request) -> Response:
    """The one script of the console (``script-src 'self'``): polls the
    page's update channel, reloads the page when its stamp changed (not
    while a form is being filled in), and counts the clock down."""
    return static_file(request, "console.js", "text/javascript; charset=utf-8")
