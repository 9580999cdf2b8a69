"""A season across events (issue 45; docs/rules.md section 6, "Seasons"):
a hand-worked three-event season, best two of three results, one player
whose id changed between events, one tie broken by the season's keys; bad
input as one clear line and exit 2 with nothing written."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from setupgen.cli import app
from setupgen.tournament import season as sn

SEASON = """name = "Club Series"
seed = "series"
language = "en"
points = {{ places = [10, 6, 4, 3], rest = 1 }}
best = 2
aliases = "aliases.csv"
{extra}
[[events]]
id = "spring"
tournament = "spring/t.toml"
folder = "spring/out"

[[events]]
id = "summer"
tournament = "summer/t.toml"
folder = "summer/out"

[[events]]
id = "autumn"
tournament = "autumn/t.toml"
folder = "autumn/out"
"""

#: the events: players (id, name) and their final places, 1st first
EVENTS = {
    "spring": (
        [("a", "Anna Maier"), ("b", "Ben"), ("c", "Carl"), ("d", "Dana"), ("e", "Eva")],
        ["a", "b", "c", "e", "d"],
    ),
    "summer": (
        [("a", "Anna Maier"), ("b", "Ben"), ("c", "Carl"), ("x", "Dana S."), ("f", "anna  maier")],
        ["b", "x", "a", "c", "f"],
    ),
    "autumn": ([("a", "Anna Maier"), ("c", "Carl"), ("d", "Dana"), ("e", "Eva")], ["a", "e", "c", "d"]),
}


def make_season(tmp_path: Path, extra: str = "", aliases: str = "event,id,player\nsummer,x,d\n") -> Path:
    for key, (players, places) in EVENTS.items():
        folder = tmp_path / key
        (folder / "out").mkdir(parents=True)
        (folder / "players.csv").write_text("id,name\n" + "".join(f"{i},{n}\n" for i, n in players))
        (folder / "t.toml").write_text(
            f'name = "{key.title()} Open"\nseed = "{key}"\nplayers = "players.csv"\n[[rounds]]\nscenario = "base-3-4"\n'
        )
        rows = "".join(f"{n},{p},final,1,4,10,{n},placing_points\n" for n, p in enumerate(places, start=1))
        if key == "autumn":  # no finals: its standings
            rows = "".join(f"{n},{p},4,10,30.00,1\n" for n, p in enumerate(places, start=1))
            (folder / "out" / "standings.csv").write_text(
                "rank,player,placing_points,victory_points,vp_share,games\n" + rows
            )
        else:
            (folder / "out" / "placings.csv").write_text(
                "place,player,stage,table,placing_points,vp,rank,decided_by\n" + rows
            )
    # spring also has standings in another order: the placings are used
    (tmp_path / "spring" / "out" / "standings.csv").write_text(
        "rank,player,placing_points,victory_points,vp_share,games\n1,e,4,10,30.00,1\n2,d,3,9,25.00,1\n"
        "3,c,2,8,20.00,1\n4,b,1,7,15.00,1\n5,a,0,6,10.00,1\n"
    )
    (tmp_path / "aliases.csv").write_text(aliases)
    (tmp_path / "season.toml").write_text(SEASON.format(extra=extra))
    return tmp_path / "season.toml"


#: worked by hand: points 10/6/4/3, rest 1, best two of three.
#: a: 10, 4, 10 -> 20 (summer's 4 dropped); b: 6, 10 -> 16; d (x in summer): 1, 6, 3 -> 9 (spring's 1
#: dropped), 3 events; e: 3, 6 -> 9, 2 events (d before e: more events); c: 4, 3, 4 -> 8; f: 1.
EXPECTED = """rank,player,name,points,events,best,spring,summer,autumn,lot
1,a,Anna Maier,20,3,10,10,[4],10,
2,b,Ben,16,2,10,6,10,,
3,d,Dana,9,3,6,[1],6,3,
4,e,Eva,9,2,6,3,,6,
5,c,Carl,8,3,4,4,[3],4,
6,f,anna  maier,1,1,1,,1,,
"""


def test_a_hand_worked_season(tmp_path):
    path = make_season(tmp_path)
    standings, events = sn.season_standings(sn.load_season(path))
    assert [e.source for e in events] == ["placings.csv", "placings.csv", "standings.csv"]
    assert sn.season_csv(standings, events) == EXPECTED
    assert all(s.lots is None for s in standings)
    rows = sn.season_listing(sn.load_season(path), standings, events).rows
    assert rows[-3:] == tuple(
        (f"## {line}", *[""] * 8)
        for line in (
            "spring: Spring Open, places from placings.csv",
            "summer: Summer Open, places from placings.csv",
            "autumn: Autumn Open, places from standings.csv",
        )
    )
    assert rows[0] == ("1", "Anna Maier", "20", "3", "10", "10 · 1.", "[4 · 3.]", "10 · 1.", "")
    warnings = sn.look_alikes(standings, events)
    assert len(warnings) == 1 and "'Anna Maier' (autumn: a)" in warnings[0] and "(summer: f)" in warnings[0]


def test_the_tie_breakers_and_the_count_are_the_files(tmp_path):
    # all results counting: a 24, b 16, d 10, c 11, e 9, f 1
    path = make_season(tmp_path, extra="")
    text = path.read_text().replace("best = 2\n", "")
    path.write_text(text)
    standings, events = sn.season_standings(sn.load_season(path))
    assert [(s.player, str(s.points)) for s in standings] == [
        ("a", "24"),
        ("b", "16"),
        ("c", "11"),
        ("d", "10"),
        ("e", "9"),
        ("f", "1"),
    ]
    # best two, the best result first: d and e are level on it (6) too, so lots decide
    path.write_text(
        text.replace(
            'aliases = "aliases.csv"', 'best = 2\naliases = "aliases.csv"\ntie_breakers = ["best_result", "lots"]'
        )
    )
    standings, _ = sn.season_standings(sn.load_season(path))
    tied = {s.player: s for s in standings if s.player in ("d", "e")}
    assert {s.rank for s in tied.values()} == {3, 4} and {s.lots for s in tied.values()} == {1, 2}


def test_without_the_alias_the_changed_id_is_another_player(tmp_path):
    path = make_season(tmp_path, aliases="event,id,player\n")
    standings, _ = sn.season_standings(sn.load_season(path))
    points = {s.player: str(s.points) for s in standings}
    assert points["x"] == "6" and points["d"] == "4"  # d: 1 and 3 only


def test_a_field_scheme_scaled(tmp_path):
    path = make_season(tmp_path)
    path.write_text(
        path.read_text().replace("points = { places = [10, 6, 4, 3], rest = 1 }", 'points = "field"\nscale = true')
    )
    standings, _ = sn.season_standings(sn.load_season(path))
    # field: 5 players -> 5, 4, 3, 2, 1; 4 players -> 4, 3, 2, 1, scaled by 4/5 -> 3.2, 2.4, 1.6, 0.8
    a = next(s for s in standings if s.player == "a")
    assert str(a.points) == "41/5"  # spring 5 + autumn 3.2 (summer's 3 dropped)


def test_the_command_writes_csv_and_pdf_and_warns(tmp_path):
    path = make_season(tmp_path)
    out = tmp_path / "season-out"
    res = CliRunner().invoke(app, ["season", str(path), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert (out / "season.csv").read_text() == EXPECTED and (out / "season.pdf").read_bytes().startswith(b"%PDF")
    assert "look alike" in res.stderr and res.stdout.splitlines()[1].split()[:3] == ["1", "Anna", "Maier"]


@pytest.mark.parametrize(
    "change, fragment",
    [
        (("spring/t.toml", "spring/none.toml"), "event spring: cannot read the tournament file"),
        (("summer/out", "summer/empty"), "event summer: no placings.csv nor standings.csv"),
        (("best = 2", "best = 0"), "best: expected 1 to 100 results"),
        (("rest = 1 }", "rest = 20 }"), "points: expected points from 0 to 10000"),
        (('id = "autumn"', 'id = "spring"'), "events[2].id: 'spring' is listed twice"),
        (("best = 2", 'best = 2\ntie_breakers = ["lots", "events"]'), "tie_breakers: expected"),
        (("best = 2", "best = 2\npoints_scheme = 1"), "points_scheme: unknown key"),
    ],
)
def test_bad_season_files_are_one_line(tmp_path, change, fragment):
    path = make_season(tmp_path)
    (tmp_path / "summer" / "empty").mkdir()
    text = path.read_text()
    assert change[0] in text
    path.write_text(text.replace(change[0], change[1], 1))
    out = tmp_path / "season-out"
    res = CliRunner().invoke(app, ["season", str(path), "-o", str(out)])
    assert res.exit_code == 2 and fragment in res.stderr, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and not out.exists()


@pytest.mark.parametrize(
    "aliases, fragment",
    [
        ("event,id,player\nsummer,x,d\nsummer,x,e\n", "'x' of event summer is mapped twice"),
        ("event,id,player\nwinter,x,d\n", "no event 'winter'"),
        ("event,id,player\nsummer,zz,d\n", "'zz' is in no players file of event summer"),
        ("event,id,player\nsummer,x,a\n", "two players of event summer would be one: 'a'"),
        ("id,player\nx,d\n", "expected the header event,id,player"),
    ],
)
def test_broken_mappings_are_refused(tmp_path, aliases, fragment):
    path = make_season(tmp_path, aliases=aliases)
    res = CliRunner().invoke(app, ["season", str(path), "-o", str(tmp_path / "o")])
    assert res.exit_code == 2 and fragment in res.stderr and not (tmp_path / "o").exists(), res.stderr


@pytest.mark.parametrize(
    "rows, fragment",
    [
        ("1,a,final,1,4,10,1,\n3,b,final,1,3,8,2,\n", "line 3: expected place 2: the places are incomplete"),
        ("1,a,final,1,4,10,1,\n2,q,final,1,3,8,2,\n", "player 'q' is in no players file of the event"),
        ("1,a,final,1,4,10,1,\n2,a,final,1,3,8,2,\n", "player 'a' is placed twice"),
        ("", "no places: the event's placings are incomplete"),
    ],
)
def test_incomplete_placings_are_refused_naming_the_event(tmp_path, rows, fragment):
    path = make_season(tmp_path)
    (tmp_path / "summer" / "out" / "placings.csv").write_text(
        "place,player,stage,table,placing_points,vp,rank,decided_by\n" + rows
    )
    res = CliRunner().invoke(app, ["season", str(path), "-o", str(tmp_path / "o")])
    assert res.exit_code == 2 and "event summer:" in res.stderr and fragment in res.stderr, res.stderr


def test_shipped_schemes():
    known = sn.schemes()
    assert set(known) == {"top-100", "formula-one", "field"}
    assert known["formula-one"].points(1, 30) == 25 and known["formula-one"].points(11, 30) == 0
    assert known["top-100"].points(2, 10) == 80 and known["top-100"].points(25, 30) == 5
    assert known["field"].points(1, 30) == 30 and known["field"].points(30, 30) == 1


def test_the_example_season_over_the_shipped_events(tmp_path, monkeypatch):
    """examples/season: three shipped events run to their standings (made-up
    results: the first seated wins every table), then the season over them;
    the aliases merge cs02 (hc02, rl02) into one player of three events."""
    from test_ranking_keys import results_for

    from setupgen.render.export import slug
    from setupgen.tournament import jobs
    from setupgen.tournament import model as tournament

    root = Path(__file__).resolve().parents[1] / "examples"
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for name in ("catan-studio", "german-ranking", "fishermen-club"):
        file = root / name / "tournament.toml"
        assert runner.invoke(app, ["schedule", str(file)]).exit_code == 0
        t = tournament.load(file)
        folder = Path("output") / slug(t.name)
        sched = jobs.current_schedule(t, folder)
        (folder / "results.csv").write_text(results_for(t, sched, lambda r, k, i, p: 10 if i == 0 else 8 - i))
        assert runner.invoke(app, ["standings", str(file), str(folder / "results.csv")]).exit_code == 0
    res = runner.invoke(app, ["season", str(root / "season" / "season.toml")])
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO((tmp_path / "output" / "Example-Series-2026" / "season.csv").read_text())))
    by = {r["player"]: r for r in rows}
    assert by["cs02"]["events"] == "3" and sum(1 for r in rows if r["player"] in ("hc02", "rl02")) == 0
    counted = [c for c in (by["cs02"]["qualifier"], by["cs02"]["rangliste"], by["cs02"]["harbour"])]
    assert sum(1 for c in counted if c.startswith("[")) == 1  # best two of three
    assert [int(r["rank"]) for r in rows] == list(range(1, len(rows) + 1))
