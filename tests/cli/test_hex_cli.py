"""The Hex judge through the command line (``python -m havhex hex``, subprocess).

Expected outputs are the contest's answer files (../shared/conformance, skipped
when absent) or answers worked out by hand; faults must be exactly one line on
stderr, ``havhex: FILE:LINE: reason``, with exit status 1, no traceback and no
output for the faulty file.
"""
from pathlib import Path

import pytest

import needs
import ref_hex as ref
from conftest import one_error_line, write

PROJECT = Path(__file__).resolve().parents[2]

# Answers by hand: Red's column 0 (every stone needed); Blue's two full rows
# (two stone-disjoint chains, counts 8 to 7); the main diagonal joins nothing.
FIRST = "3\n3\nRB.\nRB.\nR..\n4\nBBBB\nBBBB\nRRRR\nRRR.\n3\nR..\n.RB\nB.R\n"
FIRST_OUT = "Case #1: Red wins\nCase #2: Impossible\nCase #3: Nobody wins\n"
# N = 1 boards: the single cell lies on all four sides.
SECOND = "3\n1\nB\n1\n.\n1\nR\n"
SECOND_OUT = "Case #1: Blue wins\nCase #2: Nobody wins\nCase #3: Red wins\n"


def assert_one_error_line(process, expected):
    """Exit status 1, nothing on stdout, exactly ``expected`` on stderr."""
    assert one_error_line(process) == expected + "\n"


def test_hand_answers_agree_with_reference():
    assert "".join(line + "\n" for line in ref.judge_text(FIRST)) == FIRST_OUT
    assert "".join(line + "\n" for line in ref.judge_text(SECOND)) == SECOND_OUT


@pytest.mark.parametrize("name", ["sample", "test-set-1", "test-set-2"])
def test_conformance(cli, conformance_dir, name):
    path = conformance_dir / "hex" / f"{name}.in"
    if not path.is_file():
        needs.missing("conformance", f"{path} not found")
    expected = (conformance_dir / "hex" / f"{name}.out").read_bytes()
    process = cli("hex", path)
    assert (process.returncode, process.stdout, process.stderr) == (0, expected, b"")
    process = cli("hex", "-j", "4", stdin=path.read_bytes())
    assert (process.returncode, process.stdout, process.stderr) == (0, expected, b"")


def test_example_file(cli):
    process = cli("hex", "examples/hex.in", cwd=str(PROJECT))
    assert process.returncode == 0
    assert process.stdout.decode().splitlines() == [
        "Case #1: Nobody wins", "Case #2: Red wins", "Case #3: Impossible",
        "Case #4: Blue wins", "Case #5: Red wins", "Case #6: Impossible",
        "Case #7: Impossible"]


def test_file_stdin_and_dash(cli, tmp_path):
    a = write(tmp_path, "a.in", FIRST)
    b = write(tmp_path, "b.in", SECOND)
    process = cli("hex", a)
    assert (process.returncode, process.stdout.decode(), process.stderr) == (0, FIRST_OUT, b"")
    process = cli("hex", stdin=SECOND.encode())
    assert (process.returncode, process.stdout.decode(), process.stderr) == (0, SECOND_OUT, b"")
    process = cli("hex", b, "-", a, stdin=FIRST.encode())
    assert process.returncode == 0
    assert process.stdout.decode() == SECOND_OUT + FIRST_OUT + FIRST_OUT


def test_output_file(cli, tmp_path):
    a = write(tmp_path, "a.in", FIRST)
    out = tmp_path / "out.txt"
    process = cli("hex", a, a, "-o", out)
    assert (process.returncode, process.stdout, process.stderr) == (0, b"", b"")
    assert out.read_text() == FIRST_OUT * 2


def test_output_file_not_written_on_fault(cli, tmp_path):
    a = write(tmp_path, "a.in", FIRST)
    bad = write(tmp_path, "bad.in", "1\n2\nBB\n")
    out = tmp_path / "out.txt"
    process = cli("hex", a, bad, "-o", out)
    assert_one_error_line(process, f"havhex: {bad}:3: input ends before row 2 of case #1")
    assert not out.exists()


def test_threads_same_output(cli, tmp_path):
    import random

    rng = random.Random(4)
    boards = [ref.random_game_position(rng, rng.randint(1, 8), "win").rows for _ in range(60)]
    text = f"{len(boards)}\n" + "".join(f"{len(b)}\n" + "\n".join(b) + "\n" for b in boards)
    path = write(tmp_path, "many.in", text)
    expected = "".join(line + "\n" for line in ref.judge_text(text))
    for jobs in ("1", "3", "0"):
        process = cli("hex", "-j", jobs, path)
        assert (process.returncode, process.stdout.decode(), process.stderr) == (0, expected, b"")


def test_large_board(cli, tmp_path):
    """N = 1500, beyond the statement's 100: Blue's even rows are 750
    stone-disjoint chains."""
    n = 1500
    rows = [("B" if i % 2 == 0 else "R") * n for i in range(n)]
    path = write(tmp_path, "big.in", f"1\n{n}\n" + "\n".join(rows) + "\n")
    process = cli("hex", path)
    assert (process.returncode, process.stdout, process.stderr) == (0, b"Case #1: Impossible\n", b"")


# Every class of bad input: (text, line, reason).
BAD = [
    ("2\n1\n.\n4\nBBBB\nRRRR\nBBBBB\n", 7, "row 3 of case #2 has more than 4 characters, expected 4"),
    ("1\n3\nBR.\nB.\n...\n", 4, "row 2 of case #1 has 2 characters, expected 3"),
    ("1\n3\nBR.\n.X.\n...\n", 4, "row 2 of case #1 has 'X' at column 2; only B, R and . are allowed"),
    ("1\n2\nB0\n..\n", 3, "row 1 of case #1 has '0' at column 2; only B, R and . are allowed"),
    ("2\n1\n.\n3\nBR.\n...\n", 6, "input ends before row 3 of case #2"),
    ("1\n0\n", 2, "the board size N of case #1 must be at least 1, got 0"),
    ("1\n-2\nBB\n", 2, "the board size N of case #1 must be at least 1, got -2"),
    ("1\nabc\n", 2, "expected the board size N of case #1 as an integer, found 'abc'"),
    ("2\n1\n.\n", 3, "input ends before the board size N of case #2"),
    ("", 1, "input ends before the number of test cases T"),
    ("T\n", 1, "expected the number of test cases T as an integer, found 'T'"),
    ("3x\n", 1, "expected the number of test cases T as an integer, found '3x'"),
    ("1\n1\nR\nB\n", 4, "unexpected data after the last test case: 'B'"),
]


@pytest.mark.parametrize("text, line, reason", BAD)
def test_bad_input_one_line(cli, tmp_path, text, line, reason):
    path = write(tmp_path, "bad.in", text)
    assert_one_error_line(cli("hex", path), f"havhex: {path}:{line}: {reason}")
    assert_one_error_line(cli("hex", stdin=text.encode()), f"havhex: <stdin>:{line}: {reason}")


def test_bad_file_after_good_one(cli, tmp_path):
    """Earlier files are printed whole; the bad file prints nothing."""
    good = write(tmp_path, "good.in", SECOND)
    bad = write(tmp_path, "bad.in", "2\n1\nR\n2\nR\n")
    process = cli("hex", good, bad)
    assert process.returncode == 1
    assert process.stdout.decode() == SECOND_OUT
    assert process.stderr.decode() == f"havhex: {bad}:5: row 1 of case #2 has 1 character, expected 2\n"


def test_missing_file(cli, tmp_path):
    missing = tmp_path / "missing.in"
    process = cli("hex", missing)
    assert process.returncode == 1 and process.stdout == b""
    err = process.stderr.decode()
    assert err.startswith(f"havhex: {missing}: cannot open") and err.count("\n") == 1
    assert "Traceback" not in err
