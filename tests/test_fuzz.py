"""Fuzzing every parser through the command line (hypothesis): board JSON,
layout TOML, tournament TOML, players, results and schedule CSV, and the
options of every command. For every generated input: exit 0, 1 or 2 (never
3, an internal error), one ``error:`` line when it fails, no traceback, no
file written outside the run's own folder, no temporary file left.

Fast by default (``FUZZ_EXAMPLES``, 25 per target); the ``slow`` run tries
ten times as many."""

import json
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from setupgen.cli import app

ROOT = Path(__file__).resolve().parent.parent
SWISS = ROOT / "examples" / "swiss-2010"
FUZZ_EXAMPLES = 25
FAST = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SLOW = settings(FAST, max_examples=10 * FUZZ_EXAMPLES)

NASTY = st.sampled_from(
    [
        None,
        True,
        False,
        0,
        -1,
        1,
        7,
        13,
        2**63,
        -(10**30),
        5.0,
        float("nan"),
        "",
        " ",
        "x" * 3000,
        "²",
        "\x00",
        "\u202e",
        "a,b",
        '"',
        "\n",
        "-",
        "../..",
        "/dev/null",
        [],
        [1, 2],
        {},
        {"q": 0},
        "forest",
        "desert",
        "sea",
        "3:1",
        "swap",
        "spiral",
        "base-3-4",
        "oil-springs",
    ]
)


def board_text() -> str:
    return (
        CliRunner()
        .invoke(app, ["board", "--scenario", "oil-springs", "--seed", "fuzz", "--format", "json", "-o", "-"])
        .stdout
    )


BOARD = json.loads(board_text())


@contextmanager
def sandbox():
    """A fresh working folder; afterwards nothing may be left outside it in
    the project, and no temporary file inside it."""
    before = sorted(p.name for p in ROOT.iterdir())
    folder = Path(tempfile.mkdtemp(prefix="setupgen-fuzz-"))
    old = Path.cwd()
    os.chdir(folder)
    try:
        yield folder
        assert sorted(p.name for p in ROOT.iterdir()) == before
        assert [p for p in folder.rglob("*") if p.name.endswith(".tmp")] == []
    finally:
        os.chdir(old)
        shutil.rmtree(folder, ignore_errors=True)


def verdict(args: list[str]) -> int:
    res = CliRunner().invoke(app, args)
    assert res.exit_code in (0, 1, 2), (args[:4], res.exit_code, res.output[-2000:])
    assert "Traceback" not in res.output
    if res.exit_code == 2:
        lines = [
            ln for ln in res.stderr.splitlines() if ln.strip() and not ln.startswith(("  line ", "  … and "))
        ]  # a results file's further problems
        assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr[-2000:]
        assert len(lines[0]) < 2000
    return res.exit_code


def mutate_json(doc, draw, depth=0):
    """A copy of ``doc`` with one value somewhere replaced, removed or added."""
    doc = json.loads(json.dumps(doc))
    node = doc
    for _ in range(draw(st.integers(0, 3))):
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            if isinstance(node[key], (dict, list)) and node[key]:
                node = node[key]
        elif isinstance(node, list) and node:
            child = node[draw(st.integers(0, len(node) - 1))]
            if isinstance(child, (dict, list)) and child:
                node = child
    action = draw(st.sampled_from(["set", "drop", "add"]))
    if isinstance(node, dict) and node:
        key = draw(st.sampled_from(sorted(node)))
        if action == "drop":
            del node[key]
        else:
            node[key if action == "set" else draw(st.text(max_size=5))] = draw(NASTY)
    elif isinstance(node, list) and node:
        i = draw(st.integers(0, len(node) - 1))
        if action == "drop":
            node.pop(i)
        else:
            node.insert(i, draw(NASTY)) if action == "add" else node.__setitem__(i, draw(NASTY))
    return doc


def mutate_text(text: str, draw) -> str:
    """``text`` with a few lines edited: a value replaced by a nasty one, a
    line dropped or doubled, a character inserted."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["value", "drop", "double", "char", "cell"]))
        if action == "value" and "=" in lines[i]:
            value = draw(NASTY)
            lines[i] = (
                lines[i].split("=", 1)[0]
                + "= "
                + (json.dumps(value) if not isinstance(value, float) or value == value else "nan")
            )
        elif action == "drop":
            lines.pop(i)
        elif action == "double":
            lines.insert(i, lines[i])
        elif action == "cell" and "," in lines[i]:
            cells = lines[i].split(",")
            cells[draw(st.integers(0, len(cells) - 1))] = str(draw(NASTY))
            lines[i] = ",".join(cells)
        else:
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = (
                lines[i][:pos] + draw(st.sampled_from(['"', ",", "\x00", "²", "[", "{", "\\", "é"])) + lines[i][pos:]
            )
    return "\n".join(lines) + "\n"


def targets(fast_or_slow):
    return fast_or_slow


@pytest.mark.parametrize(
    "profile", [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)]
)
def test_fuzz_board_json(profile):
    @profile
    @given(st.data())
    def inner(data):
        doc = mutate_json(BOARD, data.draw)
        with sandbox() as folder:
            (folder / "b.json").write_text(json.dumps(doc))
            verdict(["check", "b.json"])
            verdict(["board", "--board", "b.json", "-o", "out.json"])
            if data.draw(st.integers(0, 3)) == 0:  # rendering is slow: a sheet now and then
                verdict(["board", "--board", "b.json", "-o", "out.svg"])
            verdict(["board", "--board", "b.json", "--scenario", "oil-springs-fixed", "-o", "out.json"])

    inner()


@pytest.mark.parametrize(
    "profile", [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)]
)
def test_fuzz_layout_toml(profile):
    base = (ROOT / "layouts" / "base-3-4.toml").read_text().replace('name = "base-3-4"', 'name = "lay"')
    base = base.replace('code = "B4"', 'code = "Z9"')

    @profile
    @given(st.data())
    def inner(data):
        text = mutate_text(base, data.draw)
        with sandbox() as folder:
            (folder / "lay.toml").write_text(text, encoding="utf-8", errors="surrogatepass")
            verdict(["board", "--layout", "lay.toml", "--seed", "f", "--format", "json", "-o", "b.json"])
            verdict(["board", "--layout", "lay.toml", "--seed", "f", "--numbers", "spiral", "-o", "b.svg"])
            if (folder / "b.json").exists():
                assert verdict(["check", "b.json", "--layout", "lay.toml"]) == 0

    inner()


#: a board whose scenario puts pieces on the map (villages, player sets, the pirate's path: issue 52)
PIECES_BOARD = json.loads(
    CliRunner()
    .invoke(app, ["board", "--scenario", "seafarers-pirate-islands", "--seed", "fuzz", "--format", "json", "-o", "-"])
    .stdout
)


@pytest.mark.parametrize(
    "profile", [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)]
)
def test_fuzz_board_json_with_pieces(profile):
    """The pieces' fields (docs/format.md, "Piece objects") under the same
    mutations: one clear line and exit 2, or a verdict."""

    @profile
    @given(st.data())
    def inner(data):
        doc = mutate_json(PIECES_BOARD, data.draw)
        with sandbox() as folder:
            (folder / "b.json").write_text(json.dumps(doc))
            verdict(["check", "b.json"])
            verdict(["board", "--board", "b.json", "-o", "out.json"])

    inner()


@pytest.mark.parametrize(
    "profile", [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)]
)
def test_fuzz_layout_toml_with_pieces(profile):
    """A layout with pieces and caps (The Forgotten Tribe's) under the text
    mutations: one clear line and exit 2, or a board that checks legal."""
    base = (ROOT / "layouts" / "seafarers-forgotten-tribe.toml").read_text(encoding="utf-8")
    base = base.replace('name = "seafarers-forgotten-tribe"', 'name = "lay"').replace('code = "FT"', 'code = "Z9"')

    @profile
    @given(st.data())
    def inner(data):
        text = mutate_text(base, data.draw)
        with sandbox() as folder:
            (folder / "lay.toml").write_text(text, encoding="utf-8", errors="surrogatepass")
            verdict(["board", "--layout", "lay.toml", "--seed", "f", "--format", "json", "-o", "b.json"])
            if (folder / "b.json").exists():
                assert verdict(["check", "b.json", "--layout", "lay.toml"]) == 0

    inner()


def tournament_files(folder: Path, toml: str | None = None, players: str | None = None) -> None:
    shutil.copytree(SWISS, folder / "t")
    if toml is not None:
        (folder / "t" / "tournament.toml").write_text(toml, encoding="utf-8", errors="surrogatepass")
    if players is not None:
        (folder / "t" / "players.csv").write_text(players, encoding="utf-8", errors="surrogatepass")


@pytest.mark.parametrize(
    "profile", [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)]
)
def test_fuzz_tournament_and_players(profile):
    toml = (SWISS / "tournament.toml").read_text()
    players = (SWISS / "players.csv").read_text()

    @profile
    @given(st.data(), st.booleans())
    def inner(data, which):
        with sandbox() as folder:
            if which:
                tournament_files(folder, toml=mutate_text(toml, data.draw))
            else:
                tournament_files(folder, players=mutate_text(players, data.draw))
            if verdict(["schedule", "t/tournament.toml", "-o", "out"]) == 0:
                assert {p.name for p in (folder / "out").iterdir()} == {
                    "schedule.csv",
                    "schedule.pdf",
                    ".setupgen.lock",
                }
            else:
                assert not (folder / "out").exists()

    inner()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A scheduled Swiss tournament and legal made-up results for it."""
    from test_tournament import results_csv

    from setupgen.tournament import jobs, model

    folder = tmp_path_factory.mktemp("played")
    tournament_files(folder)
    assert (
        CliRunner()
        .invoke(app, ["schedule", str(folder / "t" / "tournament.toml"), "-o", str(folder / "out")])
        .exit_code
        == 0
    )
    t = model.load(folder / "t" / "tournament.toml")
    results = results_csv(t, jobs.current_schedule(t, folder / "out"))
    return (folder / "out" / "schedule.csv").read_text(), results


@pytest.mark.parametrize(
    "profile", [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)]
)
def test_fuzz_results_and_schedule_csv(profile, played):
    schedule, results = played

    @profile
    @given(st.data(), st.booleans())
    def inner(data, which):
        with sandbox() as folder:
            tournament_files(folder)
            (folder / "out").mkdir()
            (folder / "out" / "schedule.csv").write_text(
                mutate_text(schedule, data.draw) if which else schedule, encoding="utf-8", errors="surrogatepass"
            )
            (folder / "r.csv").write_text(
                results if which else mutate_text(results, data.draw), encoding="utf-8", errors="surrogatepass"
            )
            code = verdict(["standings", "t/tournament.toml", "r.csv", "-o", "out"])
            made = {"standings.csv", "standings.pdf"} & {p.name for p in (folder / "out").iterdir()}
            assert made == ({"standings.csv", "standings.pdf"} if code == 0 else set())
            if which:
                verdict(["round", "t/tournament.toml", "--round", "1", "-o", "out"])

    inner()


STATUSES = st.sampled_from(["", "played", "no-show", "disqualified", "absent", "Disqualified", " no-show "])
CHANGES = st.sampled_from(
    [
        "",
        "left,2,ch01,,",
        "left,3,ch05,,",
        "joined,2,late01,Lea Spät,",
        "joined,3,late02,Kim,X",
        "left,1,ch02,,",
        "joined,2,ch03,Twice,",
        "left,9,ch04,,",
        "joined,3,late01,Again,",
        "left,2,nobody,,",
        "joined,2,,,",
        "left,2,ch01,,extra",
    ]
)


def folder_results(results: str, draw) -> str:
    """``results`` with a status column, some rows dropped, changed or
    doubled: what a director's day can leave in a folder."""
    lines = results.splitlines()
    out = [lines[0] + ",status"]
    for row in lines[1:]:
        action = draw(st.sampled_from(["keep", "keep", "keep", "status", "drop", "vp", "winner", "twice"]))
        r, table, player, vp, winner = row.split(",")
        if action == "drop":
            continue
        if action == "vp":
            vp = draw(st.sampled_from(["0", "-1", "13", "99", "x", "", "10.5"]))
        if action == "winner":
            winner = draw(st.sampled_from(["yes", "no", "", "maybe"]))
        status = draw(STATUSES) if action == "status" else ""
        out.append(",".join([r, table, player, vp, winner, status]))
        if action == "twice":
            out.append(out[-1])
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(
    "profile", [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)]
)
def test_fuzz_tournament_folders(profile, played):
    """Whole tournament folders (issue 22): results with statuses and
    rows missing or doubled, entries files, finals results; every
    tournament command on them ends as documented, never with exit 3."""
    schedule, results = played

    @profile
    @given(st.data())
    def inner(data):
        with sandbox() as folder:
            tournament_files(folder)
            out = folder / "out"
            out.mkdir()
            (out / "schedule.csv").write_text(schedule)
            (out / "results.csv").write_text(folder_results(results, data.draw))
            changes = data.draw(st.lists(CHANGES, max_size=3))
            if changes:
                (out / "entries.csv").write_text(
                    "change,from_round,id,name,group\n" + "".join(c + "\n" for c in changes)
                )
            args = ["t/tournament.toml", "out/results.csv"]
            verdict(["standings", *args, "-o", "out"])
            # the pack's own pages are not what is fuzzed here: no almanac pages (half the rendering)
            finals = ["finals", *args, "--players", "8", "--no-almanac", "-o", "out"]
            if verdict(finals) == 0 and data.draw(st.booleans()):
                blank = out / "final" / "results-final-blank.csv"  # the pack's rows to fill in
                final = blank.read_text().splitlines() if blank.exists() else []
                if final:
                    (out / "results-final.csv").write_text(
                        folder_results(
                            "\n".join(
                                final[:1] + [",".join((row.split(",") + ["", "", "", ""])[:5]) for row in final[1:]]
                            ),
                            data.draw,
                        )
                    )
            verdict(["placings", *args, "-o", "out"])
            verdict(["entry", "t/tournament.toml", "-o", "out"])
            verdict(
                [
                    "entry",
                    "t/tournament.toml",
                    "--leave",
                    data.draw(st.sampled_from(["ch07", "nobody", ""])),
                    "--from-round",
                    data.draw(st.sampled_from(["2", "3", "1", "0"])),
                    "-o",
                    "out",
                ]
            )
            verdict(["round", "t/tournament.toml", "--round", data.draw(st.sampled_from(["1", "3", "4"])), "-o", "out"])

    inner()


OPTIONS = {
    "board": [
        "--scenario",
        "--seed",
        "--setup-id",
        "--numbers",
        "--harbors",
        "--format",
        "--count",
        "-o",
        "--lang",
        "--paper",
        "--layout",
        "--key",
        "--board",
        "--tournament",
        "--round",
        "--table",
        "--rules",
        "--variant",
        "--almanac",
        "--no-almanac",
        "--balance",
        "--max-intersection-pips",
        "--max-terrain-cluster",
        "--resource-pips",
        "--min-score",
        "--balance-line",
    ],
    "round": [
        "--scenario",
        "--tables",
        "--seed",
        "-o",
        "--numbers",
        "--harbors",
        "--lang",
        "--paper",
        "--title",
        "--round",
        "--replace",
        "--rules",
        "--variant",
        "--almanac",
        "--no-almanac",
        "--balance",
        "--max-intersection-pips",
        "--max-terrain-cluster",
        "--resource-pips",
        "--min-score",
        "--even",
        "--even-range",
        "--balance-line",
        "--console-url",
        "--drop-console-url",
    ],
    "check": ["--layout", "--stats"],
    "scenarios": [],
    "stats": ["--format", "-o", "--layout"],
    "survey": ["--scenario", "--numbers", "--harbors", "--count", "--seed", "--balance", "--plot", "--no-plot"],
}
VALUES = st.sampled_from(
    [
        "",
        "-",
        "0",
        "1",
        "3",
        "-5",
        "99999999999999999999",
        "base-5-6",
        "seafarers-sm2010",
        "oil-springs-fixed",
        "nosuch",
        "swap",
        "uniform",
        "free",
        "players",
        "json",
        "jsonl",
        "svg",
        "pdf",
        "png",
        "de",
        "xx",
        "letter",
        "B4SS-5ABN-2V1N-9DMX",
        "B4SS-5ABN-2V1N-9DMY",
        "out",
        "out/",
        "out.json",
        "out.pdf",
        "sub/x.svg",
        "x" * 300,
        "\x01",
        "é",
        "b.json",
        "swiss-2010",
        "australian-2006",
        "none",
        "fishermen",
        "out.svg",
        "out.png",
        "fair",
        "12",
        "2",
        "lumber=9..16",
        "ore=1..2,wool=0..99",
        "50..60",
        "40.5",
        "nan",
        "1e999",
        "http://10.0.0.5:8000",
    ]
)


@pytest.mark.parametrize(
    "profile", [pytest.param(FAST, id="fast"), pytest.param(SLOW, id="slow", marks=pytest.mark.slow)]
)
def test_fuzz_command_options(profile):
    @profile
    @given(st.sampled_from(sorted(OPTIONS)), st.data())
    def inner(command, data):
        options = OPTIONS[command]
        args = [command]
        if command in ("check", "stats"):
            args.append(data.draw(st.sampled_from(["b.json", "nofile", ".", "layout.toml"])))
        for _ in range(data.draw(st.integers(0, 4))):
            if not options:
                break
            flag = data.draw(st.sampled_from(options))
            flags = ("--key", "--replace", "--almanac", "--no-almanac", "--even", "--balance-line")
            flags += ("--stats", "--no-plot")  # check, survey
            args += [flag] if flag in flags else [flag, data.draw(VALUES)]
        if command in ("board", "round") and "-o" not in args:
            args += ["-o", "out.json" if command == "board" and "jsonl" not in args else "out"]
        if command == "survey" and "--count" not in args:
            args += ["--count", "3"]  # not the default 10,000 boards
        with sandbox() as folder:
            (folder / "b.json").write_text(board_text())
            (folder / "layout.toml").write_text("name = 'layout'\n")
            verdict(args)

    inner()


def test_the_fuzz_targets_cover_every_command_option():
    """Every option of board, round and check appears in the fuzzed sets."""
    from typer.main import get_command

    cli = get_command(app)
    for name, fuzzed in OPTIONS.items():
        declared = {opt for p in cli.commands[name].params for opt in p.opts if opt.startswith("-")}
        assert declared - {"--output", "--help"} <= set(fuzzed) | {"--output"}, name
    assert re.search(r"\bFUZZ_EXAMPLES = \d+", Path(__file__).read_text())
