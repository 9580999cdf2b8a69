"""Refusals as messages with a key (issue 42, point 1, first part): the
library raises ``keyed(SomeError, key, **values)``; the command line
prints the English text of ``templates/en.toml [messages]``, a console
page the same key in the event's language. No translation by pattern."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from console_forms import form_token  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from setupgen.console import app as consoleapp  # noqa: E402
from setupgen.console import day as consoleday  # noqa: E402
from setupgen.console.words import Words  # noqa: E402
from setupgen.core.errors import SetupgenError  # noqa: E402
from setupgen.core.messages import keyed  # noqa: E402
from setupgen.tournament.games import Game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def messages(lang: str) -> dict:
    return tomllib.loads((ROOT / "templates" / f"{lang}.toml").read_text(encoding="utf-8")).get("messages", {})


def keys_in_the_code() -> set[str]:
    """Every key the library passes to ``keyed(cls, key, ...)`` as a literal (an f-string's keys are listed by
    hand)."""
    found = set()
    for path in (ROOT / "setupgen").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "keyed"
                and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
            ):
                found.add(node.args[1].value)
    return found | {"final_tables", "semi_final_tables", "stage_has_result", "stage_has_results"}


#: fields a German text words itself instead (the statuses known, as the form's choices name them)
WORDED_IN_GERMAN = {
    "result_status": {"known"},
    "unknown_finals_stage": {"known"},
    "player_script": {"part", "script"},
    "player_no_font": {"part"},
    "player_no_font_here": {"part"},
}


def test_every_message_key_has_a_german_text_and_the_same_fields():
    en, de = messages("en"), messages("de")
    assert keys_in_the_code() <= set(en), keys_in_the_code() - set(en)
    assert set(de) == set(en), set(en) ^ set(de)
    for key, text in en.items():
        fields = set(re.findall(r"\{(\w+)\}", text)) - WORDED_IN_GERMAN.get(key, set())
        assert fields == set(re.findall(r"\{(\w+)\}", de[key])), key


def test_a_keyed_error_reads_as_before_on_the_command_line_and_in_german_on_a_page():
    exc = keyed(SetupgenError, "round_tables", n=1, tables=12, table=99, field="table")
    assert str(exc) == "round 1 has tables 1-12, not 99" and exc.field == "table" and exc.key == "round_tables"
    assert Words("de-CH").said(exc) == "Runde 1 hat die Tische 1-12, nicht 99"
    assert Words("en").said(exc) == "round 1 has tables 1-12, not 99"
    plain = SetupgenError("a library line without a key")
    assert Words("de").said(plain) == "a library line without a key"  # still English: not yet keyed
    staged = keyed(SetupgenError, "pack_not_made", stage="semi-final")
    assert str(staged) == "the semi-final's pack is not made"
    assert Words("de-CH").said(staged) == "das Paket (Halbfinal) ist nicht gemacht"  # the stage as the sheets word it
    escaped = keyed(SetupgenError, "undo_target", to=repr("<b>"))
    assert Words("de").said(escaped) == "ein Tisch geht zurück auf gemeldet oder wartend, nicht &#39;&lt;b&gt;&#39;"


def club(tmp_path: Path) -> Path:
    (tmp_path / "players.csv").write_text(
        "id,name\n" + "".join(f"p{k},Spieler {k}\n" for k in range(1, 9)), encoding="utf-8"
    )
    path = tmp_path / "t.toml"
    path.write_text(
        'name = "Club"\nseed = "club"\nplayers = "players.csv"\ntable_size = 4\nlanguage = "de-CH"\n'
        '\n[[rounds]]\nscenario = "base-3-4"\nvictory_points = 10\n'
        '\n[final]\nplayers = 8\nscenario = "base-3-4"\nvictory_points = 10\n',
        encoding="utf-8",
    )
    return path


def german(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_refusals_of_the_issue_reach_a_swiss_page_in_german(tmp_path):
    day = consoleday.open_day(club(tmp_path), tmp_path / "out")
    try:
        c = TestClient(consoleapp.create_app(day), raise_server_exceptions=False)
        token = form_token(c.get("/").text)
        seen = {}
        seen["standings.pdf"] = c.get("/standings.pdf")
        seen["placings.pdf"] = c.get("/placings.pdf")
        seen["table 99"] = c.get("/rounds/1/tables/99")
        seen["clock 0"] = c.post(
            "/clock", data={"csrf": token, "stage": "preliminary", "round": "1", "action": "start", "minutes": "0"}
        )
        seen["clock pause"] = c.post(
            "/clock", data={"csrf": token, "stage": "preliminary", "round": "1", "action": "pause", "minutes": ""}
        )
        started = c.post(
            "/clock",
            data={"csrf": token, "stage": "preliminary", "round": "1", "action": "start", "minutes": "90"},
            follow_redirects=False,
        )
        assert started.status_code == 303
        seen["clock dance"] = c.post(
            "/clock", data={"csrf": token, "stage": "preliminary", "round": "1", "action": "dance", "minutes": ""}
        )
        seen["clock again"] = c.post(
            "/clock", data={"csrf": token, "stage": "preliminary", "round": "1", "action": "start", "minutes": "90"}
        )
        seen["announcement"] = c.post("/announcements", data={"csrf": token, "text": "x" * 400})
        seen["no text"] = c.post("/announcements", data={"csrf": token, "text": "   "})
        seen["remove 5"] = c.post("/announcements/5/remove", data={"csrf": token})
        for t in (1, 2):
            consoleday.enter(day, Game.preliminary(1, t), ["10", "5", "4", "3"], "1")
        seen["undo to"] = c.post("/rounds/1/tables/1/undo", data={"csrf": token, "to": "confirmed", "version": "1"})
        consoleday.make_finals_pack(day)
        seen["after finals"] = c.post("/rounds/1/tables/1/undo", data={"csrf": token, "to": "reported", "version": "1"})
        consoleday.enter(day, Game.finals("final", 1), ["10", "5", "4", "3"], "1")
        seen["withdraw"] = c.post("/finals/final/withdraw", data={"csrf": token})
        want = {
            "standings.pdf": "es gibt noch keine bestätigten Resultate für eine Rangliste",
            "placings.pdf": "die Schlussrangliste ist noch nicht vollständig",
            "table 99": "Runde 1 hat die Tische 1-2, nicht 99",
            "clock 0": "eine Rundenuhr läuft 1 bis 600 Minuten, nicht 0",
            "clock pause": "die Uhr ist nicht gestartet",
            "clock dance": "unbekannte Aktion der Uhr",
            "clock again": "die Uhr läuft schon: anhalten, weiterlaufen lassen oder beenden",
            "announcement": "eine Durchsage hat höchstens 300 Zeichen, nicht 400",
            "no text": "eine Durchsage braucht einen Text",
            "remove 5": "keine Durchsage 5 wird gezeigt",
            "undo to": "ein Tisch geht zurück auf gemeldet oder wartend, nicht &#39;confirmed&#39;",
            "after finals": "die Finalrunden sind nach den Vorrunden gesetzt",
            "withdraw": "die Finalrunde (Final) hat 1 Resultat: zuerst zurück auf wartend setzen",
        }
        for name, answer in seen.items():
            assert answer.status_code in (400, 404, 409), (name, answer.status_code)
            assert want[name] in german(answer.text), (name, german(answer.text)[-400:])
            english = [m for m in messages("en").values() if re.sub(r"\{\w+\}.*", "", m)[:30] in answer.text]
            assert not [m for m in english if len(m.split()) >= 3 and m.split("{")[0].strip()], (name, english)
    finally:
        day.store.close()


def test_a_late_entrys_refusals_reach_a_swiss_page_in_german(tmp_path):
    # the issue's: control characters, over 100 characters, an id starting with "="; the players file's
    # refusal on the command line stays the same English line (model.player_problem's str)
    day = consoleday.open_day(club(tmp_path), tmp_path / "out")
    try:
        c = TestClient(consoleapp.create_app(day), raise_server_exceptions=False)
        token = form_token(c.get("/entries").text)
        cases = {
            "Lea\x07": "Steuerzeichen in der Id, im Namen oder in der Gruppe",
            "مريم": "&#39;مريم&#39; enthält م (U+0645) einer Schrift, deren Zeichen sich verbinden",
            "L" * 101: "eine Id, ein Name oder eine Gruppe mit mehr als 100 Zeichen",
        }
        for name, want in cases.items():
            r = c.post(
                "/entries/change",
                data={"csrf": token, "change": "joined", "player": "late9", "name": name, "from_round": "2"},
            )
            assert r.status_code == 400 and want in german(r.text), german(r.text)[-300:]
        r = c.post(
            "/entries/change",
            data={"csrf": token, "change": "joined", "player": "=cmd", "name": "Lea", "from_round": "2"},
        )
        assert r.status_code == 400
        assert (
            "die Spieler-Id &#39;=cmd&#39; beginnt mit &#39;=&#39;, was eine Tabellenkalkulation als Formel liest"
            in r.text
        )
        assert "spreadsheet" not in r.text and "control characters" not in r.text
    finally:
        day.store.close()
    from setupgen.tournament import model

    assert (
        str(model.player_problem("=x", "Lea", None))
        == "player id '=x' starts with '=', which a spreadsheet reads as a formula"
    )
