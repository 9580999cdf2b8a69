"""Almanac pages in round packs (issue 11): every table's sheet is followed
by its almanac, the director's pages are padded to an even count, and each
almanac prints the event's house rules, the round's scenario rules and
threshold and this board's own harbors. The examples' packs are read back
page by page and compared with their board JSON, table by table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import sheetsvg as S
from pypdf import PdfReader
from test_tournament import results_csv

from setupgen.core import templates
from setupgen.tournament import jobs as tj
from setupgen.tournament import model as tournament
from setupgen.tournament import roundpack

ROOT = Path(__file__).resolve().parent.parent
SWISS = ROOT / "examples" / "swiss-2010" / "tournament.toml"
AUS = ROOT / "examples" / "australian" / "tournament.toml"
FISH = ROOT / "examples" / "fishermen-club" / "tournament.toml"

#: harbor words of the board JSON's types as the languages print them (written out by hand)
WORDS = {
    "en": {"lumber": "lumber", "wool": "wool", "grain": "grain", "brick": "brick", "ore": "ore"},
    "de-CH": {"lumber": "Holz", "wool": "Wolle", "grain": "Getreide", "brick": "Lehm", "ore": "Erz"},
}


def texts(svg: str) -> list[str]:
    return [t.text for t in S.parse(svg)[1]]


def harbor_check(front_svg: str, back_svg: str, board: dict, lang: str) -> None:
    """The almanac's "3:1: 2, 5, 8" lines name the front's numbered harbors
    by type, and together they are the board JSON's harbors."""
    front = texts(front_svg)
    numbered = {
        int(k): v.split("\u2002")[0]
        for k, v in zip(front, front[1:])
        if re.fullmatch(r"\d+", k) and re.match(r"[23]:1", v) and "→" in v
    }
    by_type_front: dict[str, list[int]] = {}
    for n, what in sorted(numbered.items()):
        by_type_front.setdefault(what, []).append(n)
    back = {
        m.group(1): [int(x) for x in m.group(2).split(", ")]
        for m in (re.fullmatch(r"([23]:1(?: \w+)?): ([\d, ]+)", t) for t in texts(back_svg))
        if m
    }
    assert back == by_type_front
    want = sorted("3:1" if h["type"] == "3:1" else f"2:1 {WORDS[lang][h['type']]}" for h in board["harbors"])
    assert sorted(t for t, ns in back.items() for _ in ns) == want


def pack(request, folder: Path) -> tuple[dict, list[str]]:
    manifest = roundpack.write_round(request, folder)
    return manifest, [p.extract_text() for p in PdfReader(str(folder / "round.pdf")).pages]


def test_swiss_rounds_and_final_print_the_event_rules_and_each_board(tmp_path):
    t = tournament.load(SWISS)
    tx = templates.texts("de-CH")
    sched = tj.current_schedule(t, tmp_path)
    banker = tx.get("almanac.rule.banker").split("\n")[0]
    for number, vp in ((1, 10), (2, 10), (3, 12)):
        manifest, pages = pack(tj.round_request(t, sched, number), tmp_path / f"r{number}")
        assert manifest["almanac"] == {"preset": "swiss-2010", "final": False, "drop": [], "add": [], "variant": None}
        director = director_pages(pages, manifest["tables"])
        for entry in manifest["boards"]:
            front = (tmp_path / f"r{number}" / entry["svg"]).read_text()
            back = (tmp_path / f"r{number}" / entry["almanac"]).read_text()
            board = json.loads((tmp_path / f"r{number}" / entry["json"]).read_text())
            harbor_check(front, back, board, "de-CH")
            words = " ".join(texts(back))
            assert "Hausregeln: Schweizer Meisterschaft 2010" in words
            assert f"Zum Sieg: {vp} Siegpunkte" in words and banker[:30] in words
            assert "ß" not in words  # Swiss German spelling
            page = pages[director + 2 * (entry["table"] - 1) + 1]
            assert "Almanach" in page and entry["setup_id"] in page
        if number == 3:
            heading = [x for x in texts(back) if x.startswith("Szenarioregeln")]
            assert heading and "Seefahrer" in heading[0]
            assert len(scenario_lines(back)) == 11  # docs/rules.md 7.3: eleven rules
            assert tx.get("almanac.rule.sea-half-hexes").split("\n")[0][:30] in " ".join(texts(back))
    (tmp_path / "results.csv").write_text(results_csv(t, sched))
    request, _ = tj.finals_request(t, sched, tmp_path / "results.csv", 8)
    manifest, pages = pack(request, tmp_path / "final")
    assert manifest["almanac"]["final"] is True and manifest["victory_points"] == 13
    for entry in manifest["boards"]:
        back = (tmp_path / "final" / entry["almanac"]).read_text()
        words = " ".join(texts(back))
        assert "Zum Sieg: 13 Siegpunkte" in words
        # docs/rules.md 7.1: the banker is a general rule, "Bei allen Spielen", the final included;
        # 7.4 in full and Fiesepeter at the final's tables; 7.8: no development-card rule
        assert banker[:30] in words
        for key in ("resource-shortage", "material-visible", "ck-reduced-city", "ck-knights-commit-optional"):
            assert tx.get(f"almanac.rule.{key}").replace("\n", " ") in words, key
        for key in ("dev-card-before-roll", "new-cards-apart", "standard-start"):
            assert tx.get(f"almanac.rule.{key}").replace("\n", " ") not in words, key
        harbor_check(
            (tmp_path / "final" / entry["svg"]).read_text(),
            back,
            json.loads((tmp_path / "final" / entry["json"]).read_text()),
            "de-CH",
        )


def director_pages(pages: list[str], tables: int) -> int:
    """How many pages come before table 1's sheet (director's pages and
    the blank back): all but the tables' pairs, an even count."""
    count = len(pages) - 2 * tables
    assert count >= 2 and count % 2 == 0
    return count


def scenario_lines(svg: str) -> list[tuple[float, float]]:
    """The rules under the scenario-rules heading and its continuation in
    the next column, one per number ("1." right-aligned just left of a
    rule's first line, issue 43), as the numbers' anchor points (mm)."""
    _, words, _, _ = S.parse(svg)
    heads = [t for t in words if t.bold and t.y > 30]
    numbers = [t for t in words if re.fullmatch(r"\d+\.", t.text) and t.anchor == "end" and not t.bold]
    out = []
    for start in (h for h in heads if h.text.startswith(("Szenarioregeln", "Scenario rules"))):  # and "(cont.)"
        later = [h.y for h in heads if abs(h.x - start.x) < 1 and h.y > start.y]
        end = min(later, default=1e9)
        out += [(t.x, t.y) for t in numbers if 0 < t.x - start.x < 8 and start.y < t.y < end]
    return out


def test_australian_rounds_semi_finals_and_final(tmp_path):
    t = tournament.load(AUS)
    tx = templates.texts("en")
    sched = tj.current_schedule(t, tmp_path)
    banker = tx.get("almanac.rule.banker-cards").split("\n")[0][:30]
    manifest, pages = pack(tj.round_request(t, sched, 1), tmp_path / "r1")
    assert manifest["tables"] == 16 and len(pages) == 2 + 32
    for entry in manifest["boards"]:
        back = (tmp_path / "r1" / entry["almanac"]).read_text()
        words = " ".join(texts(back))
        assert "House rules: Australian Championship 2006" in words and "To win: 10 victory points" in words
        assert banker in words
        harbor_check(
            (tmp_path / "r1" / entry["svg"]).read_text(),
            back,
            json.loads((tmp_path / "r1" / entry["json"]).read_text()),
            "en",
        )
    (tmp_path / "results.csv").write_text(results_csv(t, sched))
    semi, tables = tj.finals_request(t, sched, tmp_path / "results.csv", 16)
    assert semi.almanac.final is False  # semi-finals keep the banker
    manifest, _ = pack(semi, tmp_path / "semi")
    assert banker in " ".join(texts((tmp_path / "semi" / manifest["boards"][0]["almanac"]).read_text()))
    winners = [table[0] for table in tables]
    final, _ = tj.finals_request(t, sched, tmp_path / "results.csv", 16, winners)
    manifest, _ = pack(final, tmp_path / "final")
    words = " ".join(texts((tmp_path / "final" / manifest["boards"][0]["almanac"]).read_text()))
    assert banker not in words and "House rules: Australian Championship 2006" in words


def test_fishermen_round_prints_the_variant_and_its_material(tmp_path):
    t = tournament.load(FISH)
    sched = tj.current_schedule(t, tmp_path)
    assert [r.variant for r in t.rounds] == ["fishermen", "fishermen"]
    for number, form in ((1, "without Seafarers"), (2, "with Seafarers")):
        manifest, pages = pack(tj.round_request(t, sched, number), tmp_path / f"r{number}")
        assert manifest["almanac"]["variant"] == "fishermen"
        # 15 players: three tables of 4 and one of 3 (worked by hand): 4 x 30 fish tokens, 15 markers
        director = " ".join(pages[0].split())
        assert "Round total: 4 × Base game" in director and "120 × fish tokens" in director
        assert "15 × fishing-ship markers" in director
        assert ("15 × matchsticks" in director) == (number == 1)
        assert ("4 × Seafarers" in director) == (number == 2)
        for entry in manifest["boards"]:
            players = len(sched.table(number, entry["table"]))
            words = " ".join(texts((tmp_path / f"r{number}" / entry["almanac"]).read_text()))
            assert f"Variant: Fishermen of Catan 2 (fan variant) ({form})" in words
            assert "30 × fish token" in words and f"{players} × fishing-ship marker" in words
            assert (f"{players} × matchstick" in words) == (number == 1)
            assert "Fish tokens are counted openly when trading with the bank." in words
            assert ("Ask the director for more fish tokens" in words) == (number == 2)


def test_duplex_order_with_several_director_pages(tmp_path):
    """The director's pages are padded to an even count (a blank back only
    when they are odd), then sheet / almanac pairs, table by table;
    without the almanac the old order."""
    parities = set()
    for tables in (40, 80):
        request = roundpack.RoundRequest("base-3-4", tables, "dup")
        manifest, pages = pack(request, tmp_path / f"n{tables}")
        own = sum("Director's page" in p for p in pages)
        assert director_pages(pages, tables) == own + own % 2
        assert ("left blank" in pages[own]) == (own % 2 == 1)
        parities.add(own % 2)
    assert parities == {0, 1}  # one pack of each kind was made
    director = own + own % 2
    for k, entry in enumerate(manifest["boards"]):
        front, back = pages[director + 2 * k], pages[director + 2 * k + 1]
        assert entry["setup_id"] in front and "Build list" in front
        assert entry["setup_id"] in back and "Almanac" in back
    import dataclasses

    manifest, pages = pack(dataclasses.replace(request, tables=3, almanac=None), tmp_path / "b")
    assert len(pages) == 1 + 3
    assert manifest["duplex"] is False and not any("Almanac" in p for p in pages)
    assert "almanac" not in manifest["boards"][0]


def test_almanac_errors_are_found_before_anything_is_written(tmp_path):
    from setupgen.core.almanac import AlmanacRequest
    from setupgen.core.errors import SetupgenError

    for almanac, message in (
        (AlmanacRequest("swiss-2011"), "unknown rule preset 'swiss-2011'"),
        (AlmanacRequest(variant="pirates"), "unknown variant 'pirates'"),
        (AlmanacRequest("swiss-2010", drop=("banker-rule",)), "unknown rule key 'banker-rule'"),
    ):
        with pytest.raises(SetupgenError, match=re.escape(message)):
            roundpack.write_round(roundpack.RoundRequest("base-3-4", 2, "e", almanac=almanac), tmp_path / "x")
        assert not (tmp_path / "x").exists()
    long = AlmanacRequest("swiss-2010", add=tuple("x" * 190 for _ in range(60)), variant="fishermen")
    with pytest.raises(SetupgenError, match=r"lines too long for one a4 page"):
        roundpack.write_round(roundpack.RoundRequest("seafarers-sm2010", 7, "e", almanac=long), tmp_path / "y")
    assert not (tmp_path / "y").exists()
