"""What every page of the console shares (docs/console.md): the day of a
request, the templates and their words, the director's session, the
posted form with its CSRF check, a game's route parameters, the result
form's rows, and the standings and placings as the pages show them.
Used by :mod:`setupgen.console.app` (the director's pages) and
:mod:`setupgen.console.public` (the players' side).
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ..core import cldr
from ..core.errors import SetupgenError
from ..core.limits import nfc
from ..tournament import jobs
from ..tournament import standings as st
from ..tournament.games import Game
from . import calls, security
from . import day as dayday
from .clock import Clock, format_left
from .day import Day
from .words import Words

__all__: Sequence[str] = (
    "TEMPLATES",
    "LoginNeeded",
    "day_of",
    "render",
    "director_words",
    "is_director",
    "is_referee",
    "require_director",
    "require_staff",
    "waiting_calls_context",
    "read_form",
    "game_of",
    "form_rows",
    "posted_result",
    "client_host",
    "standings_context",
    "placings_context",
    "scenario_name",
    "MAX_FIELDS",
    "is_player_path",
    "game_headings",
    "game_path",
    "Refusal",
    "posted_seating",
    "seating_refusal",
    "static_file",
)

TEMPLATES = Path(__file__).with_name("templates")


#: a static file's bytes and ETag, by name, kept while its size and time are unchanged
_STATIC: dict[str, tuple[tuple[int, int], bytes, str]] = {}


def static_file(request: Request, name: str, media_type: str) -> Response:
    """``templates/<name>`` (the style sheet, the script) read once and
    kept while the file is unchanged, with an ETag (its SHA-256); a request
    naming that ETag in ``If-None-Match`` gets 304 and no body. Sent with
    ``cache-control: no-cache``: the browser keeps it and asks each time
    whether it changed (the one exception to the console's ``no-store``,
    issue 48)."""
    import hashlib

    path = TEMPLATES / name
    st_ = path.stat()
    key = (st_.st_size, st_.st_mtime_ns)
    kept = _STATIC.get(name)
    if kept is None or kept[0] != key:
        data = path.read_bytes()
        kept = _STATIC[name] = (key, data, '"' + hashlib.sha256(data).hexdigest()[:32] + '"')
    _, data, etag = kept
    headers = {"etag": etag, "cache-control": "no-cache"}
    wanted = [t.strip() for t in request.headers.get("if-none-match", "").split(",")]
    if etag in wanted or "*" in wanted:
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=media_type, headers=headers)


MAX_FIELDS = 40  # fields a form may have


class Refusal(HTTPException):
    """An HTTP error worded in the event's language: ``key`` names the
    words in ``templates/<lang>.toml`` table ``[console]`` (``director.no_round``),
    ``fields`` fill their placeholders (a library's reason is passed as
    ``reason``, in its own words). The error page words it (docs/console.md,
    "The director's language")."""

    def __init__(self, status: int, key: str, **fields: object) -> None:
        super().__init__(status, key)
        self.key, self.fields = key, fields

    def words(self, words: Words) -> Markup:
        """The detail line in ``words``' language (HTML, its fields escaped)."""
        return words(self.key, **self.fields)


class LoginNeeded(Exception):
    """A director's page asked for without the director's session."""


def day_of(request: Request) -> Day:
    """The day, with what the command line changed in the folder taken in (once a request)."""
    day = request.app.state.day
    if "setupgen.refreshed" not in request.scope:
        request.scope["setupgen.refreshed"] = True
        try:
            day.refresh()
        except SetupgenError as exc:
            raise Refusal(409, "director.folder_changed", reason=str(exc)) from None
    return day


def render(request: Request, name: str, code: int = 200, **context: Any) -> HTMLResponse:
    """The page ``name`` with what every page has (tournament, CSRF token, navigation)."""
    day = day_of(request)
    session = request.scope.get("session")
    words = context.pop("words", None)
    if words is None:
        words = director_words(day)
    base = {
        "tournament": day.t.name,
        "csrf": security.csrf_token(session) if session is not None else "",
        "w": words,
        "lang": words.lang,
        "code": _code,
        "director_nav": is_director(request),
        "referee_nav": is_referee(request),
        "logged_in": request.app.state.password is not None and (is_director(request) or is_referee(request)),
        "waiting_calls": (),
        "message": None,
        "problems": None,
        "problems_heading": None,
        "refresh": None,
        "public_nav": False,
        "status_url": None,
        "stamp": "",
        "clock": None,
        "announcements": (),
        "autofocus": False,
        "next_button": None,
    }
    base.update(context)
    if base["director_nav"] or base["referee_nav"]:  # every staff page shows the waiting calls and follows them
        follow = waiting_calls_context(request)
        base["waiting_calls"] = follow["waiting_calls"]
        if base["status_url"] is None:
            base["status_url"], base["stamp"] = "/status.json?only=calls", follow["calls_stamp"]
    html = request.app.state.env.get_template(name).render(**base)
    return HTMLResponse(html, status_code=code)


def director_words(day: Day) -> Words:
    """The words of the director's pages: the event's language (the tournament file's ``language``)."""
    return Words(day.t.language, day.t.positions)


def _code(text: object) -> Markup:
    """``text`` as code in a page (a file's or a key's name in a sentence), escaped."""
    return Markup("<code>{}</code>").format(text)


def is_director(request: Request) -> bool:
    """Whether the request is the director's: no password set, or the
    cookie names an open session of the current password (checked once
    a request)."""
    state = request.app.state
    if state.password is None:
        return True
    if "setupgen.director" not in request.scope:
        request.scope["setupgen.director"] = _session_of(request, state.fingerprint)
    return bool(request.scope["setupgen.director"])


def is_referee(request: Request) -> bool:
    """Whether the request is a referee's (issue 49): the cookie names an
    open session opened with the referees' password while the director's
    is the current one (``app.state.referee``: both fingerprints; None
    without a referees' password)."""
    state = request.app.state
    if state.referee is None or is_director(request):
        return False
    if "setupgen.referee" not in request.scope:
        request.scope["setupgen.referee"] = _session_of(request, state.referee)
    return bool(request.scope["setupgen.referee"])


def _session_of(request: Request, fingerprint: str) -> bool:
    session = request.scope.get("session")
    sid = session.get("sid") if session else None
    return sid is not None and day_of(request).store.session_open(sid, fingerprint, time.time(), request.app.state.idle)


def require_director(request: Request) -> None:
    """The director's alone: a referee is refused (403, in the event's
    language), anyone else sent to the login page."""
    if not is_director(request):
        if is_referee(request):
            raise Refusal(403, "referee_refused")
        raise LoginNeeded()


def require_staff(request: Request) -> str:
    """The director's or a referee's (issue 49): ``"director"`` or
    ``"referee"``; anyone else is sent to the login page."""
    if is_director(request):
        return "director"
    if is_referee(request):
        return "referee"
    raise LoginNeeded()


def waiting_calls_context(request: Request) -> dict[str, Any]:
    """What every staff page shows of the tables' referee calls (issue 49):
    the waiting calls, newest first, with table, round and time waited."""
    day = day_of(request)
    words = director_words(day)
    now = time.time()
    shown = []
    for call in calls.waiting_calls(day.store):
        heading, _title = game_headings(call.game, words)
        shown.append({"id": call.id, "game": heading, "state": call.state, "waited": format_left(call.waited(now))})
    return {"waiting_calls": shown, "calls_stamp": f"calls.{day.store.calls}"}


async def read_form(request: Request, expected: str | None = None) -> Any:
    """The posted form, its CSRF field checked (403 when missing or wrong)
    against the session's token, or against ``expected`` when given (a
    table's own page, :func:`~setupgen.console.security.table_csrf`).
    The browser's usual encoding (``application/x-www-form-urlencoded``)
    is read with the standard library's parser, a few times faster than
    Starlette's multipart reader, which reads any other body (files
    refused); the last value of a repeated field counts, as Starlette's."""
    try:
        kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind == "application/x-www-form-urlencoded":
            body = (await request.body()).decode("utf-8")
            form: Any = dict(parse_qsl(body, keep_blank_values=True, max_num_fields=MAX_FIELDS))
        else:
            form = await request.form(max_files=0, max_fields=MAX_FIELDS, max_part_size=4096)
    except security.BodyTooLarge:
        raise
    except Exception:  # a malformed body of any kind
        raise Refusal(400, "bad_request") from None
    given = form.get("csrf")
    if not (
        security.csrf_ok(request.session, given)
        if expected is None
        else isinstance(given, str) and hmac.compare_digest(expected.encode(), given.encode())
    ):
        raise Refusal(403, "stale_form")
    # ids and names typed in any Unicode form are one player (issue 46): every value in NFC, but the password,
    # which is checked as typed
    return {k: v if k == "password" or not isinstance(v, str) else nfc(v) for k, v in form.items()}


def game_of(params: Mapping[str, Any], table: int | None = None) -> Game:
    """The game of a route's parameters (``n`` or ``stage``, and ``t`` or
    ``table``): ``/rounds/{n}/tables/{t}``, ``/finals/{stage}/tables/{t}``,
    a table's link ``/t/{n}/{t}/...`` or ``/t/{stage}/{t}/...``. Raises
    :class:`GameError` for a key of no game."""
    t = params["t"] if table is None else table
    return Game.finals(params["stage"], t) if "stage" in params else Game.preliminary(params["n"], t)


def form_rows(
    day: Day,
    players: tuple[str, ...],
    vp: list[str] | None = None,
    winner: str | None = None,
    result=None,
    statuses: list[str] | None = None,
) -> list[dict]:
    """The rows of a result form: name, the value shown, whether checked as winner, the status."""
    names = day.names()
    rows = []
    kept = (result.statuses if result is not None else ()) or ("played",) * len(players)
    for k, p in enumerate(players, start=1):
        value = vp[k - 1] if vp is not None else (str(result.vp[k - 1]) if result is not None else "")
        won = (winner == str(k)) if winner is not None else (result is not None and result.winner == k)
        status = statuses[k - 1] if statuses is not None else kept[k - 1]
        rows.append({"name": names.get(p, p), "value": value, "winner": won, "status": status})
    return rows


def posted_result(form: Any, seats: int) -> tuple[list[str], str]:
    vp = [str(form.get(f"vp{k}", ""))[:50] for k in range(1, seats + 1)]
    return vp, str(form.get("winner", ""))[:10]


def posted_seating(form: Any) -> str:
    """The seating stamp a result form says it was drawn for (``seating``,
    :func:`~setupgen.tournament.games.seating_stamp`); empty when missing,
    which no seating matches (a form from before this field is out of date)."""
    return str(form.get("seating", ""))[:32]


def seating_refusal(day: Day, players: Sequence[str], words: Words) -> Markup:
    """The refusal of a result form drawn for other players, in ``words``'
    language (HTML), naming the players the table seats now in seat order."""
    names = day.names()
    return words("seating_changed", players=", ".join(names.get(p, p) for p in players))


def is_player_path(path: str) -> bool:
    """Whether ``path`` is a page of the players' side (no session; the event's language)."""
    return path.startswith("/t/") or path == "/public" or path.startswith("/public/") or path == "/console.js"


def client_host(request: Request) -> str:
    return request.client.host if request.client else "?"


def standings_context(day: Day, words: Words | None = None) -> dict:
    """The live standings for a page: rows (rank, id, name, points per round,
    totals), the rounds with points, and per round its confirmed tables;
    ``words`` the page's (the director's when not given)."""
    try:
        live = dayday.live_standings(day)
    except SetupgenError as exc:  # e.g. the schedule was re-planned under confirmed tables
        raise Refusal(409, "director.no_standings", reason=director_words(day).said(exc)) from None
    names = day.names()
    words = director_words(day) if words is None else words

    def number(text: str) -> str:  # as the standings PDF writes it (CLDR's decimal mark)
        return cldr.decimal(text, words.tx)

    keys = st.key_columns(day.t.tie_breakers)
    rounds = sorted({r for points in live.per_round.values() for r in points}) if "placing_points" in keys else []
    rows = [
        {
            "rank": s.rank,
            "player": s.player,
            "name": names.get(s.player, s.player),
            "rounds": [
                number(st.format_points(live.per_round[s.player][r])) if r in live.per_round.get(s.player, {}) else "-"
                for r in rounds
            ],
            "keys": [number(st.key_text(s, k)) for k in keys],
            "games": s.games,
            "lot": "" if s.lots is None else s.lots,
        }
        for s in st.trimmed(live.ranked)
    ]
    columns = [{"head": words(KEY_WORDS[k]), "wide": k in WIDE_KEYS} for k in keys]
    return {
        "standings": rows,
        "rounds": rounds,
        "columns": columns,
        "progress": sorted(live.progress.items()),
        "ranking": ranking_lines(day, words),
    }


#: the console's column head of each ranking key (texts of [console])
KEY_WORDS = {
    "wins": "wins",
    "placing_points": "points",
    "victory_points": "vp_total",
    "victory_points_total": "vp_all",
    "vp_share": "vp_share",
    "vp_share_average": "vp_share_average",
    "countback": "countback",
    "best_finish": "best_finish",
}
#: ranking keys whose column a phone leaves out (class "wide")
WIDE_KEYS = frozenset({"vp_share", "vp_share_average", "countback"})


def ranking_lines(day: Day, words: Words) -> list[Markup]:
    """How the standings rank, key by key in the tournament file's order
    (``scoring.tie_breakers``; docs/rules.md, "Ranking"), with its placing
    points per table size."""
    sizes = ", ".join(
        str(
            words(
                "points_per_size",
                size=size,
                points="/".join(cldr.decimal(st.format_points(p), words.tx) for p in points),
            )
        )
        for size, points in sorted(day.t.placing_points, reverse=True)
    )
    return [
        words(f"tie_{key}", points=sizes) if key == "placing_points" else words(f"tie_{key}")
        for key in day.t.tie_breakers
    ]


def placings_context(day: Day, words: Words | None = None) -> dict:
    """The final placings for a page (empty until every finals table is in)
    and why not yet; ``words`` the page's (the director's when not given)."""
    from ..render.sheet import stage_word

    w = director_words(day) if words is None else words
    placed, why = dayday.final_placings(day)
    names = day.names()
    rows = [
        {
            "place": p.place,
            "player": p.player,
            "name": names.get(p.player, p.player),
            "stage": str(w("preliminary")) if p.stage == "preliminary" else stage_word(p.stage, w.tx),
            "table": "" if p.table is None else p.table,
            "vp": "" if p.vp is None else p.vp,
            "rank": p.rank,
        }
        for p in placed
    ]
    return {"placings": rows, "placings_problem": why}


def scenario_name(day: Day, n: int) -> str:
    from ..core import templates

    return jobs.scenario_name(day.t.round(n).scenario, templates.texts(day.t.language).for_positions(day.t.positions))


def game_path(game: Game) -> str:
    """The director's page of a game: ``/rounds/N/tables/T`` or ``/finals/STAGE/tables/T``."""
    return (
        f"/finals/{game.stage}/tables/{game.table}" if game.is_finals else f"/rounds/{game.round}/tables/{game.table}"
    )


def own_clocks(day: Day, games: Sequence[Game], words: Words, now: float) -> dict[Game, str]:
    """The line of each of ``games`` whose table was given minutes after a
    ruling (issue 49): ``This table: +5 min, 12:30 left`` (its round's
    clock lengthened by them); a game without added time, or before its
    round's clock started, has none. The added minutes and the clock are
    read once per round, not once per table."""
    out: dict[Game, str] = {}
    rounds: dict[tuple[str, int], tuple[dict[int, int], Clock | None]] = {}
    for game in games:
        key = (game.stage, game.round)
        if key not in rounds:
            added = calls.added_times(day.store, *key)
            rounds[key] = (added, day.store.round_clock(*key) if added else None)
        added, clock = rounds[key]
        seconds = added.get(game.table, 0)
        if clock is not None and seconds:
            left = format_left(clock.extended(seconds).left(now))
            out[game] = str(words("director.table_time", added=seconds // 60, left=left))
    return out


def game_headings(game: Game, words: Words) -> tuple[str, str]:
    """A table page's heading (``Runde 2 · Tisch 3``) and title (``Tisch 3 · Runde 2``) in the event's language."""
    from ..render.sheet import stage_word

    if game.is_finals:
        stage = stage_word(game.stage, words.tx)
        return (
            str(words("stage_table", stage=stage, table=game.table)),
            str(words("table_stage", stage=stage, table=game.table)),
        )
    return (
        str(words("round_table", n=game.round, table=game.table)),
        str(words("table_round", n=game.round, table=game.table)),
    )
