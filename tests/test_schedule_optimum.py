"""Seating schedules at the optimum (issue 13, docs/schedule.md): measures
and bounds worked by hand on small schedules, the finite-field designs,
optimal schedules where the optimum is known, re-planning from a round,
determinism and the quality page of schedule.pdf."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setupgen.core import templates
from setupgen.tournament import designs, jobs, model
from setupgen.tournament.measures import seat_optimum
from setupgen.tournament.schedule import Player, Schedule, ScheduleError, Seat, plan

ROOT = Path(__file__).resolve().parent.parent


def players(n: int, groups: int = 0) -> list[Player]:
    return [Player(f"p{i:02d}", f"Player {i}", f"club{i % groups}" if groups else None) for i in range(n)]


def seats_of(rounds: list[list[str]]) -> Schedule:
    """A schedule from per round its tables written as strings of one-letter ids."""
    return Schedule(
        tuple(
            Seat(r, t, s, pid)
            for r, tables in enumerate(rounds, start=1)
            for t, table in enumerate(tables, start=1)
            for s, pid in enumerate(table, start=1)
        )
    )


# -- measures worked by hand -------------------------------------------------------


def test_measures_of_a_hand_made_schedule():
    # round 1: abcd / efg, round 2: abef / cdg. ab, cd, ef meet twice; a and b
    # are club x, c and g club y (clashes: ab twice, cg in round 2)
    s = seats_of([["abcd", "efg"], ["abef", "cdg"]])
    roster = [Player(p, p.upper(), {"a": "x", "b": "x", "c": "y", "g": "y"}.get(p)) for p in "abcdefg"]
    q = s.quality(roster)
    assert (q.pairs_repeated, q.repeat_pairs, q.max_meetings) == (3, 3, 2)
    # 18 meetings among 21 pairs would allow 0, but with two tables a round the
    # pigeonhole bound holds: abef has two of round 1's first table and two of its
    # second (2 pairs met before), cdg two of one (1): Σ C(m, 2) >= 3, so with
    # 2 rounds Σ (m - 1) >= 3, 3 pairs meet twice: this schedule is at the bound
    assert (q.pairs_bound, q.repeat_bound, q.meetings_bound) == (3, 3, 2)
    # a (1, 1), b (2, 2), g (3, 3) take one position twice: spread 2 where 1 is
    # their optimum; c (3, 1), d (4, 2), e (1, 3), f (2, 4) are at theirs
    assert (q.worst_seat_spread, q.seat_off, q.spread_bound, q.seat_off_bound) == (2, 3, 1, 0)
    assert (q.group_clashes, q.clash_bound) == (3, 0)
    # g sits short in round 2 although a and b (full tables) have had none
    assert (q.short_unfair, q.most_short, q.most_short_bound) == (1, 2, 1)
    assert q.key() == (3, 3, 2, 3, 1) and not q.at_bounds()
    lines = q.lines()
    assert lines[0] == "repeated opponents: 3 pair(s) meet more than once [bound 3: optimal]"
    assert "a (1, 1); b (2, 2); g (3, 3)" in lines[3]
    # the opponents' bounds here are counting bounds; the later measures' are each
    # measure's own, which the measures before them may keep out of reach
    assert [kind for *_, kind in q.rows()] == ["counting"] * 3 + ["alone"] * 5
    assert lines[5] == (
        "groups: 3 same-group pair(s) share a table [bound 0 for this measure alone: the measures before it come first]"
    )


def test_seventeen_players_cannot_have_both_no_repeats_and_short_tables_in_turn():
    # 17 players at tables of 4: two of 4 and three of 3 a round (9 short seats).
    # In turn, round 2's short seats take the 8 players who sat full in round 1, so
    # its two full tables hold 8 of round 1's 9 short players, who came in three
    # threes: without a repeat a table takes at most one of each three, so the two
    # hold at most 6. No schedule has both; the planner keeps no repeats (they come
    # first) and says the short tables' bound is that measure's alone.
    roster = players(17)
    q = plan(roster, 5, 4, "alone").quality(roster)
    assert q.repeat_pairs == 0 and q.short_unfair >= 2
    assert dict((key, kind) for key, _, _, kind in q.rows())["short_unfair"] == "alone"
    assert "[bound 0 for this measure alone: the measures before it come first]" in q.lines()[6]


def test_counting_bounds_when_repeats_are_forced():
    # 8 players, 3 rounds of two tables: 36 meetings among 28 pairs
    s = seats_of([["abcd", "efgh"], ["abef", "cdgh"], ["aceg", "bdfh"]])
    q = s.quality([])
    assert q.repeat_bound == 8 and q.meetings_bound == 2 and q.pairs_bound == 4
    # twice: ab, cd, ef, gh (rounds 1-2), ac, bd, eg, fh (1, 3), ae, bf, cg, dh (2, 3)
    assert q.repeat_pairs == q.pairs_repeated == 12 and q.max_meetings == 2
    assert dict(q.player_seats)["a"] == (1, 1, 1) and q.worst_seat_spread == 3
    roster = [Player(p, p) for p in "abcdefgh"]
    best = plan(roster, 3, 4, "forced").quality(roster)
    assert best.repeat_pairs == 8 == best.repeat_bound


def test_forty_nine_players_must_leave_nine_off_their_positions():
    # 10 tables of 4 and 3 of 3 a round: 40 fourth seats in 4 rounds for 49 players
    roster = players(49)
    q = plan(roster, 4, 4, "short").quality(roster)
    assert q.seat_off_bound == 9 and q.seat_off == 9 and q.repeat_pairs == 0


@pytest.mark.parametrize(
    "full, short, size, want",
    [
        (4, 0, 4, 0),
        (3, 0, 4, 1),
        (8, 0, 4, 0),
        (5, 0, 4, 1),  # ⌊R/S⌋ or ⌈R/S⌉ times each
        (0, 2, 4, 1),
        (1, 5, 4, 1),
        (0, 6, 4, 2),
        (2, 2, 4, 0),  # position 4 only at full tables
        (0, 4, 4, 2),  # four rounds short: 1, 2, 3 about 4/3 times each, 4 never -> 2 - 0
        (6, 0, 6, 0),
        (0, 5, 6, 1),
    ],
)
def test_seat_optimum(full, short, size, want):
    assert seat_optimum(full, short, size) == want


# -- designs -----------------------------------------------------------------------


@pytest.mark.parametrize("q", [4, 8, 9, 16, 25, 27, 32])
def test_field_is_a_field(q):
    p, e = designs.prime_power(q)
    f = designs.Field(p, e)
    for a in range(1, q):
        assert sorted(f.mul(a, b) for b in range(q)) == list(range(q))  # no zero divisors
        assert f.sub(a, a) == 0
    assert all(f.mul(1, b) == b for b in range(q))


@settings(max_examples=30, deadline=None)
@given(tables=st.sampled_from([4, 5, 7, 8, 9, 11, 13, 16, 6, 10, 12, 15]), k=st.sampled_from([3, 4, 5, 6]))
def test_column_design_never_repeats_in_its_clean_rounds(tables, k):
    rounds = designs.clean_rounds(tables, k)
    got = designs.column_rounds(tables, k, rounds)
    if rounds == 0:
        assert got is None
        return
    meet = Counter(pair for rnd in got for t in rnd for pair in itertools.combinations(sorted(t), 2))
    assert max(meet.values()) == 1
    assert all(sorted(x for t in rnd for x in t) == list(range(tables * k)) for rnd in got)


@pytest.mark.parametrize(
    "blocks, v, k, count",
    [
        (lambda: designs.projective_lines(2, 2), 7, 3, 7),  # the Fano plane
        (lambda: designs.projective_lines(3, 2), 13, 4, 13),  # PG(2, 3)
        (lambda: designs.projective_lines(3, 3), 40, 4, 130),  # PG(3, 3): (40 · 39 / 2) / 6 lines
        (lambda: designs.unital_blocks(3), 28, 4, 63),  # the Hermitian unital: (28 · 27 / 2) / 6 blocks
    ],
)
def test_designs_meet_every_pair_once(blocks, v, k, count):
    got = blocks()
    assert len(got) == count and {len(b) for b in got} == {k}
    meet = Counter(pair for b in got for pair in itertools.combinations(b, 2))
    assert len(meet) == v * (v - 1) // 2 and set(meet.values()) == {1}


@pytest.mark.parametrize("tables, rounds", [(7, 9), (10, 13)])
def test_resolvable_rounds_are_parallel_classes(tables, rounds):
    got = designs.resolvable_rounds(tables, 4, 99)
    assert len(got) == rounds
    assert all(sorted(x for t in rnd for x in t) == list(range(tables * 4)) for rnd in got)
    meet = Counter(pair for rnd in got for t in rnd for pair in itertools.combinations(sorted(t), 2))
    assert len(meet) == tables * 4 * (tables * 4 - 1) // 2 and set(meet.values()) == {1}
    assert designs.resolvable_rounds(tables, 4, designs.clean_rounds(tables, 4)) is None  # the column design serves
    assert designs.resolvable_rounds(8, 4, 12) is None  # none built for 32 points


@pytest.mark.parametrize("n, rounds", [(28, 9), (28, 8), (27, 9), (25, 8), (40, 13), (37, 12)])
def test_zero_repeats_from_a_resolvable_design(n, rounds):
    # 28 players: the column design over GF(7) gives 7 rounds; the unital 9. 40 players:
    # Z_10's shift vectors give fewer than PG(3, 3)'s 13 parallel classes. Two or more
    # missing players share a block, whose round is left out (25 players: 8 rounds)
    roster = players(n)
    assert plan(roster, rounds, 4, "resolvable").quality(roster).repeat_pairs == 0


def test_a_spare_round_keeps_clubs_apart():
    # 28 players in 7 clubs of 4 over 8 rounds: the unital's ninth round seats each club
    # at one table, so club mates never meet in the eight that are played
    roster = players(28, groups=7)
    q = plan(roster, 8, 4, "clubs").quality(roster)
    assert (q.repeat_pairs, q.group_clashes) == (0, 0)


@pytest.mark.parametrize("tables, k, want", [(6, 4, 5), (10, 4, 9), (12, 4, 10), (15, 4, 10), (12, 5, 10)])
def test_shift_rounds_go_past_z_t_without_a_repeat(tables, k, want):
    got = designs.shift_rounds(tables, k, 10)
    assert len(got) == want > designs.clean_rounds(tables, k)
    meet = Counter(pair for rnd in got for t in rnd for pair in itertools.combinations(sorted(t), 2))
    assert max(meet.values()) == 1
    assert all(sorted(x for t in rnd for x in t) == list(range(tables * k)) for rnd in got)
    assert all(len(t) == k for rnd in got for t in rnd)
    assert designs.shift_rounds(16, 4, 10) is None  # a field: column_rounds does it


def test_forty_eight_in_clubs_of_six_by_seven():
    roster = [Player(f"p{i:02d}", f"Player {i}", f"club{i // 6}") for i in range(48)]
    q = plan(roster, 7, 4, "clubs6").quality(roster)  # 12 tables: Z_12 alone has 4 clean rounds
    assert (q.repeat_pairs, q.group_clashes, q.seat_off) == (0, 0, 0) and q.at_bounds()


# -- optima reached ------------------------------------------------------------------


@pytest.mark.parametrize("n, rounds", [(16, 4), (16, 5), (32, 8), (32, 9), (36, 6), (64, 8)])
def test_zero_repeats_where_a_design_exists(n, rounds):
    roster = players(n)
    q = plan(roster, rounds, 4, "design").quality(roster)
    assert q.repeat_pairs == 0 and q.max_meetings == 1 and q.at_bounds()


def test_thirty_two_by_eight_every_position_exactly_twice():
    roster = players(32)
    q = plan(roster, 8, 4, "positions").quality(roster)
    assert q.repeat_pairs == 0
    assert all(sorted(Counter(seats).values()) == [2, 2, 2, 2] for _, seats in q.player_seats)


def test_clubs_of_eight_over_five_rounds():
    roster = players(32, groups=4)
    q = plan(roster, 5, 4, "clubs").quality(roster)
    assert (q.repeat_pairs, q.group_clashes, q.seat_off) == (0, 0, 0) and q.at_bounds()


def test_tables_of_six():
    roster = players(42)  # 7 tables of 6: GF(7), 7 rounds without a repeat
    q = plan(roster, 7, 6, "six").quality(roster)
    assert q.repeat_pairs == 0 and q.seat_off == 0 and q.worst_seat_spread == 1


def test_short_tables_fair_at_sixty_two():
    roster = players(62)  # 14 tables of 4 and 2 of 3
    q = plan(roster, 5, 4, "short").quality(roster)
    assert (q.repeat_pairs, q.seat_off, q.short_unfair) == (0, 0, 0)
    assert q.most_short == q.most_short_bound == 1


def test_short_tables_in_turn_at_sixty_two_by_ten():
    roster = players(62)  # 6 short seats a round: 60 over 10 rounds, nobody twice
    q = plan(roster, 10, 4, "ten").quality(roster)
    assert (q.repeat_pairs, q.seat_off, q.short_unfair, q.most_short) == (0, 0, 0, 1) and q.at_bounds()


def test_round_robin_deals_short_seats_in_turn():
    from setupgen.core import rng
    from setupgen.tournament import seating

    got = seating.round_robin_short([[0] * 10 for _ in range(4)], 3, rng.from_seed("rr"))
    assert [len(x) for x in got] == [3, 3, 3, 3]
    first = got[0] | got[1] | got[2]
    assert len(first) == 9 and set(range(10)) - first <= got[3]
    # a player short in a fixed round before planned round 1 waits for the others
    base = [[1] + [0] * 3, [1] + [0] * 3]
    assert 0 not in seating.round_robin_short(base, 3, rng.from_seed("rr"))[0]
    # the search's short-table term: Σ over rounds of (short tables so far)², least when dealt so
    assert seating.fair_short_bound([[0] * 4 for _ in range(4)], 1) == 1 + 2 + 3 + 4


def test_replan_with_short_tables_keeps_them_in_turn():
    roster = players(62)
    first = plan(roster, 8, 4, "short-day")
    played = [x for x in first.seats if x.round <= 3]
    now = [p for p in roster if p.id != "p07"] + [Player("late1", "L1")]
    q = plan(now, 8, 4, "short-day/from-round-4", fixed=played).quality(now)
    assert (q.repeat_pairs, q.short_unfair, q.most_short) == (0, 0, 1)


# -- re-planning ---------------------------------------------------------------------


def test_replan_keeps_played_rounds_and_reaches_the_bounds_again():
    roster = players(32)
    first = plan(roster, 6, 4, "day")
    played = [x for x in first.seats if x.round <= 2]
    now = [p for p in roster if p.id not in ("p03", "p17")] + [Player("late1", "L1"), Player("late2", "L2")]
    again = plan(now, 6, 4, "day/from-round-3", fixed=played)
    assert [x for x in again.seats if x.round <= 2] == played
    assert {x.player for x in again.seats if x.round > 2} == {p.id for p in now}
    q = again.quality(now)
    assert q.repeat_pairs == 0 and q.seat_off == 0


def test_late_entry_takes_a_drop_outs_seats_and_the_bounds_hold():
    roster = players(32)
    first = plan(roster, 8, 4, "club")
    played = [x for x in first.seats if x.round <= 3]
    now = [p for p in roster if p.id != "p05"] + [Player("late1", "L1")]
    again = plan(now, 8, 4, "club/from-round-4", fixed=played, previous=first)
    q = again.quality(now)
    assert (q.repeat_pairs, q.seat_off, q.short_unfair) == (0, 0, 0) and q.at_bounds()
    # the late entry sits where p05 would have: rounds 4-8 as planned before, p05 swapped out
    for r in range(4, 9):
        assert [sorted("late1" if pid == "p05" else pid for pid in first.table(r, t)) for t in range(1, 9)] == [
            sorted(again.table(r, t)) for t in range(1, 9)
        ]


def test_deterministic_bytes():
    roster = players(62, groups=5)
    a = plan(roster, 6, 4, "same", budget=3000).to_csv()
    assert a == plan(roster, 6, 4, "same", budget=3000).to_csv()
    assert a != plan(roster, 6, 4, "other", budget=3000).to_csv()


# -- the quality page -----------------------------------------------------------------


@pytest.mark.parametrize("example, lang", [("swiss-2010", "de-CH"), ("australian", "en")])
def test_quality_page_lists_every_measure_with_its_bound(tmp_path, example, lang):
    t = model.load(ROOT / "examples" / example / "tournament.toml")
    sched = jobs.make_schedule(t, tmp_path)
    page = jobs.quality_listing(t, sched, templates.texts(t.language))
    assert len(page.rows) == 8 and t.language == lang
    optimal = templates.texts(t.language).get("tournament.quality_optimal")
    assert all(row[3] == optimal and row[1] == row[2] for row in page.rows)
    assert str(len(t.players)) in page.subtitle


# -- seating by standings --------------------------------------------------------------


def test_round_by_rank_cuts_the_ranking_into_tables():
    roster = players(14)  # tables 4, 4, 3, 3
    first = plan(roster, 3, 4, "rank")
    fixed = [x for x in first.seats if x.round == 1]
    ranked = [p.id for p in roster][::-1]
    s = plan(roster, 3, 4, "rank/2", fixed=fixed, by_rank={2: ranked})
    assert [sorted(s.table(2, t)) for t in range(1, 5)] == [
        sorted(ranked[0:4]),
        sorted(ranked[4:8]),
        sorted(ranked[8:11]),
        sorted(ranked[11:14]),
    ]
    seat1 = {x.player: x.seat for x in fixed}
    # nobody takes round 1's position again: always possible at one fixed round
    assert all(seat1[pid] != i + 1 for t in range(1, 5) for i, pid in enumerate(s.table(2, t)))
    with pytest.raises(ScheduleError, match="every player once"):
        plan(roster, 3, 4, "rank/2", fixed=fixed, by_rank={2: ranked[1:]})
    with pytest.raises(ScheduleError, match="round 1 cannot be seated by standings"):
        plan(roster, 3, 4, "rank/2", fixed=fixed, by_rank={1: ranked})


def test_groups_before_positions_option():
    roster = players(16, groups=4)
    first = plan(players(16), 4, 4, "g")  # round 2 played without regard to the clubs
    fixed = [x for x in first.seats if x.round == 2]
    a = plan(roster, 4, 4, "g/2", fixed=fixed, budget=5000).quality(roster)
    b = plan(roster, 4, 4, "g/2", fixed=fixed, budget=5000, groups_first=True).quality(roster)
    assert a.repeat_pairs == b.repeat_pairs  # the same attempts, chosen in another order
    assert b.group_clashes <= a.group_clashes and a.seat_off <= b.seat_off


def test_groups_before_positions_in_the_tournament_file(tmp_path):
    src = ROOT / "examples" / "swiss-2010"
    (tmp_path / "players.csv").write_text((src / "players.csv").read_text())
    text = (src / "tournament.toml").read_text()
    assert model.load(src / "tournament.toml").groups_first is False
    (tmp_path / "t.toml").write_text(text + "\n[schedule]\ngroups_before_positions = true\n")
    assert model.load(tmp_path / "t.toml").groups_first is True
    (tmp_path / "t.toml").write_text(text + "\n[schedule]\ngroups_first = true\n")
    with pytest.raises(model.TournamentError, match="schedule.groups_first: unknown key"):
        model.load(tmp_path / "t.toml")
