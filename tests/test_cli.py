import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from setupgen import generate
from setupgen.cli import app

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def runner():
    return CliRunner()


def run(runner, *args):
    return runner.invoke(app, list(args))


def one_error_line(result):
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.output
    return lines[0]


def test_help_of_every_command_shows_an_example(runner):
    import typer

    assert "Example" in run(runner, "--help").stdout
    commands = sorted(typer.main.get_command(app).commands)
    assert len(commands) == 13 and {"board", "round", "serve", "placings", "entry", "season"} <= set(commands)
    for cmd in commands:
        res = run(runner, cmd, "--help")
        assert res.exit_code == 0
        assert "Example" in res.stdout, cmd


def test_scenarios_lists_the_shipped_layouts(runner):
    res = run(runner, "scenarios")
    assert res.exit_code == 0
    names = [ln.split()[0] for ln in res.stdout.splitlines()]
    assert names == [
        "base-3-4",
        "base-5-6",
        "cities-knights",
        "cities-knights-5-6",
        "oil-springs",
        "oil-springs-5-6",
        "oil-springs-5-6-fixed",
        "oil-springs-fixed",
        "seafarers-cloth-for-catan",
        "seafarers-fog-islands-3",
        "seafarers-fog-islands-4",
        "seafarers-forgotten-tribe",
        "seafarers-four-islands-3",
        "seafarers-four-islands-4",
        "seafarers-new-shores-3",
        "seafarers-new-shores-4",
        "seafarers-new-world",
        "seafarers-pirate-islands",
        "seafarers-sm2010",
        "seafarers-through-the-desert-3",
        "seafarers-through-the-desert-4",
        "seafarers-wonders",
    ]
    assert len({ln.index(" players ") for ln in res.stdout.splitlines()}) == 1  # one column, the longest name too
    assert "--board FILE" in [ln for ln in res.stdout.splitlines() if ln.startswith("oil-springs-fixed")][0]
    assert "reconstructed" in [ln for ln in res.stdout.splitlines() if ln.startswith("seafarers-sm2010")][0]
    assert "13 VP" in res.stdout


def test_board_json_to_stdout_matches_library(runner):
    res = run(runner, "board", "--seed", "demo", "--format", "json", "-o", "-")
    assert res.exit_code == 0
    assert res.stdout == generate.from_seed("base-3-4", "demo").to_json() + "\n"


def test_board_setup_id_regenerates(runner, tmp_path):
    b = generate.from_seed("base-5-6", "x", numbers="uniform")
    res = run(runner, "board", "--setup-id", b.setup_id, "--format", "json", "-o", "-")
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["setup_id"] == b.setup_id and data["seed"] is None and data["scenario"] == "base-5-6"
    assert data["hexes"] == json.loads(b.to_json())["hexes"]


def test_jsonl_count_writes_n_boards_seeded_from_seed_and_index(runner, tmp_path):
    out = tmp_path / "b.jsonl"
    res = run(runner, "board", "--seed", "s", "--format", "jsonl", "--count", "5", "-o", str(out))
    assert res.exit_code == 0, res.output
    lines = out.read_text().splitlines()
    assert len(lines) == 5
    assert [json.loads(x)["seed"] for x in lines] == [f"s/{i}" for i in range(1, 6)]
    assert json.loads(lines[2])["setup_id"] == generate.from_seed("base-3-4", "s/3").setup_id


def test_fresh_seed_is_printed(runner):
    res = run(runner, "board", "--format", "json", "-o", "-")
    assert res.exit_code == 0
    seed = [ln for ln in res.stderr.splitlines() if ln.startswith("seed: ")][0][6:]
    assert json.loads(res.stdout)["seed"] == seed


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["board", "--scenario", "nope", "--seed", "a"], "unknown scenario 'nope'"),
        (["board", "--seed", "a", "--numbers", "magic"], "unknown number method 'magic'"),
        (["board", "--seed", "a", "--harbors", "x"], "unknown harbor method 'x'"),
        (["board", "--seed", "a", "--format", "gif"], "unknown format 'gif'"),
        (["board", "--seed", "a", "--format", "jsonl", "--count", "0", "-o", "-"], "count must be between 1 and"),
        (
            ["board", "--seed", "a", "--format", "jsonl", "--count", "100000000", "-o", "-"],
            "count must be between 1 and",
        ),
        (
            ["board", "--seed", "a", "--format", "json", "--count", "3"],
            "--count: a count of boards needs the jsonl format",
        ),
        (["board", "--setup-id", "B4SS-0000", "--format", "json"], "must have 16 letters"),
        (["board", "--setup-id", "B4SS-0000-0000-0000", "--seed", "x"], "give it alone"),
        (["board", "--seed", ""], "must not be empty"),
        (["board", "--seed", "a", "--format", "json", "-o", "/nonexistent-dir/x.json"], "does not exist"),
        (["board", "--seed", "a", "--format", "svg", "--lang", "fr", "-o", "-"], "unknown language 'fr'"),
        (["board", "--seed", "a", "--format", "svg", "--paper", "a3", "-o", "-"], "unknown paper 'a3'"),
        (["board", "--bogus"], "no such option"),
        (["board", "--count", "many"], "invalid value for '--count'"),
        (["round", "--tables", "0", "--seed", "a", "-o", "/tmp/setupgen-never"], "tables must be between 1 and"),
        (["round", "--tables", "100000", "--seed", "a", "-o", "/tmp/setupgen-never"], "tables must be between 1 and"),
        (["round", "--tables", "2", "--seed", "a", "-o", "/nonexistent-dir/pack"], "does not exist"),
        (
            ["round", "--scenario", "nope", "--tables", "2", "--seed", "a", "-o", "/tmp/setupgen-never"],
            "unknown scenario",
        ),
        (["check", "/nonexistent.json"], "cannot read"),
    ],
)
def test_bad_input_one_line_exit_2(runner, args, fragment):
    res = run(runner, *args)
    assert res.exit_code == 2, res.output
    line = one_error_line(res)
    assert fragment.lower() in line.lower()
    assert not Path("/tmp/setupgen-never").exists()


def test_board_writes_nothing_on_error(runner, tmp_path):
    out = tmp_path / "b.json"
    res = run(runner, "board", "--seed", "a", "--format", "json", "--numbers", "magic", "-o", str(out))
    assert res.exit_code == 2 and not out.exists() and list(tmp_path.iterdir()) == []


def test_check_legal_illegal_and_malformed(runner, tmp_path):
    b = generate.from_seed("base-3-4", "chk")
    good = tmp_path / "good.json"
    good.write_text(b.to_json())
    res = run(runner, "check", str(good))
    assert res.exit_code == 0 and res.stdout.strip().endswith("legal")

    data = json.loads(b.to_json())
    land = [h for h in data["hexes"] if h["kind"] == "land" and h["number"] is not None]
    # put two 8s side by side: find a neighbouring pair and write 8 on both
    by = {(h["q"], h["r"]): h for h in land}
    a = next(h for h in land if (h["q"] + 1, h["r"]) in by)
    a["number"] = 8
    by[(a["q"] + 1, a["r"])]["number"] = 8
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    res = run(runner, "check", str(bad))
    assert res.exit_code == 1
    assert "equal-adjacent" in res.stdout and "number-pool" in res.stdout
    assert "illegal:" in res.stdout

    for text, fragment in [
        ("{", "not valid json"),
        ("[]", "json object"),
        (json.dumps({**data, "format": "other/1"}), "format: must be"),
        (json.dumps({**data, "hexes": [{"q": 0}]}), "hexes[0].r: missing"),
        (json.dumps({**data, "scenario": "nope"}), "unknown scenario"),
    ]:
        f = tmp_path / "m.json"
        f.write_text(text)
        res = run(runner, "check", str(f))
        assert res.exit_code == 2, (text[:30], res.output)
        assert fragment in one_error_line(res)


def test_check_reports_spiral_equal_neighbours_as_notes(runner, tmp_path):
    # find a 5-6 spiral board with equal neighbours: legal, with a note
    for i in range(200):
        b = generate.from_seed("base-5-6", f"sp{i}", numbers="spiral")
        f = tmp_path / "s.json"
        f.write_text(b.to_json())
        res = run(runner, "check", str(f))
        if "note: equal-adjacent" in res.stdout:
            assert res.exit_code == 0
            break
    else:
        pytest.fail("no spiral board with equal neighbours in 200 seeds")


def test_round_pack(runner, tmp_path):
    from pypdf import PdfReader

    out = tmp_path / "demo"
    res = run(runner, "round", "--scenario", "base-3-4", "--tables", "3", "--seed", "demo", "-o", str(out))
    assert res.exit_code == 0, res.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["tables"] == 3 and manifest["seed"] == "demo"
    reader = PdfReader(str(out / "round.pdf"))
    # duplex: director's page and its blank back, then sheet / almanac per table
    assert len(reader.pages) == 8 and manifest["duplex"] is True
    first = reader.pages[0].extract_text()
    assert "left blank" in reader.pages[1].extract_text()
    for t, entry in enumerate(manifest["boards"], start=1):
        assert entry["seed"] == f"demo/t{t}"
        board = generate.from_seed("base-3-4", f"demo/t{t}")
        assert entry["setup_id"] == board.setup_id
        assert (out / entry["json"]).read_text() == board.to_json() + "\n"
        assert board.setup_id in first
        front, back = reader.pages[2 * t].extract_text(), reader.pages[2 * t + 1].extract_text()
        assert board.setup_id in front and "Build list" in front
        assert board.setup_id in back and "Almanac" in back and "Build list" not in back
        assert board.setup_id in (out / entry["svg"]).read_text()
        assert board.setup_id in (out / entry["almanac"]).read_text()
    assert sorted(p.name for p in out.iterdir()) == [
        "manifest.json",
        "round.pdf",
        "table-01-almanac.svg",
        "table-01.json",
        "table-01.svg",
        "table-02-almanac.svg",
        "table-02.json",
        "table-02.svg",
        "table-03-almanac.svg",
        "table-03.json",
        "table-03.svg",
    ]
    # rerun: byte-identical pack
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    res = run(runner, "round", "--scenario", "base-3-4", "--tables", "3", "--seed", "demo", "-o", str(out))
    assert res.exit_code == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["demo"]  # no temp folders left


def test_round_error_leaves_existing_pack_untouched(runner, tmp_path):
    out = tmp_path / "pack"
    out.mkdir()
    (out / "keep.txt").write_text("old")
    res = run(runner, "round", "--tables", "2", "--seed", "a", "--lang", "xx", "-o", str(out))
    assert res.exit_code == 2
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pack"]


def test_usage_errors_are_one_line_from_the_console_script():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run(
        [sys.executable, "-m", "setupgen", "board", "--numbrs", "swap"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("error: ")


def test_bare_command_shows_help_and_exits_0(runner):
    res = runner.invoke(app, [])
    assert res.exit_code == 0 and "Commands" in res.stdout and res.stderr == ""


def test_format_follows_the_file_extension(runner, tmp_path):
    out = tmp_path / "b.json"
    res = run(runner, "board", "--seed", "e", "-o", str(out))
    assert res.exit_code == 0
    assert json.loads(out.read_text())["seed"] == "e"
    res = run(runner, "board", "--seed", "e", "--format", "json", "-o", str(tmp_path / "b.pdf"))
    assert res.exit_code == 2 and "does not match the file name" in one_error_line(res)
    assert not (tmp_path / "b.pdf").exists()


def test_output_through_a_symlink_replaces_the_target_and_keeps_the_link(runner, tmp_path):
    real = tmp_path / "real.json"
    assert run(runner, "board", "--seed", "old", "-o", str(real)).exit_code == 0  # a board setupgen wrote
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert run(runner, "board", "--seed", "l", "-o", str(link)).exit_code == 0
    assert link.is_symlink() and json.loads(real.read_text())["seed"] == "l"


def test_output_into_a_named_pipe_is_written_not_replaced(runner, tmp_path):
    import threading

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    res = run(runner, "board", "--seed", "p", "--format", "json", "-o", str(fifo))
    reader.join(timeout=10)
    assert res.exit_code == 0
    import stat

    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert json.loads(got[0])["seed"] == "p"


def test_files_get_umask_permissions(runner, tmp_path):
    old = os.umask(0o022)
    try:
        out = tmp_path / "b.json"
        assert run(runner, "board", "--seed", "m", "-o", str(out)).exit_code == 0
        assert out.stat().st_mode & 0o777 == 0o644
        pack = tmp_path / "pack"
        assert run(runner, "round", "--tables", "1", "--seed", "m", "-o", str(pack)).exit_code == 0
        assert pack.stat().st_mode & 0o777 == 0o755
        assert (pack / "round.pdf").stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


def test_round_never_replaces_a_folder_of_other_files(runner, tmp_path, monkeypatch):
    victim = tmp_path / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "notes.txt").write_text("keep")
    res = run(runner, "round", "--tables", "1", "--seed", "v", "-o", str(victim))
    assert res.exit_code == 2 and "holds other files" in one_error_line(res)
    assert sorted(p.name for p in victim.iterdir()) == ["notes.txt", "sub"]
    monkeypatch.chdir(tmp_path / "victim" / "sub")
    res = run(runner, "round", "--tables", "1", "--seed", "v", "-o", ".")
    assert res.exit_code == 2 and "current folder" in one_error_line(res)
    # an earlier pack is replaced
    pack = tmp_path / "pack"
    assert run(runner, "round", "--tables", "2", "--seed", "a", "-o", str(pack)).exit_code == 0
    assert run(runner, "round", "--tables", "1", "--seed", "b", "-o", str(pack)).exit_code == 0
    assert json.loads((pack / "manifest.json").read_text())["seed"] == "b"
    assert not (pack / "table-02.json").exists()


def test_round_output_is_quiet_without_a_terminal_and_prints_the_round(runner, tmp_path):
    from pypdf import PdfReader

    out = tmp_path / "r"
    res = run(
        runner,
        "round",
        "--tables",
        "2",
        "--seed",
        "q",
        "--round",
        "3",
        "--title",
        "Club Open",
        "-o",
        str(out),
        "--no-almanac",
    )
    assert res.exit_code == 0
    assert res.stderr.splitlines() == [f"wrote {out.resolve()}/round.pdf (2 tables + director's page)"]
    text = PdfReader(str(out / "round.pdf")).pages[1].extract_text()
    assert "Round 3" in text and "Club Open" in text
    res = run(runner, "round", "--tables", "2", "--seed", "q", "--lang", "fr", "-o", str(tmp_path / "x"))
    assert res.exit_code == 2 and one_error_line(res)


def test_check_reads_bom_and_rejects_pathological_json(runner, tmp_path):
    b = generate.from_seed("base-3-4", "bom")
    f = tmp_path / "bom.json"
    f.write_bytes(b"\xef\xbb\xbf" + b.to_json().encode())
    assert run(runner, "check", str(f)).exit_code == 0
    for text, fragment in [("[" * 100_000, "nested too deeply"), ('{"format": ' + "9" * 5000 + "}", "not valid json")]:
        f.write_text(text)
        res = run(runner, "check", str(f))
        assert res.exit_code == 2 and fragment in one_error_line(res)
    res = run(runner, "check", str(tmp_path))
    assert res.exit_code == 2 and "a folder" in one_error_line(res)


def test_check_finds_stacked_harbors_on_fixed_places(runner, tmp_path):
    data = json.loads(generate.from_seed("base-3-4", "stack").to_json())
    first = data["harbors"][0]
    data["harbors"][1].update(q=first["q"], r=first["r"], facing=first["facing"])
    f = tmp_path / "stack.json"
    f.write_text(json.dumps(data))
    res = run(runner, "check", str(f))
    assert res.exit_code == 1
    assert "harbor-one-per-sea-hex" in res.stdout and "is empty" in res.stdout


def test_hand_written_layout_generates_renders_and_checks(runner, tmp_path):
    import re

    text = (ROOT / "layouts" / "README.md").read_text()
    layout_file = tmp_path / "two-islands.toml"
    layout_file.write_text(re.search(r"```toml\n(.*?)```", text, re.S).group(1))
    out = tmp_path / "b.json"
    res = run(runner, "board", "--layout", str(layout_file), "--seed", "t", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert json.loads(out.read_text())["scenario"] == "two-islands"
    res = run(runner, "check", str(out), "--layout", str(layout_file))
    assert res.exit_code == 0 and "legal" in res.stdout
    svg = tmp_path / "b.svg"
    assert run(runner, "board", "--layout", str(layout_file), "--seed", "t", "-o", str(svg)).exit_code == 0
    assert "<svg" in svg.read_text()
    sid = json.loads(out.read_text())["setup_id"]
    res = run(runner, "board", "--layout", str(layout_file), "--setup-id", sid, "--format", "json", "-o", "-")
    assert res.exit_code == 0 and json.loads(res.stdout)["hexes"] == json.loads(out.read_text())["hexes"]
    # without the layout, the board's scenario is unknown: one clear line
    res = run(runner, "check", str(out))
    assert res.exit_code == 2 and "unknown scenario 'two-islands'" in one_error_line(res)
    (tmp_path / "bad").mkdir()
    bad = tmp_path / "bad" / "two-islands.toml"
    bad.write_text(layout_file.read_text().replace("victory_points = 8", "victory_points = 'x'"))
    res = run(runner, "board", "--layout", str(bad), "--seed", "t", "-o", str(tmp_path / "c.json"))
    assert res.exit_code == 2 and "victory_points: expected int" in one_error_line(res)


def test_setup_ids_in_help_examples_regenerate(runner):
    """A setup ID shown in a help example must be one a user can type."""
    import re

    text = " ".join(run(runner, c, "--help").stdout for c in ("board", "round", "check"))
    ids = re.findall(r"\b[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}\b", text)
    assert ids
    for sid in ids:
        res = run(runner, "board", "--setup-id", sid, "--format", "json", "-o", "-")
        assert res.exit_code == 0, (sid, res.output)
