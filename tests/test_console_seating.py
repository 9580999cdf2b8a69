"""Issue 40: a result is never filed on players who were not at that
table, and *Confirm all reported* works for a hall of any size.

Every result form (a table's own page, the director's table page, finals
tables) carries the stamp of the seating it was drawn for; a form for a
seating that changed since is refused (409) in the event's language,
naming the players the table seats now, and nothing is stored. The
stamps here are worked out by :func:`console_forms.stamp`, not by the
console."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

starlette = pytest.importorskip("starlette")
from console_forms import form_token, result_form, stamp  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from setupgen.console import app as consoleapp  # noqa: E402
from setupgen.console import day as consoleday  # noqa: E402
from setupgen.console import undo  # noqa: E402
from setupgen.tournament import entries, tokens  # noqa: E402
from setupgen.tournament.games import Game, seating_stamp  # noqa: E402

G = Game.preliminary
NAMES = ["Anna", "Beat", "Carla", "Dario", "Eva", "Fritz", "Gina", "Hans", "Ida", "Jörg", "Kurt", "Lea"]


def club(tmp_path: Path, players: int = 12, rounds: int = 3, language: str = "en", final: str = "") -> Path:
    """A club tournament of ``players`` (ids p01..), ``rounds`` base rounds at 10 VP."""
    names = NAMES + [f"Player {k}" for k in range(len(NAMES) + 1, players + 1)]
    (tmp_path / "players.csv").write_text(
        "id,name\n" + "".join(f"p{k:03d},{names[k - 1]}\n" for k in range(1, players + 1)), encoding="utf-8"
    )
    path = tmp_path / "t.toml"
    path.write_text(
        f'name = "Seating"\nseed = "seating"\nplayers = "players.csv"\ntable_size = 4\n'
        f'language = "{language}"\n' + '\n[[rounds]]\nscenario = "base-3-4"\nvictory_points = 10\n' * rounds + final,
        encoding="utf-8",
    )
    return path


def confirm_round(day, number: int) -> None:
    for table in range(1, day.schedule.tables(number) + 1):
        seats = len(day.players_of(G(number, table)))
        consoleday.enter(day, G(number, table), [str(10 - 2 * k) for k in range(seats)], "1")


def client_of(day) -> TestClient:
    return TestClient(consoleapp.create_app(day), raise_server_exceptions=False)


def names_of(day, players) -> list[str]:
    return [day.names()[p] for p in players]


def test_the_stamp_is_sha256_of_the_ids_in_seat_order():
    import hashlib

    assert seating_stamp(("a", "b")) == "7e18f737311b2dc3" == hashlib.sha256(b"a\nb").hexdigest()[:16]
    assert seating_stamp(("p1", "p2", "p3")) == stamp(("p1", "p2", "p3"))
    assert seating_stamp(("a", "b")) != seating_stamp(("b", "a"))  # the order is part of the seating
    assert seating_stamp(("ab",)) != seating_stamp(("a", "b"))


def replanned_round_3(tmp_path: Path, language: str = "en"):
    """Rounds 1-2 confirmed, round 3's pack made; returns (day, the
    players round 3 table 1 seated before, the drop-out)."""
    day = consoleday.open_day(club(tmp_path, language=language), tmp_path / "out")
    confirm_round(day, 1)
    confirm_round(day, 2)
    consoleday.make_pack(day, 3)
    before = day.players_of(G(3, 1))
    return day, before


def drop_and_replan(day, player: str) -> None:
    consoleday.record_change(day, entries.Entry("left", 3, player))
    consoleday.replan(day, 3)


def test_a_phone_form_of_a_seating_re_planned_since_is_refused_and_nothing_stored(tmp_path):
    # the case: a phone opens round 3 table 1, a player drops out and round 3 is
    # re-planned (allowed: no result yet), then the phone sends the form it loaded
    day, before = replanned_round_3(tmp_path, language="de-CH")
    try:
        c = client_of(day)
        url = f"/t/3/1/{tokens.table_token(day.key, 3, 1)}"
        page = c.get(url).text
        loaded = form_token(page)
        assert loaded.seating == stamp(before)
        drop_and_replan(day, before[0])
        now = day.players_of(G(3, 1))
        assert now != before and before[0] not in now
        sent = c.post(url, data=result_form(loaded, (12, 5, 4, 3), 1))
        assert sent.status_code == 409
        assert day.store.result(G(3, 1)) is None and day.store.audit(G(3, 1)) == []  # nothing stored
        text = sent.text
        assert "Die Besetzung dieses Tisches hat sich geändert" in text and "Nichts wurde gespeichert" in text
        assert ", ".join(names_of(day, now)) in text
        assert "changed since" not in text and "nothing was recorded" not in text  # no English
        # the page shows the form again, empty, for the players seated now; sent from there it is taken
        again = form_token(text)
        assert again.seating == stamp(now) and 'value="12"' not in text
        assert (
            c.post(url, data=result_form(again, (10, 5, 4, 3)[: len(now)], 1), follow_redirects=False).status_code
            == 303
        )
        assert day.store.result(G(3, 1)).players == now
    finally:
        day.store.close()


def test_the_directors_form_left_open_in_a_second_tab_is_refused(tmp_path):
    day, before = replanned_round_3(tmp_path)
    try:
        c = client_of(day)
        loaded = form_token(c.get("/rounds/3/tables/1").text)
        drop_and_replan(day, before[0])
        now = day.players_of(G(3, 1))
        form = dict(result_form(loaded, (12, 5, 4, 3), 1), version="0")
        sent = c.post("/rounds/3/tables/1", data=form)
        assert sent.status_code == 409 and day.store.result(G(3, 1)) is None
        assert "The players at this table changed after this page was opened: nothing was recorded." in sent.text
        assert f"The table now seats {', '.join(names_of(day, now))}." in sent.text
        assert form_token(sent.text).seating == stamp(now)
        # save & next from a stale tab: refused the same way
        assert c.post("/rounds/3/tables/1", data=dict(form, then="next")).status_code == 409
        assert day.store.result(G(3, 1)) is None
        # a form without any seating (from before the field existed) is out of date too
        bare = {k: v for k, v in form.items() if k != "seating"}
        assert c.post("/rounds/3/tables/1", data=bare).status_code == 409 and day.store.result(G(3, 1)) is None
    finally:
        day.store.close()


def test_the_library_refuses_a_stale_seating_inside_its_transaction(tmp_path):
    day, before = replanned_round_3(tmp_path)
    try:
        drop_and_replan(day, before[0])
        with pytest.raises(consoleday.SeatingChanged) as refused:
            consoleday.report(day, G(3, 1), ["12", "5", "4", "3"], "1", stamp(before))
        assert refused.value.players == day.players_of(G(3, 1))
        with pytest.raises(consoleday.SeatingChanged):
            consoleday.enter(day, G(3, 1), ["12", "5", "4", "3"], "1", version=0, seating=stamp(before))
        assert day.store.result(G(3, 1)) is None
        now = day.players_of(G(3, 1))
        vps = ["10", "5", "4", "3"][: len(now)]
        assert consoleday.report(day, G(3, 1), vps, "1", stamp(now)).players == now
    finally:
        day.store.close()


def test_a_re_plan_taken_in_between_the_check_and_the_store_is_caught(tmp_path, monkeypatch):
    # the schedule changes after the form's VP were checked but before the transaction:
    # the result was checked for other players and is refused, nothing stored
    day, before = replanned_round_3(tmp_path)
    try:
        other = (before[1], before[0], *before[2:])
        real = consoleday.check_result

        def swapped_meanwhile(*args, **kw):
            got = real(*args, **kw)
            monkeypatch.setattr(day, "players_of", lambda game: other if game == G(3, 1) else real_players(game))
            return got

        real_players = day.players_of
        monkeypatch.setattr(consoleday, "check_result", swapped_meanwhile)
        with pytest.raises(consoleday.SeatingChanged):
            consoleday.report(day, G(3, 1), ["12", "5", "4", "3"], "1", stamp(before))
        assert day.store.result(G(3, 1)) is None
    finally:
        day.store.close()


def final_of_8(tmp_path: Path):
    final = '\n[final]\nplayers = 8\nscenario = "base-3-4"\nvictory_points = 10\n'
    day = consoleday.open_day(club(tmp_path, rounds=2, final=final), tmp_path / "out")
    confirm_round(day, 1)
    confirm_round(day, 2)
    return day


def test_a_finals_form_of_a_final_withdrawn_and_seated_again_is_refused(tmp_path):
    day = final_of_8(tmp_path)
    try:
        c = client_of(day)
        consoleday.make_finals_pack(day)
        final = Game.finals("final", 1)
        before = day.players_of(final)
        url = f"/t/final/1/{tokens.table_token(day.key, 1, 1, 'final')}"
        phone = form_token(c.get(url).text)
        director = form_token(c.get("/finals/final/tables/1").text)
        assert phone.seating == director.seating == stamp(before)
        # the final's pack withdrawn, a preliminary table corrected (its winner now last), seated again
        undo.withdraw_pack(day, "final")
        seats = day.players_of(G(1, 1))
        consoleday.enter(day, G(1, 1), ["4", "3", "2", "10"][: len(seats)], str(len(seats)))
        consoleday.make_finals_pack(day)
        now = day.players_of(final)
        assert now != before
        sent = c.post(url, data=result_form(phone, (10, 7, 5, 3), 1))
        assert sent.status_code == 409 and ", ".join(names_of(day, now)) in sent.text
        entered = c.post("/finals/final/tables/1", data=dict(result_form(director, (10, 7, 5, 3), 1), version="0"))
        assert entered.status_code == 409 and "The players at this table changed" in entered.text
        assert day.store.result(final) is None and day.store.audit(final) == []
    finally:
        day.store.close()


def test_confirm_refuses_a_stored_result_of_players_no_longer_seated(tmp_path, monkeypatch):
    # cannot happen through the console (a re-plan or a withdrawal is refused once a table has a
    # result); the confirmation checks it anyway, and confirms nothing of the batch
    day, before = replanned_round_3(tmp_path)
    try:
        consoleday.report(day, G(3, 1), ["10", "5", "4", "3"], "1", stamp(before))
        consoleday.report(day, G(3, 2), ["10", "5", "4", "3"], "1")
        real = day.players_of
        monkeypatch.setattr(
            day, "players_of", lambda game: tuple(reversed(real(game))) if game == G(3, 1) else real(game)
        )
        with pytest.raises(consoleday.SeatingChanged):
            consoleday.confirm_all(day, {G(3, 2): 1, G(3, 1): 1})
        assert (day.state(G(3, 1)), day.state(G(3, 2))) == ("reported", "reported")
    finally:
        day.store.close()


def test_confirm_all_reported_confirms_a_hall_of_100_tables(tmp_path):
    # 41 or more tables used to be 41 fields: over the form limit, 400, nothing confirmed
    day = consoleday.open_day(club(tmp_path, players=400, rounds=1), tmp_path / "out")
    try:
        assert day.schedule.tables(1) == 100
        for t in range(1, 101):
            consoleday.report(day, G(1, t), ["10", "5", "4", "3"], "1")
        consoleday.report(day, G(1, 7), ["10", "6", "4", "3"], "1")  # table 7 is at version 2
        c = client_of(day)
        page = c.get("/rounds/1").text
        assert "Confirm all reported (100)" in page
        (versions,) = re.findall(r'name="versions" value="([0-9: ]+)"', page)
        shown = dict(pair.split(":") for pair in versions.split())
        assert len(shown) == 100 and shown["7"] == "2" and shown["1"] == "1"
        consoleday.report(day, G(1, 55), ["10", "7", "4", "3"], "1")  # after the page was opened
        done = c.post(
            "/rounds/1/confirm-all", data={"csrf": form_token(page), "versions": versions}, follow_redirects=False
        )
        assert done.status_code == 303 and done.headers["location"] == "/rounds/1?confirmed=99&changed=55"
        states = {t: day.state(G(1, t)) for t in range(1, 101)}
        assert [t for t, s in states.items() if s != "confirmed"] == [55]
        assert day.store.result(G(1, 7)).vp == (10, 6, 4, 3)  # exactly the version shown
        rows = (day.folder / "results.csv").read_text().splitlines()
        assert len(rows) == 1 + 99 * 4
    finally:
        day.store.close()
