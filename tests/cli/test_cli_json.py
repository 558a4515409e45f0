"""``--format json`` over several inputs: every record names its input in a
``file`` field (the path as given, ``<stdin>`` for standard input), so that
records of several files are told apart; the text output stays the
contest's format."""
import json

import pytest

from conftest import run_cli, write

INPUTS = {
    "havannah": ("2\n2 2\n1 1\n1 2\n3 2\n1 1\n2 2\n", "1\n3 0\n"),
    "hex": ("2\n1\nR\n2\nB.\nB.\n", "1\n1\n.\n"),
}


def records(process):
    assert (process.returncode, process.stderr) == (0, b""), process.stderr.decode()
    return [json.loads(line) for line in process.stdout.decode().splitlines()]


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_every_record_names_its_file(game, tmp_path):
    first, second = INPUTS[game]
    write(tmp_path, "a.in", first)
    write(tmp_path, "b.in", second)
    # Relative paths, given as the user wrote them; standard input between.
    process = run_cli(game, "--format", "json", "a.in", "-", "./b.in", "a.in",
                      stdin=second.encode(), cwd=tmp_path)
    got = [(record["file"], record["case"]) for record in records(process)]
    assert got == [("a.in", 1), ("a.in", 2), ("<stdin>", 1), ("./b.in", 1),
                   ("a.in", 1), ("a.in", 2)]
    assert all(next(iter(record)) == "file" for record in records(process))
    # No file argument at all reads standard input, named the same way.
    alone = records(run_cli(game, "--format", "json", stdin=first.encode()))
    assert [record["file"] for record in alone] == ["<stdin>", "<stdin>"]


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_records_are_the_text_answers(game, tmp_path):
    # The records and the text lines say the same, file by file.
    first, second = INPUTS[game]
    a = write(tmp_path, "a.in", first)
    b = write(tmp_path, "b.in", second)
    text = run_cli(game, a, b)
    assert text.returncode == 0
    lines = text.stdout.decode().splitlines()
    assert all(line.startswith("Case #") for line in lines)
    got = records(run_cli(game, "--format", "json", a, b))
    assert [f"Case #{r['case']}: {r['answer']}" for r in got] == lines
    assert [r["file"] for r in got] == [str(a), str(a), str(b)]


def test_json_to_an_output_file_names_the_inputs(tmp_path):
    a = write(tmp_path, "a.in", INPUTS["havannah"][0])
    out = tmp_path / "out.jsonl"
    process = run_cli("havannah", "--format", "json", "-o", out, a, "-",
                      stdin=INPUTS["havannah"][1].encode())
    assert (process.returncode, process.stdout, process.stderr) == (0, b"", b"")
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["file"], r["case"]) for r in got] == [(str(a), 1), (str(a), 2), ("<stdin>", 1)]
