"""The final placings after the finals (docs/rules.md section 6, "Final
placings"): hand-worked examples of a final of 8 and of semi-finals of 16,
finals results files read as results files are, and `setupgen placings`."""

import csv
import io
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst
from typer.testing import CliRunner

from setupgen.cli import app
from setupgen.tournament import placings as pl
from setupgen.tournament import standings as sd
from setupgen.tournament.standings import AUSTRALIAN, GameResult, ResultsError, read_results


def stage(rows, stage_round=sd.STAGE_ROUND):
    """GameResults of one stage: rows of (table, player, vp, won)."""
    return [GameResult(stage_round, t, p, vp, won) for t, p, vp, won in rows]


# -------------------------------------------------------------- a final of 8, worked by hand

RANK8 = [f"q{k}" for k in range(1, 13)]  # the preliminary ranking, q1 best
# seated 1-4-5-8 / 2-3-6-7: table 1 q1 q4 q5 q8, table 2 q2 q3 q6 q7
FINAL8 = stage(
    [
        (1, "q1", 7, False),
        (1, "q4", 10, True),
        (1, "q5", 8, False),
        (1, "q8", 8, False),
        (2, "q2", 10, True),
        (2, "q3", 9, False),
        (2, "q6", 4, False),
        (2, "q7", 6, False),
    ]
)


def test_final_of_8_two_tables_ranked_together():
    # placing points: table 1 q4 4, q5 and q8 (3 + 2) / 2 = 2.5, q1 1; table 2 q2 4, q3 3, q7 2, q6 1.
    # The two winners both have 10 VP; VP shares: q2 10 of 29 = 34.48 beats q4 10 of 33 = 30.30:
    # q2 is champion, q4 2nd. q5 and q8 are level on points, VP and share: preliminary rank (5 before 8).
    placed = pl.placings(RANK8, 8, FINAL8, scoring=AUSTRALIAN, threshold=10)
    assert [p.player for p in placed] == ["q2", "q4", "q3", "q5", "q8", "q7", "q1", "q6", "q9", "q10", "q11", "q12"]
    assert [p.place for p in placed] == list(range(1, 13))
    first, fourth, ninth = placed[0], placed[3], placed[8]
    assert (first.stage, first.table, first.placing_points, first.vp, first.rank) == ("final", 2, 4, 10, 2)
    assert fourth.placing_points == F(5, 2) and fourth.table == 1
    assert (ninth.stage, ninth.table, ninth.placing_points, ninth.vp, ninth.rank) == (
        "preliminary",
        None,
        None,
        None,
        9,
    )


def test_each_place_names_the_tie_break_that_put_it_ahead_of_the_next():
    # worked by hand from the order above: q2 and q4 both 4 points and 10 VP, q2 ahead on VP share;
    # q4, q3, q8, q7 ahead of the next on placing points; q5 and q8 level but for the preliminary rank;
    # q1 (7 VP) and q6 (4 VP) both 1 point; q6 the final's last, the rest by preliminary rank, q12 last of all
    placed = pl.placings(RANK8, 8, FINAL8, scoring=AUSTRALIAN, threshold=10)
    assert [p.decided_by for p in placed] == [
        "vp_share",
        "placing_points",
        "placing_points",
        "preliminary_rank",
        "placing_points",
        "placing_points",
        "victory_points",
        "stage",
        "preliminary_rank",
        "preliminary_rank",
        "preliminary_rank",
        "",
    ]
    assert set(p.decided_by for p in placed) <= set(pl.DECIDERS) | {""}
    # 16 finalists (the order of test_semi_finals_of_16_then_the_final)
    placed = pl.placings(RANK16, 16, FINAL16, SEMIS, scoring=AUSTRALIAN, threshold=10)
    assert [p.decided_by for p in placed] == [
        "placing_points",
        "preliminary_rank",
        "placing_points",
        "stage",  # r08 r04 r11 r02
        "victory_points",
        "placing_points",
        "preliminary_rank",
        "victory_points",
        "preliminary_rank",  # r05-r09
        "placing_points",
        "victory_points",
        "placing_points",
        "victory_points",
        "victory_points",  # r16-r12
        "victory_points",
        "stage",  # r10 r14
        "preliminary_rank",
        "preliminary_rank",
        "preliminary_rank",
        "",
    ]  # r17-r20


def test_vp_above_the_threshold_count_only_up_to_it():
    # q2 ends on 12 VP, over the threshold of 10: capped, so 10 of 29 as before, still ahead of q4 (30.30)
    # and not ahead by the extra VP alone; with the cap at 12, q2 has 12 of 31 = 38.71: the same order.
    higher = [r if r.player != "q2" else GameResult(sd.STAGE_ROUND, 2, "q2", 12, True) for r in FINAL8]
    assert [p.player for p in pl.placings(RANK8, 8, higher, scoring=AUSTRALIAN, threshold=10)][:2] == ["q2", "q4"]
    # q4 wins table 1 with 10 VP while the others score little: 10 of 22 = 45.45 > q2's 34.48
    low = [r if r.table == 2 or r.player == "q4" else GameResult(sd.STAGE_ROUND, 1, r.player, 4, False) for r in FINAL8]
    assert [p.player for p in pl.placings(RANK8, 8, low, scoring=AUSTRALIAN, threshold=10)][:2] == ["q4", "q2"]


def test_a_winner_above_the_threshold_is_ranked_by_the_capped_vp_and_share():
    # Issue 41 (placings.py: the finals' VP key). Table 1: q4 wins with 11 VP (threshold 10), q1 q5 q8 have 9
    # each; table 2: q2 wins with 10, q3 5, q6 4, q7 3. Both winners have 4 placing points and, capped, 10 VP:
    # the VP share decides. Capped: q4 10 of 10 + 9 + 9 + 9 = 37 = 27.03 %, q2 10 of 22 = 45.45 %: q2 is
    # champion. (Counting q4's 11 VP uncapped would make q4 champion on VP alone.)
    final = stage(
        [
            (1, "q1", 9, False),
            (1, "q4", 11, True),
            (1, "q5", 9, False),
            (1, "q8", 9, False),
            (2, "q2", 10, True),
            (2, "q3", 5, False),
            (2, "q6", 4, False),
            (2, "q7", 3, False),
        ]
    )
    placed = pl.placings(RANK8, 8, final, scoring=AUSTRALIAN, threshold=10)
    assert [p.player for p in placed][:2] == ["q2", "q4"]
    assert [p.decided_by for p in placed][:1] == ["vp_share"]
    assert (placed[1].vp, placed[1].placing_points) == (11, 4)  # the VP as entered are shown


def test_the_finals_vp_share_counts_the_table_with_capped_vp():
    # Issue 41 (placings.py: the finals' share). Table 1: q4 wins with 20 VP (threshold 10 + 10), q5 8,
    # q1 3, q8 2; table 2: q2 wins with 10, q3 8, q6 5, q7 4. The two seconds, q5 and q3, have 3 placing
    # points and 8 VP each: the share decides. With the winner capped at 10, table 1 totals 23 and q5 has
    # 8/23 = 34.78 %; table 2 totals 27 and q3 has 8/27 = 29.63 %: q5 3rd, q3 4th. (Uncapped, table 1
    # totals 33 and q5's 8/33 = 24.24 % would put q3 ahead.)
    final = stage(
        [
            (1, "q1", 3, False),
            (1, "q4", 20, True),
            (1, "q5", 8, False),
            (1, "q8", 2, False),
            (2, "q2", 10, True),
            (2, "q3", 8, False),
            (2, "q6", 5, False),
            (2, "q7", 4, False),
        ]
    )
    placed = pl.placings(RANK8, 8, final, scoring=AUSTRALIAN, threshold=10)
    # winners: q4 10 of 23 = 43.48 % ahead of q2 10 of 27 = 37.04 %
    assert [p.player for p in placed][:4] == ["q4", "q2", "q5", "q3"]
    assert [p.decided_by for p in placed][:3] == ["vp_share", "placing_points", "vp_share"]


def test_the_last_finalist_is_decided_by_the_stage_only_when_others_follow():
    # a field of exactly 8: nobody below the final, so its last place names no decider; a field of 12 (the
    # example above): the final's last is ahead of q9 by the stage
    only8 = pl.placings(RANK8[:8], 8, FINAL8, scoring=AUSTRALIAN, threshold=10)
    assert [p.player for p in only8][-1] == "q6" and only8[-1].decided_by == ""
    twelve = pl.placings(RANK8, 8, FINAL8, scoring=AUSTRALIAN, threshold=10)
    assert twelve[7].player == "q6" and twelve[7].decided_by == "stage"
    # 16 finalists and a field of exactly 16: the final's last is ahead of the semi-finals by the stage,
    # the semi-finals' last is the last of all
    placed = pl.placings(RANK16[:16], 16, FINAL16, SEMIS, scoring=AUSTRALIAN, threshold=10)
    assert len(placed) == 16 and placed[3].decided_by == "stage" and placed[-1].decided_by == ""


def test_placings_csv_and_lines():
    placed = pl.placings(RANK8, 8, FINAL8, scoring=AUSTRALIAN, threshold=10)
    rows = list(csv.reader(io.StringIO(pl.placings_csv(placed))))
    assert rows[0] == ["place", "player", "stage", "table", "placing_points", "vp", "rank", "decided_by"]
    assert rows[1] == ["1", "q2", "final", "2", "4", "10", "2", "vp_share"]
    assert rows[4] == ["4", "q5", "final", "1", "2.5", "8", "5", "preliminary_rank"]
    assert rows[9] == ["9", "q9", "preliminary", "", "", "", "9", "preliminary_rank"]
    assert rows[12] == ["12", "q12", "preliminary", "", "", "", "12", ""]
    lines = pl.placings_lines(placed, {"q2": "Anna"})
    assert lines[0] == "  1. Anna  final table 2, 10 vp (rank 2)"
    assert lines[8] == "  9. q9    preliminary (rank 9)"


# -------------------------------------------------------------- semi-finals of 16, worked by hand

RANK16 = [f"r{k:02d}" for k in range(1, 21)]
# semi-finals 1-8-9-16 / 2-7-10-15 / 3-6-11-14 / 4-5-12-13
SEMIS = stage(
    [
        (1, "r01", 6, False),
        (1, "r08", 10, True),
        (1, "r09", 7, False),
        (1, "r16", 7, False),
        (2, "r02", 10, True),
        (2, "r07", 9, False),
        (2, "r10", 3, False),
        (2, "r15", 5, False),
        (3, "r03", 8, False),
        (3, "r06", 8, False),
        (3, "r11", 10, True),
        (3, "r14", 2, False),
        (4, "r04", 10, True),
        (4, "r05", 10, False),
        (4, "r12", 4, False),
        (4, "r13", 9, False),
    ]
)
# the final of the winners r08, r02, r11, r04, in preliminary order r02 r04 r08 r11
FINAL16 = stage([(1, "r02", 7, False), (1, "r04", 9, False), (1, "r08", 10, True), (1, "r11", 9, False)])


def test_semi_finals_of_16_then_the_final():
    # final: r08 wins; r04 and r11 level (2.5 points, 9 VP, the same share): preliminary rank 4 before 11; r02 last.
    # semi-finals' others: 3 points r05 (10 VP) before r07 (9); 2.5 points r03, r06 (8 VP, 28.57 each; rank 3, 6)
    # before r09, r16 (7 VP, 23.33 each; rank 9, 16); 2 points r13 (9 VP) before r15 (5); 1 point r01 (6),
    # r12 (4), r10 (3), r14 (2); then r17-r20 by preliminary rank.
    placed = pl.placings(RANK16, 16, FINAL16, SEMIS, scoring=AUSTRALIAN, threshold=10)
    assert [p.player for p in placed] == [
        "r08",
        "r04",
        "r11",
        "r02",
        "r05",
        "r07",
        "r03",
        "r06",
        "r09",
        "r16",
        "r13",
        "r15",
        "r01",
        "r12",
        "r10",
        "r14",
        "r17",
        "r18",
        "r19",
        "r20",
    ]
    assert {p.stage for p in placed[:4]} == {"final"} and {p.stage for p in placed[4:16]} == {"semi-final"}
    assert placed[4].table == 4 and placed[4].placing_points == 3 and placed[16].stage == "preliminary"


def test_stage_tables_follow_the_charts_and_the_winners():
    assert pl.stage_tables(RANK16, 16, "semi-final")[3] == ("r04", "r05", "r12", "r13")
    assert pl.stage_tables(RANK16, 16, "final", SEMIS) == (("r02", "r04", "r08", "r11"),)
    assert pl.stage_tables(RANK8, 8, "final") == (("q1", "q4", "q5", "q8"), ("q2", "q3", "q6", "q7"))
    with pytest.raises(pl.PlacingsError, match="a final of 8 has no semi-finals"):
        pl.stage_tables(RANK8, 8, "semi-final")
    with pytest.raises(pl.PlacingsError, match="needs the semi-finals' results first"):
        pl.stage_tables(RANK16, 16, "final")
    with pytest.raises(pl.PlacingsError, match="unknown finals stage 'quarter'"):
        pl.stage_tables(RANK16, 16, "quarter")


def test_a_disqualified_finalist_leaves_the_placings():
    gone = [
        GameResult(sd.STAGE_ROUND, r.table, r.player, r.vp, r.winner, 0, "disqualified") if r.player == "q5" else r
        for r in FINAL8
    ]
    placed = pl.placings(RANK8, 8, gone, scoring=AUSTRALIAN, threshold=10)
    assert "q5" not in [p.player for p in placed] and [p.place for p in placed] == list(range(1, 12))


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda rows: rows[:-1], "final table 1: the results name r02, r04, r08, the seating r02, r04, r08, r11"),
        (
            lambda rows: [r if r.player != "r11" else GameResult(sd.STAGE_ROUND, 1, "r05", 9, False) for r in rows],
            "final table 1: the results name",
        ),
        (
            lambda rows: [GameResult(sd.STAGE_ROUND, 1, r.player, r.vp, r.player in ("r08", "r04")) for r in rows],
            "final table 1: a table needs exactly one winner, got 2",
        ),
        (
            lambda rows: [
                GameResult(sd.STAGE_ROUND, 1, r.player, 11 if r.player == "r02" else r.vp, r.winner) for r in rows
            ],
            "final table 1: winner 'r08' has fewer vp",
        ),
        (lambda rows: rows + [GameResult(sd.STAGE_ROUND, 2, "r01", 5, True)], "the final has tables 1-1, not 2"),
        (lambda rows: [], "the placings need the final's results"),
    ],
)
def test_finals_results_that_do_not_fit_are_refused(change, message):
    with pytest.raises(pl.PlacingsError, match=message.replace("(", r"\(")):
        pl.placings(RANK16, 16, change(list(FINAL16)), SEMIS, scoring=AUSTRALIAN, threshold=10)


def test_semi_finals_that_do_not_fit_and_formats():
    with pytest.raises(pl.PlacingsError, match="semi-final table 4: no results"):
        pl.placings(RANK16, 16, FINAL16, SEMIS[:12], scoring=AUSTRALIAN, threshold=10)
    with pytest.raises(pl.PlacingsError, match="a final of 8 has no semi-finals"):
        pl.placings(RANK8, 8, FINAL8, SEMIS, scoring=AUSTRALIAN, threshold=10)
    with pytest.raises(pl.PlacingsError, match="no finals chart for 12 players"):
        pl.placings(RANK8, 12, FINAL8, scoring=AUSTRALIAN, threshold=10)
    assert issubclass(pl.PlacingsError, ValueError)


# -------------------------------------------------------------- finals results files

SEATED = {
    (sd.STAGE_ROUND, 1): frozenset({"q1", "q4", "q5", "q8"}),
    (sd.STAGE_ROUND, 2): frozenset({"q2", "q3", "q6", "q7"}),
}
FINAL_TEXT = """round,table,player,vp,winner
final,1,q1,7,no
final,1,q4,10,yes
final,1,q5,8,no
final,1,q8,8,no
Final,2,q2,10,yes
final,2,q3,9,no
final,2,q6,4,no
final,2,q7,6,no
"""


def read_final(text):
    return read_results(
        text, source="results-final.csv", players=RANK8, thresholds={sd.STAGE_ROUND: 13}, tables=SEATED, stage="final"
    )


def test_a_final_results_file_is_read_like_a_results_file():
    rows = read_final(FINAL_TEXT)
    # a finals game is round 1 of its stage (docs/console.md, "Games")
    assert [(r.round, r.table, r.player, r.vp, r.winner) for r in rows][:2] == [
        (1, 1, "q1", 7, False),
        (1, 1, "q4", 10, True),
    ]
    assert pl.placings(RANK8, 8, rows, scoring=AUSTRALIAN, threshold=13)[0].player == "q2"


@pytest.mark.parametrize(
    "old, new, problem",
    [
        (
            "final,1,q1,7,no",
            "1,1,q1,7,no",
            "line 2: round '1' is not 'final' (the round column of a final results file names the stage)",
        ),
        ("final,1,q1,7,no", "final,1,q1,24,no", "line 2: vp 24 is above 23 (final threshold 13 + 10)"),
        ("final,1,q4,10,yes", "final,1,q4,10,no", "line 2: final table 1 has no winner"),
        ("final,2,q7,6,no", "final,2,q9,6,no", "line 6: final table 2: missing 'q7'; not seated there 'q9'"),
        ("final,2,q7,6,no\n", "", "line 6: final table 2: missing 'q7'"),
        ("final,2,q7,6,no", "final,2,q1,6,no", "line 9: player 'q1' already recorded in final (line 2)"),
    ],
)
def test_finals_results_files_are_checked_as_results_files(old, new, problem):
    with pytest.raises(ResultsError) as caught:
        read_final(FINAL_TEXT.replace(old, new))
    assert problem in caught.value.problems


FUZZ = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(hst.lists(hst.tuples(hst.integers(0, len(FINAL_TEXT)), hst.text(max_size=6)), max_size=6))
def test_fuzzed_finals_files_give_rows_or_one_results_error(edits):
    text = FINAL_TEXT
    for at, insert in edits:
        text = text[:at] + insert + text[at + 1 :]
    try:
        rows = read_final(text)
    except ResultsError as exc:
        assert exc.problems and all(p.startswith("line ") for p in exc.problems)
        assert "\n" not in str(exc)
        return
    assert all(r.round == sd.STAGE_ROUND and r.player in RANK8 for r in rows)


# -------------------------------------------------------------- setupgen placings

PLAYERS12 = ["Anna", "Beat", "Carla", "Dario", "Eva", "Fritz", "Gina", "Hans", "Ida", "Jan", "Kim", "Lea"]
TOURNAMENT = """name = "Club Night"
seed = "club"
players = "players.csv"
table_size = 4

[[rounds]]
scenario = "base-3-4"

[final]
players = 8
scenario = "base-3-4"
victory_points = 10
"""
# the schedule of this tournament seats round 1: p11 p9 p5 p8 / p3 p10 p12 p7 / p2 p4 p6 p1
PRELIMINARY = """round,table,player,vp,winner
1,1,p11,6,no
1,1,p9,8,no
1,1,p5,10,yes
1,1,p8,4,no
1,2,p3,10,yes
1,2,p10,5,no
1,2,p12,3,no
1,2,p7,7,no
1,3,p2,9,no
1,3,p4,6,no
1,3,p6,2,no
1,3,p1,10,yes
"""
# standings: p3 (4 points, 10 VP, 40.00), p1 (37.04), p5 (35.71), p2 (3, 9), p9 (3, 8), p7 (3, 7),
# p4 (2, 6, 22.22), p11 (2, 6, 21.43), p10, p8, p12, p6: the final p3 p2 p9 p11 / p1 p5 p7 p4
FINAL = """round,table,player,vp,winner
final,1,p3,7,no
final,1,p2,10,yes
final,1,p9,8,no
final,1,p11,8,no
final,2,p1,10,yes
final,2,p5,9,no
final,2,p7,4,no
final,2,p4,6,no
"""


@pytest.fixture
def club(tmp_path):
    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"p{k},{n}\n" for k, n in enumerate(PLAYERS12, 1)))
    (tmp_path / "t.toml").write_text(TOURNAMENT)
    (tmp_path / "results.csv").write_text(PRELIMINARY)
    (tmp_path / "final.csv").write_text(FINAL)
    return tmp_path


def run(*args):
    """The command line; a ranking command's -o folder gets its schedule
    saved first (they rank by a saved schedule, never plan one)."""
    args = [str(a) for a in args]
    if args[0] in ("placings", "standings", "finals") and "-o" in args:
        folder = Path(args[args.index("-o") + 1])
        if not (folder / "schedule.csv").exists():
            assert CliRunner().invoke(app, ["schedule", args[1], "-o", str(folder)]).exit_code == 0
    return CliRunner().invoke(app, args)


def test_placings_command_prints_and_writes_placings(club):
    out = club / "out"
    done = run("placings", club / "t.toml", club / "results.csv", "--final", club / "final.csv", "-o", out)
    assert done.exit_code == 0, done.output
    # p1 and p2 win their tables with 10 VP: p1's share 10 of 29 = 34.48 beats p2's 10 of 33 = 30.30
    assert done.stdout.splitlines()[:3] == [
        "  1. Anna   final table 2, 10 vp (rank 2)",
        "  2. Beat   final table 1, 10 vp (rank 4)",
        "  3. Eva    final table 2, 9 vp (rank 3)",
    ]
    rows = list(csv.reader(io.StringIO((out / "placings.csv").read_text())))
    assert [r[1] for r in rows[1:]] == ["p1", "p2", "p5", "p9", "p11", "p4", "p3", "p7", "p10", "p8", "p12", "p6"]
    assert (out / "placings.pdf").read_bytes().startswith(b"%PDF")
    first = (out / "placings.csv").read_bytes()
    assert (
        run("placings", club / "t.toml", club / "results.csv", "--final", club / "final.csv", "-o", out).exit_code == 0
    )
    assert (out / "placings.csv").read_bytes() == first  # rerun: the same bytes
    (out / "results-final.csv").write_text(FINAL)  # the default place of the final's results (the console's)
    assert run("placings", club / "t.toml", club / "results.csv", "-o", out).exit_code == 0


def test_placings_command_refuses_bad_input_in_one_line(club):
    out = club / "out"
    missing = run("placings", club / "t.toml", club / "results.csv", "-o", out)
    assert missing.exit_code == 2 and missing.stderr == (
        f"error: no final results yet: fill in VP and winner in '{out / 'final' / 'results-final-blank.csv'}' "
        "(or give the final's results file)\n"
    )
    (club / "bad.csv").write_text(FINAL.replace("final,2,p4,6,no", "final,2,p6,6,no").replace("1,p2,10", "1,p2,x"))
    bad = run("placings", club / "t.toml", club / "results.csv", "--final", club / "bad.csv", "-o", out)
    assert bad.exit_code == 2 and bad.stderr.startswith("error: ")
    assert "line 3: vp 'x' is not a whole number" in bad.stderr and "final table 2: missing 'p4'" in bad.stderr
    semis = run(
        "placings",
        club / "t.toml",
        club / "results.csv",
        "--final",
        club / "final.csv",
        "--semi-finals",
        club / "final.csv",
        "-o",
        out,
    )
    assert semis.exit_code == 2 and semis.stderr == "error: --semi-finals: a final of 8 has no semi-finals\n"
    assert not (out / "placings.csv").exists()
    out.mkdir(exist_ok=True)
    (out / "placings.csv").write_text("mine\n")  # a file setupgen did not write is kept
    kept = run("placings", club / "t.toml", club / "results.csv", "--final", club / "final.csv", "-o", out)
    assert kept.exit_code == 2 and (out / "placings.csv").read_text() == "mine\n"
    assert not (out / "placings.pdf").exists()


def test_placings_command_without_a_final_section(club):
    (club / "t.toml").write_text(TOURNAMENT.split("[final]")[0])
    done = run("placings", club / "t.toml", club / "results.csv", "--final", club / "final.csv", "-o", club / "o")
    assert done.exit_code == 2 and "has no [final] section" in done.stderr


def test_standings_still_refuse_finals_rows(club):
    (club / "mixed.csv").write_text(PRELIMINARY + FINAL.split("\n", 1)[1])
    done = run("standings", club / "t.toml", club / "mixed.csv", "-o", club / "o")
    assert done.exit_code == 2 and "unknown round 'final' (rounds: 1)" in done.stderr


def test_the_library_never_names_cli_flags():
    text = Path(pl.__file__).read_text()
    assert "--" not in text.replace("# --", "")
