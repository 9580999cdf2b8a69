"""Adding a language is adding one TOML file: a made-up language ``xx``
(every English text wrapped in « ») dropped into a copy of ``templates/``
renders sheets, keys, the director's page and the tournament listings
with no word from anywhere else."""

import re
import shutil
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import setupgen
from setupgen.core import data, templates
from setupgen.render import director, key, listing
from setupgen.tournament import jobs, model

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def wrapped(value):
    if isinstance(value, dict):
        return {k: wrapped(v) for k, v in value.items()}
    if isinstance(value, str):
        return f"«{value}»"
    return value


def toml_text(table: dict, prefix: str = "") -> str:
    """A minimal TOML writer for nested tables of strings."""
    plain = [f"{k} = {json_str(v)}" for k, v in table.items() if not isinstance(v, dict)]
    out = ([f"[{prefix}]"] if prefix and plain else []) + plain
    for k, v in table.items():
        if isinstance(v, dict):
            out.append(toml_text(v, f"{prefix}.{k}" if prefix else k))
    return "\n".join(out) + "\n"


def json_str(v: str) -> str:
    import json

    return json.dumps(v, ensure_ascii=False)


@pytest.fixture()
def xx(tmp_path, monkeypatch):
    folder = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", folder)
    english = tomllib.loads((ROOT / "templates" / "en.toml").read_text(encoding="utf-8"))
    (folder / "xx.toml").write_text(toml_text(wrapped(english)), encoding="utf-8")
    real = data.data_dir
    monkeypatch.setattr(data, "data_dir", lambda name: folder if name == "templates" else real(name))
    monkeypatch.setattr(templates, "data_dir", lambda name: folder if name == "templates" else real(name))
    templates.texts.__globals__["_TEXTS"].clear()
    yield "xx"
    templates.texts.__globals__["_TEXTS"].clear()


def printed(svg: str) -> list[str]:
    root = ET.fromstring(svg.encode("utf-8"))
    return ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]


def leaks(texts, data_words=()):
    """Words printed outside the made-up language's « » spans, once data
    (names, seeds, setup IDs, scenario codes) is taken out. The page's texts
    are read in order as one run, since a wrapped text continues on the next
    line; a text fitted by cutting ends in "…" instead of "»"."""
    rest = re.sub(r"«[^»«]*?(»|…(?=\s|$))", " ", "\n".join(texts))
    for word in sorted(data_words, key=len, reverse=True):
        rest = rest.replace(word, " ")
    rest = re.sub(r"\b[0-9A-Z]{4}(-[0-9A-Z]{4}){3}\b", " ", rest)  # setup IDs
    return [line for line in rest.splitlines() if re.search(r"[A-Za-zÄÖÜäöüß]{2,}", line)]


def test_made_up_language_is_listed(xx):
    assert "xx" in templates.languages()


@pytest.mark.parametrize("scenario", ["base-3-4", "base-5-6", "seafarers-sm2010", "oil-springs", "cities-knights"])
def test_sheet_and_key_speak_only_the_new_language(xx, scenario):
    layout = setupgen.load_layout(scenario)
    board = setupgen.from_seed(layout, "lang")
    pages = [setupgen.render_sheet(board, layout, lang=xx)]
    if any(t.hidden for t in board.tiles):
        pages.append(key.render_key(board, layout, lang=xx))
    for svg in pages:
        texts = printed(svg)
        assert any("«" in t for t in texts)
        assert leaks(texts, ["lang"]) == []


def test_director_page_speaks_only_the_new_language(xx):
    rows = [director.DirectorRow(t, "base-3-4", setupgen.from_seed("base-3-4", f"d/t{t}").setup_id, f"d/t{t}")
            for t in range(1, 4)]
    for svg in director.render_director_pages(rows, title="Club", lang=xx, seed="d"):
        assert leaks(printed(svg), ["Club", "d/t1", "d/t2", "d/t3"]) == []


def test_tournament_listings_speak_only_the_new_language(xx, tmp_path):
    folder = tmp_path / "t"
    shutil.copytree(ROOT / "examples" / "australian", folder)
    toml = folder / "tournament.toml"
    toml.write_text(re.sub(r'language = "\w+"', 'language = "xx"', toml.read_text()), encoding="utf-8")
    if 'language = "xx"' not in toml.read_text():
        toml.write_text('language = "xx"\n' + toml.read_text(), encoding="utf-8")
    t = model.load(toml)
    assert t.language == "xx"
    sched = jobs.make_schedule(t, tmp_path / "out")
    names = [p.name for p in t.players] + [p.id for p in t.players] + [t.name, t.seed]
    scenario_codes = [r.scenario for r in t.rounds]
    for page in listing.listing_pages(jobs.schedule_listings(t, sched), paper=t.paper):
        assert leaks(printed(page), names + scenario_codes) == []
    lines = ["round,table,player,vp,winner"]
    for r in sched.round_numbers():
        for table in range(1, sched.tables(r) + 1):
            for seat, pid in enumerate(sched.table(r, table)):
                lines.append(f"{r},{table},{pid},{10 if seat == 0 else 5},{'yes' if seat == 0 else 'no'}")
    (tmp_path / "results.csv").write_text("\n".join(lines) + "\n")
    _, _, pages = jobs.make_standings(t, sched, tmp_path / "results.csv")
    for page in pages:
        assert leaks(printed(page), names) == []
    request, _ = jobs.finals_request(t, sched, tmp_path / "results.csv", 16)
    assert request.title == t.name and request.stage == "semi-final" and request.lang == "xx"
    from setupgen.render import sheet

    assert "«" in sheet.stage_word(request.stage, templates.texts("xx"))  # the stage is named in the language
