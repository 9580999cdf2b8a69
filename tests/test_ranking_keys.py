"""Ranking keys as data, scoring presets, finals of four and by
attendance, selection order (issue 44; docs/rules.md section 6). Every
expected order below is worked by hand from the circuits' rules as the
issue states them (CATAN Studio 2024, German ranking tournaments,
conventions), never read back from setupgen."""

from __future__ import annotations

import csv
import io
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from setupgen.cli import app
from setupgen.core.errors import SetupgenError
from setupgen.core.templates import texts
from setupgen.tournament import jobs, scoring
from setupgen.tournament import model as tournament
from setupgen.tournament import standings as st
from setupgen.tournament.standings import GameResult

ROOT = Path(__file__).resolve().parents[1]
STUDIO = ROOT / "examples" / "catan-studio" / "tournament.toml"
GERMAN = ROOT / "examples" / "german-ranking" / "tournament.toml"


def table(rnd: int, tbl: int, *cells: tuple[str, int], winner: str) -> list[GameResult]:
    return [GameResult(rnd, tbl, p, vp, p == winner) for p, vp in cells]


def ranked(rows, preset: str, keys=None, thresholds=None, seed="s"):
    p = scoring.load_preset(preset)
    sc = scoring.Scoring(dict(p.placing_points), p.ranking if keys is None else keys)
    return st.standings(rows, scoring=sc, thresholds=thresholds or {1: 10, 2: 10}, seed=seed)


# --- German ranking tournaments -------------------------------------------------------------


def test_german_drop_out_ranks_by_the_average_share_above_two_weaker_games():
    """D wins round 1 (5 points, 10 VP, 10 of 28 = 35.71 %) and drops out.
    P is 2nd in round 1 (3 points, 6 of 24 = 25.00 %) and 3rd in round 2
    (2 points, 4 of 23 = 17.39 %): also 5 points and 10 VP. Summed, P's
    share is 42.39 > 35.71; averaged it is 21.20 (42.39 / 2, rounded) <
    35.71, so the German rule puts D above P."""
    rows = [
        *table(1, 1, ("D", 10), ("a", 8), ("b", 6), ("c", 4), winner="D"),
        *table(1, 2, ("X", 10), ("P", 6), ("Y", 5), ("Z", 3), winner="X"),
        *table(2, 1, ("X2", 10), ("W", 7), ("P", 4), ("V", 2), winner="X2"),
    ]
    german = ranked(rows, "german-ranking")
    order = [s.player for s in german]
    by = {s.player: s for s in german}
    assert order.index("D") < order.index("P")
    assert (
        (by["D"].placing_points, by["D"].victory_points) == (by["P"].placing_points, by["P"].victory_points) == (5, 10)
    )
    assert by["D"].vp_share_average == Decimal("35.71") and by["P"].vp_share_average == Decimal("21.20")
    assert by["P"].vp_share == Decimal("42.39") and by["P"].games == 2 and by["D"].games == 1
    summed = [s.player for s in ranked(rows, "german-ranking", ["placing_points", "victory_points", "vp_share"])]
    assert summed.index("P") < summed.index("D")  # the seeds' sum ranks the other way


def test_german_countback_puts_one_win_above_two_second_places():
    """A: 1st (5 points, 10 of 25 = 40.00 %) and 4th (1 point, 2 of 20 =
    10.00 %); B: 2nd twice (3 + 3 points, 6 of 24 = 25.00 % each). Level on
    6 points, 12 VP and a 25.00 average share: A's one 1st place beats
    B's none, where setupgen used to draw lots."""
    rows = [
        *table(1, 1, ("A", 10), ("p1", 7), ("p2", 5), ("p3", 3), winner="A"),
        *table(1, 2, ("r1", 10), ("B", 6), ("r2", 5), ("r3", 3), winner="r1"),
        *table(2, 1, ("q1", 10), ("q2", 5), ("q3", 3), ("A", 2), winner="q1"),
        *table(2, 2, ("s1", 10), ("B", 6), ("s2", 5), ("s3", 3), winner="s1"),
    ]
    for seed in ("s", "t", "u", "v"):  # not a lucky draw: the countback decides under every seed
        german = ranked(rows, "german-ranking", seed=seed)
        by = {s.player: s for s in german}
        assert (by["A"].placing_points, by["A"].victory_points, by["A"].vp_share_average) == (6, 12, Decimal("25.00"))
        assert (by["B"].placing_points, by["B"].victory_points, by["B"].vp_share_average) == (6, 12, Decimal("25.00"))
        assert by["A"].places[:4] == (1, 0, 0, 1) and by["B"].places[:4] == (0, 2, 0, 0)
        assert by["A"].rank == by["B"].rank - 1 and by["A"].lots is None and by["B"].lots is None


def test_places_at_a_table_share_the_better_place():
    rows = table(1, 1, ("w", 10), ("b", 8), ("c", 8), ("d", 5), winner="w")
    assert st.table_places(rows) == {"w": 1, "b": 2, "c": 2, "d": 4}
    level = table(1, 1, ("w", 10), ("b", 10), ("c", 3), ("d", 3), winner="w")  # level with the winner: 2nd
    assert st.table_places(level) == {"w": 1, "b": 2, "c": 3, "d": 3}


# --- CATAN Studio ---------------------------------------------------------------------------

#: 14 players, two rounds (tables of 4, 4, 3, 3), VP written by hand; p05 wins with 11
STUDIO_ROWS = [
    *table(1, 1, ("p01", 10), ("p02", 8), ("p03", 7), ("p04", 5), winner="p01"),
    *table(1, 2, ("p05", 11), ("p06", 9), ("p07", 6), ("p08", 2), winner="p05"),
    *table(1, 3, ("p09", 10), ("p10", 9), ("p11", 3), winner="p09"),
    *table(1, 4, ("p12", 10), ("p13", 4), ("p14", 4), winner="p12"),
    *table(2, 1, ("p01", 5), ("p05", 10), ("p09", 8), ("p12", 6), winner="p05"),
    *table(2, 2, ("p02", 10), ("p06", 9), ("p10", 7), ("p13", 2), winner="p02"),
    *table(2, 3, ("p03", 10), ("p07", 9), ("p11", 5), winner="p03"),
    *table(2, 4, ("p04", 9), ("p08", 10), ("p14", 7), winner="p08"),
]


def test_catan_studio_ranks_by_wins_then_total_vp_then_share():
    """p05 won twice. Of the six with one win, total VP (uncapped): p02 18,
    p09 18, p03 17, p12 16, p01 15, p08 12; p09 and p02 are split by the
    share sum: p09 10/22 = 45.45 + 8/29 = 27.59 = 73.04, p02 8/30 = 26.67 +
    10/28 = 35.71 = 62.38. Without a win: p06 18, p10 16, p07 15, p04 14,
    p14 11, p11 8, p13 6."""
    got = ranked(STUDIO_ROWS, "catan-studio-2024")
    assert [s.player for s in got] == [
        "p05",
        "p09",
        "p02",
        "p03",
        "p12",
        "p01",
        "p08",
        "p06",
        "p10",
        "p07",
        "p04",
        "p14",
        "p11",
        "p13",
    ]
    by = {s.player: s for s in got}
    assert (by["p05"].wins, by["p05"].victory_points_total, by["p05"].victory_points) == (2, 21, 20)
    assert by["p09"].vp_share == Decimal("73.04") and by["p02"].vp_share == Decimal("62.38")
    assert all(s.lots is None for s in got)
    # the final of four: the top four at one table, in rank (selection) order
    assert st.finals_tables([s.player for s in got], 4) == (("p05", "p09", "p02", "p03"),)
    final = tournament.Final(tournament.BY_ATTENDANCE, "base-3-4", 10)
    assert final.finalists(len(got)) == 4


def test_total_vp_counts_above_the_threshold():
    """Level on wins: A won with 12 and scored 3 (15 in all, 13 capped), B
    won with 10 and scored 4 (14 either way): uncapped, A is ahead."""
    rows = [
        *table(1, 1, ("A", 12), ("b", 9), ("c", 5), ("d", 2), winner="A"),
        *table(1, 2, ("B", 10), ("e", 9), ("f", 5), ("g", 2), winner="B"),
        *table(2, 1, ("e", 10), ("A", 3), ("h", 2), ("i", 1), winner="e"),
        *table(2, 2, ("f", 10), ("B", 4), ("j", 2), ("k", 1), winner="f"),
    ]
    order = [s.player for s in ranked(rows, "catan-studio-2024", ["wins", "victory_points_total"])]
    assert order.index("A") < order.index("B")
    capped = [s.player for s in ranked(rows, "catan-studio-2024", ["wins", "victory_points"])]
    assert capped.index("B") < capped.index("A")


def test_best_finish_as_conventions_break_ties():
    """Points 4/3/2/1: A 1st and 4th (5 points), B 2nd and 3rd (5 points);
    A's best finish, 1st, beats B's, 2nd (a convention's "best single
    finish")."""
    rows = [
        *table(1, 1, ("A", 10), ("a1", 7), ("a2", 5), ("a3", 3), winner="A"),
        *table(1, 2, ("b1", 10), ("B", 6), ("b2", 5), ("b3", 3), winner="b1"),
        *table(2, 1, ("c1", 10), ("c2", 5), ("c3", 3), ("A", 2), winner="c1"),
        *table(2, 2, ("d1", 10), ("d2", 6), ("B", 5), ("d3", 3), winner="d1"),
    ]
    got = ranked(rows, "australian-2006", ["placing_points", "best_finish"])
    by = {s.player: s for s in got}
    assert by["A"].placing_points == by["B"].placing_points == 5
    assert (by["A"].best_finish, by["B"].best_finish) == (1, 2) and by["A"].rank < by["B"].rank


@pytest.mark.parametrize(
    "ranked_players, semis, expected",
    [
        (11, False, None),
        (12, False, 4),
        (15, True, 4),
        (16, True, 16),
        (16, False, 4),
        (28, False, 4),
        (28, True, 16),
        (29, False, 16),
        (40, False, 16),
    ],
)
def test_the_attendance_rule(ranked_players, semis, expected):
    """CATAN Studio: 12-28 ranked players a final of four (semi-finals from
    16 up only when the file asks), 29 or more semi-finals of 16, fewer
    than 12 refused."""
    final = tournament.Final(tournament.BY_ATTENDANCE, "base-3-4", 10, semi_finals=semis)
    if expected is None:
        with pytest.raises(SetupgenError, match="the attendance rule seats finals from 12 ranked players; 11 are"):
            final.finalists(ranked_players)
    else:
        assert final.finalists(ranked_players) == expected


# --- presets and the tournament file ----------------------------------------------------------


def test_presets_name_their_sources_and_keys():
    assert scoring.presets() == ("australian-2006", "catan-studio-2024", "german-ranking")
    aus = scoring.load_preset("australian-2006")
    assert aus.ranking == ("placing_points", "victory_points", "vp_share", "lots") and aus.positions == "start"
    assert dict(aus.placing_points)[4] == (4, 3, 2, 1) and "ours" in aus.readings[0]
    studio = scoring.load_preset("catan-studio-2024")
    assert studio.ranking == ("wins", "victory_points_total", "vp_share", "lots") and studio.positions == "selection"
    german = scoring.load_preset("german-ranking")
    assert dict(german.placing_points) == {3: (5, 3, 1), 4: (5, 3, 2, 1)}
    assert german.ranking == ("placing_points", "victory_points", "vp_share_average", "countback", "lots")
    assert all(p.source for p in map(scoring.load_preset, scoring.presets()))


def test_examples_load_with_their_presets():
    studio = tournament.load(STUDIO)
    assert (studio.scoring_preset, studio.positions, studio.tie_breakers) == (
        "catan-studio-2024",
        "selection",
        ("wins", "victory_points_total", "vp_share", "lots"),
    )
    assert len(studio.players) == 14 and studio.final.players == tournament.BY_ATTENDANCE
    german = tournament.load(GERMAN)
    assert german.final.players == 4 and dict(german.placing_points)[3] == (5, 3, 1)


def write(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    shutil.copy(source.parent / "players.csv", tmp_path / "players.csv")
    text = source.read_text()
    assert old in text
    (tmp_path / "t.toml").write_text(text.replace(old, new, 1))
    return tmp_path / "t.toml"


@pytest.mark.parametrize(
    "old, new, fragment",
    [
        ('preset = "catan-studio-2024"', 'preset = "catan-studio-2023"', "scoring.preset: unknown scoring preset"),
        (
            'preset = "catan-studio-2024"',
            'preset = "catan-studio-2024"\nranking = ["wins", "points"]',
            "scoring.ranking: unknown ranking key 'points'",
        ),
        (
            'preset = "catan-studio-2024"',
            'preset = "catan-studio-2024"\nranking = ["wins", "wins"]',
            "scoring.ranking: the ranking key 'wins' is listed twice",
        ),
        (
            'preset = "catan-studio-2024"',
            'preset = "catan-studio-2024"\nranking = ["lots", "wins"]',
            "scoring.ranking: the 'lots' ranking key must come last",
        ),
        (
            'preset = "catan-studio-2024"',
            'preset = "catan-studio-2024"\nranking = ["lots"]',
            "at least one key besides lots",
        ),
        (
            'preset = "catan-studio-2024"',
            'preset = "catan-studio-2024"\npositions = "seat"',
            "scoring.positions: expected start or selection",
        ),
        ('players = "by-attendance"', "players = 12", 'final.players: expected 4, 8, 16 or "by-attendance"'),
        ('players = "by-attendance"', "players = 4\nsemi_finals = true", "final.semi_finals: only with players"),
    ],
)
def test_bad_scoring_is_one_clear_line_and_exit_2(tmp_path, old, new, fragment):
    path = write(tmp_path, STUDIO, old, new)
    with pytest.raises(tournament.TournamentError, match=None) as info:
        tournament.load(path)
    assert fragment in str(info.value)
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["schedule", str(path), "-o", str(out)])
    assert res.exit_code == 2 and fragment in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.output and not out.exists()


def test_a_preset_overridden_key_by_key(tmp_path):
    path = write(
        tmp_path,
        STUDIO,
        "placing_points = { 4 = [4, 3, 2, 1], 3 = [4, 2, 1] }",
        "placing_points = { 4 = [100, 50, 20, 10], 3 = [100, 40, 10] }\n"
        'ranking = ["placing_points", "wins", "victory_points_total", "best_finish"]\npositions = "start"',
    )
    t = tournament.load(path)
    assert t.scoring_preset == "catan-studio-2024" and t.positions == "start"
    assert dict(t.placing_points)[3] == (100, 40, 10)
    assert t.tie_breakers == ("placing_points", "wins", "victory_points_total", "best_finish", "lots")


# --- the whole event: CLI, CSV, words ------------------------------------------------------------


def results_for(t, sched, vp_of) -> str:
    lines = ["round,table,player,vp,winner"]
    for r in sched.round_numbers():
        for k in range(1, sched.tables(r) + 1):
            ids = sched.table(r, k)
            vps = [vp_of(r, k, i, p) for i, p in enumerate(ids)]
            win = max(range(len(ids)), key=lambda i: vps[i])
            lines += [f"{r},{k},{p},{v},{'yes' if i == win else 'no'}" for i, (p, v) in enumerate(zip(ids, vps))]
    return "\n".join(lines) + "\n"


def test_a_catan_studio_event_from_the_command_line(tmp_path):
    runner = CliRunner()
    out = tmp_path / "event"
    assert runner.invoke(app, ["schedule", str(STUDIO), "-o", str(out)]).exit_code == 0
    t = tournament.load(STUDIO)
    sched = jobs.current_schedule(t, out)
    # every table: the first seated wins with 10, the others 9, 8, 7 less their table number's parity
    (out / "results.csv").write_text(results_for(t, sched, lambda r, k, i, p: 10 if i == 0 else 9 - i - (k % 2)))
    res = runner.invoke(app, ["standings", str(STUDIO), str(out / "results.csv"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    rows = list(csv.reader(io.StringIO((out / "standings.csv").read_text())))
    assert rows[0] == ["rank", "player", "wins", "victory_points_total", "vp_share", "games"]
    wins = [int(r[2]) for r in rows[1:]]
    assert wins == sorted(wins, reverse=True) and sum(wins) == sum(sched.tables(r) for r in sched.round_numbers())
    res = runner.invoke(app, ["finals", str(STUDIO), str(out / "results.csv"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "finals: a final of 4 (14 ranked players; by attendance)" in res.stderr
    top = [r[1] for r in rows[1:5]]
    names = {p.id: p.name for p in t.players}
    assert res.stdout.strip().splitlines()[0] == "table 1: " + ", ".join(names[p] for p in top)
    assert (out / "final").is_dir() and not (out / "semi-final").exists()


def test_a_final_of_four_with_three_ranked_players_is_refused(tmp_path):
    """Four entered (the schedule accepts the final of four; three would be
    refused there already, issue 46), one disqualified: three ranked."""
    (tmp_path / "players.csv").write_text("id,name\na,Ann\nb,Bo\nc,Cy\nd,Di\n")
    (tmp_path / "t.toml").write_text(
        'name = "Tiny"\nseed = "tiny"\nplayers = "players.csv"\n'
        '[[rounds]]\nscenario = "base-3-4"\n[final]\nplayers = 4\nscenario = "base-3-4"\n'
    )
    out = tmp_path / "out"
    runner = CliRunner()
    assert runner.invoke(app, ["schedule", str(tmp_path / "t.toml"), "-o", str(out)]).exit_code == 0
    (out / "results.csv").write_text(
        "round,table,player,vp,winner,status\n1,1,a,10,yes,played\n1,1,b,5,no,played\n"
        "1,1,c,4,no,played\n1,1,d,3,no,disqualified\n"
    )
    before = sorted(p.name for p in out.iterdir())
    res = runner.invoke(app, ["finals", str(tmp_path / "t.toml"), str(out / "results.csv"), "-o", str(out)])
    assert res.exit_code == 2 and "finals of 4 need 4 ranked players, got 3" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and sorted(p.name for p in out.iterdir()) == before
    three = tmp_path / "three"
    three.mkdir()
    (three / "players.csv").write_text("id,name\na,Ann\nb,Bo\nc,Cy\n")
    shutil.copy(tmp_path / "t.toml", three / "t.toml")
    res = runner.invoke(app, ["schedule", str(three / "t.toml"), "-o", str(three / "out")])
    assert res.exit_code == 2 and "final.players: finals of 4 need 4 ranked players, got 3" in res.stderr


def test_each_key_has_its_name_in_both_languages():
    for lang in ("en", "de", "de-CH"):
        tx = texts(lang)
        heads = {k: tx.get(f"tournament.standings_head.{k}") for k in st.key_columns(scoring.RANKING_KEYS)}
        assert len(set(heads.values())) == len(heads)
        for key in scoring.RANKING_KEYS:
            assert tx.get(f"console.tie_{key}")
    assert texts("en").get("tournament.standings_head.wins") == "Wins"
    assert texts("de").get("tournament.standings_head.wins") == "Siege"


def test_the_standings_pdf_heads_its_columns_by_key(tmp_path):
    t = tournament.load(GERMAN)
    got = ranked([*table(1, 1, ("rl01", 10), ("rl02", 7), ("rl03", 5), ("rl04", 3), winner="rl01")], "german-ranking")
    listing = jobs.standings_listing(t, got, {"rl01": {1: 5}, "rl02": {1: 3}, "rl03": {1: 2}, "rl04": {1: 1}})
    # rank, player, the round's placing points (R1), then the German keys, games, lot
    assert listing.columns == ("#", "Spieler", "R1", "Platzpunkte", "SP", "Ø Anteil", "Plätze", "Spiele", "Los")
    assert listing.rows[0] == ("1", "Anna Becker", "5", "5", "10", "40,00", "1/0/0/0", "1", "")
    assert len(listing.widths) == len(listing.columns) and abs(sum(listing.widths) - 1.0) < 1e-9


def test_selection_positions_are_worded_as_such():
    en, de = texts("en").for_positions("selection"), texts("de").for_positions("selection")
    assert en.get("tournament.seat", n=1) == "Selection position 1"
    assert de.get("tournament.table_seat", table=2, seat=3) == "Tisch 2, Auswahlposition 3"
    assert texts("en").get("tournament.seat", n=1) == "Start position 1"  # the start words untouched
    assert texts("de-CH").for_positions("selection").get("tournament.quality.seat_spread") == (
        "Grösste Streuung der Auswahlpositionen"
    )
    with pytest.raises(SetupgenError, match="unknown kind of positions"):
        texts("en").for_positions("chairs")


def test_the_console_speaks_of_wins_and_selection_positions(tmp_path):
    """A CATAN Studio event in the console: the standings head their
    columns Wins, VP (all), VP share (no placing points), the round page
    lists players in selection order, the finals page says selection order."""
    import re
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from setupgen.console import app as consoleapp
    from setupgen.console import day as consoleday

    shutil.copy(STUDIO, tmp_path / "t.toml")
    shutil.copy(STUDIO.parent / "players.csv", tmp_path / "players.csv")
    d = consoleday.open_day(tmp_path / "t.toml", tmp_path / "out")
    try:
        c = TestClient(consoleapp.create_app(d), raise_server_exceptions=False)

        def words(path: str) -> str:
            r = c.get(path)
            assert r.status_code == 200, path
            return " ".join(re.sub(r"<[^>]+>", " ", r.text).split())

        standings = words("/standings")
        assert "Wins VP (all) VP share Games" in standings and "Placing points" not in standings
        assert "Wins: the games won." in standings
        assert "selection order" in words("/rounds/1") and "start order" not in words("/rounds/1")
        assert "selection order" in words("/finals")
    finally:
        d.store.close()


def test_the_result_slip_lists_selection_order_with_a_play_order_box():
    import sheetsvg as S

    from setupgen import generate
    from setupgen.core import layout
    from setupgen.render import sheet

    b, lay = generate.from_seed("base-3-4", "sel"), layout.load("base-3-4")
    players = ("Avery", "Jordan", "Riley", "Morgan")
    for lang, heads, hint in (
        ("en", ("Sel.", "Play order"), "players in selection order: in this order each picks a chair"),
        ("de", ("Ausw.", "Zugfolge"), "Spieler in Auswahlreihenfolge"),
    ):
        svg = sheet.render_sheet(
            b, lay, lang=lang, context=sheet.SheetContext("Qualifier", 1, 2, players=players, positions="selection")
        )
        words = [t.text for t in S.parse(svg)[1]]
        assert all(h in words for h in heads), (lang, words)
        assert any(hint in w for w in words) or hint in " ".join(words)
        plain = [
            t.text
            for t in S.parse(
                sheet.render_sheet(b, lay, lang=lang, context=sheet.SheetContext("Qualifier", 1, 2, players=players))
            )[1]
        ]
        assert not any(h in plain for h in heads)
    with pytest.raises(SetupgenError, match="unknown kind of positions"):
        sheet.SheetContext(positions="chairs")


def test_placings_after_a_final_of_four():
    """Ranking a..f; the final seats a, b, c, d; c wins with 10, a 8, d 8,
    b 5: places c, then a and d (level on 8 VP: 3+2 shared placing points,
    then VP share equal, then preliminary rank: a before d), then b, then e,
    f by preliminary rank."""
    from setupgen.tournament import placings as pl

    ranking = ["a", "b", "c", "d", "e", "f"]
    assert pl.stage_tables(ranking, 4, pl.FINAL) == (("a", "b", "c", "d"),)
    with pytest.raises(SetupgenError, match="a final of 4 has no semi-finals"):
        pl.stage_tables(ranking, 4, pl.SEMI_FINAL)
    final = [GameResult(st.STAGE_ROUND, 1, p, vp, p == "c") for p, vp in (("a", 8), ("b", 5), ("c", 10), ("d", 8))]
    placed = pl.placings(ranking, 4, final, (), scoring=scoring.Scoring({4: (4, 3, 2, 1)}), threshold=10)
    assert [p.player for p in placed] == ["c", "a", "d", "b", "e", "f"]
    assert [p.stage for p in placed] == [pl.FINAL] * 4 + [pl.PRELIMINARY] * 2
