"""``setupgen stats``, ``setupgen survey`` and ``check --stats``: the
plumbing (reading board files and JSON Lines streams, output formats, bad
lines, plot files). The metrics themselves are tested in their own files;
here values are compared with :func:`setupgen.core.balance.measure` of the
same boards, and a few worked by hand from the golden demo board."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from setupgen import generate, stats
from setupgen.cli import app
from setupgen.core import balance, parallel
from setupgen.core.board import Board
from setupgen.core.errors import BoardFormatError, SetupgenError
from setupgen.render import survey

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "tests" / "golden" / "base-3-4-demo.json"


def run(*args, input=None, env=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input, env=env)


def one_error_line(res):
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("error: ") and "Traceback" not in res.output
    return lines[0]


def boards(n, scenario="base-3-4", seed="st"):
    return [generate.from_seed(scenario, f"{seed}/{i}") for i in range(1, n + 1)]


def jsonl(bs):
    return "".join(b.to_json(indent=None) + "\n" for b in bs)


def expected(board, start_barred=()):
    return stats.record(board, balance.measure(board, start_barred=start_barred))


# -- stats: one board file ----------------------------------------------------------


def test_stats_text_of_a_board_file_worked_by_hand():
    res = run("stats", DEMO)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == stats.TITLE and lines[1] == ""
    assert lines[2] == "B4SS-5ABN-2V1N-9DMX  base-3-4  seed demo"
    rows = {ln[2:22].strip(): ln[22:] for ln in lines[3:]}
    # forests carry 6, 10, 6, 10: 5 + 3 + 5 + 3 pips; hills 11, 3, 9: 2 + 2 + 4
    assert rows["resource pips"] == "lumber 16  wool 10  grain 11  brick 8  ore 13"
    assert rows["resource spread"] == "8 pips"  # lumber 16 - brick 8
    # forest 6 at (0, 1), hills 9 at (1, 0), forest 10 at (1, 1) meet at one corner: 5 + 4 + 3
    assert rows["intersection max"] == "12 pips"
    # forests (-1, 1), (0, 1), (1, 1) in a row; fields (1, -1), (2, -1), (2, 0)
    assert rows["largest cluster"] == "3 hexes"
    assert rows["score"].startswith("56.5 of 100")
    assert len(rows) == 12 and all(ln.startswith("  ") for ln in lines[3:])


def test_stats_json_of_a_board_file_is_one_balance_object():
    res = run("stats", DEMO, "--format", "json")
    assert res.exit_code == 0, res.output
    assert res.stdout.count("\n") == 1
    data = json.loads(res.stdout)
    board = Board.from_json(DEMO.read_text())
    assert data == expected(board)
    assert list(data)[:3] == ["format", "setup_id", "score"]
    assert data["format"] == "setupgen.balance/1" and data["setup_id"] == "B4SS-5ABN-2V1N-9DMX"
    assert data["resource_pips"]["lumber"] == 16 and data["intersection_max"] == 12


def test_stats_measures_with_the_layouts_start_restrictions():
    """Seafarers bars face-down hexes and gold from starting settlements."""
    board = generate.from_seed("seafarers-sm2010", "st")
    res = run("stats", "-", "--format", "json", input=jsonl([board]))
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == expected(board, ("hidden", "gold"))


# -- stats: JSON Lines ------------------------------------------------------------


def test_stats_jsonl_gives_one_object_per_board_in_order(tmp_path):
    bs = boards(6)
    path = tmp_path / "b.jsonl"
    path.write_text(jsonl(bs))
    res = run("stats", path, "--format", "json")
    assert res.exit_code == 0, res.output
    assert [json.loads(ln) for ln in res.stdout.splitlines()] == [expected(b) for b in bs]


def test_stats_jsonl_text_has_a_block_per_board_headed_by_its_setup_id(tmp_path):
    bs = boards(3)
    path = tmp_path / "b.jsonl"
    path.write_text(jsonl(bs))
    res = run("stats", path)
    assert res.exit_code == 0
    blocks = res.stdout.split("\n\n")
    assert blocks[0] == stats.TITLE
    assert [blk.splitlines()[0] for blk in blocks[1:]] == [
        f"{b.setup_id}  base-3-4  seed st/{i}" for i, b in enumerate(bs, 1)
    ]


def test_stats_reads_standard_input_blank_lines_skipped():
    bs = boards(3)
    text = bs[0].to_json(indent=None) + "\n\n" + jsonl(bs[1:])
    res = run("stats", "-", "--format", "json", input=text)
    assert res.exit_code == 0, res.output
    assert [json.loads(ln)["setup_id"] for ln in res.stdout.splitlines()] == [b.setup_id for b in bs]
    pretty = run("stats", "-", input=DEMO.read_text())  # a whole document on stdin too
    assert pretty.exit_code == 0 and "B4SS-5ABN-2V1N-9DMX" in pretty.stdout


def test_a_bad_line_ends_the_stream_with_its_number(tmp_path):
    bs = boards(3)
    bad = json.loads(bs[1].to_json())
    bad["hexes"][4]["terrain"] = "lava"
    text = bs[0].to_json(indent=None) + "\n\n" + json.dumps(bad) + "\n" + bs[2].to_json(indent=None) + "\n"
    res = run("stats", "-", "--format", "json", input=text)
    assert res.exit_code == 2
    line = one_error_line(res)
    assert line == "error: standard input: line 3: hexes[4].terrain: unknown terrain 'lava'"
    assert [json.loads(ln) for ln in res.stdout.splitlines()] == [expected(bs[0])]  # printed before it
    (tmp_path / "b.jsonl").write_text(text)
    res = run("stats", tmp_path / "b.jsonl", "-o", tmp_path / "out.jsonl")
    assert res.exit_code == 2 and "line 3" in one_error_line(res)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.jsonl"]  # a file: nothing written


@pytest.mark.parametrize(
    "line, why",
    [
        ("{not json", "line 2: not valid json"),
        ("[1, 2]", "line 2: a board document must be a json object"),
        ('{"format": "setupgen.board/1"}', "line 2: scenario: missing"),
    ],
)
def test_bad_lines_are_named(line, why):
    res = run("stats", "-", input=boards(1)[0].to_json(indent=None) + "\n" + line + "\n")
    assert res.exit_code == 2
    assert why in one_error_line(res)


def test_a_line_not_utf8_and_an_unknown_scenario_are_named(tmp_path):
    good = boards(1)[0].to_json(indent=None)
    (tmp_path / "b.jsonl").write_bytes(good.encode() + b"\n\xff\xfe\n")
    res = run("stats", tmp_path / "b.jsonl")
    assert one_error_line(res).endswith("b.jsonl: line 2: it is not UTF-8 text")
    other = good.replace('"scenario":"base-3-4"', '"scenario":"mine"')
    res = run("stats", "-", input=other + "\n")
    assert "line 1: the board's unknown scenario 'mine'" in one_error_line(res)
    assert "--scenario" not in res.stderr


def test_stats_errors_for_inputs_and_formats(tmp_path):
    assert "it does not exist" in one_error_line(run("stats", tmp_path / "nofile"))
    assert "no board in it" in one_error_line(run("stats", "-", input=""))
    assert one_error_line(run("stats", DEMO, "--format", "csv")).startswith("error: --format: unknown format")
    assert "--format: format text does not match" in one_error_line(
        run("stats", DEMO, "--format", "text", "-o", tmp_path / "x.json")
    )


def test_stats_output_file_is_replaced_only_when_setupgen_wrote_it(tmp_path):
    out = tmp_path / "stats.jsonl"
    res = run("stats", DEMO, "-o", out)  # json from the file name
    assert res.exit_code == 0 and "wrote" in res.stderr and "(1 board)" in res.stderr
    assert json.loads(out.read_text())["setup_id"] == "B4SS-5ABN-2V1N-9DMX"
    assert run("stats", DEMO, "-o", out).exit_code == 0  # its own file: replaced
    txt = tmp_path / "stats.txt"
    assert run("stats", DEMO, "-o", txt).exit_code == 0 and txt.read_text().startswith(stats.TITLE)
    assert run("stats", DEMO, "-o", txt).exit_code == 0
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes\n")
    res = run("stats", DEMO, "-o", mine)
    assert res.exit_code == 2 and "setupgen did not write it" in one_error_line(res)
    assert mine.read_text() == "my notes\n"


def test_batches_and_workers_give_the_same_output(monkeypatch, tmp_path):
    """Several batches (in worker processes, or not) give the bytes one batch gives."""
    bs = boards(9)
    bad = jsonl(bs[:7]) + "{}\n" + jsonl(bs[7:])
    path = tmp_path / "b.jsonl"
    outputs = []
    for batch, workers in ((1000, "0"), (2, "0"), (2, "2"), (3, "1")):
        monkeypatch.setattr(stats, "BATCH", batch)
        monkeypatch.setenv("SETUPGEN_WORKERS", workers)
        path.write_text(jsonl(bs))
        text = "".join(stats.stats(path, "text"))
        path.write_text(bad)
        got = []
        with pytest.raises(SetupgenError, match="line 8: format: must be"):
            for piece in stats.stats(path, "json"):
                got.append(piece)
        outputs.append((text, "".join(got)))
    assert all(o == outputs[0] for o in outputs)
    assert outputs[0][1].count("\n") == 7


def test_jsonl_is_streamed(tmp_path, monkeypatch):
    """Output comes batch by batch, before the rest of the stream is read."""
    monkeypatch.setattr(stats, "BATCH", 2)
    monkeypatch.setenv("SETUPGEN_WORKERS", "0")
    path = tmp_path / "b.jsonl"
    path.write_text(jsonl(boards(5)))
    made = stats.stats(path, "json")
    pieces = iter(made)
    assert next(pieces).count("\n") == 2 and made.boards == 2
    assert "".join(pieces).count("\n") == 3 and made.boards == 5


# -- reading boards fast -----------------------------------------------------------


def test_the_fast_board_reader_agrees_with_the_checked_one():
    board = boards(1)[0]
    data = json.loads(board.to_json())
    assert Board.from_dict(data) == board
    reordered = json.loads(board.to_json())
    reordered["hexes"] = [dict(reversed(list(h.items()))) for h in reordered["hexes"]]
    assert Board.from_dict(reordered) == board
    tile = next(h for h in data["hexes"] if h["q"] == 1 and h["number"] is not None)
    for key, value, why in (
        ("q", True, "q: expected an integer, got true/false"),
        ("number", True, "number: expected an integer or null, got true/false"),
        ("number", 7, "number: 7 is not a number token"),
        ("hidden", 0, "hidden: expected true/false, got an integer"),
        ("q", 101, "more than 100 steps"),
    ):
        bad = json.loads(board.to_json())
        item = next(h for h in bad["hexes"] if h["q"] == tile["q"] and h["r"] == tile["r"])
        item[key] = value  # (True == 1: a tile read before must not let it through)
        with pytest.raises(BoardFormatError, match=why.replace("(", r"\(")):
            Board.from_dict(bad)
    bad = json.loads(board.to_json())
    bad["harbors"][0]["facing"] = True
    with pytest.raises(BoardFormatError, match=r"harbors\[0\].facing: expected an integer"):
        Board.from_dict(bad)


# -- check --stats ------------------------------------------------------------------


def test_check_stats_adds_the_metrics_under_their_heading_after_the_verdict():
    plain = run("check", DEMO)
    res = run("check", DEMO, "--stats")
    assert res.exit_code == plain.exit_code == 0
    assert res.stdout.startswith(plain.stdout)
    rest = res.stdout[len(plain.stdout) :].splitlines()
    assert rest[0] == "" and rest[1] == "balance (docs/balance.md):"
    board = Board.from_json(DEMO.read_text())
    assert rest[2:] == ["  " + ln for ln in stats.metric_lines(balance.measure(board))]


def test_check_stats_of_an_illegal_board_keeps_its_violations_and_exit_code(tmp_path):
    data = json.loads(DEMO.read_text())
    land = [h for h in data["hexes"] if h["number"] is not None]
    land[0]["number"], land[1]["number"] = 6, 6
    (tmp_path / "b.json").write_text(json.dumps(data))
    plain = run("check", tmp_path / "b.json")
    res = run("check", tmp_path / "b.json", "--stats")
    assert res.exit_code == plain.exit_code == 1
    assert res.stdout.startswith(plain.stdout) and "\nbalance (docs/balance.md):\n" in res.stdout


# -- survey -------------------------------------------------------------------------


def test_percentiles_by_nearest_rank_worked_by_hand():
    sample = [35, 20, 15, 50, 40]  # sorted: 15 20 35 40 50
    # rank ceil(p * 5 / 100): p5 -> 1, p25 -> 2 (1.25), p50 -> 3 (2.5), p75 -> 4 (3.75), p95 -> 5 (4.75)
    assert [survey.percentile(sample, p) for p in survey.PERCENTILES] == [15, 20, 35, 40, 50]
    assert survey.percentile(sample, 40) == 20  # rank exactly 2
    assert survey.percentile(sample, 100) == 50 and survey.percentile([7.5], 5) == 7.5
    ten = list(range(1, 11))  # rank ceil(p / 10)
    assert [survey.percentile(ten, p) for p in (5, 25, 50, 75, 95)] == [1, 3, 5, 8, 10]
    with pytest.raises(SetupgenError):
        survey.percentile([], 50)
    with pytest.raises(SetupgenError):
        survey.percentile([1], 0)


def test_survey_figures_match_the_boards(monkeypatch):
    monkeypatch.setattr(survey, "JOB", 7)
    result = survey.run(survey.SurveyRequest("base-3-4", count=30, seed="t"))
    bs = boards(30, seed="t")
    measured = [balance.measure(b) for b in bs]
    assert result.values["score"] == tuple(m.score for m in measured)
    assert survey.percentiles(result, "intersection_max") == tuple(
        sorted(m.intersection_max for m in measured)[-(-p * 30 // 100) - 1] for p in survey.PERCENTILES
    )
    shares = dict(result.shares)
    fair = balance.load_preset("fair")
    assert shares["fair: all its limits"] == sum(balance.first_failure(b, fair) is None for b in bs)
    for label, limits in (
        ("max_intersection_pips = 12", balance.Limits(max_intersection_pips=12)),
        ("max_terrain_cluster = 2 (fair)", balance.Limits(max_terrain_cluster=2)),
        ("max_terrain_cluster = 3", balance.Limits(max_terrain_cluster=3)),
    ):
        assert shares[label] == sum(balance.first_failure(b, limits) is None for b in bs), label
    lines = survey.summary_lines(result)
    assert lines[0] == "survey: 30 base-3-4 boards, numbers swap, harbors shuffled (seeds t/1 .. t/30)"


def test_meets_decides_as_first_failure():
    limits = [
        balance.Limits(max_score=55),
        balance.Limits(min_score=58),
        balance.Limits(resource_pips=(("lumber", 9, 13), ("ore", 0, 11))),
        balance.load_preset("fair"),
    ]
    for b in boards(25, seed="m"):
        m = balance.measure(b).to_dict()
        for lim in limits:
            assert survey.meets(m, lim) == (balance.first_failure(b, lim) is None)


def test_survey_is_the_same_whatever_the_worker_count(monkeypatch):
    monkeypatch.setattr(survey, "JOB", 4)
    out = []
    for workers in ("0", "1", "2"):
        monkeypatch.setenv("SETUPGEN_WORKERS", workers)
        assert parallel.workers() == int(workers)
        out.append(survey.run(survey.SurveyRequest("base-5-6", count=13, preset="fair")))
    assert out[0] == out[1] == out[2]


def test_survey_command_prints_tables_and_writes_both_plot_files(tmp_path):
    res = run("survey", "--count", "40", "--balance", "fair", "--plot", tmp_path / "plot.png")
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plot.png", "plot.svg"]
    assert (tmp_path / "plot.png").read_bytes().startswith(b"\x89PNG")
    svg = (tmp_path / "plot.svg").read_text()
    assert "Balance score of 40 base-3-4 boards" in svg and "median" in svg and "boards (%)" in svg
    text = res.stdout
    assert "metric" in text and "p25" in text and "fair: all its limits" in text
    assert "max_terrain_cluster = 1" in text and "max_intersection_pips = 13" in text
    assert run("survey", "--count", "5", "--plot", tmp_path / "plot").exit_code == 0  # its own files: replaced


def test_survey_plot_is_both_files_or_neither(tmp_path):
    (tmp_path / "p.png").write_text("someone's picture")
    res = run("survey", "--count", "5", "--plot", tmp_path / "p")
    assert res.exit_code == 2
    assert one_error_line(res).startswith("error: --plot: cannot write")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.png"]
    assert (tmp_path / "p.png").read_text() == "someone's picture"
    res = run("survey", "--count", "5", "--no-plot")
    assert res.exit_code == 0 and "wrote" not in res.stderr


def test_survey_default_plot_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run("survey", "--count", "3", "--scenario", "base-5-6", "--numbers", "spiral")
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == [
        "survey-base-5-6-spiral.png",
        "survey-base-5-6-spiral.svg",
    ]


@pytest.mark.parametrize(
    "args, start",
    [
        (["--count", "0"], "error: --count: count must be between 1 and 100,000"),
        (["--count", "100001"], "error: --count:"),
        (["--scenario", "nosuch"], "error: --scenario: unknown scenario"),
        (["--scenario", "oil-springs-fixed"], "error: --scenario: scenario 'oil-springs-fixed' takes its board"),
        (["--numbers", "zigzag"], "error: --numbers: unknown number method"),
        (["--balance", "nosuch"], "error: --balance: unknown balance preset"),
        (["--seed", " "], "error: --seed: the seed must not be empty"),
        (["--plot", "", "--count", "3"], "error: --plot: a plot is two files"),
        (["--plot", "x", "--no-plot", "--count", "3"], "error: --plot names the plot's files"),
    ],
)
def test_survey_refuses_bad_options_in_one_line(args, start, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run("survey", *args)
    assert res.exit_code == 2
    assert one_error_line(res).startswith(start)
    assert not list(tmp_path.iterdir())
