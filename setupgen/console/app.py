"""The console's web application (Starlette, Jinja2 templates with
autoescape, served by uvicorn): the routes of ``docs/console.md`` over a
:class:`~setupgen.console.day.Day`. Imported only by ``setupgen serve``.

Every page is a template of ``setupgen/console/templates/``; bad input of
any kind (an unknown round or table, a wrong token, a missing CSRF field,
a bad number, an oversized body) is answered with a 4xx page naming the
problem, never a traceback.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import jinja2
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..core.errors import SetupgenError
from ..core.messages import keyed
from ..tournament import jobs
from ..tournament.games import Game, GameError, seating_stamp
from . import auditlog, calls, hall, prints, public, referees, security, undo
from . import day as dayday
from .day import Day
from .pages import (
    TEMPLATES,
    LoginNeeded,
    Refusal,
    client_host,
    day_of,
    director_words,
    form_rows,
    game_headings,
    game_of,
    game_path,
    is_director,
    is_player_path,
    is_referee,
    own_clocks,
    placings_context,
    posted_result,
    posted_seating,
    read_form,
    render,
    require_director,
    require_staff,
    scenario_name,
    seating_refusal,
    standings_context,
    static_file,
)
from .store import StoreError
from .words import Words, local_time

#: the files of a pack the director may download
DOWNLOADS = ("round.pdf", "key.pdf")
#: idle hours after which a director's session ends (``serve --session-hours``)
SESSION_HOURS = 8
#: scrypt checks of login attempts at once (each about 16 MB and 50 ms): the rest wait their turn
_SCRYPT_AT_ONCE = threading.BoundedSemaphore(2)
#: a seat's status on the director's form (docs/console.md, "Results")
STATUS_CHOICES = ("played", "no-show", "disqualified")


def create_app(
    day: Day,
    *,
    password: tuple[bytes, bytes] | None = None,
    referee_password: tuple[bytes, bytes] | None = None,
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "::1", "testserver"),
    tls: bool = False,
    session_hours: float = SESSION_HOURS,
) -> Starlette:
    """The console of ``day``; ``password`` the director's scrypt hash
    (None: director's pages open to whoever reaches the console, for a
    console bound to this machine only); ``allowed_hosts`` the host names
    it answers to (others: 400, against DNS rebinding); ``tls``: served
    over TLS, so the session cookie is ``Secure``; ``session_hours``: a
    director's session ends after this long unused; ``referee_password``
    the referees' scrypt hash (issue 49; None: no referees' login; only
    with a director's password). Sessions live in the database (the cookie
    holds a random id); those opened with another password end here (a
    referee's also when the director's password changed)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True, undefined=jinja2.StrictUndefined
    )
    middleware = [
        Middleware(security.LimitBody),
        Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)),
        Middleware(
            _SessionBesideTables,
            secret_key=security.session_secret(day.key),
            session_cookie="setupgen_console",
            max_age=int(session_hours * 3600),
            same_site="strict",
            https_only=tls,
        ),
        Middleware(_Headers),
    ]
    handlers: dict[Any, Any] = {
        HTTPException: _http_error,
        security.BodyTooLarge: _too_large,
        LoginNeeded: _to_login,
        Exception: _internal,
    }
    app = Starlette(debug=False, routes=_routes(), middleware=middleware, exception_handlers=handlers)
    app.state.day, app.state.password, app.state.env = day, password, env
    app.state.tokens, app.state.logins = security.RateLimit(), security.RateLimit()
    app.state.fingerprint = None if password is None else security.fingerprint(password)
    app.state.referee_password = referee_password if password is not None else None
    #: what a referee's session is opened with: both fingerprints, so a new director's password ends it too
    app.state.referee = (
        None
        if app.state.referee_password is None
        else f"{app.state.fingerprint}+{security.fingerprint(app.state.referee_password)}"
    )
    app.state.idle = session_hours * 3600
    if password is not None:  # a restart with other passwords ends the sessions opened with the old ones
        day.store.end_sessions(keep=tuple(f for f in (app.state.fingerprint, app.state.referee) if f is not None))
    return app


def hosts_for(host: str, console_url: str | None) -> tuple[str, ...]:
    """The host names a console bound to ``host`` answers to: on this
    machine alone, its loopback names and the console URL's host (a web
    page elsewhere cannot reach it by a rebound DNS name); on a network
    (a password is then required) any name."""
    if not security.is_loopback(host):
        return ("*",)
    from urllib.parse import urlsplit

    hosts = {"127.0.0.1", "localhost", "::1", host}
    if console_url is not None:
        hosts.add(urlsplit(console_url).hostname or host)
    return tuple(sorted(hosts))


class _Headers:
    """ASGI middleware adding :data:`~setupgen.console.security.HEADERS` to every response."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        async def with_headers(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                given = {k.lower() for k, _ in message["headers"]}  # a response's own cache-control stands
                message["headers"] = list(message["headers"]) + [
                    (k.encode(), v.encode()) for k, v in security.HEADERS.items() if k.encode() not in given
                ]
            await send(message)

        await self.app(scope, receive, with_headers if scope["type"] == "http" else send)


class _SessionBesideTables:
    """Starlette's signed-cookie sessions for every path but a table's own
    page (``/t/...``): that page needs no session (its form's CSRF token
    is :func:`~setupgen.console.security.table_csrf`), and a burst of
    tables reporting skips the cookie's decoding and signing."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        secret_key: str,
        session_cookie: str,
        max_age: int,
        same_site: Literal["lax", "strict", "none"],
        https_only: bool,
    ) -> None:
        self.plain = app
        self.with_session = SessionMiddleware(
            app,
            secret_key=secret_key,
            session_cookie=session_cookie,
            max_age=max_age,
            same_site=same_site,
            https_only=https_only,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and is_player_path(scope["path"]):
            await self.plain(scope, receive, send)
        else:
            await self.with_session(scope, receive, send)


def _routes() -> list[Route]:
    return [
        Route("/", home),
        Route("/console.css", css),
        Route("/login", login, methods=["GET", "POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/rounds/{n:int}", round_page),
        Route("/rounds/{n:int}/pack", make_pack, methods=["POST"]),
        Route("/rounds/{n:int}/tables.pdf", round_tables_pdf),
        Route("/players.pdf", players_pdf),
        Route("/standings.pdf", standings_pdf),
        Route("/placings.pdf", placings_pdf),
        Route("/rounds/{n:int}/{name:str}", download),
        Route("/rounds/{n:int}/tables/{t:int}", table_page, methods=["GET", "POST"]),
        Route("/rounds/{n:int}/tables/{t:int}/confirm", confirm, methods=["POST"]),
        Route("/rounds/{n:int}/confirm-all", confirm_all, methods=["POST"]),
        Route("/rounds/{n:int}/tables/{t:int}/undo", undo_result, methods=["POST"]),
        Route("/finals/{stage:str}/tables/{t:int}/undo", undo_result, methods=["POST"]),
        Route("/finals/{stage:str}/withdraw", withdraw_pack, methods=["POST"]),
        Route("/entries/remove", remove_change, methods=["POST"]),
        Route("/finals/{stage:str}/tables/{t:int}", table_page, methods=["GET", "POST"]),
        Route("/finals/{stage:str}/tables/{t:int}/confirm", confirm, methods=["POST"]),
        Route("/finals/{stage:str}/confirm-all", confirm_all, methods=["POST"]),
        Route("/standings", standings_page),
        Route("/standings.csv", standings_csv),
        Route("/audit", audit_page),
        Route("/audit.csv", audit_csv),
        Route("/public", public.public_page),
        Route("/public/status.json", public.public_status),
        Route("/public/players", public.players_page),
        Route("/public/players/{player:str}", public.player_page),
        Route("/console.js", public.console_js),
        Route("/status.json", director_status),
        Route("/clock", clock_page, methods=["POST"]),
        Route("/announcements", announce, methods=["POST"]),
        Route("/announcements/{id:int}/remove", remove_announcement, methods=["POST"]),
        Route("/entries", entries_page),
        Route("/entries/change", record_change, methods=["POST"]),
        Route("/entries/replan", replan, methods=["POST"]),
        Route("/finals", finals_page),
        Route("/finals/pack", make_finals_pack, methods=["POST"]),
        Route("/finals/{stage:str}/round.pdf", finals_download),
        Route("/t/{n:int}/{t:int}/{token:str}", public.table_report, methods=["GET", "POST"]),
        Route("/t/{stage:str}/{t:int}/{token:str}", public.table_report, methods=["GET", "POST"]),
        Route("/t/{n:int}/{t:int}/{token:str}/status.json", public.table_status),
        Route("/t/{n:int}/{t:int}/{token:str}/call", referees.table_call, methods=["POST"]),
        Route("/t/{stage:str}/{t:int}/{token:str}/call", referees.table_call, methods=["POST"]),
        Route("/calls", referees.calls_page),
        Route("/calls/{id:int}/{state:str}", referees.mark_call, methods=["POST"]),
        Route("/rounds/{n:int}/tables/{t:int}/time", referees.add_time, methods=["POST"]),
        Route("/finals/{stage:str}/tables/{t:int}/time", referees.add_time, methods=["POST"]),
        Route("/t/{stage:str}/{t:int}/{token:str}/status.json", public.table_status),
    ]


# ---------------------------------------------------------------- helpers


def _game(request: Request) -> Game:
    """The game a route names (404 for a key of no game), :func:`game_of`."""
    try:
        return game_of(request.path_params)
    except GameError as exc:
        raise HTTPException(404, _said(day_of(request), exc)) from None


def _players_or_404(day: Day, game: Game) -> tuple[str, ...]:
    """The game's players (404 when it is not scheduled or seated)."""
    try:
        return day.players_of(game)
    except SetupgenError as exc:
        raise HTTPException(404, _said(day, exc)) from None


def game_list_path(game: Game) -> str:
    """The page listing a game's table: ``/rounds/N`` or ``/finals``."""
    return "/finals" if game.is_finals else f"/rounds/{game.round}"


def _back(game: Game, words: Words) -> tuple[str, str]:
    """The page listing a game's table, and a link back to it in the event's language."""
    link = words("director.back_to_finals") if game.is_finals else words("director.back_to_round", n=game.round)
    return game_list_path(game), str(link)


def _game_rows(day: Day, games: list[Game]) -> list[dict]:
    """Per game: its table, players (VP, winner, status), state, who made
    the last change and the path of its page."""
    names, words = day.names(), director_words(day)
    clocks = own_clocks(day, games, words, time.time())
    rows = []
    for game in games:
        result = day.store.result(game)
        seats = day.players_of(game)
        marks = (result.statuses if result else ()) or ("played",) * len(seats)
        players = [
            {
                "name": names.get(p, p),
                "vp": result.vp[k] if result else None,
                "winner": bool(result and result.winner == k + 1),
                "status": "" if marks[k] == "played" else marks[k],
            }
            for k, p in enumerate(seats)
        ]
        rows.append(
            {
                "table": game.table,
                "players": players,
                "state": dayday.WAITING if result is None else result.state,
                "vp": result is not None,
                "by": auditlog.who(result.by, words) if result else "",
                "path": game_path(game),
                "version": result.version if result else 0,
                "own_clock": clocks.get(game),
            }
        )
    return rows


def _version(form: Any, name: str = "version", required: bool = True) -> int | None:
    """The version of a result a form says its page showed (400 when it
    is missing but ``required``, or not a version)."""
    text = str(form.get(name, ""))[:12].strip()
    if not text and not required:
        return None
    if not (text.isascii() and text.isdigit()):
        raise Refusal(400, "director.no_version")
    return int(text)


def _said(day: Day, exc: BaseException) -> Any:
    """A refusal in the event's language (:meth:`Words.said`): keyed errors worded, others as they are; a
    form drawn for another seating names the players seated now."""
    if isinstance(exc, dayday.SeatingChanged):
        return seating_refusal(day, exc.players, director_words(day))
    return director_words(day).said(exc)


def _round_messages(request: Request, day: Day, n: int) -> dict:
    """What the round page says: the latest pack's state, and after *Confirm all reported* what it did."""
    said = _task_message(day, ("pack", n))
    done = _done_message(request)
    if done is not None:
        said["message"] = done
    return said


def _done_message(request: Request) -> str | None:
    """What a listing page says, in the event's language, after *Confirm
    all reported* (``?confirmed=N&changed=T,T``: numbers only)."""
    confirmed, changed = request.query_params.get("confirmed", ""), request.query_params.get("changed", "")
    if not confirmed.isdigit() or (changed and not all(t.isdigit() for t in changed.split(","))):
        return None
    words = director_words(day_of(request))
    text = str(words("director.confirmed_one" if confirmed == "1" else "director.confirmed_n", n=confirmed))
    if changed:
        key = "director.changed_many" if "," in changed else "director.changed_one"
        text += " " + str(words(key, tables=changed.replace(",", ", ")))
    return text


def _round_or_404(day: Day, n: int) -> None:
    if n not in day.rounds:
        raise Refusal(404, "director.no_round", n=n, rounds=", ".join(map(str, day.rounds)))


class _Posted:
    """A director's result form as posted: VP, winner and statuses per
    seat, and, when it was refused, the problems and the page's status
    (400 a rule broken, 409 the state forbids it); ``seated`` the players
    the table seats now when the form was drawn for others."""

    def __init__(self) -> None:
        self.vp: list[str] | None = None
        self.winner: str | None = None
        self.marks: list[str] | None = None
        self.problems: list[Markup | str] | None = None
        self.status = 200
        self.changed: dayday.ResultChanged | None = None
        self.seated: tuple[str, ...] | None = None

    async def enter(
        self,
        request: Request,
        seats: int,
        enter: Callable[..., object],
        done: str,
        then: Callable[[], str] | None = None,
    ) -> Response | None:
        """Read the form (CSRF checked) and hand (VP, winner, statuses,
        the version the form showed or None, the seating it was drawn for)
        to ``enter`` in a worker thread; a redirect to ``done`` when it
        takes them (to ``then()``, the next table, when the form's
        ``then`` is ``next``), else None with the problems kept here."""
        form = await read_form(request)
        self.vp, self.winner = posted_result(form, seats)
        self.marks = _posted_statuses(form, seats)
        version = _version(form, required=False)
        try:
            await run_in_threadpool(enter, self.vp, self.winner, self.marks, version, posted_seating(form))
            target = then() if then is not None and form.get("then") == "next" else done
            return RedirectResponse(target, status_code=303)
        except dayday.ResultRefused as exc:
            words = director_words(day_of(request))
            self.problems, self.status = [words.problem(p, who) for who, p in exc.problems], 400
        except dayday.ResultChanged as exc:
            self.problems, self.status, self.changed = [str(exc)], 409, exc
        except dayday.SeatingChanged as exc:  # typed for other players: the form starts again, empty
            self.problems, self.status, self.seated = [_said(day_of(request), exc)], 409, exc.players
            self.vp = self.winner = self.marks = None
        except SetupgenError as exc:
            self.problems, self.status = [_said(day_of(request), exc)], 409
        return None


def _posted_statuses(form: Any, seats: int) -> list[str]:
    return [str(form.get(f"status{k}", "played"))[:20] for k in range(1, seats + 1)]


# ---------------------------------------------------------------- error pages


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    status = exc.status_code
    if isinstance(exc, Refusal):  # worded in the event's language
        return _error(request, status, exc.key, exc)
    detail = exc.detail if isinstance(exc.detail, str) and exc.detail != _phrase(status) else ""
    return _error(request, status, detail)


def _phrase(status: int) -> str:
    """Starlette's detail when none was given: the status's HTTP phrase (``Not Found``)."""
    import http

    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return ""


#: the event's word for an error on a player's page, by status (docs/console.md, "The players' side")
PLAYER_ERRORS = {
    400: "bad_request",
    403: "stale_form",
    404: "no_page",
    405: "no_page",
    409: "conflict",
    413: "too_large",
    429: "too_many",
}


def _error(request: Request, status: int, detail: str, refusal: Refusal | None = None) -> Response:
    """The error page of ``status``: ``detail`` as given, or ``refusal``
    worded in the event's language; on a player's path only the event's
    own words (a generic one by status when the detail is not)."""
    try:
        if refusal is not None:
            detail = refusal.words(director_words(day_of(request)))
        if is_player_path(request.url.path):  # in the event's language, its own words, never the director's
            words = public.words_of(day_of(request))
            if not request.scope.get(public.LOCALIZED) and (refusal is None or refusal.key.startswith("director.")):
                detail = str(words(PLAYER_ERRORS.get(status, "bad_request")))
            return render(
                request,
                "error.html",
                status,
                title=str(words("error", status=status)),
                detail=detail,
                back="/public",
                words=words,
                director_nav=False,
                public_nav=True,
                logged_in=False,
            )
        words = director_words(day_of(request))
        return render(
            request,
            "error.html",
            status,
            title=str(words("error", status=status)),
            detail=detail or (str(words("no_page")) if status == 404 else ""),
            back="/" if is_director(request) else "/public",
        )
    except Exception:  # the error page itself failed: plain text
        return Response(f"{status} {detail}\n", status_code=status, media_type="text/plain")


async def _too_large(request: Request, _exc: Exception) -> Response:
    return _error(request, 413, "", Refusal(413, "director.too_large", limit=security.MAX_BODY))


async def _to_login(request: Request, _exc: Exception) -> Response:
    return RedirectResponse("/login", status_code=303)


async def _internal(request: Request, exc: Exception) -> Response:
    """A bug: the traceback goes to a file under the user's state folder
    (as the command line's internal errors do), the browser gets one line."""
    import os
    import time
    import traceback

    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    folder = Path(base) / "setupgen"
    name = f"console-crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        (folder / name).write_text(f"{request.method} {request.url.path}\n\n{text}", encoding="utf-8")
        where = f"details in {folder / name} on the console's machine"
    except OSError:
        where = "the details could not be saved"
    return Response(
        f"500 internal error (a bug in setupgen, not your input); {where}\n", status_code=500, media_type="text/plain"
    )


# ---------------------------------------------------------------- director's pages


async def css(request: Request) -> Response:
    """The style sheet."""
    return static_file(request, "console.css", "text/css; charset=utf-8")


async def login(request: Request) -> Response:
    """GET: the login form; POST: check the password (at most 10 checks a
    minute per client, counted before the check; scrypt in a worker thread)."""
    if request.app.state.password is None:
        return RedirectResponse("/", status_code=303)
    if request.method == "GET":
        return render(request, "login.html")
    form = await read_form(request)
    if not request.app.state.logins.attempt(client_host(request)):
        raise Refusal(429, "director.too_many_passwords")
    given = str(form.get("password", ""))
    role = await run_in_threadpool(_role_of, request.app.state, given)
    if role is None:
        words = director_words(day_of(request))
        return render(
            request,
            "login.html",
            403,
            problems=[str(words("director.wrong_password"))],
            problems_heading=words("director.not_logged_in"),
        )
    day = day_of(request)
    opened_with = request.app.state.fingerprint if role == "director" else request.app.state.referee
    sid = await run_in_threadpool(day.store.start_session, opened_with, time.time(), request.app.state.idle, role)
    request.session.clear()
    request.session["sid"] = sid
    security.csrf_token(request.session)
    return RedirectResponse("/" if role == "director" else "/calls", status_code=303)


def _role_of(state: Any, given: str) -> str | None:
    """``director`` when ``given`` is the director's password, ``referee``
    when it is the referees' (issue 49), else None."""
    if _check_password(state.password, given):
        return "director"
    if state.referee_password is not None and _check_password(state.referee_password, given):
        return "referee"
    return None


def _check_password(stored: tuple[bytes, bytes], given: str) -> bool:
    """:func:`~setupgen.console.security.password_matches`, at most
    :data:`_SCRYPT_AT_ONCE` at a time (the others wait)."""
    with _SCRYPT_AT_ONCE:
        return security.password_matches(stored, given)


async def logout(request: Request) -> Response:
    """The director's logout ends every session (a copied cookie and the
    referees' included); a referee's ends that session alone (issue 49)."""
    await read_form(request)
    if request.app.state.password is not None:
        store = day_of(request).store
        if is_director(request):
            await run_in_threadpool(store.end_sessions)
        elif is_referee(request):
            await run_in_threadpool(store.end_session, request.session.get("sid"))
    request.session.clear()
    return RedirectResponse("/login" if request.app.state.password is not None else "/", status_code=303)


async def home(request: Request) -> Response:
    """The rounds with each table's state and the round packs (a referee: the calls)."""
    if is_referee(request):
        return RedirectResponse("/calls", status_code=303)
    require_director(request)
    day = day_of(request)
    rounds = []
    for n in day.rounds:
        counts = {s: 0 for s in (dayday.WAITING, dayday.REPORTED, dayday.CONFIRMED)}
        for t in range(1, day.schedule.tables(n) + 1):
            counts[day.state(Game.preliminary(n, t))] += 1
        rounds.append(
            {
                "number": n,
                "scenario": scenario_name(day, n),
                "tables": day.schedule.tables(n),
                "counts": counts,
                "pack": day.has_pack(n),
                "stale": day.pack_stale(n),
                "key": (day.pack_folder(n) / "key.pdf").is_file(),
            }
        )
    return render(
        request,
        "home.html",
        rounds=rounds,
        folder=str(day.folder),
        console_url=day.console_url,
        unplanned=_unplanned(day),
        **_hall_controls(request, day),
        **_task_message(day, ("replan",)),
        **_following(day),
    )


def _hall_controls(request: Request, day: Day) -> dict:
    """The home page's hall box: the current stage, its clock and the
    announcements (what /public shows), and a QR code of /public."""
    stage = hall.current_stage(day)
    words = director_words(day)
    base = (day.console_url or str(request.base_url)).rstrip("/")
    return {
        "stage": stage,
        "stage_heading": words("director.final" if stage.stage == "final" else "director.semi_finals")
        if stage.is_finals
        else words("director.round_n", n=stage.round),
        "hall_clock": public.clock_context(day, stage, words, time.time()),
        "default_minutes": hall.stage_minutes(day, stage),
        "shown": day.store.announcements(),
        "public_url": base + "/public",
        "public_qr": public.qr_svg(base + "/public"),
    }


async def director_status(request: Request) -> Response:
    """The staff pages' update channel: ``{"stamp": ...}``
    (:func:`~setupgen.console.hall.director_stamp`; with ``?only=calls``
    the referee calls' alone, for the pages that follow nothing else)."""
    from starlette.responses import JSONResponse

    require_staff(request)
    day = day_of(request)
    if request.query_params.get("only") == "calls":
        return JSONResponse({"stamp": f"calls.{day.store.calls}", "poll": public.POLL_SECONDS})
    return JSONResponse({"stamp": hall.director_stamp(day), "poll": public.POLL_SECONDS})


def _following(day: Day) -> dict:
    """What a director's page needs to follow the day by itself (console.js)."""
    return {"status_url": "/status.json", "stamp": hall.director_stamp(day)}


async def clock_page(request: Request) -> Response:
    """POST /clock: start (with ``minutes``), pause, resume or end the
    current stage's clock; refused (409) when the stage changed since the
    page showed it."""
    require_director(request)
    form = await read_form(request)
    day = day_of(request)
    stage = hall.current_stage(day)
    if (str(form.get("stage", "")), str(form.get("round", ""))) != (stage.stage, str(stage.round)):
        raise Refusal(409, "director.other_stage")
    action = str(form.get("action", ""))[:10]
    minutes = _minutes(form.get("minutes", "")) if action == "start" else None
    try:
        await run_in_threadpool(hall.clock_action, day, stage, action, minutes, time.time())
    except SetupgenError as exc:
        raise HTTPException(409, _said(day_of(request), exc)) from None
    return RedirectResponse("/#hall", status_code=303)


def _minutes(text: object) -> int:
    """The start form's minutes: whole, ASCII digits (the range is the clock's own check)."""
    digits = str(text).strip()
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 4):
        raise Refusal(400, "director.bad_minutes", text=digits[:20])
    return int(digits)


async def announce(request: Request) -> Response:
    """POST /announcements: post a line for /public and the table pages."""
    require_director(request)
    form = await read_form(request)
    try:
        await run_in_threadpool(day_of(request).store.announce, str(form.get("text", "")), "director")  # the
        # body's limit bounds it; the refusal counts what was typed
    except StoreError as exc:
        raise HTTPException(400, _said(day_of(request), exc)) from None
    return RedirectResponse("/#hall", status_code=303)


async def remove_announcement(request: Request) -> Response:
    """POST /announcements/N/remove: take the line off the pages (kept in the audit log)."""
    require_director(request)
    await read_form(request)
    try:
        await run_in_threadpool(day_of(request).store.remove_announcement, request.path_params["id"], "director")
    except StoreError as exc:
        raise HTTPException(404, _said(day_of(request), exc)) from None
    return RedirectResponse("/#hall", status_code=303)


def _unplanned(day: Day) -> int | None:
    try:
        return dayday.unplanned_round(day)
    except SetupgenError as exc:  # entries.csv spoilt by hand since
        raise HTTPException(409, _said(day, exc)) from None


async def round_page(request: Request) -> Response:
    """One round: each table's players, result and state (a referee sees
    it without the director's buttons)."""
    require_staff(request)
    day, n = day_of(request), request.path_params["n"]
    _round_or_404(day, n)
    games = [Game.preliminary(n, t) for t in range(1, day.schedule.tables(n) + 1)]
    rows, shown, counts = _by_state(_game_rows(day, games), request.query_params.get("state", ""))
    return render(
        request,
        "round.html",
        number=n,
        scenario=scenario_name(day, n),
        games=rows,
        shown=shown,
        counts=counts,
        pack=day.has_pack(n),
        key=(day.pack_folder(n) / "key.pdf").is_file(),
        stale=day.pack_stale(n),
        confirm_all=f"/rounds/{n}/confirm-all",
        **_round_messages(request, day, n),
        **_following(day),
    )


async def make_pack(request: Request) -> Response:
    """Make the round's pack (the library's round pack, unchanged bytes) in
    the worker process; back to the round page, which says it is running
    (and refreshes itself) or what came of it."""
    require_director(request)
    await read_form(request)
    day, n = day_of(request), request.path_params["n"]
    _round_or_404(day, n)
    task = str(director_words(day)("director.task_pack", n=n))
    return await _heavy(day, lambda: dayday.start_pack(day, n), task, f"/rounds/{n}")


async def _heavy(day: Day, start: Callable[[], Any], name: str, back: str) -> Response:
    """Start heavy work (``start()`` returns its task; ``name`` says what it
    is, in the event's language), wait up to :data:`TASK_WAIT` for it, then
    back to ``back`` (which shows it running or done); 409 naming it and the
    reason when it was refused."""
    try:
        task = await run_in_threadpool(start)
    except SetupgenError as exc:
        raise Refusal(409, "director.task_refused", task=name, reason=_said(day, exc)) from None
    await run_in_threadpool(task.done.wait, TASK_WAIT)
    if task.state == "failed":
        raise Refusal(409, "director.task_refused", task=name, reason=task.message)
    return RedirectResponse(back, status_code=303)


#: seconds a page that started heavy work waits for it before it shows it running
TASK_WAIT = 10.0


def _quality(words: Words, measures: Any) -> Markup:
    """A re-plan's quality in the event's language: each measure of
    ``Quality.rows()`` (key, value, bound, kind) as ``schedule.pdf``'s first
    page words it, with its bound and the verdict, joined by semicolons."""
    tx = words.tx
    lines = [
        words(
            "director.quality_line",
            measure=tx.get(f"tournament.quality.{key}"),
            value=value,
            bound=bound,
            verdict=tx.get("tournament.quality_optimal" if value <= bound else f"tournament.quality_{kind}"),
        )
        for key, value, bound, kind in measures
    ]
    return Markup("; ").join(lines)


def _task_message(day: Day, about: tuple) -> dict:
    """What a page says, in the event's language, of the latest heavy work
    about ``about`` (a pack of its round, a re-plan): running (the page then
    refreshes every 2 s), done (its message) or failed (its reason, as a
    problem); nothing when there was none in the last minutes. A re-plan's
    quality is worded from its measures (:func:`_quality`); a failed task's
    reason is the library's."""
    task = day.tasks.latest(about)
    if task is None:
        return {}
    words, kind, facts = director_words(day), about[0], task.facts
    name = words(f"director.task_{kind}", n=facts.get("round", ""))  # markup: escaped once, by the words
    if task.state == "running":
        since = time.strftime("%H:%M:%S", time.localtime(task.started))
        return {"message": words("director.task_running", task=name, since=since), "refresh": 2}
    if task.state == "done":
        return {
            "message": words(
                f"director.task_{kind}_done",
                n=facts.get("round", ""),
                pdf=facts.get("pdf", ""),
                tables=facts.get("tables", ""),
                quality=_quality(words, facts.get("measures", ())),
            )
        }
    return {"problems": [Markup("{}: {}").format(name, task.message)]}


async def download(request: Request) -> Response:
    """``round.pdf`` or ``key.pdf`` of a made pack, as the pack holds it."""
    require_director(request)
    day, n, name = day_of(request), request.path_params["n"], request.path_params["name"]
    _round_or_404(day, n)
    path = day.pack_folder(n) / name
    if name not in DOWNLOADS or not day.has_pack(n) or not path.is_file():
        raise Refusal(404, "director.no_download", n=n, name=name[:40])
    from ..render import export

    return FileResponse(path, media_type="application/pdf", filename=f"{export.slug(day.t.name)}-round-{n}-{name}")


async def table_page(request: Request) -> Response:
    """Any game's page, preliminary or finals. GET: its result form and
    its changes; POST: enter or correct it (confirmed), refused (409) when
    the result changed since the form was opened (its ``version``). A
    referee sees the page (its clock, time to add) and enters nothing."""
    if request.method == "POST":
        require_director(request)
    else:
        require_staff(request)
    day, game = day_of(request), _game(request)
    players = await run_in_threadpool(_players_or_404, day, game)
    posted = _Posted()
    changed = None
    if request.method == "POST":
        done = await posted.enter(
            request,
            len(players),
            lambda *got: dayday.enter(day, game, *got),
            game_list_path(game),
            lambda: _next_table(day, game),
        )
        if done is not None:
            return done
        changed = posted.changed
        players = players if posted.seated is None else posted.seated
    return _table_page(request, day, game, players, posted, changed)


def _table_page(
    request: Request,
    day: Day,
    game: Game,
    players: tuple[str, ...],
    posted: _Posted,
    changed: dayday.ResultChanged | None = None,
) -> Response:
    """A game's page (status ``posted.status``; with ``changed``, the
    version the page had shown beside the result now)."""
    result = day.store.result(game)
    words = director_words(day)
    back, back_link = _back(game, words)
    heading, title = game_headings(game, words)
    return render(
        request,
        "table.html",
        posted.status,
        title=title,
        heading=heading,
        finals=game.is_finals,
        path=game_path(game),
        back=back,
        back_link=back_link,
        state=day.state(game),
        problems=_problems_in(words, posted, changed),
        at=local_time(result.at, day.t.timezone, words.tx) if result else "",
        players=form_rows(day, players, posted.vp, posted.winner, result, posted.marks),
        threshold=day.threshold(game),
        audit=_audit_lines(day, game=game),
        url=day.table_url(game),
        statuses=STATUS_CHOICES,
        version=result.version if result else 0,
        autofocus=True,
        next_button=words("director.save_next"),
        seating=seating_stamp(players),
        by=result.by if result else "",
        changed=None if changed is None else _changed_rows(day, players, changed),
        table_clock=own_clocks(day, [game], words, time.time()).get(game),
        most_minutes=calls.MAX_ADDED_MINUTES,
    )


def _problems_in(words: Words, posted: _Posted, changed: dayday.ResultChanged | None) -> list[str] | None:
    """A refused result's problems in the event's language (worded when
    refused); none beside the changed result's card, which says it."""
    if changed is not None or posted.problems is None:
        return None
    return posted.problems


#: the round page's order: what waits for the director first
STATE_ORDER = (dayday.REPORTED, dayday.WAITING, dayday.CONFIRMED)


def _by_state(rows: list[dict], wanted: str) -> tuple[list[dict], str, dict[str, int]]:
    """A round's rows reported first, then waiting, then confirmed (each by
    table), only those in state ``wanted`` when it is one; the state shown
    ("" for all) and the count of each state."""
    counts = {s: sum(1 for r in rows if r["state"] == s) for s in STATE_ORDER}
    shown = wanted if wanted in STATE_ORDER else ""
    ordered = sorted(rows, key=lambda r: (STATE_ORDER.index(r["state"]), r["table"]))
    return [r for r in ordered if not shown or r["state"] == shown], shown, counts


def _next_table(day: Day, game: Game) -> str:
    """The page of the stage's next table (after ``game``, wrapping round)
    still without a confirmed result; the round's (or the finals') page when
    there is none."""
    count = len(dayday.stage_seating(day, game.stage)) if game.is_finals else day.schedule.tables(game.round)
    for step in range(1, count):
        t = (game.table - 1 + step) % count + 1
        other = Game.finals(game.stage, t) if game.is_finals else Game.preliminary(game.round, t)
        if day.state(other) != dayday.CONFIRMED:
            return game_path(other)
    return game_list_path(game)


def _changed_rows(day: Day, players: tuple[str, ...], changed: dayday.ResultChanged) -> dict:
    """The result a page had shown (from its audit entry) and the result
    now, each as ``[{name, vp, winner}]`` per seat (empty: none)."""
    import json

    names = day.names()

    def rows(vp: list, winner: int | None) -> list[dict]:
        return [
            {"name": names.get(p, p), "vp": vp[k], "winner": winner == k + 1}
            for k, p in enumerate(players)
            if k < len(vp)
        ]

    seen = json.loads(changed.seen.new) if changed.seen is not None else {}
    now = changed.current
    return {
        "seen": rows(seen.get("vp", []), seen.get("winner")),
        "seen_state": seen.get("state", ""),
        "now": [] if now is None else rows(list(now.vp), now.winner),
        "now_state": "" if now is None else now.state,
    }


async def confirm(request: Request) -> Response:
    """Confirm any game's reported result, at the version the page showed
    (409 with the result now beside the one shown when it changed)."""
    return await _at_version(
        request, lambda day, game, form, version: dayday.confirm(day, game, version), game_list_path
    )


async def undo_result(request: Request) -> Response:
    """A game's result back to ``reported`` (from confirmed) or ``waiting``
    (removed), at the version the page showed; 409 naming why when later
    work depends on it."""
    return await _at_version(
        request,
        lambda day, game, form, version: undo.undo_result(day, game, str(form.get("to", ""))[:20], version),
        game_path,
    )


async def _at_version(
    request: Request, act: Callable[[Day, Game, Any, int | None], object], then: Callable[[Game], str]
) -> Response:
    """A director's action on a game at the version the page showed (field
    ``version``), in a worker thread: on to ``then(game)``; the game's page
    with the result now beside the one shown when it changed since (409);
    409 with the reason when it is refused."""
    require_director(request)
    form = await read_form(request)
    day, game = day_of(request), _game(request)
    players = await run_in_threadpool(_players_or_404, day, game)
    version = _version(form)
    try:
        await run_in_threadpool(act, day, game, form, version)
    except dayday.ResultChanged as exc:
        posted = _Posted()
        posted.problems, posted.status = [str(exc)], 409
        return _table_page(request, day, game, players, posted, exc)
    except SetupgenError as exc:
        raise HTTPException(409, _said(day_of(request), exc)) from None
    return RedirectResponse(then(game), status_code=303)


async def withdraw_pack(request: Request) -> Response:
    """Withdraw a finals stage's pack (its folder kept as ``<stage>.withdrawn-<time>/``)."""
    require_director(request)
    await read_form(request)
    day = day_of(request)
    try:
        kept = await run_in_threadpool(undo.withdraw_pack, day, request.path_params["stage"])
    except SetupgenError as exc:
        raise HTTPException(409, _said(day_of(request), exc)) from None
    return RedirectResponse(f"/finals?withdrawn={kept}", status_code=303)


async def remove_change(request: Request) -> Response:
    """Take back a drop-out or late entry (fields ``index``, ``change``,
    ``player``, ``from_round``: what the page showed) before a re-plan uses it."""
    from ..tournament import entries

    require_director(request)
    form = await read_form(request)
    day = day_of(request)
    text = str(form.get("index", ""))[:6]
    if not text.isascii() or not text.isdigit():
        raise Refusal(400, "director.no_index")
    index = int(text)
    try:
        shown = jobs.read_entries(day.t, day.folder).items
        change = shown[index] if index < len(shown) else None
        if change is None or (change.change, change.player, str(change.from_round)) != (
            str(form.get("change", "")),
            str(form.get("player", "")),
            str(form.get("from_round", "")),
        ):
            raise keyed(StoreError, "entries_changed", file=entries.ENTRIES_FILE)
        await run_in_threadpool(undo.remove_change, day, index, change)
    except SetupgenError as exc:
        return render(request, "entries.html", 409, problems=[_said(day, exc)], **_entries_context(day))
    return RedirectResponse("/entries", status_code=303)


async def confirm_all(request: Request) -> Response:
    """*Confirm all reported* of a round or a finals stage, in one
    transaction: every table whose version on the page is still current
    (one field ``versions``: ``table:version`` pairs separated by spaces,
    so a hall of any size is one field); the others are named as changed."""
    require_director(request)
    form = await read_form(request)
    day, params = day_of(request), request.path_params
    seen: dict[Game, int | None] = {}
    for pair in str(form.get("versions", "")).split():
        table, sep, version = pair.partition(":")
        if not (sep and table.isascii() and table.isdigit() and len(table) <= 5):
            raise Refusal(400, "director.no_version")
        try:
            seen[game_of(params, int(table))] = _version({"version": version}, "version")
        except GameError as exc:
            raise HTTPException(404, _said(day_of(request), exc)) from None
    for game in seen:
        await run_in_threadpool(_players_or_404, day, game)
    try:
        done, changed = await run_in_threadpool(dayday.confirm_all, day, seen)
    except SetupgenError as exc:
        raise HTTPException(409, _said(day_of(request), exc)) from None
    back = "/finals" if "stage" in params else f"/rounds/{params['n']}"
    tables = ",".join(str(c.game.table) for c in sorted(changed, key=lambda c: c.game.table))
    return RedirectResponse(f"{back}?confirmed={len(done)}" + (f"&changed={tables}" if tables else ""), status_code=303)


async def standings_page(request: Request) -> Response:
    """The live standings of the confirmed results."""
    require_director(request)
    day = day_of(request)
    return render(request, "standings.html", **standings_context(day), **_following(day))


async def standings_csv(request: Request) -> Response:
    """``standings.csv`` as ``setupgen standings`` writes it."""
    require_director(request)
    try:
        live = dayday.live_standings(day_of(request))
    except SetupgenError as exc:
        raise Refusal(409, "director.no_standings", reason=_said(day_of(request), exc)) from None
    return Response(
        live.csv.encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": 'attachment; filename="standings.csv"'},
    )


def _pdf_answer(data: bytes, name: str) -> Response:
    return Response(data, media_type="application/pdf", headers={"content-disposition": f'inline; filename="{name}"'})


async def _print(request: Request, make: Callable[[], bytes], name: str) -> Response:
    """A printout (:mod:`setupgen.console.prints`) made in a worker thread; 409 with the reason when there is
    nothing to print yet."""
    require_director(request)
    try:
        return _pdf_answer(await run_in_threadpool(make), name)
    except SetupgenError as exc:
        raise HTTPException(409, _said(day_of(request), exc)) from None


async def standings_pdf(request: Request) -> Response:
    """``standings.pdf``, the same bytes as ``setupgen standings`` writes from the console's folder."""
    day = day_of(request)
    return await _print(request, lambda: prints.standings_pdf(day), "standings.pdf")


async def placings_pdf(request: Request) -> Response:
    """``placings.pdf``, the same bytes as ``setupgen placings`` writes, once every finals table is in."""
    day = day_of(request)
    return await _print(request, lambda: prints.placings_pdf(day), "placings.pdf")


async def round_tables_pdf(request: Request) -> Response:
    """A round's tables for the hall's wall (players in start order)."""
    day, n = day_of(request), request.path_params["n"]
    _round_or_404(day, n)
    return await _print(request, lambda: prints.round_tables_pdf(day, n), f"round-{n}-tables.pdf")


async def players_pdf(request: Request) -> Response:
    """Every player, alphabetically, with table and start position per round, for the hall's wall."""
    day = day_of(request)
    return await _print(request, lambda: prints.players_pdf(day), "players.pdf")


def _audit_filter(request: Request) -> auditlog.Filter:
    """The audit log's filter from the query (``round``, ``table``, ``player``, ``kind``; empty: any)."""
    q = request.query_params

    def number(name: str) -> int | None:
        text = q.get(name, "").strip()[:6]
        return int(text) if text.isascii() and text.isdigit() else None

    return auditlog.Filter(
        number("round"),
        number("table"),
        q.get("player", "").strip()[:100] or None,
        q.get("kind", "").strip()[:30] or None,
    )


def _audit_lines(day: Day, keep: auditlog.Filter = auditlog.Filter(), game: Game | None = None) -> list:
    return auditlog.lines(day.store.audit(game), day.names(), day.t.timezone, director_words(day), keep)


async def audit_page(request: Request) -> Response:
    """Every change, newest first, as a person reads it, filtered by round, table, player and kind."""
    require_director(request)
    day = day_of(request)
    keep = _audit_filter(request)
    shown = await run_in_threadpool(_audit_lines, day, keep)
    kinds = _kind_labels(director_words(day), {e.action for e in day.store.audit()})
    players = sorted(day.names().items(), key=lambda kv: kv[1].casefold())
    query = str(request.url.query)
    return render(
        request,
        "audit.html",
        audit=shown,
        kinds=kinds,
        players=players,
        keep=keep,
        rounds=day.rounds,
        csv_link="/audit.csv" + (f"?{query}" if query else ""),
        zone=day.t.timezone,
    )


def _kind_labels(words: Words, kinds: set[str]) -> list[tuple[str, str]]:
    """The audit filter's choices: each kind of change and its name in the
    event's language (a kind of a newer setupgen: as it is), by kind."""

    def label(kind: str) -> str:
        try:
            return str(words(f"director.kind_{kind}"))
        except SetupgenError:
            return kind

    return [(k, label(k)) for k in sorted(kinds)]


async def audit_csv(request: Request) -> Response:
    """``/audit.csv``: the audit log as shown (the same filter), cells safe in a spreadsheet."""
    require_director(request)
    day = day_of(request)
    shown = await run_in_threadpool(_audit_lines, day, _audit_filter(request))
    return Response(
        auditlog.to_csv(shown, day.names()).encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": 'attachment; filename="audit.csv"'},
    )


def _entries_context(day: Day, **form: str) -> dict:
    """What the entries page shows: the changes, the players still in, the
    round the schedule stops following them from, and the forms' values."""
    from ..tournament import entries

    try:
        changes = jobs.read_entries(day.t, day.folder)
    except SetupgenError as exc:
        raise HTTPException(409, _said(day, exc)) from None
    names = day.names()
    planned = dayday.planned_entries(day)
    still = entries.roster(day.t.players, changes, max(day.rounds) if day.rounds else 1)
    played = [r.round for r in day.store.results()]  # the preliminary rounds
    upcoming = min(len(day.t.rounds), max([1] + played) + 1)
    unplanned = entries.unplanned(changes, jobs.seated(day.schedule))
    values = {
        "change": "left",
        "player": "",
        "name": "",
        "group": "",
        "from_round": str(upcoming),
        "replan_round": str(unplanned or upcoming),
    }
    values.update(form)
    return {
        "changes": [
            {
                "id": c.player,
                "change": c.change,
                "round": c.from_round,
                "index": k,
                "planned": k < planned,
                "name": names.get(c.player, c.name or c.player),
            }
            for k, c in enumerate(changes)
        ],
        "current": [{"id": p.id, "name": names.get(p.id, p.id)} for p in still],
        "unplanned": unplanned,
        "rounds": len(day.t.rounds),
        "form": values,
        "free_id": _free_late_id(day, changes),
    }


async def entries_page(request: Request) -> Response:
    """Drop-outs and late entries: the changes recorded, the forms to record one, and the re-plan."""
    require_director(request)
    return render(request, "entries.html", **_entries_context(day_of(request)))


def _round_number(text: str) -> int:
    """A round number typed in a form (400 when it is not one)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 4):
        raise Refusal(400, "director.bad_round", text=text[:20])
    return int(text)


async def record_change(request: Request) -> Response:
    """Record a drop-out (``change=left``, ``player``) or a late entry
    (``change=joined``, ``player``, ``name``, ``group``) from ``from_round``
    (400 naming the problem; 409 from a round that has results)."""
    from ..tournament import entries

    require_director(request)
    form = await read_form(request)
    day = day_of(request)
    given = {k: str(form.get(k, ""))[:200] for k in ("change", "player", "name", "group", "from_round")}
    try:
        kind = given["change"].strip()
        if kind not in entries.CHANGES:
            raise entries.EntriesError(f"choose a drop-out or a late entry, not {kind[:20]!r}")
        number = _round_number(given["from_round"])
        name, group = (given["name"].strip(), given["group"].strip() or None) if kind == entries.JOINED else ("", None)
        player = given["player"].strip()
        if kind == entries.JOINED and not player:
            player = _free_late_id(day)
        change = entries.Entry(kind, number, player, name, group)
        await run_in_threadpool(dayday.record_change, day, change)
    except StoreError as exc:
        return render(request, "entries.html", 409, problems=[_said(day, exc)], **_entries_context(day, **given))
    except SetupgenError as exc:
        return render(request, "entries.html", 400, problems=[_said(day, exc)], **_entries_context(day, **given))
    return RedirectResponse("/entries", status_code=303)


def _free_late_id(day: Day, changes: Any = None) -> str:
    """The first of ``late01``, ``late02``, ... that no player, late entry or
    change (``changes``: ``entries.csv``'s, read when not given) uses yet."""
    found = jobs.read_entries(day.t, day.folder) if changes is None else changes
    taken = set(day.names()) | {c.player for c in found}
    return next(f"late{k:02d}" for k in range(1, len(taken) + 2) if f"late{k:02d}" not in taken)


async def replan(request: Request) -> Response:
    """Re-plan the schedule from round ``from_round`` (``setupgen schedule
    --from-round N``) in the worker process; 409 while a round from N on
    has results. Back to the rounds page, which says it is running or what
    came of it."""
    require_director(request)
    form = await read_form(request)
    day = day_of(request)
    number = _round_number(str(form.get("from_round", ""))[:20])
    task = str(director_words(day)("director.task_replan", n=number))
    return await _heavy(day, lambda: dayday.start_replan(day, number), task, "/")


async def finals_page(request: Request) -> Response:
    """The finals' seating from the confirmed standings, their packs, and
    (semi-finals made) the form naming each semi-final's winner."""
    require_director(request)
    day = day_of(request)
    found = await run_in_threadpool(dayday.finals, day)
    names = day.names()
    tables = (
        []
        if found is None
        else [
            [{"id": p, "name": names.get(p, p), "rank": found.rank.get(p, "")} for p in table] for table in found.tables
        ]
    )
    winners_form = bool(
        found and found.stage == "semi-final" and "semi-final" in found.made and "final" not in found.made
    )
    entered = await run_in_threadpool(dayday.entered_winners, day)
    for table in tables:
        for p in table:
            p["won"] = p["id"] in entered
    stages = [] if found is None or found.problem else await run_in_threadpool(_stage_states, day, found.made)
    withdrawn = request.query_params.get("withdrawn", "")
    return render(
        request,
        "finals.html",
        finals=found,
        tables=tables,
        winners_form=winners_form,
        stages=stages,
        message=_done_message(request),
        **await run_in_threadpool(placings_context, day),
        withdrawn=withdrawn if re.fullmatch(r"(semi-final|final)\.withdrawn-[0-9-]{15,20}", withdrawn) else "",
    )


def _stage_states(day: Day, made: tuple[str, ...]) -> list[dict]:
    """Per finals stage with a pack: its games (as a round's, :func:`_game_rows`),
    or why its tables are not known yet."""
    out: list[dict[str, Any]] = []
    for stage in made:
        try:
            seating = dayday.stage_seating(day, stage)
        except SetupgenError as exc:
            out.append({"stage": stage, "games": [], "problem": _said(day, exc)})
            continue
        games = [Game.finals(stage, k) for k in range(1, len(seating) + 1)]
        out.append(
            {
                "stage": stage,
                "games": _game_rows(day, games),
                "problem": None,
                "confirm_all": f"/finals/{stage}/confirm-all",
            }
        )
    return out


async def make_finals_pack(request: Request) -> Response:
    """Make the semi-finals' or the final's pack (``setupgen finals``)."""
    require_director(request)
    form = await read_form(request)
    winners = tuple(str(form[k])[:100] for k in ("w1", "w2", "w3", "w4") if k in form)
    try:
        await run_in_threadpool(dayday.make_finals_pack, day_of(request), winners)
    except SetupgenError as exc:
        raise Refusal(409, "director.finals_not_made", reason=_said(day_of(request), exc)) from None
    return RedirectResponse("/finals", status_code=303)


async def finals_download(request: Request) -> Response:
    """The ``round.pdf`` of the semi-finals' or the final's pack."""
    require_director(request)
    day, stage = day_of(request), request.path_params["stage"]
    path = day.folder / stage / "round.pdf"
    if stage not in dayday.FINAL_STAGES or not path.is_file():
        raise Refusal(404, "director.no_stage_pack", stage=stage[:20])
    from ..render import export

    return FileResponse(path, media_type="application/pdf", filename=f"{export.slug(day.t.name)}-{stage}.pdf")


def check_tls(cert: str | Path, key: str | Path) -> None:
    """Raise :class:`SetupgenError` (field ``tls_cert``) unless ``cert`` and
    ``key`` are a PEM certificate chain and its private key."""
    import ssl

    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(str(cert), str(key))
    except (OSError, ssl.SSLError, ValueError) as exc:
        raise SetupgenError(
            f"cannot use the certificate {str(cert)!r} with the key {str(key)!r}: "
            f"{getattr(exc, 'strerror', None) or exc}",
            field="tls_cert",
        ) from None


def run(app: Starlette, host: str, port: int, tls: tuple[str, str] | None = None) -> None:
    """Serve ``app`` with uvicorn on ``host:port`` (no reload, no debug,
    warnings only in the log; with ``tls`` (certificate, key files) over
    HTTPS) until Ctrl-C. Raises :class:`SetupgenError` when the address
    cannot be bound."""
    import os
    import socket

    import uvicorn

    os.environ.setdefault("SETUPGEN_WORKERS", "0")  # packs made in this threaded server: no forking
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets whose protocol says TCP; without it every
    # answer on a kept-alive connection waited about 40 ms (Nagle's algorithm against the client's delayed ACK)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise SetupgenError(f"cannot listen on {host}:{port}: {exc.strerror or exc}", field="port") from None
    # lifespan off: the app has no start-up or shut-down handlers, and the lifespan task is what printed
    # a CancelledError traceback on some Ctrl-C (a race in uvicorn's shutdown, its issue 1579)
    config = uvicorn.Config(
        app,
        log_level="warning",
        server_header=False,
        proxy_headers=False,
        http="h11",
        lifespan="off",
        h11_max_incomplete_event_size=security.MAX_BODY,  # h11 always: it has the header limit
        ssl_certfile=tls[0] if tls else None,
        ssl_keyfile=tls[1] if tls else None,
    )
    uvicorn.Server(config).run(sockets=[sock])
