"""Tournament files end to end: schedule, round packs with players, single
tables, standings and finals, all reproducible from the file alone."""

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from setupgen import generate
from setupgen.cli import app
from setupgen.tournament import jobs as tj
from setupgen.tournament import model as tournament

ROOT = Path(__file__).resolve().parent.parent
SWISS = ROOT / "examples" / "swiss-2010" / "tournament.toml"
AUS = ROOT / "examples" / "australian" / "tournament.toml"


@pytest.fixture()
def runner():
    return CliRunner()


def results_csv(t, sched, rounds=None):
    """Made-up but legal results: at each table the player in seat
    ((round + table) mod size) + 1 wins with the threshold; the others get
    2 + (seat * 3 + table) mod 7 VP."""
    lines = ["round,table,player,vp,winner"]
    for r in rounds or sched.round_numbers():
        thr = t.round(r).victory_points
        for table in range(1, sched.tables(r) + 1):
            ids = sched.table(r, table)
            win = (r + table) % len(ids)
            for seat, pid in enumerate(ids):
                vp = thr if seat == win else 2 + (seat * 3 + table) % 7
                lines.append(f"{r},{table},{pid},{vp},{'yes' if seat == win else 'no'}")
    return "\n".join(lines) + "\n"


def test_examples_load():
    t = tournament.load(SWISS)
    assert len(t.players) == 48 and [r.scenario for r in t.rounds] == ["base-3-4", "base-3-4", "seafarers-sm2010"]
    assert [r.victory_points for r in t.rounds] == [10, 10, 12]
    assert t.final.players == 8 and t.final.scenario == "cities-knights" and t.final.victory_points == 13
    assert t.table_seed(2, 5) == "sm2010/r2/t5"
    a = tournament.load(AUS)
    assert len(a.players) == 64 and len(a.rounds) == 4 and a.final.players == 16


@pytest.mark.parametrize(
    "change, fragment",
    [
        (('seed = "sm2010"', 'seed = ""'), "seed: must not be empty"),
        (("table_size = 4", "table_size = 5"), "table_size: expected 4"),
        (('scenario = "seafarers-sm2010"', 'scenario = "nope"'), "rounds[2].scenario: unknown scenario 'nope'"),
        (("victory_points = 12", 'victory_points = "x"'), "rounds[2].victory_points: expected int"),
        (("players = 8\n", "players = 7\n"), 'final.players: expected 4, 8, 16 or "by-attendance"'),
        (('language = "de-CH"', 'language = "fr"'), "unknown language 'fr'"),
        (('players = "players.csv"', 'players = "missing.csv"'), "cannot read the players file"),
        (("4 = [4, 3, 2, 1]", "4 = [4, 3, 2]"), "scoring.placing_points.4: expected a list of 4 points"),
        (
            (
                'tie_breakers = ["placing_points", "victory_points", "vp_share", "lots"]',
                'tie_breakers = ["placing_points", 1, 2, 3]',
            ),
            "scoring.tie_breakers",
        ),
        (("4 = [4, 3, 2, 1]", "4 = [inf, 3, 2, 1]"), "scoring.placing_points.4"),
        (("4 = [4, 3, 2, 1]", "4 = [1, 2, 3, 4]"), "not increasing"),
        (
            (
                'tie_breakers = ["placing_points", "victory_points", "vp_share", "lots"]',
                'tie_breakers = ["placing_points", "lots", "victory_points", "vp_share"]',
            ),
            "must come last",
        ),
        ((", 3 = [4, 2, 1]", ""), "no points for tables of 3"),
        (("table_size = 4", "tabel_size = 4"), "tabel_size: unknown key"),
        (("victory_points = 13", "victory_points = -4"), "final.victory_points"),
        # issue 43: no source says which pieces and limits of a 5-6 scenario hold at a final table of four
        (('scenario = "cities-knights"', 'scenario = "base-5-6"'), "final.scenario: base-5-6 is a 5-6 player scenario"),
        (('scenario = "cities-knights"', 'scenario = "oil-springs-5-6"'), "choose a 3-4 player scenario"),
    ],
)
def test_bad_tournament_files_name_the_key(tmp_path, change, fragment):
    shutil.copy(SWISS.parent / "players.csv", tmp_path / "players.csv")
    old, new = change
    text = SWISS.read_text()
    assert old in text
    (tmp_path / "t.toml").write_text(text.replace(old, new, 1))
    with pytest.raises(tournament.TournamentError) as info:
        tournament.load(tmp_path / "t.toml")
    message = str(info.value)
    assert fragment in message
    assert "t.toml" in message or "players file" in fragment


def test_bad_players_files_name_the_line(tmp_path):
    (tmp_path / "p.csv").write_text("id,name\na,Anna\nb,Ben\na,Again\n")
    with pytest.raises(tournament.TournamentError, match="line 4: player id 'a' already on line 2"):
        tournament.read_players(tmp_path / "p.csv")
    (tmp_path / "p.csv").write_text("ident,name\n")
    with pytest.raises(tournament.TournamentError, match="line 1: the header needs the columns id and name"):
        tournament.read_players(tmp_path / "p.csv")


def test_swiss_tournament_end_to_end_is_byte_identical(runner, tmp_path):
    def run_all(folder):
        out = str(folder)
        res = runner.invoke(app, ["schedule", str(SWISS), "-o", out])
        assert res.exit_code == 0, res.output
        assert "repeated opponents: none" in res.stdout
        for r in (1, 2, 3):
            res = runner.invoke(app, ["round", str(SWISS), "--round", str(r), "-o", out])
            assert res.exit_code == 0, res.output
        t = tournament.load(SWISS)
        sched = tj.current_schedule(t, folder)
        (folder / "results.csv").write_text(results_csv(t, sched))
        res = runner.invoke(app, ["standings", str(SWISS), str(folder / "results.csv"), "-o", out])
        assert res.exit_code == 0, res.output
        res = runner.invoke(app, ["finals", str(SWISS), str(folder / "results.csv"), "--players", "8", "-o", out])
        assert res.exit_code == 0, res.output
        return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}

    one = run_all(tmp_path / "a")
    two = run_all(tmp_path / "b")
    assert one == two
    assert "round-3/key.pdf" in one and "final/round.pdf" in one and "standings.pdf" in one
    manifest = json.loads(one["round-2/manifest.json"])
    assert manifest["boards"][4]["seed"] == "sm2010/r2/t5" and manifest["round"] == 2
    assert one["round-2/table-05.json"].decode() == generate.from_seed("base-3-4", "sm2010/r2/t5").to_json() + "\n"
    final = json.loads(one["final/manifest.json"])
    assert final["scenario"] == "cities-knights" and final["tables"] == 2
    # the schedule CSV: round, table, seat, player; 48 players x 3 rounds
    rows = one["schedule.csv"].decode().splitlines()
    assert rows[0] == "round,table,seat,player" and len(rows) == 1 + 48 * 3


def test_round_sheet_names_the_players_in_starting_order(tmp_path):
    from pypdf import PdfReader

    t = tournament.load(SWISS)
    sched = tj.current_schedule(t, tmp_path)
    request = tj.round_request(t, sched, 1)
    from setupgen.tournament import roundpack

    roundpack.write_round(request, tmp_path / "r1")
    # director's page, its blank back, then sheet / almanac per table: table 3's sheet is page 7
    text = PdfReader(str(tmp_path / "r1" / "round.pdf")).pages[6].extract_text()
    names = t.player_names()
    ids = sched.table(1, 3)
    positions = [text.index(names[p]) for p in ids]
    assert positions == sorted(positions)  # listed in starting order
    assert "Runde 1" in text and t.name in text


def test_single_table_regenerates_alone(runner, tmp_path):
    res = runner.invoke(
        app, ["board", "--tournament", str(SWISS), "--round", "2", "--table", "7", "--format", "json", "-o", "-"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["seed"] == "sm2010/r2/t7"
    res = runner.invoke(app, ["board", "--tournament", str(SWISS), "--round", "2", "--table", "99", "-o", "-"])
    assert res.exit_code == 2 and "tables 1-12" in res.stderr


def saved(t, folder):
    """The tournament's schedule, planned and saved in ``folder`` (the
    ranking commands read a saved schedule, never plan one)."""
    sched = tj.current_schedule(t, folder)
    tj.write_schedule(t, sched, folder)
    return sched


def test_australian_semi_finals_and_final(runner, tmp_path):
    out = str(tmp_path)
    t = tournament.load(AUS)
    sched = saved(t, tmp_path)
    assert sched.quality(t.players).repeat_pairs == 0
    (tmp_path / "results.csv").write_text(results_csv(t, sched))
    res = runner.invoke(app, ["finals", str(AUS), str(tmp_path / "results.csv"), "--players", "16", "-o", out])
    assert res.exit_code == 0, res.output
    ranked, _, _ = tj.make_standings(t, sched, tmp_path / "results.csv")
    names = tj.display_names(t)
    first = res.stdout.splitlines()[0]
    order = [ranked[i - 1].player for i in (1, 8, 9, 16)]
    assert first == "table 1: " + ", ".join(names[p] for p in order)
    winners = ",".join(ranked[i].player for i in (3, 0, 2, 1))
    res = runner.invoke(
        app, ["finals", str(AUS), str(tmp_path / "results.csv"), "--players", "16", "--winners", winners, "-o", out]
    )
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0] == "table 1: " + ", ".join(names[ranked[i].player] for i in range(4))


def test_drop_out_and_late_entry_replan_from_round_2(runner, tmp_path):
    folder = tmp_path / "t"
    shutil.copytree(SWISS.parent, folder)
    res = runner.invoke(app, ["schedule", str(folder / "tournament.toml"), "-o", str(tmp_path / "out")])
    assert res.exit_code == 0
    before = (tmp_path / "out" / "schedule.csv").read_text().splitlines()
    players = (folder / "players.csv").read_text().splitlines()
    players = [ln for ln in players if not ln.startswith("ch07,")] + ["late1,Late Entry,"]
    (folder / "players.csv").write_text("\n".join(players) + "\n")
    res = runner.invoke(
        app, ["schedule", str(folder / "tournament.toml"), "--from-round", "2", "-o", str(tmp_path / "out")]
    )
    assert res.exit_code == 0, res.output
    after = (tmp_path / "out" / "schedule.csv").read_text().splitlines()
    assert [r for r in after if r.startswith("1,")] == [r for r in before if r.startswith("1,")]
    later = [r for r in after if not r.startswith(("1,", "round"))]
    assert not any(r.endswith(",ch07") for r in later) and any(r.endswith(",late1") for r in later)


def test_bad_inputs_one_line_exit_2(runner, tmp_path):
    saved(tournament.load(SWISS), tmp_path)
    cases = [
        (["round", str(SWISS), "--round", "1", "--tables", "3"], "not both"),
        (["round", str(SWISS)], "--round N"),
        (["round", str(SWISS), "--round", "9", "-o", str(tmp_path)], "no round 9"),
        (["round"], "--tables N"),
        (["schedule", str(tmp_path / "none.toml")], "cannot read"),
        (["schedule", str(SWISS), "--from-round", "2", "-o", str(tmp_path / "empty")], "schedule.csv"),
        (["finals", str(SWISS), str(tmp_path / "missing.csv"), "--players", "8", "-o", str(tmp_path)], "cannot read"),
        (["board", "--tournament", str(SWISS), "--round", "1"], "go together"),
    ]
    for args, fragment in cases:
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:") and fragment in lines[0], (args, res.stderr)


def test_bad_results_are_reported_with_line_numbers(runner, tmp_path):
    t = tournament.load(SWISS)
    sched = saved(t, tmp_path)
    text = results_csv(t, sched, rounds=[1]).splitlines()
    text[3] = text[3].replace(",", ",", 2).rsplit(",", 2)[0] + ",99,no"  # VP out of range
    text.append(text[5])  # a game recorded twice
    text.append("1,1,nobody,5,no")  # unknown player
    (tmp_path / "bad.csv").write_text("\n".join(text) + "\n")
    res = runner.invoke(app, ["standings", str(SWISS), str(tmp_path / "bad.csv"), "-o", str(tmp_path)])
    assert res.exit_code == 2
    lines = res.stderr.splitlines()
    assert lines[0].startswith("error: ") and "problems" in lines[0]
    assert "line 4: vp 99" in res.stderr and "line 51: unknown player 'nobody'" in res.stderr
    assert "line 50: player" in res.stderr and "already recorded in round 1" in res.stderr
    assert all(ln.startswith("  line ") for ln in lines[1:])
    assert not (tmp_path / "standings.csv").exists()


def test_shared_setup_gives_every_table_the_same_board(tmp_path):
    shutil.copy(SWISS.parent / "players.csv", tmp_path / "players.csv")
    text = SWISS.read_text().replace(
        'scenario = "seafarers-sm2010"\nvictory_points = 12',
        'scenario = "seafarers-sm2010"\nvictory_points = 12\nsetup = "shared"',
        1,
    )
    (tmp_path / "t.toml").write_text(text)
    t = tournament.load(tmp_path / "t.toml")
    assert t.round(3).setup == "shared" and t.round(1).setup == "per-table"
    sched = tj.current_schedule(t, tmp_path)
    request = tj.round_request(t, sched, 3)
    assert set(request.table_seeds) == {"sm2010/r3"}
    boards = {generate.from_seed("seafarers-sm2010", s).tiles for s in request.table_seeds}
    assert len(boards) == 1
    assert len(set(tj.round_request(t, sched, 1).table_seeds)) == 12


def test_finals_winners_must_be_one_per_semi_final(runner, tmp_path):
    out = str(tmp_path)
    t = tournament.load(AUS)
    sched = saved(t, tmp_path)
    (tmp_path / "results.csv").write_text(results_csv(t, sched))
    ranked, _, _ = tj.make_standings(t, sched, tmp_path / "results.csv")
    r = [s.player for s in ranked]
    cases = [
        ([r[0], r[1], r[2], r[19]], "did not play a semi-final"),  # rank 20 never played one
        ([r[0], r[7], r[1], r[2]], "table 1"),  # two winners of table 1 (ranks 1 and 8)
        ([r[0], r[1], r[2]], "table 4"),  # table 4 has none
    ]
    for winners, fragment in cases:
        res = runner.invoke(
            app,
            [
                "finals",
                str(AUS),
                str(tmp_path / "results.csv"),
                "--players",
                "16",
                "--winners",
                ",".join(winners),
                "-o",
                out,
            ],
        )
        assert res.exit_code == 2 and fragment in res.stderr, (winners, res.stderr)
    res = runner.invoke(
        app,
        ["finals", str(SWISS), str(tmp_path / "results.csv"), "--players", "8", "--winners", "ch01,ch02", "-o", out],
    )
    assert res.exit_code == 2
    res = runner.invoke(
        app, ["finals", str(AUS), str(tmp_path / "results.csv"), "--players", "16", "--winners", "", "-o", out]
    )
    assert res.exit_code == 2 and "empty" in res.stderr


def test_dropped_player_without_replan_is_refused(runner, tmp_path):
    folder = tmp_path / "t"
    shutil.copytree(SWISS.parent, folder)
    out = str(tmp_path / "out")
    assert runner.invoke(app, ["schedule", str(folder / "tournament.toml"), "-o", out]).exit_code == 0
    players = [ln for ln in (folder / "players.csv").read_text().splitlines() if not ln.startswith("ch48,")]
    (folder / "players.csv").write_text("\n".join(players) + "\n")
    res = runner.invoke(app, ["round", str(folder / "tournament.toml"), "--round", "2", "-o", out])
    assert res.exit_code == 2 and "--from-round 2" in res.stderr and "ch48" in res.stderr


def test_binary_and_odd_players_files(tmp_path):
    (tmp_path / "t.toml").write_bytes(b"\xff\xfe\x00n")
    with pytest.raises(tournament.TournamentError, match="it is not UTF-8 text"):
        tournament.load(tmp_path / "t.toml")
    for text, fragment in [
        ("id;name\na;b\n", "semicolons"),
        ("id,name\na,An\x01na\n", "control characters"),
        ("id,name\na,Anna,extra\n", "more cells than columns"),
        ("id,id,name\n", "named twice"),
    ]:
        (tmp_path / "p.csv").write_text(text)
        with pytest.raises(tournament.TournamentError, match=fragment):
            tournament.read_players(tmp_path / "p.csv")


# -- seating by standings (issue 13, point 5) ----------------------------------


def standings_folder(tmp_path: Path) -> Path:
    """The Swiss example with round 3 marked ``seating = "standings"``."""
    folder = tmp_path / "t"
    shutil.copytree(SWISS.parent, folder)
    text = (folder / "tournament.toml").read_text()
    old = 'scenario = "seafarers-sm2010"\n'
    assert old in text
    (folder / "tournament.toml").write_text(text.replace(old, old + 'seating = "standings"\n'))
    return folder


def test_round_seated_by_standings(runner, tmp_path):
    folder = standings_folder(tmp_path)
    toml, out = folder / "tournament.toml", tmp_path / "out"
    t = tournament.load(toml)
    assert [r.seating for r in t.rounds] == ["schedule", "schedule", "standings"]
    assert runner.invoke(app, ["schedule", str(toml), "-o", str(out)]).exit_code == 0
    sched = tj.current_schedule(t, out)
    results = tmp_path / "results.csv"
    results.write_text(results_csv(t, sched, rounds=[1, 2]))
    res = runner.invoke(app, ["schedule", str(toml), "--from-round", "3", "--results", str(results), "-o", str(out)])
    assert res.exit_code == 0, res.output
    again = tj.current_schedule(t, out)
    assert [x for x in again.seats if x.round < 3] == [x for x in sched.seats if x.round < 3]
    ranked = tj.rank_order(t, again, results)
    res = runner.invoke(app, ["standings", str(toml), str(results), "-o", str(out)])
    assert res.exit_code == 0, res.output
    head, *rows = (out / "standings.csv").read_text().splitlines()
    col = head.split(",").index("player")
    assert [ln.split(",")[col] for ln in rows] == ranked  # the order of the standings
    for table in range(1, 13):  # 48 players: ranks 1-4 at table 1, 5-8 at table 2, ...
        assert sorted(again.table(3, table)) == sorted(ranked[4 * table - 4 : 4 * table])
    # each table's start positions the best its players' rounds 1-2 allow: the
    # fewest positions taken again (by every permutation)
    import itertools

    took = {(x.player, x.seat) for x in again.seats if x.round < 3}
    for table in range(1, 13):
        ids = again.table(3, table)
        best = min(sum((pid, s + 1) in took for s, pid in enumerate(perm)) for perm in itertools.permutations(ids))
        assert sum((pid, s + 1) in took for s, pid in enumerate(ids)) == best


def test_standings_round_needs_the_results_and_only_it_takes_them(runner, tmp_path):
    folder = standings_folder(tmp_path)
    toml, out = folder / "tournament.toml", tmp_path / "out"
    assert runner.invoke(app, ["schedule", str(toml), "-o", str(out)]).exit_code == 0
    res = runner.invoke(app, ["schedule", str(toml), "--from-round", "3", "-o", str(out)])
    assert res.exit_code == 2 and res.stderr == (
        "error: round 3 is seated by standings: the results so far are needed (give --results)\n"
    )
    assert len(res.stderr.splitlines()) == 1
    results = tmp_path / "results.csv"
    results.write_text("round,table,player,vp,winner\n")
    res = runner.invoke(app, ["schedule", str(toml), "--from-round", "2", "--results", str(results), "-o", str(out)])
    assert res.exit_code == 2 and res.stderr.startswith("error: --results: the results seat only a round marked")
    text = (folder / "tournament.toml").read_text().replace('seating = "standings"', 'seating = "rank"')
    (folder / "tournament.toml").write_text(text)
    with pytest.raises(tournament.TournamentError, match=r"rounds\[2\]\.seating: expected one of schedule, standings"):
        tournament.load(toml)
