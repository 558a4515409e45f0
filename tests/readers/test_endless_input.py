"""A token that never ends is refused after a bounded read, in both games.

A number ends at its 19th digit ("too long": a number has at most 18
digits), a token that cannot be a number after the bytes its message shows,
a Hex row at its character N + 1.  Each input below never ends (a pipe fed
forever, /dev/zero, a file object that reads forever, a terabyte of mapped
zeros): the judge must stop at once with one clean message.  Every run is a
subprocess with a generous timeout, so that a judge reading on fails the test
instead of hanging it.
"""
import os
import subprocess
import sys

import pytest

from conftest import one_error_line
from endless import finish, on_endless_pipe

NULS = "'" + "\\x00" * 10 + "'..."

# name: (game, head, body repeated forever, line and reason of the message)
ENDLESS = {
    "havannah-nul": ("havannah", b"", b"\0", "1: expected the number of test cases T as an integer, "
                     "found " + NULS),
    "havannah-count": ("havannah", b"", b"1", "1: the number of test cases T is too long: '"
                       + "1" * 40 + "'... (a number has at most 18 digits)"),
    "havannah-size": ("havannah", b"1\n", b"0", "2: the board size S of case #1 is too long: '"
                      + "0" * 40 + "'... (a number has at most 18 digits)"),
    "havannah-x": ("havannah", b"1\n5 3\n1 1\n", b"7", "4: the x of move 2 of case #1 is too long: '"
                   + "7" * 40 + "'... (a number has at most 18 digits)"),
    "havannah-y": ("havannah", b"1\n5 3\n1 1\n2 ", b"2x", "4: expected the y of move 2 of case #1 "
                   "as an integer, found '" + "2x" * 20 + "'..."),
    "havannah-trailing": ("havannah", b"0\n", b"\xff", "2: unexpected data after the last test "
                          "case: '" + "\\xff" * 10 + "'..."),
    "hex-nul": ("hex", b"", b"\0", "1: expected the number of test cases T as an integer, found "
                + NULS),
    "hex-size": ("hex", b"1\n", b"3", "2: the board size N of case #1 is too long: '" + "3" * 40
                 + "'... (a number has at most 18 digits)"),
    "hex-row": ("hex", b"1\n3\nRB.\n", b"R", "4: row 2 of case #1 has more than 3 characters, "
                "expected 3"),
    "hex-trailing": ("hex", b"1\n1\n.\n", b".", "4: unexpected data after the last test case: '"
                     + "." * 40 + "'..."),
}


def _judge_command(game, *args):
    return [sys.executable, "-m", "havhex", game, *args]


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("name", ENDLESS)
def test_an_endless_pipe_is_refused_at_once(name, threads):
    game, head, body, message = ENDLESS[name]
    process = on_endless_pipe(_judge_command(game, "-j", threads), head, body)
    assert one_error_line(process) == f"havhex: <stdin>:{message}\n"


# The reader itself on standard input, through a read chunk of argv[2] bytes.
PARSE_STDIN = """
import sys
from havhex.havannah import _faults as havannah_faults, _judge as havannah_engine
from havhex.hex import _faults as hex_faults, _judge as hex_engine

engine, faults = ((havannah_engine, havannah_faults) if sys.argv[1] == "havannah"
                  else (hex_engine, hex_faults))
parsed = engine.parse(sys.stdin.fileno(), chunk_size=int(sys.argv[2]))
print(parsed.err_line, faults._fault_reason(parsed), sep=": ")
"""


@pytest.mark.parametrize("chunk_size", [1, 7])
@pytest.mark.parametrize("name", ENDLESS)
def test_an_endless_pipe_is_refused_at_once_through_any_chunk(name, chunk_size):
    game, head, body, message = ENDLESS[name]
    process = on_endless_pipe([sys.executable, "-c", PARSE_STDIN, game, str(chunk_size)],
                               head, body)
    assert process.returncode == 0, process.stderr.decode()
    assert process.stdout.decode() == message + "\n"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_dev_zero_is_refused_at_once(game):
    judge = subprocess.Popen(_judge_command(game, "/dev/zero"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process = finish(judge, f"havhex {game} /dev/zero")
    assert one_error_line(process) == (
        f"havhex: /dev/zero:1: expected the number of test cases T as an integer, found {NULS}\n")


# A file object whose reads never run dry, given to judge_file; reading it
# whole fails at once rather than filling the memory.
ENDLESS_FILE = """
import sys
from havhex import InputError, havannah, hex

class Endless:
    name = "endless"
    def read(self, size=-1):
        if size is None or size < 0:
            raise AssertionError("an endless file object was read whole")
        return b"9" * size

try:
    (havannah if sys.argv[1] == "havannah" else hex).judge_file(Endless())
except InputError as fault:
    print(fault)
"""


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_an_endless_file_object_is_refused_at_once(game):
    process = finish(subprocess.Popen([sys.executable, "-c", ENDLESS_FILE, game],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE),
                      f"{game}.judge_file(endless file object)")
    assert process.returncode == 0, process.stderr.decode()
    assert process.stdout.decode() == ("endless:1: the number of test cases T is too long: '"
                                       + "9" * 40 + "'... (a number has at most 18 digits)\n")


# A terabyte of zeros in memory: a private read-only mapping of nothing, so
# it costs no memory, but reading it to its end takes far beyond TIMEOUT.
ENDLESS_MEMORY = """
import mmap, sys
from havhex import InputError, havannah, hex

zeros = mmap.mmap(-1, 1 << 40, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, prot=mmap.PROT_READ)
try:
    (havannah if sys.argv[1] == "havannah" else hex).judge_text(memoryview(zeros), source="zeros")
except InputError as fault:
    print(fault)
"""


@pytest.mark.skipif(sys.maxsize < 1 << 62 or not hasattr(os, "fork"),
                    reason="needs a 64-bit address space and mmap flags")
@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_a_terabyte_of_zeros_in_memory_is_refused_at_once(game):
    process = finish(subprocess.Popen([sys.executable, "-c", ENDLESS_MEMORY, game],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE),
                      f"{game}.judge_text(1 TB of zeros)")
    assert process.returncode == 0, process.stderr.decode()
    assert process.stdout.decode() == (
        f"zeros:1: expected the number of test cases T as an integer, found {NULS}\n")
