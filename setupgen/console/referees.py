"""Referees in the console (issue 49; docs/console.md, "Referees"): a
table calls a referee from its own page, the director's and the referees'
pages show the waiting calls, a referee or the director marks a call
"on my way" and "done" and adds minutes to one table's clock after a
ruling. A referee logs in with the referees' password and sees the calls,
the round and table pages and the clock, and changes nothing else.

Every page in the event's language; every change in the audit log.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..core.errors import SetupgenError
from ..tournament.games import GameError
from . import calls, hall, security
from . import day as dayday
from .clock import format_left
from .pages import Refusal, day_of, director_words, game_headings, game_of, game_path, read_form, render, require_staff
from .public import clock_context, linked_or_refused, table_page_response

__all__: Sequence[str] = ("calls_page", "mark_call", "add_time", "table_call")

#: ended calls the calls page shows below the waiting ones
SHOWN_ENDED = 10


async def calls_page(request: Request) -> Response:
    """GET /calls: the waiting calls (newest first: table, round, time
    waited, "on my way" / "done", minutes to add to that table), the last
    ended ones, and the current stage's clock (read only)."""
    require_staff(request)
    day = day_of(request)
    words = director_words(day)
    now = time.time()
    stage = hall.current_stage(day)
    rows = [_call_row(day, c, now) for c in calls.waiting_calls(day.store)]
    ended = [_call_row(day, c, now) for c in calls.ended_calls(day.store, SHOWN_ENDED)]
    return render(
        request,
        "calls.html",
        rows=rows,
        ended=ended,
        clock=clock_context(day, stage, words, now),
        round_path=None if stage.is_finals else f"/rounds/{stage.round}",
        most_minutes=calls.MAX_ADDED_MINUTES,
        status_url="/status.json?only=calls",
        stamp=f"calls.{day.store.calls}",
    )


def _call_row(day: dayday.Day, call: calls.Call, now: float) -> dict[str, object]:
    words = director_words(day)
    heading, _title = game_headings(call.game, words)
    return {
        "id": call.id,
        "game": heading,
        "state": call.state,
        "by": call.by,
        "waited": format_left(call.waited(now)),
        "time_path": game_path(call.game) + "/time",
        "added": calls.added_time(day.store, call.game) // 60,
    }


async def mark_call(request: Request) -> Response:
    """POST /calls/<id>/<coming|done>: a referee or the director marks a call; back to ``back`` or /calls."""
    role = require_staff(request)
    form = await read_form(request)
    day = day_of(request)
    try:
        calls.mark_call(day.store, request.path_params["id"], request.path_params["state"], role, time.time())
    except calls.CallError as exc:
        raise Refusal(409, "referee_call_refused", reason=director_words(day).said(exc)) from None
    return RedirectResponse(_back(form), status_code=303)


async def add_time(request: Request) -> Response:
    """POST <a game's page>/time: the director or a referee adds ``minutes``
    to that table's clock after a ruling; back to ``back`` or the game's page."""
    role = require_staff(request)
    form = await read_form(request)
    day = day_of(request)
    try:
        game = game_of(request.path_params)
        day.players_of(game)
    except (GameError, SetupgenError):
        raise Refusal(404, "referee_no_table") from None
    try:
        calls.add_time(day.store, game, _minutes(form.get("minutes")), role)
    except calls.CallError as exc:
        raise Refusal(400, "referee_time_refused", reason=director_words(day).said(exc)) from None
    return RedirectResponse(_back(form, game_path(game)), status_code=303)


def _minutes(text: object) -> int:
    """A posted whole number of minutes (0 for anything else: refused by :func:`calls.add_time`)."""
    return int(text) if isinstance(text, str) and text.strip().isdigit() and len(text) < 4 else 0


def _back(form: object, default: str = "/calls") -> str:
    """Where a staff form goes back to: its ``back`` field when it is a
    path of this console (never another site), else ``default``."""
    given = form.get("back") if hasattr(form, "get") else None
    if isinstance(given, str) and given.startswith("/") and not given.startswith("//") and "\\" not in given:
        return given
    return default


async def table_call(request: Request) -> Response:
    """POST /t/.../call: the table's own page calls a referee (``action``
    ``call``) or takes its call back (``cancel``); open from the table's
    pack until its result is confirmed, at most one waiting call, a minute
    between calls and :data:`calls.MAX_CALLS` a game. A refusal shows the
    table's page with its reason (409), nothing stored."""
    day = day_of(request)
    game = linked_or_refused(request, day)
    csrf = security.table_csrf(day.key, game.round, game.table, game.stage)
    form = await read_form(request, csrf)
    words = director_words(day)
    try:
        if form.get("action") == "cancel":
            calls.cancel_call(day.store, game, time.time())
        else:
            hall.may_call(day, game)
            calls.open_call(day.store, game, time.time())
    except calls.CallError as exc:
        return await table_page_response(request, day, game, [words.said(exc)], 409)
    return RedirectResponse(request.url.path.rsplit("/", 1)[0], status_code=303)
