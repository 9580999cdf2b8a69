"""One key for every game (docs/console.md, "Games"): the key itself, the
database migration that put the rounds and the finals into one table, and
the console's one route per job for rounds and finals."""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from setupgen.tournament import games, tokens
from setupgen.tournament.games import Game, GameError

# ------------------------------------------------------------------ the key


def test_a_game_key_is_stage_round_table():
    g = Game.preliminary(3, 7)
    assert (g.stage, g.round, g.table) == ("preliminary", 3, 7) and not g.is_finals
    assert g.label() == "round 3 table 7" and eval(repr(g)) == g
    f = Game.finals("semi-final", 4)
    assert (f.stage, f.round, f.table) == ("semi-final", 1, 4) and f.is_finals
    assert f.label() == "semi-final table 4" and repr(f) == "Game('semi-final', 1, 4)"
    assert sorted([Game.finals("final", 1), f, Game.preliminary(2, 1), Game.preliminary(1, 9)], key=Game.sort_key) == [
        Game.preliminary(1, 9),
        Game.preliminary(2, 1),
        f,
        Game.finals("final", 1),
    ]
    assert {Game.preliminary(1, 1), Game("preliminary", 1, 1)} == {Game.preliminary(1, 1)}


@pytest.mark.parametrize(
    "args, message",
    [
        (("quarter-final", 1, 1), "unknown stage 'quarter-final'"),
        (("preliminary", 0, 1), "round is a whole number"),
        (("preliminary", 1, 0), "table is a whole number"),
        (("preliminary", 1, True), "table is a whole number"),
        (("preliminary", "1", 1), "round is a whole number"),
        (("preliminary", 1, 10_001), "table is a whole number"),
        (("final", 2, 1), "the final is played in round 1, not 2"),
        ((None, 1, 1), "a stage is a name"),
    ],
)
def test_a_key_of_no_game_is_refused(args, message):
    with pytest.raises(GameError, match=message):
        Game(*args)
    assert issubclass(GameError, ValueError)


def test_the_preliminary_rounds_are_no_finals_stage():
    with pytest.raises(GameError, match="not a finals stage"):
        Game.finals("preliminary", 1)


@given(hs.sampled_from(games.STAGES), hs.integers(1, 10_000), hs.integers(1, 10_000))
def test_keys_repr_back_and_sort_by_stage_first(stage, rnd, table):
    rnd = 1 if stage != games.PRELIMINARY else rnd
    g = Game(stage, rnd, table)
    assert eval(repr(g)) == g
    assert g.sort_key()[0] == ("preliminary", "semi-final", "final").index(stage)


# ------------------------------------------------------------------ tokens of a game


def test_a_preliminary_token_is_the_one_printed_so_far_and_a_finals_token_names_its_stage():
    key = bytes(range(32))
    old = hmac.new(key, b"setupgen-table/1/2/3", hashlib.sha256).hexdigest()[:32]
    assert tokens.table_token(key, 2, 3) == old  # every pack printed before keeps its codes
    assert tokens.table_url("http://h:8000", key, 2, 3) == f"http://h:8000/t/2/3/{old}"
    final = hmac.new(key, b"setupgen-table/1/final/1/1", hashlib.sha256).hexdigest()[:32]
    assert tokens.table_token(key, 1, 1, "final") == final != tokens.table_token(key, 1, 1)
    assert tokens.table_url("http://h:8000", key, 1, 1, "final") == f"http://h:8000/t/final/1/{final}"
    assert tokens.token_matches(key, 1, 1, final, "final") and not tokens.token_matches(key, 1, 1, final)
    semi = hmac.new(key, b"setupgen-table/1/semi-final/1/2", hashlib.sha256).hexdigest()[:32]
    assert tokens.table_token(key, 1, 2, "semi-final") == semi
    with pytest.raises(GameError):
        tokens.table_token(key, 2, 1, "final")


# ------------------------------------------------------------------ the migration of today's databases

store = pytest.importorskip("setupgen.console.store")


def _database_of_schema_4(path) -> None:
    """A database as setupgen wrote it before games had one key (schema 4):
    a preliminary result (with statuses), a reported one, two finals
    results, and audit rows of each kind (a note at table 0 included)."""
    db = sqlite3.connect(path / "tournament.db", isolation_level=None)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (4)")
    for step in (1, 2, 3, 4):
        for statement in store.MIGRATIONS[step]:
            db.execute(statement)
    db.execute(
        "INSERT INTO results VALUES (1, 1, '[\"a\", \"b\", \"c\"]', '[10, 0, 4]', 1, 'confirmed', "
        "'director', '2026-05-01T10:00:00Z', '[\"played\", \"no-show\", \"played\"]')"
    )
    db.execute(
        "INSERT INTO results VALUES (2, 3, '[\"c\", \"a\"]', '[5, 10]', 2, 'reported', 'table', "
        "'2026-05-01T11:00:00Z', '[]')"
    )
    db.execute(
        "INSERT INTO finals VALUES ('semi-final', 2, '[\"a\", \"c\"]', '[10, 7]', 1, 'director', "
        "'2026-05-01T12:00:00Z', '[]')"
    )
    db.execute(
        "INSERT INTO finals VALUES ('final', 1, '[\"a\", \"b\"]', '[13, 4]', 1, 'director', "
        "'2026-05-01T13:00:00Z', '[\"played\", \"disqualified\"]')"
    )
    audit = [
        ("2026-05-01T10:00:00Z", "director", 1, 1, "enter", "", '{"vp": [10, 0, 4]}', ""),
        ("2026-05-01T10:30:00Z", "director", 3, 0, "leave", "", '{"id": "b"}', ""),
        ("2026-05-01T11:00:00Z", "table", 2, 3, "report", "", '{"vp": [5, 10]}', ""),
        ("2026-05-01T12:00:00Z", "director", 0, 2, "enter", "", '{"vp": [10, 7]}', "semi-final"),
        ("2026-05-01T13:00:00Z", "director", 0, 1, "correct", '{"vp": [12, 4]}', '{"vp": [13, 4]}', "final"),
    ]
    db.executemany(
        "INSERT INTO audit (at, by, round, table_no, action, old, new, stage) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", audit
    )
    db.execute("INSERT INTO meta VALUES ('results_csv_sha256', 'abc')")
    db.close()


def test_a_database_of_schema_4_keeps_every_result_and_audit_row(tmp_path):
    _database_of_schema_4(tmp_path)
    s = store.Store(tmp_path)
    assert not s.fresh and store.version(s.db) == store.SCHEMA_VERSION == 9
    R = store.TableResult
    assert s.results() == [
        R(
            Game.preliminary(1, 1),
            ("a", "b", "c"),
            (10, 0, 4),
            1,
            "confirmed",
            "director",
            "2026-05-01T10:00:00Z",
            ("played", "no-show", "played"),
        ),
        R(Game.preliminary(2, 3), ("c", "a"), (5, 10), 2, "reported", "table", "2026-05-01T11:00:00Z"),
    ]
    assert s.results("semi-final") == [
        R(Game.finals("semi-final", 2), ("a", "c"), (10, 7), 1, "confirmed", "director", "2026-05-01T12:00:00Z")
    ]
    assert s.results("final", "confirmed") == [
        R(
            Game.finals("final", 1),
            ("a", "b"),
            (13, 4),
            1,
            "confirmed",
            "director",
            "2026-05-01T13:00:00Z",
            ("played", "disqualified"),
        )
    ]
    rows = [(e.id, e.at, e.by, e.stage, e.round, e.table, e.action, e.old, e.new) for e in reversed(s.audit())]
    assert rows == [
        (1, "2026-05-01T10:00:00Z", "director", "preliminary", 1, 1, "enter", "", '{"vp": [10, 0, 4]}'),
        (2, "2026-05-01T10:30:00Z", "director", "preliminary", 3, 0, "leave", "", '{"id": "b"}'),
        (3, "2026-05-01T11:00:00Z", "table", "preliminary", 2, 3, "report", "", '{"vp": [5, 10]}'),
        (4, "2026-05-01T12:00:00Z", "director", "semi-final", 1, 2, "enter", "", '{"vp": [10, 7]}'),
        (5, "2026-05-01T13:00:00Z", "director", "final", 1, 1, "correct", '{"vp": [12, 4]}', '{"vp": [13, 4]}'),
    ]
    assert [e.id for e in s.audit(Game.finals("final", 1))] == [5]
    assert [e.id for e in s.audit(round_number=3)] == [2]
    assert s.get("results_csv_sha256") == "abc"
    tables = {r[0] for r in s.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "audit", "meta", "schema_version"} <= tables and not tables & {"results", "finals"}
    new = R(Game.preliminary(2, 3), ("c", "a"), (5, 10), 2, "confirmed", "director", "t")
    assert s.record(new, "confirm").state == "reported"  # the migrated row is the game's row
    assert json.loads(s.audit()[0].old)["state"] == "reported" and s.audit()[0].id == 6
    s.close()
    again = store.Store(tmp_path)  # opened again: nothing migrates twice
    assert len(again.audit()) == 6 and len(again.results()) == 2
    again.close()


def test_a_migration_that_fails_leaves_the_database_as_it_was(tmp_path, monkeypatch):
    _database_of_schema_4(tmp_path)
    broken = dict(store.MIGRATIONS)
    broken[5] = store.MIGRATIONS[5][:-1] + ("UPDATE no_such_table SET x = 1",)
    monkeypatch.setattr(store, "MIGRATIONS", broken)
    with pytest.raises(store.StoreError, match="no_such_table"):
        store.Store(tmp_path)
    db = sqlite3.connect(tmp_path / "tournament.db")
    assert db.execute("SELECT version FROM schema_version").fetchone() == (4,)
    assert db.execute("SELECT COUNT(*) FROM results").fetchone() == (2,)
    assert db.execute("SELECT COUNT(*) FROM finals").fetchone() == (2,)
    db.close()


# ------------------------------------------------------------------ one route per job


def test_rounds_and_finals_share_one_handler_per_job():
    pytest.importorskip("starlette")
    from setupgen.console import app

    routes = {r.path: r.endpoint for r in app._routes()}
    assert routes["/rounds/{n:int}/tables/{t:int}"] is routes["/finals/{stage:str}/tables/{t:int}"]
    assert routes["/rounds/{n:int}/tables/{t:int}/confirm"] is routes["/finals/{stage:str}/tables/{t:int}/confirm"]
    assert routes["/t/{n:int}/{t:int}/{token:str}"] is routes["/t/{stage:str}/{t:int}/{token:str}"]


def test_a_finals_results_file_is_read_as_round_1_of_its_stage():
    from setupgen.tournament import standings

    assert standings.STAGE_ROUND == games.FINALS_ROUND == 1
    rows = standings.read_results(
        "round,table,player,vp,winner\nfinal,1,a,10,yes\nfinal,1,b,7,no\n",
        source="f",
        players={"a", "b"},
        thresholds={1: 10},
        stage="final",
    )
    assert [(r.round, r.table, r.player) for r in rows] == [(1, 1, "a"), (1, 1, "b")]
    assert {Game.finals("final", r.table) for r in rows} == {Game("final", rows[0].round, 1)}
