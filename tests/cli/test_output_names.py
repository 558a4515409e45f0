"""File names that are not UTF-8 (any bytes but / and NUL make a name on
POSIX): a record file so named, or an ``-o`` file so named, works under a
UTF-8 locale, and the name is written as the bytes it is made of."""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix" or sys.platform == "darwin",
                                reason="file names of any bytes are a POSIX file system's")

GAME = b"(;FF[4]GM[11]SZ[2]RE[B+];B[a1];W[b1];B[a2])\n"
# Latin-1 "é" and a byte that starts no UTF-8 sequence.
ODD = b"partie-\xe9t\xe9-\xff"


def _run(*args, cwd):
    # Standard output as a UTF-8 locale such as en_US.UTF-8 makes it, strict
    # (C.UTF-8 and the C locale give it surrogateescape, which would hide the
    # fault; not every machine has another UTF-8 locale installed).
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict",
           "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONUTF8", None)
    return subprocess.run([sys.executable, "-m", "havhex", *args], cwd=cwd,
                          capture_output=True, env=env)


@pytest.fixture
def odd_record(tmp_path):
    folder = os.fsencode(tmp_path)
    with open(os.path.join(folder, ODD + b".sgf"), "wb") as record:
        record.write(GAME)
    return ODD + b".sgf"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_record_so_named_replays_to_standard_output(tmp_path, odd_record, jobs):
    done = _run("replay", "--quiet", "-j", jobs, odd_record, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.startswith(odd_record + b" game 1: hex 2x2, 3 moves, B won in move 3")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_record_so_named_replays_to_an_output_file(tmp_path, odd_record, jobs):
    done = _run("replay", "--quiet", "-j", jobs, "-o", "out.txt", odd_record, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    written = (tmp_path / "out.txt").read_bytes()
    assert written.startswith(odd_record + b" game 1: hex 2x2, 3 moves, B won in move 3")


def test_an_output_file_so_named(tmp_path):
    (tmp_path / "game.sgf").write_bytes(GAME)
    done = _run("replay", "--quiet", "-o", ODD + b".txt", "game.sgf", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert sorted(os.listdir(os.fsencode(tmp_path))) == sorted([b"game.sgf", ODD + b".txt"])
    with open(os.path.join(os.fsencode(tmp_path), ODD + b".txt"), "rb") as out:
        assert out.read().startswith(b"game.sgf game 1: hex 2x2")
