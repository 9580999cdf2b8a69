"""A plain (non-editable) wheel carries layouts/, templates/ and almanac/ and works
away from the source checkout."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    res = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    wheels = list(out.glob("setupgen-*.whl"))
    assert len(wheels) == 1
    return wheels[0]


def test_wheel_ships_layouts_and_templates(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for layout in (ROOT / "layouts").glob("*.toml"):
        assert f"setupgen/_data/layouts/{layout.name}" in names
    for template in (ROOT / "templates").glob("*.toml"):
        assert f"setupgen/_data/templates/{template.name}" in names
    almanac = [p.relative_to(ROOT).as_posix() for p in (ROOT / "almanac").rglob("*") if p.is_file()]
    assert len(almanac) >= 5
    for name in almanac:
        assert f"setupgen/_data/{name}" in names
    for design in (ROOT / "designs").glob("*.toml"):  # known seating designs (issue 30)
        assert f"setupgen/_data/designs/{design.name}" in names
    assert "setupgen/_data/designs/golfer-8-4-10.toml" in names
    pages = list((ROOT / "setupgen" / "console" / "templates").iterdir())  # the console's pages
    assert len(pages) >= 10 and all(f"setupgen/console/templates/{p.name}" in names for p in pages)


def test_cli_runs_from_the_installed_wheel(wheel, tmp_path):
    site = tmp_path / "site"
    res = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "import setupgen, setupgen.core.layout as l; print(setupgen.__file__); print(l.layouts_dir())",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=work,
    )
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(site)) for line in where.stdout.splitlines())
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "setupgen",
            "board",
            "--seed",
            "w",
            "--format",
            "svg",
            "--lang",
            "de",
            "-o",
            "sheet.svg",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=work,
    )
    assert res.returncode == 0, res.stderr
    assert "<svg" in (work / "sheet.svg").read_text()
    res = subprocess.run(
        [sys.executable, "-m", "setupgen", "scenarios"], capture_output=True, text=True, env=env, cwd=work
    )
    assert "cities-knights" in res.stdout
    rules = subprocess.run(
        [
            sys.executable,
            "-c",
            "from setupgen.core import almanac; print(almanac.almanac_dir()); "
            "print(len(almanac.scenario_rules('seafarers-sm2010')))",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=work,
    )
    assert rules.returncode == 0, rules.stderr
    assert rules.stdout.split() == [str(site / "setupgen" / "_data" / "almanac"), "11"]


def test_sdist_ships_the_reference_docs(tmp_path):
    import tarfile

    res = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "-o", str(tmp_path), str(ROOT)], capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr[-2000:]
    (sdist,) = tmp_path.glob("setupgen-*.tar.gz")
    names = {n.split("/", 1)[1] for n in tarfile.open(sdist).getnames() if "/" in n}
    assert {
        "docs/rules.md",
        "docs/format.md",
        "docs/sheet.md",
        "README.md",
        "layouts/README.md",
        "almanac/README.md",
        "almanac/scenarios.toml",
        "almanac/presets/swiss-2010.toml",
    } <= names
