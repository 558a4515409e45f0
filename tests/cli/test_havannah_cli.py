"""The Havannah judge through the command line (``python -m havhex``, subprocess).

Expected outputs are the contest's answer files (../shared/conformance, skipped
when absent) or answers worked out by hand; faults must be exactly one line on
stderr, ``havhex: FILE:LINE: reason``, with exit status 1 and no traceback.
"""

import pytest

import havhex
import ref_havannah as ref
from conftest import one_error_line, write
from havhex import InputError
from havhex.havannah import judge_text

BIG = 2 ** 30

# Two small inputs with answers worked out by hand (see test_havannah.py).
# S = 2: corners (1, 1) and (1, 2) are neighbours; six stones round (4, 4) on S = 4.
FIRST = "2\n2 2\n1 1\n1 2\n4 6\n5 5\n4 5\n3 4\n3 3\n4 3\n5 4\n"
FIRST_OUT = "Case #1: bridge in move 2\nCase #2: ring in move 6\n"
# S = 3: (1, 2) and (2, 1) on two edges, (4, 2) on a third, joined by (2, 2), (3, 2).
SECOND = "1\n3 5\n1 2\n2 1\n4 2\n2 2\n3 2\n"
SECOND_OUT = "Case #1: fork in move 5\n"


def assert_one_error_line(process, prefix):
    """Exit status 1, nothing on stdout, one ``havhex: ...`` line on stderr."""
    err = one_error_line(process)
    assert err.startswith(prefix), err
    return err


def test_hand_answers_agree_with_reference():
    assert "\n".join(ref.judge_text(FIRST)) + "\n" == FIRST_OUT
    assert "\n".join(ref.judge_text(SECOND)) + "\n" == SECOND_OUT


# ---------------------------------------------------------------------------
# Normal use
# ---------------------------------------------------------------------------

def test_file_argument(cli, tmp_path):
    path = write(tmp_path, "a.in", FIRST)
    process = cli("havannah", path)
    assert process.returncode == 0
    assert process.stdout.decode() == FIRST_OUT
    assert process.stderr == b""


def test_stdin_without_argument(cli):
    process = cli("havannah", stdin=FIRST.encode())
    assert (process.returncode, process.stdout.decode(), process.stderr) == (0, FIRST_OUT, b"")


def test_stdin_dash(cli):
    process = cli("havannah", "-", stdin=SECOND.encode())
    assert (process.returncode, process.stdout.decode(), process.stderr) == (0, SECOND_OUT, b"")


def test_several_files_and_dash(cli, tmp_path):
    a = write(tmp_path, "a.in", FIRST)
    b = write(tmp_path, "b.in", SECOND)
    process = cli("havannah", a, b, a, stdin=b"")
    assert process.returncode == 0
    assert process.stdout.decode() == FIRST_OUT + SECOND_OUT + FIRST_OUT
    process = cli("havannah", b, "-", a, stdin=FIRST.encode())
    assert process.returncode == 0
    assert process.stdout.decode() == SECOND_OUT + FIRST_OUT + FIRST_OUT


def test_jobs_give_the_same_output(cli, tmp_path):
    a = write(tmp_path, "a.in", FIRST)
    for jobs in ("2", "0"):
        process = cli("havannah", "-j", jobs, a)
        assert (process.returncode, process.stdout.decode()) == (0, FIRST_OUT)


def test_output_file_written_whole(cli, tmp_path):
    a = write(tmp_path, "a.in", FIRST)
    b = write(tmp_path, "b.in", SECOND)
    out = tmp_path / "out.txt"
    out.write_text("old contents\n")
    process = cli("havannah", "-o", out, a, b)
    assert process.returncode == 0
    assert process.stdout == b"" and process.stderr == b""
    assert out.read_text() == FIRST_OUT + SECOND_OUT
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.in", "b.in", "out.txt"]
    # --output, long form, from standard input.
    process = cli("havannah", "--output", out, stdin=SECOND.encode())
    assert process.returncode == 0
    assert out.read_text() == SECOND_OUT


def test_output_file_not_created_on_bad_input(cli, tmp_path):
    a = write(tmp_path, "a.in", FIRST)
    bad = write(tmp_path, "bad.in", "1\n2 2\n1 1\n1 1\n")        # (1, 1) twice, line 4
    out = tmp_path / "out.txt"
    process = cli("havannah", "-o", out, a, bad)
    assert_one_error_line(process, f"havhex: {bad}:4: ")
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.in", "bad.in"]


def test_output_file_left_untouched_on_bad_input(cli, tmp_path):
    a = write(tmp_path, "a.in", FIRST)
    out = tmp_path / "out.txt"
    out.write_text("keep me\n")
    for bad_args in (["-"], [tmp_path / "missing.in"]):
        process = cli("havannah", "-o", out, a, *bad_args, stdin=b"1\n2 1\n0 0\n")
        assert process.returncode == 1
        assert out.read_text() == "keep me\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["a.in", "out.txt"]


def test_help(cli):
    process = cli("--help")
    assert process.returncode == 0
    text = process.stdout.decode()
    assert text.startswith("usage: havhex")
    assert "havannah" in text and "hex" in text
    process = cli("havannah", "--help")
    assert process.returncode == 0
    text = process.stdout.decode()
    assert "FILE" in text and "--output" in text


def test_version(cli):
    process = cli("--version")
    assert process.returncode == 0
    assert process.stdout.decode().strip() == f"havhex {havhex.__version__}"


def test_no_game_is_a_usage_error(cli):
    process = cli()
    assert process.returncode == 2
    assert process.stdout == b"" and b"usage" in process.stderr
    assert b"Traceback" not in process.stderr


# ---------------------------------------------------------------------------
# Conformance data through the CLI
# ---------------------------------------------------------------------------

def test_large_practice(cli, conformance_dir, tmp_path):
    folder = conformance_dir / "havannah"
    path = folder / "large-practice.in"
    expected = (folder / "large-practice.out").read_bytes()
    process = cli("havannah", path)
    assert (process.returncode, process.stderr) == (0, b"")
    assert process.stdout == expected
    out = tmp_path / "large.out"
    process = cli("havannah", "-j", "2", "-o", out, "-", stdin=path.read_bytes())
    assert process.returncode == 0
    assert out.read_bytes() == expected


def test_all_conformance_files_at_once(cli, conformance_dir):
    folder = conformance_dir / "havannah"
    inputs = sorted(folder.glob("*.in"))
    process = cli("havannah", *inputs)
    assert process.returncode == 0
    assert process.stdout == b"".join(p.with_suffix(".out").read_bytes() for p in inputs)


# ---------------------------------------------------------------------------
# Every class of bad input: one line, the right line number, status 1
# ---------------------------------------------------------------------------

GOOD = "2 2\n1 1\n1 2\n"   # a valid first case (bridge in move 2) on lines 2-4

BAD = [
    # id, input, line of the fault
    ("non-integer-T", "two\n2 0\n", 1),
    ("non-integer-move", "2\n" + GOOD + "3 2\n1 1\n2 y\n", 7),
    ("non-integer-float", "2\n" + GOOD + "3 1\n1.0 1\n", 6),
    ("missing-token-truncated", "2\n" + GOOD + "3 3\n1 1\n2 2\n", 7),
    ("missing-case", "3\n" + GOOD + "3 0\n", 5),
    ("empty-file", "", 1),
    ("T-negative", "-2\n" + GOOD, 1),
    ("S-below-2", "2\n" + GOOD + "1 0\n", 5),
    ("S-zero", "2\n" + GOOD + "0 0\n", 5),
    ("S-above-2**30", "2\n" + GOOD + f"{BIG + 1} 1\n1 1\n", 5),
    ("M-negative", "2\n" + GOOD + "3 -1\n", 5),
    ("M-larger-than-board", "2\n" + GOOD + "2 8\n" + "1 1\n" * 8, 5),
    ("off-board", "2\n" + GOOD + "3 2\n1 1\n2 5\n", 7),
    ("off-board-negative", "2\n" + GOOD + "3 2\n1 1\n-1 1\n", 7),
    ("off-board-after-win", "2\n" + GOOD + "2 3\n1 1\n1 2\n1 3\n", 8),
    ("played-twice", "2\n" + GOOD + "3 3\n1 1\n2 2\n1 1\n", 8),
    ("played-twice-after-win", "2\n" + GOOD + "3 4\n1 1\n1 2\n1 3\n1 1\n", 9),
    ("tokens-after-last-case", "2\n" + GOOD + "3 0\n\n7 7\n", 7),
    ("token-after-last-move", "1\n2 1\n1 1 1\n", 3),
]


def _api_fault(text, source):
    with pytest.raises(InputError) as info:
        judge_text(text, source=source)
    return info.value


@pytest.mark.parametrize("text, line", [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_bad_input_file(cli, tmp_path, text, line):
    path = write(tmp_path, "bad.in", text)
    error = _api_fault(text, str(path))
    assert isinstance(error, ValueError)
    assert error.line == line
    process = cli("havannah", path)
    err = assert_one_error_line(process, f"havhex: {path}:{line}: ")
    # The CLI prints the API's reason.
    assert err == f"havhex: {path}:{line}: {error.reason}\n"


@pytest.mark.parametrize("text, line", [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_bad_input_stdin(cli, text, line):
    error = _api_fault(text, "<stdin>")
    process = cli("havannah", stdin=text.encode())
    err = assert_one_error_line(process, f"havhex: <stdin>:{line}: ")
    assert err == f"havhex: <stdin>:{line}: {error.reason}\n"


def test_nonexistent_file(cli, tmp_path):
    missing = tmp_path / "missing.in"
    assert_one_error_line(cli("havannah", missing), f"havhex: {missing}: ")
    with pytest.raises(InputError) as info:
        havhex.havannah.judge_file(missing)
    assert isinstance(info.value, ValueError)
    assert info.value.source == str(missing)


def test_directory_as_input(cli, tmp_path):
    assert_one_error_line(cli("havannah", tmp_path), f"havhex: {tmp_path}")


def test_binary_garbage(cli, tmp_path):
    path = write(tmp_path, "garbage.in", bytes(range(256)) * 4)
    assert_one_error_line(cli("havannah", path), f"havhex: {path}:1: ")


def test_bad_file_prints_nothing_of_itself(cli, tmp_path):
    """Case 1 is fine, case 2 is bad: nothing of that file appears."""
    path = write(tmp_path, "half.in", "2\n" + GOOD + "3 1\n9 9\n")
    assert_one_error_line(cli("havannah", path), f"havhex: {path}:6: ")


def test_second_file_bad_first_file_printed(cli, tmp_path):
    a = write(tmp_path, "a.in", FIRST)
    bad = write(tmp_path, "bad.in", "2\n" + GOOD + "3 1\n9 9\n")
    b = write(tmp_path, "b.in", SECOND)
    process = cli("havannah", a, bad, b)
    err = process.stderr.decode()
    assert process.returncode == 1
    assert process.stdout.decode() == FIRST_OUT
    assert err.count("\n") == 1 and err.startswith(f"havhex: {bad}:6: ")
    assert "Traceback" not in err
    # The same with the bad input on standard input.
    process = cli("havannah", a, "-", b, stdin=b"1\n2 1\n1 1\n1 2\n")
    assert process.returncode == 1
    assert process.stdout.decode() == FIRST_OUT
    assert process.stderr.decode().startswith("havhex: <stdin>:4: ")
    # And with a missing second file.
    process = cli("havannah", a, tmp_path / "nope.in")
    assert process.returncode == 1
    assert process.stdout.decode() == FIRST_OUT
    assert process.stderr.decode().count("\n") == 1


def test_long_line_numbers(cli, tmp_path):
    """The line of a fault far into a big file: move k of a case on line k + 2."""
    size = 1000
    moves = [(x, 1) for x in range(1, 5001)]
    assert not ref.on_board(size, moves[size])     # (1001, 1): |x - y| = 1000 > S - 1
    text = f"1\n{size} {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves)
    path = write(tmp_path, "long.in", text)
    process = cli("havannah", path)
    assert_one_error_line(process, f"havhex: {path}:{size + 3}: ")


def test_many_faults_reports_the_first(cli, tmp_path):
    # Off the board on line 7, then a duplicate and trailing junk later.
    text = "2\n" + GOOD + "3 3\n1 1\n9 9\n1 1\nxyz\n"
    path = write(tmp_path, "faults.in", text)
    assert_one_error_line(cli("havannah", path), f"havhex: {path}:7: ")
