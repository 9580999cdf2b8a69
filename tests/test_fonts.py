"""Names in any common script (issue 42, point 3): Chinese, Japanese,
Korean and emoji print as written from fallback fonts embedded in the PDF;
a name the fonts cannot set is refused when it is read."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from setupgen.cli import app
from setupgen.core import fonts
from setupgen.render.page import text_width

ROOT = Path(__file__).resolve().parent.parent
NAMES = {
    "w1": "王小明",
    "w2": "Anna 🎲",
    "w3": "김민준",
    "w4": "さくら Sato",
    "w5": "Zoë Müller",
    "w6": "Beat",
    "w7": "Carla",
    "w8": "Dora",
}


def event(tmp_path: Path, names: dict[str, str]) -> Path:
    (tmp_path / "players.csv").write_text(
        "id,name\n" + "".join(f"{k},{v}\n" for k, v in names.items()), encoding="utf-8"
    )
    path = tmp_path / "t.toml"
    path.write_text(
        'name = "Fonts"\nseed = "fonts"\nplayers = "players.csv"\ntable_size = 4\n'
        '\n[[rounds]]\nscenario = "base-3-4"\nvictory_points = 10\n',
        encoding="utf-8",
    )
    return path


def poppler(*args: str) -> str:
    if shutil.which(args[0]) is None:
        pytest.skip(f"{args[0]} (poppler-utils) is missing")
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def test_runs_cut_a_name_by_the_font_that_has_each_character(fallback_fonts):
    assert fonts.runs("Beat Müller") == [("Beat Müller", None)]
    assert fonts.runs("Wang 王小明 🎲 김") == [
        ("Wang ", None),
        ("王小明", "Droid Sans Fallback"),
        (" ", None),
        ("🎲", "Symbola"),
        (" ", None),
        ("김", "NanumGothic"),
    ]
    assert fonts.runs("Zoë Ørsted Łukasz") == [("Zoë Ørsted Łukasz", None)]  # DejaVu has them


def test_a_fallback_run_is_measured_by_its_fonts_advance_widths(fallback_fonts):
    from fontTools.ttLib import TTFont

    def units(path: str, char: str) -> float:
        with TTFont(path) as font:
            return font["hmtx"][font.getBestCmap()[ord(char)]][0] * 1000 / font["head"].unitsPerEm

    droid = subprocess.run(["fc-match", "-f", "%{file}", "Droid Sans Fallback"], capture_output=True, text=True).stdout
    symbola = subprocess.run(["fc-match", "-f", "%{file}", "Symbola"], capture_output=True, text=True).stdout
    expected = (units(droid, "王") + round(units(symbola, "🎲"))) * 10 / 1000
    assert units(droid, "王") == 1000  # a CJK ideograph is one em wide
    assert text_width("王🎲", 10) == pytest.approx(expected)
    assert text_width("Ab", 10) == pytest.approx((684 + 635) * 10 / 1000)  # DejaVu's table, unchanged


#: cairo's glyphs for each run of the names, in a process of its own: cairo reads the fonts once per
#: process, so fonts the fixture has just installed are seen only by a new one
GLYPH_PROBE = """
import json, sys
import cairocffi
from setupgen.core import fonts
ctx = cairocffi.Context(cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, 10, 10))
out = []
for name in json.loads(sys.argv[1]):
    for run, family in fonts.runs(name):
        ctx.select_font_face(family or "DejaVu Sans")
        glyphs, _clusters, _flags = ctx.get_scaled_font().text_to_glyphs(0, 0, run, with_clusters=True)
        out.append([name, run, family, [g[0] for g in glyphs]])
print(json.dumps(out))
"""


def test_every_run_of_the_names_has_real_glyphs_in_its_font(fallback_fonts):
    # cairo draws each run in its own toy font face, as the painter does: no glyph 0 (.notdef, the empty box)
    import json

    made = subprocess.run(
        [sys.executable, "-c", GLYPH_PROBE, json.dumps(list(NAMES.values()))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    runs = json.loads(made.stdout)
    assert {r[0] for r in runs} == set(NAMES.values())
    for name, run, family, glyphs in runs:
        assert glyphs and all(g != 0 for g in glyphs), (name, run, family)


def test_names_in_chinese_korean_japanese_and_emoji_come_out_of_the_pack_as_written(fallback_fonts, tmp_path):
    tour = event(tmp_path, NAMES)
    made = subprocess.run(
        [sys.executable, "-m", "setupgen", "round", str(tour), "--round", "1", "-o", str(tmp_path / "out")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    pdf = str(tmp_path / "out" / "round-1" / "round.pdf")
    director = poppler("pdftotext", "-f", "1", "-l", "1", pdf, "-")
    sheets = poppler("pdftotext", "-f", "2", pdf, "-")
    for name in NAMES.values():
        assert name in director and name in sheets, name
    embedded = poppler("pdffonts", pdf)
    for font in ("DroidSansFallback", "NanumGothic", "Symbola"):
        line = next(row for row in embedded.splitlines() if f"+{font}" in row)
        assert line.split()[-5:-2] == ["yes", "yes", "yes"], line  # embedded, subset, with a Unicode map
    svg = (tmp_path / "out" / "round-1" / "table-01.svg").read_text(encoding="utf-8")
    assert 'font-family="DejaVu Sans, Droid Sans Fallback' in svg or "王小明" not in svg


@pytest.mark.parametrize(
    "name, said",
    [
        (
            "مريم",
            "the name 'مريم' holds م (U+0645), Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, "
            "which the sheets cannot lay out",
        ),
        ("नमस्ते", "the name 'नमस्ते' holds न (U+0928), an Indic script, which the sheets cannot lay out"),
        # "q" + acute has no precomposed form, so NFC keeps the combining mark (issue 46: e + acute becomes "é")
        ("q\u0301va", "the name 'q\u0301va' holds \u0301 (U+0301), a combining mark, which the sheets cannot lay out"),
        ("Ana \U0001f97a", "the name 'Ana \U0001f97a' holds \U0001f97a (U+1F97A), which no font of the sheets has"),
    ],
)
def test_a_name_the_fonts_cannot_set_is_refused_in_one_line(fallback_fonts, tmp_path, name, said):
    tour = event(tmp_path, {**NAMES, "w8": name})
    result = CliRunner().invoke(app, ["round", str(tour), "--round", "1", "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith(f"players.csv: line 9: {said}"), lines
    assert not (tmp_path / "out").exists()


def test_without_the_fallback_fonts_the_refusal_names_the_packages(monkeypatch):
    fonts.forget()
    real = fonts._font_file.__wrapped__
    monkeypatch.setattr(fonts, "_font_file", lambda family: None if family != "DejaVu Sans" else real(family))
    fonts.family_of.cache_clear()
    try:
        bad = fonts.unprintable("王")
        assert bad == fonts.Unprintable("王", None, ("fonts-droid-fallback", "fonts-nanum", "fonts-symbola"))
        assert fonts.runs("Beat") == [("Beat", None)]
    finally:
        fonts.family_of.cache_clear()
