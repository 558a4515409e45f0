"""Fuzzing the GTP engine (``havhex gtp``) with command lines.

The lines are GTP commands as controllers write them, then as a careless or
hostile one would: ids of thousands of digits, lines past the engine's
MAX_LINE (a word repeated, NUL bytes, bytes that are not UTF-8), huge and
strange numbers, paths that are no record file (a FIFO, /dev/stdin, a
device), CR, tabs, comments, raw bytes.  Whatever comes, each command line
gets exactly one answer, and every answer is well-formed GTP: ``=`` or
``?``, the line's id glued to it (or none, for an id or a line the engine
cannot repeat), a text without empty lines, the empty line that ends it; a
failure is short (it quotes a few words, never a line); no answer is the
engine's last-resort "internal error"; the engine stops at ``quit`` and
nowhere else.  In-process examples check the engine's answers against that
model; a few go through the ``havhex gtp`` process, which must exit with
status 0, write nothing on stderr, and answer byte for byte as the engine
did in-process.  ``HAVHEX_FUZZ_EXAMPLES`` sets the number of examples (see
fuzzing.py).
"""
import io
import os
import subprocess
import sys

import pytest

from fuzzing import EXAMPLES, HUGE_NUMBERS, SETTINGS, bytes_mutated, given, settings, st

from havhex.gtp import ProtocolError, parse_command, parse_response
from havhex.gtp.players import RandomPlayer
from havhex.gtp.server import COMMANDS, MAX_LINE, Engine

# The most a failure's text holds: a reason and a few words of the input.
MAX_FAILURE = 400
# What each line of the model keeps of a line too long to read whole: the
# engine repeats its id when the id ends within this start of it.
HEAD = 128
GAMES = ("hex", "havannah")
NAMES = sorted(set(COMMANDS["hex"]) | set(COMMANDS["havannah"])) + [
    "Play", "dance", "", "9"]
ARGUMENTS = (
    "red", "blue", "white", "black", "r", "b", "w", "B", "W", "RED", "x",
    "a1", "b2", "c3", "e5", "k11", "A1", "B2", "C3", "H8", "z99", "aa1", "a0", "a01",
    "swap", "swap-pieces", "swap-sides", "pass", "resign", "PASS",
    "0", "1", "2", "3", "4", "5", "11", "64", "128", "129", "-1", "+1", "1.5", "1e9",
    "1e309", "nan", "inf", "-0", "0x10", "\u0663", "\uff11", "\u00e9",
    "-m", "-g", "-r", "-i", "-f", "allow_swap",
    "/dev/stdin", "/dev/zero", "/dev/null", "/", "/nonexistent/game.sgf", "-",
    "FIFO", "GOOD", "BAD", "#", "\t", "\x00", "\x7f", "\r",
) + HUGE_NUMBERS


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A FIFO (which loadsgf must not wait on), a record and a broken one:
    the words FIFO, GOOD and BAD stand for their paths."""
    path = tmp_path_factory.mktemp("gtp-fuzz")
    if hasattr(os, "mkfifo"):
        os.mkfifo(path / "fifo.sgf")
    (path / "good.sgf").write_bytes(b"(;FF[4]GM[11]SZ[5];B[a1];W[b2];B[c3])")
    (path / "bad.sgf").write_bytes(b"(;FF[4]GM[11]SZ[5];B[a1];B[root:secret])")
    return path


def _paths(line, folder):
    for word, name in ((b"FIFO", "fifo.sgf"), (b"GOOD", "good.sgf"), (b"BAD", "bad.sgf")):
        line = line.replace(word, os.fsencode(folder / name))
    return line


@st.composite
def command_lines(draw):
    """One line, without its newline: a command as a controller writes it,
    or a hostile variant of one."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.binary(max_size=60).map(lambda data: data.replace(b"\n", b" ")))
    if kind == 1:
        # A line past MAX_LINE, or just within it.
        piece = draw(st.sampled_from((b"a", b"9", b"\x00", b"\xff", b" ", b"ab ", b"\xc3\xa9")))
        size = draw(st.sampled_from((MAX_LINE - 1, MAX_LINE, MAX_LINE + 1, 3 * MAX_LINE)))
        head = draw(st.sampled_from((b"", b"7 ", b"play red ", b"12 loadsgf /",
                                     b"9" * 200 + b" name ")))
        return (head + piece * (size // len(piece) + 1))[:size]
    words = [draw(st.sampled_from(NAMES))]
    words += draw(st.lists(st.sampled_from(ARGUMENTS), max_size=4))
    if draw(st.integers(0, 3)) == 0:
        # An id: short, or of thousands of digits (past Python's int limit).
        digits = draw(st.one_of(st.integers(0, 2 ** 40).map(str),
                                st.integers(1, 6000).map(lambda n: "9" * n),
                                st.sampled_from(HUGE_NUMBERS)))
        words.insert(0, digits)
    separator = draw(st.sampled_from((" ", " ", "\t", "  ", " \x00 ")))
    line = separator.join(words)
    if draw(st.integers(0, 5)) == 0:
        line += draw(st.sampled_from((" # a comment", "#", "\r", " \r", "\x00")))
    data = line.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 3)) == 0:
        data = bytes_mutated(draw, data).replace(b"\n", b" ")
    return data


@st.composite
def sessions(draw):
    """(game, swap, input bytes): lines joined by LF, CR LF now and then,
    the last one without its newline now and then."""
    lines = draw(st.lists(command_lines(), min_size=1, max_size=25))
    ends = [draw(st.sampled_from((b"\n", b"\n", b"\r\n"))) for _ in lines]
    if draw(st.booleans()):
        ends[-1] = b""
    data = b"".join(line + end for line, end in zip(lines, ends))
    return draw(st.sampled_from(GAMES)), draw(st.booleans()), data


def expected(data):
    """For each line that gets an answer, in order: the id the answer
    repeats (None: none), or "head" for a line too long whose id the
    answer may repeat or not; ends at quit."""
    wanted = []
    for segment in data.split(b"\n"):
        if len(segment) > MAX_LINE:
            wanted.append("head")
            continue
        try:
            command = parse_command(segment.decode("utf-8", "replace"))
        except ProtocolError:
            wanted.append(None)
            continue
        if command is None:
            continue
        wanted.append(command.id)
        if command.name == "quit":
            break
    return wanted


def check(output, data):
    """The answers of ``output`` (the engine's, for ``data``) against the
    model; returns them."""
    assert output.endswith("\n\n") or output == "", output[-300:]
    texts = output[:-2].split("\n\n") if output else []
    wanted = expected(data)
    assert len(texts) == len(wanted), (len(texts), len(wanted), data[:300])
    for text, want in zip(texts, wanted):
        response = parse_response(text)
        assert text[0] in "=?"
        if want == "head":
            assert not response.ok and len(response.text) <= MAX_FAILURE, text[:300]
            continue
        assert response.id == want, (text[:200], want)
        assert "internal error" not in response.text, text[:300]
        if not response.ok:
            assert len(response.text) <= MAX_FAILURE, text[:300]
        else:
            assert len(text) < 200_000
    return texts


def engine_output(game, swap, data):
    engine = Engine(game, swap=swap, player=RandomPlayer(1))
    stdout = io.StringIO()
    engine.serve(io.BytesIO(data), stdout)
    return stdout.getvalue()


@settings(max_examples=max(1, EXAMPLES), **SETTINGS)
@given(session=sessions())
def test_every_line_gets_one_well_formed_answer(folder, session):
    game, swap, data = session
    data = _paths(data, folder)
    check(engine_output(game, swap, data), data)


@settings(max_examples=max(2, EXAMPLES // 12), **SETTINGS)
@given(session=sessions())
def test_the_process_survives_and_answers_as_the_engine(folder, session):
    game, swap, data = session
    data = _paths(data, folder)
    command = [sys.executable, "-m", "havhex", "gtp", game, "--player", "random",
               "--seed", "1"] + (["--swap"] if swap else [])
    process = subprocess.run(command, input=data, capture_output=True, timeout=300,
                             cwd=folder, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert (process.returncode, process.stderr) == (0, b""), process.stderr[-2000:]
    output = engine_output(game, swap, data)
    check(output, data)
    assert process.stdout == output.encode("utf-8")
