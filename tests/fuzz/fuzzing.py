"""What every reader's fuzz harness shares.

A harness describes its reader as a :class:`Reader` (how to judge bytes in
memory, from a file, in small read() chunks, through the CLI, and a valid input
as lines of tokens) and gets the standard tests from :func:`fuzz_tests`:

* raw bytes, and structured inputs (valid-looking lines of tokens, then
  mutated: huge numbers, signs, leading zeros, NULs, non-ASCII, missing or
  doubled lines, CR, CRLF and mixed line ends, cut short, stray bytes);
* every input is judged on one and on two threads, from bytes, ``str``, a
  path, an open file and a descriptor read in chunks of a few bytes; each way
  must give the same results or the same fault, and a fault must be one
  :class:`havhex.InputError` whose text is one printable line naming a line
  of the input (any other exception, a crash or a hang fails);
* accepted inputs small enough are checked against the literal reference
  judge, and explained as well as judged;
* a few inputs go through the CLI, which must print what the API gives.

``HAVHEX_FUZZ_EXAMPLES`` sets the number of examples of each test (default
60: the plain test command stays quick); .ci/run runs more.
"""
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from typing import Callable, Optional

import pytest

import needs
hypothesis = needs.module("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from havhex import InputError  # noqa: E402

EXAMPLES = int(os.environ.get("HAVHEX_FUZZ_EXAMPLES", "60"))
# Examples are small; a slow one (an ASan build, a busy machine) is not a fault
# here, a hang is caught by the CI's time limit.
SETTINGS = dict(deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
CHUNK_SIZES = (1, 2, 3, 5, 8, 13, 64)
MAX_MESSAGE = 500     # characters: a fault is one line a person reads


@dataclass(frozen=True)
class Reader:
    """One reader of the package, as the standard fuzz tests drive it.

    ``judge_text(data, threads)`` and ``judge_file(file, threads)`` are the
    public API; ``judge_chunked(descriptor, threads, chunk_size, source)``
    reads a descriptor through a buffer of ``chunk_size`` bytes;
    ``explain_answers(data, threads)`` returns the answers (str) of the
    explained cases; ``reference(text)`` the reference judge's answers, or
    None when the input is too large for it; ``format_results`` the judge's
    output; ``cli`` the words that judge a FILE on the command line;
    ``valid_lines`` a Hypothesis strategy of valid inputs as lists of lines,
    each a list of tokens.
    """

    name: str
    judge_text: Callable
    judge_file: Callable
    judge_chunked: Callable
    explain_answers: Callable
    reference: Optional[Callable]
    format_results: Callable
    cli: tuple
    valid_lines: object


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

HUGE_NUMBERS = ("2147483647", "2147483648", "4294967296", "9223372036854775807",
                "9223372036854775808", "18446744073709551616", "99999999999999999999",
                "1073741824", "1073741825", "0" * 19 + "1", "0" * 40 + "7", "9" * 300)
STRANGE_TOKENS = ("+1", "-1", "-0", "+", "-", "0", "00", "1e3", "0x10", "1.0", "",
                  "\x00", "1\x001", "\x001", "\u00e9", "\uff11", "\u0663", "1\u00a0",
                  "\ufeff1", "\u2212" "1", "R", "B", ".", "BR.", "..x", "rb", " ")
LINE_ENDS = ("\n", "\r\n", "\r")


def tokens_mutated(draw, token):
    """``token`` changed as a careless or hostile writer would."""
    kind = draw(st.integers(0, 6))
    if kind == 0:
        return draw(st.sampled_from(HUGE_NUMBERS))
    if kind == 1:
        return draw(st.sampled_from(STRANGE_TOKENS))
    if kind == 2:
        return draw(st.sampled_from(("+", "-", "0" * draw(st.integers(1, 25))))) + token
    if kind == 3 and token:
        at = draw(st.integers(0, len(token)))
        return token[:at] + draw(st.sampled_from(STRANGE_TOKENS + ("\t", "\x0b", "\x0c"))) + token[at:]
    if kind == 4 and token:
        at = draw(st.integers(0, len(token) - 1))
        return token[:at] + token[at + 1:]
    if kind == 5:
        return token * draw(st.integers(2, 4))
    return str(draw(st.integers(-2 ** 70, 2 ** 70)))


@st.composite
def structured_inputs(draw, valid_lines):
    """Bytes of a valid-looking input with a few mutations of its lines,
    tokens, separators, line ends and bytes (or none: valid inputs too)."""
    lines = [list(line) for line in draw(valid_lines)]
    for _ in range(draw(st.integers(0, 3))):
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.integers(0, 6))
        if kind <= 2 and lines[at]:
            place = draw(st.integers(0, len(lines[at]) - 1))
            lines[at][place] = tokens_mutated(draw, lines[at][place])
        elif kind == 3:
            del lines[at]
        elif kind == 4:
            lines.insert(at, list(lines[at]))
        elif kind == 5:
            lines.insert(at, draw(st.sampled_from(([], [""], ["x"], ["1"], ["1", "1"], ["\x00"]))))
        elif at + 1 < len(lines):        # two lines as one, or one split in two
            if draw(st.booleans()):
                lines[at:at + 2] = [lines[at] + lines[at + 1]]
            elif len(lines[at]) > 1:
                lines[at:at + 1] = [lines[at][:1], lines[at][1:]]
    spaces = draw(st.sampled_from((" ", " ", "  ", "\t", " \t")))
    mixed = draw(st.integers(0, 3)) == 0
    one_end = draw(st.sampled_from(LINE_ENDS))
    parts = []
    for line in lines:
        parts.append(spaces.join(line))
        parts.append(draw(st.sampled_from(LINE_ENDS)) if mixed else one_end)
    if parts and draw(st.integers(0, 5)) == 0:
        parts.pop()                       # no line end after the last line
    data = "".join(parts).encode("utf-8", "surrogatepass")
    return bytes_mutated(draw, data)


def bytes_mutated(draw, data):
    data = bytearray(data)
    for _ in range(draw(st.sampled_from((0, 0, 0, 1, 1, 2)))):
        kind = draw(st.integers(0, 4))
        at = draw(st.integers(0, len(data)))
        if kind == 0:
            del data[at:]
        elif kind == 1:
            data[at:at] = draw(st.binary(min_size=1, max_size=4))
        elif kind == 2 and data:
            data[min(at, len(data) - 1)] = draw(st.integers(0, 255))
        elif kind == 3 and data:
            del data[at:at + draw(st.integers(1, 3))]
        else:
            data[at:at] = draw(st.sampled_from((b"\r", b"\n", b"\r\n", b"\x00", b"\xff\xfe",
                                                b"\xc3\xa9", b" ", b"-", b"9" * 30)))
    return bytes(data)


def raw_inputs(first_line):
    """Bytes with no structure at all, or after a plausible first line."""
    noise = st.one_of(st.binary(max_size=200),
                      st.text(alphabet="0123456789 \t\r\n-+.BRx\x00", max_size=200).map(str.encode))
    return st.one_of(noise, st.tuples(first_line, noise).map(lambda pair: pair[0] + pair[1]))


# ---------------------------------------------------------------------------
# The oracle
# ---------------------------------------------------------------------------

def line_count(data):
    """Lines of ``data`` as the readers count them (LF, CRLF and CR end one)."""
    return 1 + len(re.findall(rb"\r\n|\r|\n", data))


def outcome(data, source, judge):
    """("results", list) or ("fault", line, reason) of ``judge()``, after
    checking that a fault is one clean InputError naming a line of ``data``."""
    try:
        return ("results", list(judge()))
    except InputError as error:
        check_fault(error, data, source)
        return ("fault", error.line, error.reason)


def check_fault(error, data, source):
    text = str(error)
    assert type(error) is InputError, repr(error)
    assert "\n" not in text and "\r" not in text and text.isprintable(), repr(text)
    assert len(text) <= MAX_MESSAGE, f"a fault of {len(text)} characters: {text[:200]!r}..."
    assert error.reason and isinstance(error.reason, str), repr(error.reason)
    assert isinstance(error.line, int) and 1 <= error.line <= line_count(data), (
        f"line {error.line!r} of an input of {line_count(data)} lines: {text!r}")
    assert error.source == source and text == f"{source}:{error.line}: {error.reason}", repr(text)


def judge_every_way(reader, data, folder, chunk_size):
    """The outcome of ``data``, checked to be the same whichever way it is read."""
    expected = outcome(data, "<string>", lambda: reader.judge_text(data, 1))
    ways = {"threads=2": outcome(data, "<string>", lambda: reader.judge_text(data, 2))}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        ways["str"] = outcome(data, "<string>", lambda: reader.judge_text(text, 1))
    path = folder / f"{reader.name}.in"
    path.write_bytes(data)
    for threads in (1, 2):
        ways[f"path, threads={threads}"] = outcome(
            data, str(path), lambda: reader.judge_file(str(path), threads))
        descriptor = os.open(path, os.O_RDONLY)
        try:
            ways[f"chunks of {chunk_size}, threads={threads}"] = outcome(
                data, str(path), lambda: reader.judge_chunked(descriptor, threads, chunk_size,
                                                              str(path)))
        finally:
            os.close(descriptor)
    with open(path, "rb") as stream:
        ways["open file"] = outcome(data, str(path), lambda: reader.judge_file(stream, 2))
    for way, got in ways.items():
        assert got == expected, f"{way}: {got!r}\nthreads=1, bytes: {expected!r}\ninput: {data!r}"
    if expected[0] == "results":
        check_results(reader, data, expected[1])
    return expected


def check_results(reader, data, results):
    answers = [str(result) for result in results]
    assert reader.explain_answers(data, 2) == answers
    if reader.reference is not None:
        wanted = reader.reference(data.decode("ascii"))
        if wanted is not None:
            assert reader.format_results(results).splitlines() == wanted, data


def run_cli(reader, data, folder, jobs):
    path = folder / f"{reader.name}-cli.in"
    path.write_bytes(data)
    done = subprocess.run([sys.executable, "-m", "havhex", *reader.cli, "-j", str(jobs), str(path)],
                          capture_output=True, timeout=300,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    try:
        wanted = ("results", reader.format_results(reader.judge_file(str(path), 1)))
    except InputError as error:
        wanted = ("fault", f"havhex: {error}\n")
    if wanted[0] == "results":
        assert (done.returncode, done.stderr.decode(errors="replace"), done.stdout.decode()) == (
            0, "", wanted[1]), data
    else:
        assert (done.returncode, done.stdout, done.stderr.decode(errors="replace")) == (
            1, b"", wanted[1]), data


# ---------------------------------------------------------------------------
# The standard tests of a reader
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Where a harness writes its inputs (one folder for all its examples)."""
    return tmp_path_factory.mktemp("fuzz")


def fuzz_tests(reader, first_line=st.integers(-3, 5).map(lambda n: f"{n}\n".encode())):
    """The standard fuzz tests of ``reader``: assign them to names starting
    with ``test_`` in the harness module."""
    examples = max(1, EXAMPLES)

    @settings(max_examples=examples, **SETTINGS)
    @given(data=structured_inputs(reader.valid_lines), chunk_size=st.sampled_from(CHUNK_SIZES))
    def test_structured_inputs(folder, data, chunk_size):
        judge_every_way(reader, data, folder, chunk_size)

    @settings(max_examples=examples, **SETTINGS)
    @given(data=raw_inputs(first_line), chunk_size=st.sampled_from(CHUNK_SIZES))
    def test_raw_bytes(folder, data, chunk_size):
        judge_every_way(reader, data, folder, chunk_size)

    @settings(max_examples=examples, **SETTINGS)
    @given(data=st.builds(lambda lines: "".join(" ".join(l) + "\n" for l in lines).encode(),
                          reader.valid_lines),
           chunk_size=st.sampled_from(CHUNK_SIZES))
    def test_valid_inputs(folder, data, chunk_size):
        assert judge_every_way(reader, data, folder, chunk_size)[0] == "results", data

    @settings(max_examples=max(2, examples // 12), **SETTINGS)
    @given(data=st.one_of(structured_inputs(reader.valid_lines), raw_inputs(first_line)),
           jobs=st.sampled_from((1, 2)))
    def test_cli(folder, data, jobs):
        run_cli(reader, data, folder, jobs)

    return test_structured_inputs, test_raw_bytes, test_valid_inputs, test_cli
