"""Results, standings and finals seating (docs/rules.md section 6; Catan Australian Championships 2006)."""

from decimal import Decimal
from fractions import Fraction as F

import pytest

from setupgen.core.errors import SetupgenError
from setupgen.tournament import standings as sd
from setupgen.tournament.standings import (
    AUSTRALIAN,
    FIVE_THREE,
    GameResult,
    ResultsError,
    Scoring,
    final_of_winners,
    finals_tables,
    placing_points,
    read_results,
    standings,
    standings_csv,
    standings_lines,
)

BASE = {1: 10, 2: 10, 3: 10}


def table(*vps, winner=0, round=1, table=1, names="abcdefgh"):
    """One table: players a, b, c, ... with these VP; ``winner`` indexes it."""
    return [GameResult(round, table, names[i], vp, i == winner, 0) for i, vp in enumerate(vps)]


# -------------------------------------------------------------- placing points


def test_placing_points_no_tie():
    assert placing_points(table(10, 8, 6, 4), (4, 3, 2, 1)) == {"a": 4, "b": 3, "c": 2, "d": 1}


def test_placing_points_tie_for_second_and_third_shares_them():
    pp = placing_points(table(10, 7, 7, 3), (4, 3, 2, 1))
    assert pp == {"a": 4, "b": F(5, 2), "c": F(5, 2), "d": 1}
    assert all(isinstance(v, F) for v in pp.values())


def test_players_level_with_the_winner_share_from_second_place():
    # two players level with the winner on 10: the winner takes 4 alone,
    # the two share (3 + 2) / 2
    assert placing_points(table(10, 10, 10, 5), (4, 3, 2, 1)) == {"a": 4, "b": F(5, 2), "c": F(5, 2), "d": 1}
    # one level with the winner takes 2nd alone; the two below share 3rd-4th
    assert placing_points(table(10, 10, 6, 6), (4, 3, 2, 1)) == {"a": 4, "b": 3, "c": F(3, 2), "d": F(3, 2)}
    # all four level: the three others share (3 + 2 + 1) / 3
    assert placing_points(table(10, 10, 10, 10, winner=2), (4, 3, 2, 1)) == {"a": 2, "b": 2, "c": 4, "d": 2}


def test_three_player_tables_and_five_three_scheme():
    assert placing_points(table(10, 7, 7), AUSTRALIAN.placing_points[3]) == {"a": 4, "b": F(3, 2), "c": F(3, 2)}
    assert placing_points(table(10, 10, 3), FIVE_THREE.placing_points[3]) == {"a": 5, "b": 3, "c": 1}
    assert placing_points(table(3, 10, 8, 8, winner=1), FIVE_THREE.placing_points[4]) == {
        "a": 1,
        "b": 5,
        "c": F(5, 2),
        "d": F(5, 2),
    }


@pytest.mark.parametrize(
    "rows, points",
    [
        (table(10, 8, 6), (4, 3, 2, 1)),  # wrong number of points
        ([*table(10, 8, 6, 4)[:3], GameResult(1, 1, "d", 4, True, 0)], (4, 3, 2, 1)),  # two winners
        ([GameResult(1, 1, p, v, False, 0) for p, v in zip("abcd", (10, 8, 6, 4))], (4, 3, 2, 1)),  # none
        (table(8, 10, 6, 4), (4, 3, 2, 1)),  # winner below another player
    ],
)
def test_placing_points_rejects_bad_tables(rows, points):
    with pytest.raises(SetupgenError):
        placing_points(rows, points)


def test_scoring_validation():
    assert Scoring({4: (4, 3, 2, 1)}, ("placing_points",)).tie_breakers == ("placing_points", "lots")
    for bad in (
        lambda: Scoring({4: (4, 3, 2)}),
        lambda: Scoring({4: (1, 2, 3, 4)}),
        lambda: Scoring({4: (4, 3, 2, 1)}, ("lots", "victory_points")),
        lambda: Scoring({4: (4, 3, 2, 1)}, ("points",)),
        lambda: Scoring({4: (4, 3, 2, 1)}, ("vp_share", "vp_share")),
    ):
        with pytest.raises(SetupgenError):
            bad()


# -------------------------------------------------------------- standings

# The example of the Catan Australian Championships 2006. A: 10 of 32, 8 of 30, 10 of 36; B: 10 of 30, 10 of 33,
# 8 of 36. Both end on 28 VP and 9.5 placing points (A 4 + 3 + 5/2, sharing
# 2nd-3rd level with the winner in round 3; B 4 + 4 + 3/2).
SEED_EXAMPLE = [
    # round 1
    *[GameResult(1, 1, p, v, p == "A", 0) for p, v in (("A", 10), ("c1", 8), ("c2", 7), ("c3", 7))],
    *[GameResult(1, 2, p, v, p == "B", 0) for p, v in (("B", 10), ("d1", 7), ("d2", 7), ("d3", 6))],
    # round 2
    *[GameResult(2, 1, p, v, p == "e1", 0) for p, v in (("A", 8), ("e1", 10), ("e2", 7), ("e3", 5))],
    *[GameResult(2, 2, p, v, p == "B", 0) for p, v in (("B", 10), ("f1", 8), ("f2", 8), ("f3", 7))],
    # round 3
    *[GameResult(3, 1, p, v, p == "g1", 0) for p, v in (("A", 10), ("g1", 10), ("g2", 10), ("g3", 6))],
    *[GameResult(3, 2, p, v, p == "h1", 0) for p, v in (("B", 8), ("h1", 10), ("h2", 10), ("h3", 8))],
]


def test_seed_002_vp_share_example():
    st = {s.player: s for s in standings(SEED_EXAMPLE, scoring=AUSTRALIAN, thresholds=BASE, seed="s")}
    a, b = st["A"], st["B"]
    assert (a.placing_points, a.victory_points, a.games) == (F(19, 2), 28, 3)
    assert (b.placing_points, b.victory_points, b.games) == (F(19, 2), 28, 3)
    assert a.vp_share == Decimal("85.70") and b.vp_share == Decimal("85.85")
    assert b.rank < a.rank and a.lots is None and b.lots is None


def test_vp_share_rounds_each_game_half_up():
    assert [sd.vp_share(v, t) for v, t in ((10, 32), (8, 30), (10, 36), (10, 30), (10, 33), (8, 36))] == [
        Decimal(x) for x in ("31.25", "26.67", "27.78", "33.33", "30.30", "22.22")
    ]
    assert sd.vp_share(1, 8) == Decimal("12.50")
    assert sd.vp_share(1, 16) == Decimal("6.25")
    assert sd.vp_share(1, 80) == Decimal("1.25")
    assert sd.vp_share(1, 800) == Decimal("0.13")  # 0.125 half-up
    assert sd.vp_share(0, 0) == Decimal("0.00")


def test_ranking_order_placing_points_then_vp_then_share():
    # x and y both win (4 pp); x has more VP (10 v 9), y the larger share
    # (9 of 15 = 60.00 v 10 of 40 = 25.00); the losers rank below on pp
    rows = table(10, 10, 10, 10, names="xabc") + table(9, 2, 2, 2, table=2, names="ydef")
    st = standings(rows, scoring=AUSTRALIAN, thresholds=BASE, seed="x")
    assert [s.player for s in st][:2] == ["x", "y"]
    assert [s.rank for s in st] == list(range(1, 9))
    by_share = Scoring(AUSTRALIAN.placing_points, ("placing_points", "vp_share"))
    st = standings(rows, scoring=by_share, thresholds=BASE, seed="x")
    assert [s.player for s in st][:2] == ["y", "x"]
    assert st[0].vp_share == Decimal("60.00") and st[1].vp_share == Decimal("25.00")


def test_vp_capped_at_the_round_threshold():
    rows = table(12, 8, 6, 4) + table(14, 11, 3, 2, round=2)
    st = {s.player: s for s in standings(rows, scoring=AUSTRALIAN, thresholds={1: 10, 2: 13}, seed="x")}
    assert st["a"].victory_points == 10 + 13
    assert st["b"].victory_points == 8 + 11
    # the share uses capped VP on both sides: 10 of 28, then 13 of 29
    assert st["a"].vp_share == sd.vp_share(10, 28) + sd.vp_share(13, 29)


def test_lots_reproducible_and_independent_of_row_order():
    # b and c are level on everything
    rows = table(10, 5, 5, 1) + table(10, 5, 5, 1, round=2, names="efgh")
    one = standings(rows, scoring=AUSTRALIAN, thresholds=BASE, seed="club-2024")
    again = standings(list(reversed(rows)), scoring=AUSTRALIAN, thresholds=BASE, seed="club-2024")
    shuffled = standings(rows[1::2] + rows[0::2], scoring=AUSTRALIAN, thresholds=BASE, seed="club-2024")
    assert one == again == shuffled
    by = {s.player: s for s in one}
    # a and e are level too (4 pp, 10 vp, same share); so are b, c, f, g; d, h
    assert sorted(by[p].lots for p in "bcfg") == [1, 2, 3, 4]
    assert sorted(by[p].lots for p in "ae") == [1, 2]
    tied = sorted((s for s in one if s.player in "bcfg"), key=lambda s: s.rank)
    assert [s.lots for s in tied] == [1, 2, 3, 4]
    # different seeds can order the tie differently
    orders = {
        tuple(s.player for s in standings(rows, scoring=AUSTRALIAN, thresholds=BASE, seed=f"s{i}")) for i in range(20)
    }
    assert len(orders) > 1


def test_lots_not_used_when_not_needed():
    st = standings(table(10, 8, 6, 4), scoring=AUSTRALIAN, thresholds=BASE, seed="x")
    assert [s.lots for s in st] == [None] * 4


def test_standings_rejects_bad_input():
    with pytest.raises(SetupgenError, match="threshold"):
        standings(table(10, 8, 6, 4, round=9), scoring=AUSTRALIAN, thresholds=BASE, seed="x")
    with pytest.raises(SetupgenError, match="tables of 5"):
        standings(table(10, 8, 6, 4, 2), scoring=AUSTRALIAN, thresholds=BASE, seed="x")
    with pytest.raises(ResultsError, match="no winner"):
        standings(table(10, 8, 6, 4, winner=9), scoring=AUSTRALIAN, thresholds=BASE, seed="x")


def test_standings_csv_and_lines():
    rows = table(10, 7, 7, 3)
    st = standings(rows, scoring=AUSTRALIAN, thresholds=BASE, seed="x")
    text = standings_csv(st)
    lines = text.splitlines()
    assert lines[0] == "rank,player,placing_points,victory_points,vp_share,games"
    assert lines[1] == "1,a,4,10,37.04,1"
    assert lines[2].split(",")[2:] == ["2.5", "7", "25.93", "1"]
    assert lines[4] == "4,d,1,3,11.11,1"
    assert text.endswith("\n")
    out = standings_lines(st, {"a": "Ann Lee"})
    assert len(out) == 5 and "Ann Lee" in out[1] and "lot" in out[2]
    assert sd.format_points(F(10, 3)) == "3.33" and sd.format_points(F(2)) == "2"


# -------------------------------------------------------------- read_results

PLAYERS = {"ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"}
GOOD = """round,table,player,vp,winner
1,1,ann,10,yes
1,1,bob,8,no
1,1,cy,6,no
1,1,dee,4,no
1,2,eve,10,Y
1,2,fay,10,false
1,2,gus,3,0
1,2,hal,2,N
"""
TABLES = {(1, 1): frozenset({"ann", "bob", "cy", "dee"}), (1, 2): frozenset({"eve", "fay", "gus", "hal"})}


def read(text, tables=None, thresholds=BASE):
    return read_results(text, source="results.csv", players=PLAYERS, thresholds=thresholds, tables=tables)


def problems(text, **kw):
    with pytest.raises(ResultsError) as err:
        read(text, **kw)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("results.csv: ")
    assert msg.endswith(err.value.problems[0])
    assert isinstance(err.value, SetupgenError) and isinstance(err.value, ValueError)
    return err.value.problems


def test_read_good_file():
    rows = read(GOOD, tables=TABLES)
    assert len(rows) == 8
    assert rows[0] == GameResult(1, 1, "ann", 10, True, 2)
    assert rows[5] == GameResult(1, 2, "fay", 10, False, 7)
    assert [r.winner for r in rows] == [True, False, False, False, True, False, False, False]


def test_read_any_column_order_case_bom_blank_lines():
    text = "\ufeffPlayer, VP ,Winner,Table,ROUND,notes\n\nann,10,TRUE,1,1,\nbob,8,no,1,1,x\n,,,,,\n"
    text += "cy,6,no,1,1,\ndee,4,No,1,1,\n"
    rows = read(text)
    assert [(r.player, r.vp, r.winner, r.line) for r in rows] == [
        ("ann", 10, True, 3),
        ("bob", 8, False, 4),
        ("cy", 6, False, 6),
        ("dee", 4, False, 7),
    ]


def test_results_feed_standings():
    rows = read(GOOD, tables=TABLES)
    st = standings(rows, scoring=AUSTRALIAN, thresholds=BASE, seed="x")
    by = {s.player: s for s in st}
    assert by["fay"].placing_points == 3  # level with the winner: 2nd alone
    assert by["eve"].placing_points == 4


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", "line 1: empty file"),
        ("\n  \n", "line 1: empty file"),
        ("round,table,player,vp,winner\n", "line 1: no result rows"),
        ("round,table,player,winner\n1,1,ann,yes\n", "line 1: missing column vp"),
        ("round;table;player;vp;winner\n", "separated by commas"),
        ("round,table,player,vp,vp,winner\n", "line 1: column 'vp' appears twice"),
    ],
)
def test_read_file_level_problems(text, expected):
    found = problems(text)
    assert len(found) == 1 and expected in found[0]


@pytest.mark.parametrize(
    "row, expected",
    [
        ("1,1,zed,4,no", "line 5: unknown player 'zed'"),
        ("1,1,dee,x,no", "line 5: vp 'x' is not a whole number"),
        ("1,1,dee,4.5,no", "line 5: vp '4.5' is not a whole number"),
        ("1,1,dee,-1,no", "line 5: vp -1 is negative"),
        ("1,1,dee,21,no", "line 5: vp 21 is above 20"),
        ("7,1,dee,4,no", "line 5: unknown round '7'"),
        ("1,0,dee,4,no", "line 5: table '0' is not a positive whole number"),
        ("1,one,dee,4,no", "line 5: table 'one' is not"),
        ("1,1,dee,4,maybe", "line 5: winner 'maybe' is not yes or no"),
        ("1,1,dee,4", "line 5: expected 5 cells, got 4"),
        ("1,1,,4,no", "line 5: empty player"),
    ],
)
def test_read_bad_row(row, expected):
    head = "round,table,player,vp,winner\n1,1,ann,10,yes\n1,1,bob,8,no\n1,1,cy,6,no\n"
    found = problems(head + row + "\n")
    # a bad row skips its table's checks: exactly one problem, not a cascade
    assert len(found) == 1, found
    assert found[0].startswith(expected), found


def test_read_player_twice_in_a_round():
    text = GOOD + "1,2,ann,5,no\n"
    found = problems(text)
    assert found == ("line 10: player 'ann' already recorded in round 1 (line 2)",)


def test_read_table_problems():
    no_winner = GOOD.replace("1,1,ann,10,yes", "1,1,ann,10,no")
    assert problems(no_winner) == ("line 2: round 1 table 1 has no winner",)
    two = GOOD.replace("1,1,bob,8,no", "1,1,bob,8,yes")
    assert problems(two) == ("line 2: round 1 table 1 has 2 winners ('ann', 'bob')",)
    low = GOOD.replace("1,2,eve,10,Y", "1,2,eve,9,Y")
    assert problems(low) == ("line 6: round 1 table 2: winner 'eve' has 9 vp but 'fay' has 10",)
    alone = "round,table,player,vp,winner\n1,1,ann,10,yes\n"
    assert problems(alone) == ("line 2: round 1 table 1 has only one player",)


def test_read_tables_against_schedule():
    swapped = GOOD.replace("1,1,dee,4,no", "1,2,dee,4,no").replace("1,2,hal,2,N", "1,1,hal,2,N")
    assert problems(swapped, tables=TABLES) == (
        "line 2: round 1 table 1: missing 'dee'; not seated there 'hal'",
        "line 5: round 1 table 2: missing 'hal'; not seated there 'dee'",
    )
    extra = GOOD.replace("1,2,", "1,3,")
    assert problems(extra, tables=TABLES) == (
        "line 2: round 1 table 2: no results (expected 'eve', 'fay', 'gus', 'hal')",
        "line 6: round 1 table 3 is not in the schedule",
    )
    only_one = "\n".join(GOOD.splitlines()[:5]) + "\n"
    assert problems(only_one, tables=TABLES) == (
        "line 2: round 1 table 2: no results (expected 'eve', 'fay', 'gus', 'hal')",
    )
    # a round not yet played is not missing
    assert len(read(GOOD, tables={**TABLES, (2, 1): frozenset({"ann", "eve", "bob", "fay"})})) == 8


def test_read_collects_every_problem_in_line_order():
    text = (
        "round,table,player,vp,winner\n"
        "1,1,ann,10,yes\n"
        "1,1,bob,eight,no\n"  # 3
        "1,1,zed,6,no\n"  # 4
        "1,1,dee,4,no\n"
        "1,2,eve,10,maybe\n"  # 6
        "1,2,fay,30,no\n"  # 7
        "9,2,gus,3,no\n"  # 8
        "1,2,hal,2,no\n"
        "2,1,ann,10,yes\n"
        "2,1,bob,10,yes\n"  # 11: two winners
        "2,1,cy,4,no\n"
        "2,1,cy,5,no\n"  # 13: cy twice; taints round 2 table 1
        "2,2,eve,10,no\n"
        "2,2,fay,9,no\n"  # 14-15: no winner
    )
    found = problems(text)
    lines = [int(p.split(":")[0].split()[1]) for p in found]
    assert lines == sorted(lines)
    assert found == (
        "line 3: vp 'eight' is not a whole number",
        "line 4: unknown player 'zed'",
        "line 6: winner 'maybe' is not yes or no",
        "line 7: vp 30 is above 20 (round 1 threshold 10 + 10)",
        "line 8: unknown round '9' (rounds: 1, 2, 3)",
        "line 13: player 'cy' already recorded in round 2 (line 12)",
        "line 14: round 2 table 2 has no winner",
    )


def test_read_error_summary_is_one_line():
    with pytest.raises(ResultsError) as err:
        read(GOOD.replace("ann,10", "zed,10").replace("bob,8", "bob,x"))
    assert str(err.value) == "results.csv: 2 problems; first: line 2: unknown player 'zed'"


def test_thresholds_bound_vp_per_round():
    text = GOOD.replace("1,1,ann,10,yes", "1,1,ann,23,yes")
    assert len(read(text, thresholds={1: 13})) == 8
    assert problems(text) == ("line 2: vp 23 is above 20 (round 1 threshold 10 + 10)",)


# -------------------------------------------------------------- finals

RANKED = [f"p{i}" for i in range(1, 17)]


def test_semi_finals_of_16():
    assert finals_tables(RANKED + ["p17"], 16) == (
        ("p1", "p8", "p9", "p16"),
        ("p2", "p7", "p10", "p15"),
        ("p3", "p6", "p11", "p14"),
        ("p4", "p5", "p12", "p13"),
    )


def test_final_of_8():
    assert finals_tables(RANKED, 8) == (("p1", "p4", "p5", "p8"), ("p2", "p3", "p6", "p7"))


def test_finals_errors():
    with pytest.raises(SetupgenError, match="no finals chart for 12"):
        finals_tables(RANKED, 12)
    with pytest.raises(SetupgenError, match="need 16 ranked players, got 15"):
        finals_tables(RANKED[:15], 16)
    with pytest.raises(SetupgenError, match="twice"):
        finals_tables(RANKED[:7] + ["p1"], 8)


def test_final_of_winners_in_preliminary_rank_order():
    assert final_of_winners(["p13", "p2", "p11", "p8"], RANKED) == ("p2", "p8", "p11", "p13")
    with pytest.raises(SetupgenError, match="not in the ranking"):
        final_of_winners(["p1", "zed"], RANKED)
    with pytest.raises(SetupgenError, match="twice"):
        final_of_winners(["p1", "p1"], RANKED)
    with pytest.raises(SetupgenError):
        final_of_winners(["p1"], RANKED)


# ------------------------------------------------------- statuses (issue 14)

STATUS_FILE = """round,table,player,vp,winner,status
1,1,ann,10,yes,
1,1,bob,7,no,played
1,1,cy,0,no,no-show
1,1,dee,5,no,
1,2,eve,10,yes,
1,2,fay,8,no,disqualified
1,2,gus,6,no,
1,2,hal,4,no,
"""


def test_no_shows_score_nothing_and_the_disqualified_leave_the_standings():
    from setupgen.tournament.standings import DISQUALIFIED, NO_SHOW, round_points

    rows = read(STATUS_FILE, tables=TABLES)
    assert [r.status for r in rows][:3] == ["played", "played", NO_SHOW] and rows[5].status == DISQUALIFIED
    scoring = Scoring({4: (4, 3, 2, 1)})
    ranked = standings(rows, scoring=scoring, thresholds=BASE, seed="s")
    by = {s.player: s for s in ranked}
    assert "fay" not in by and len(ranked) == 7 and [s.rank for s in ranked] == list(range(1, 8))
    assert (by["ann"].placing_points, by["bob"].placing_points, by["dee"].placing_points) == (4, 3, 2)
    assert by["cy"].placing_points == 0 and by["cy"].victory_points == 0 and by["cy"].games == 1
    assert (by["gus"].placing_points, by["hal"].placing_points) == (2, 1)  # fay's 3rd place stands
    assert round_points(rows, scoring)["cy"] == {1: 0}
    assert str(by["ann"].vp_share) == "45.45"  # 10 of 22: the no-show's 0 adds nothing


def test_bad_statuses_are_reported_with_their_lines():
    found = problems(STATUS_FILE.replace("no,no-show", "no,absent"), tables=TABLES)
    assert list(found) == ["line 4: status 'absent' is not one of played, no-show, disqualified"]
    found = problems(STATUS_FILE.replace("1,1,cy,0,no,no-show", "1,1,cy,3,no,no-show"), tables=TABLES)
    assert list(found) == ["line 4: a no-show has 0 vp and is not the winner"]
    lonely = "round,table,player,vp,winner,status\n1,1,ann,10,yes,\n1,1,bob,0,no,no-show\n"
    assert list(problems(lonely)) == ["line 2: round 1 table 1 has only one player who played"]


def test_a_draw_of_lots_is_pinned_by_its_order():
    """The order of a tie is pinned (a change of the lots' seed string
    changes it), and follows the documented draw: the tied ids sorted,
    shuffled by rng.from_seed(f"{seed}/lots/{json.dumps(ids)}")."""
    import json

    from setupgen.core import rng

    rows = table(10, 5, 5, 1) + table(10, 5, 5, 1, round=2, names="efgh")
    one = standings(rows, scoring=AUSTRALIAN, thresholds=BASE, seed="club-2024")
    assert [(s.player, s.rank, s.lots) for s in one] == [
        ("e", 1, 1),
        ("a", 2, 2),
        ("c", 3, 1),
        ("f", 4, 2),
        ("g", 5, 3),
        ("b", 6, 4),
        ("d", 7, 1),
        ("h", 8, 2),
    ]
    for tied in (["b", "c", "f", "g"], ["a", "e"], ["d", "h"]):
        drawn = list(tied)
        rng.shuffle(rng.from_seed(f"club-2024/lots/{json.dumps(tied)}"), drawn)
        assert [s.player for s in one if s.player in tied] == drawn
