"""``havhex replay -j N``: the worker processes stop at once on SIGINT and
SIGTERM and die with their parent, a killed worker is one line on stderr,
no temporary file is left behind, and a file's output is taken unit by unit
(never held whole).

Each run's input is a large file followed by a FIFO no one writes to: the
run cannot end on its own, so the signal always finds it at work.  For the
signals the file is one unit of some 20 s of work: a run that waited for
its running units to end would miss EXIT_BOUND by far."""
import os
import signal
import subprocess
import sys
import time

import pytest

from havhex.cli import output as output_module
from havhex.records import run as replay_module

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the workers are seen through Linux's /proc")

GAME = b"(;FF[4]GM[11]SZ[11];B[a1];W[b2];B[c3])\n"
# From the signal to the exit: the run stops within milliseconds; the rest
# is slack for a busy machine.  Waiting for the units to end takes seconds.
EXIT_BOUND = 5.0


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listed:
            return [int(word) for word in listed.read().split()]
    except OSError:
        return []


def _gone(pid):
    """Whether process ``pid`` has ended (gone, or a zombie nobody reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as status:
            return status.read().rpartition(")")[2].split()[0] in ("Z", "X")
    except OSError:
        return True


def _wait_for(condition, what, bound=30.0):
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.01)


# The command run with a unit size of its own (as a test in this process
# would monkeypatch it).
RUN = ("import sys; from havhex.cli import main; from havhex.records import run; "
       "run.UNIT_BYTES = int(sys.argv[1]); "
       "sys.exit(main(sys.argv[2:]))")


def _start(tmp_path, *inputs, unit_bytes=1 << 20, endless=True):
    folder = tmp_path / "out"
    folder.mkdir()
    names = [str(path) for path in inputs]
    if endless:
        fifo = tmp_path / "endless.sgf"
        os.mkfifo(fifo)
        names.append(str(fifo))
    process = subprocess.Popen(
        [sys.executable, "-c", RUN, str(unit_bytes), "replay", "--quiet", "-j", "2",
         "-o", str(folder / "replayed.txt"), *names],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    return process, folder


@pytest.fixture
def big(tmp_path):
    """About 4 MB of games: four units, seconds of work for -j 2 (a worker
    process beside the command's own)."""
    path = tmp_path / "big.sgf"
    path.write_bytes(GAME * 100_000)
    return path


@pytest.mark.parametrize("signal_number, status", [(signal.SIGINT, 130),
                                                   (signal.SIGTERM, 143)])
def test_a_signal_stops_the_workers_at_once(tmp_path, signal_number, status):
    huge = tmp_path / "huge.sgf"
    huge.write_bytes(GAME * 500_000)
    process, folder = _start(tmp_path, huge, unit_bytes=64 << 20)
    try:
        _wait_for(lambda: len(_children(process.pid)) == 1, "the worker")
        workers = _children(process.pid)
        time.sleep(0.3)   # the workers at work on the big file's units
        process.send_signal(signal_number)
        start = time.monotonic()
        _, err = process.communicate(timeout=EXIT_BOUND)
        assert time.monotonic() - start < EXIT_BOUND
    finally:
        process.kill()
        process.wait()
    assert process.returncode == status, err
    assert b"Traceback" not in err
    assert os.listdir(folder) == []     # no output, and no temporary file
    _wait_for(lambda: all(_gone(pid) for pid in workers), "the workers to go", EXIT_BOUND)


def test_the_workers_die_with_their_parent_and_leave_no_file(tmp_path, big):
    process, folder = _start(tmp_path, big)
    try:
        _wait_for(lambda: len(_children(process.pid)) == 1, "the worker")
        workers = _children(process.pid)
        time.sleep(0.3)
        process.kill()   # SIGKILL: no clean-up of its own can run
        process.wait()
    finally:
        process.kill()
        process.wait()
    _wait_for(lambda: all(_gone(pid) for pid in workers), "the workers to die", EXIT_BOUND)
    assert os.listdir(folder) == []


def test_a_killed_worker_is_one_line_naming_what_was_lost(tmp_path, big):
    process, folder = _start(tmp_path, big, endless=False)
    try:
        _wait_for(lambda: len(_children(process.pid)) == 1, "the worker")
        victim = _children(process.pid)[0]
        os.kill(victim, signal.SIGKILL)     # as the OOM killer does
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
        process.wait()
    lines = err.decode().splitlines()
    assert process.returncode == 1, err
    assert len(lines) == 1, err
    assert lines[0].startswith(f"havhex: a replay worker process (pid {victim}) was killed "
                               f"by SIGKILL; lost the output of {big}")
    assert os.listdir(folder) == []


@pytest.mark.parametrize("run", range(5))
def test_a_fault_in_the_first_file_is_one_line_while_the_workers_start(tmp_path, run):
    """A fault found as the workers start ends the run with one line: the
    workers are killed by the run, not terminated at the interpreter's exit
    while they still hold the parent's SIGTERM handler (a traceback each)."""
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"(;FF[4]GM[11]SZ[18446744073709551617];B[a1])\n")
    good = tmp_path / "good.sgf"
    good.write_bytes(GAME * 200)
    done = subprocess.run([sys.executable, "-m", "havhex", "replay", "--quiet", "-j", "2",
                           str(bad), str(good)], capture_output=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert done.stderr.decode().splitlines() == [
        f"havhex: {bad}:1: SZ is not a board size: '18446744073709551617'"], done.stderr


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_output_comes_unit_by_unit(tmp_path, monkeypatch, jobs):
    """A file cut into units gives its output as the units' texts, one at a
    time, never joined into one text of the whole file."""
    monkeypatch.setattr(replay_module, "UNIT_BYTES", 2000)
    path = tmp_path / "many.sgf"
    path.write_bytes(GAME * 1000)
    summary = replay_module.Summary()
    outputs = replay_module.replay_outputs([str(path)], "official", "text", jobs, summary)
    pieces = list(next(outputs))
    assert next(outputs, None) is None
    assert len(pieces) >= len(GAME) * 1000 // 2000
    per_game = len(pieces[0].splitlines()[0]) + 1
    assert max(len(piece) for piece in pieces) < 4 * 2000 // len(GAME) * per_game
    assert sum(piece.count("\n") for piece in pieces) == 1000
    assert (summary.files, summary.games) == (1, 1000)


def test_standard_output_spills_a_large_file_to_disk(tmp_path, monkeypatch, capfd):
    """What waits to be written whole goes to disk beyond SPOOL_IN_MEMORY."""
    monkeypatch.setattr(output_module, "SPOOL_IN_MEMORY", 1000)
    spilled = []
    extend = output_module.Spool.extend

    def watched(self, pieces):
        extend(self, pieces)
        spilled.append(self.spill is not None)

    monkeypatch.setattr(output_module.Spool, "extend", watched)
    output_module.write_stdout([iter(["x" * 600 + "\n"] * 10)])
    assert spilled == [True]
    assert capfd.readouterr().out == ("x" * 600 + "\n") * 10


def _pieces_then(fault):
    yield "first line\n"
    if fault:
        from havhex.errors import InputError

        raise InputError("broken", "in.sgf", 3)
    yield "second line\n"


@pytest.mark.parametrize("way", ["unnamed", "named", "copied"])
def test_an_output_file_is_whole_or_absent_whichever_way_it_is_made(tmp_path, monkeypatch,
                                                                    way):
    """-o's new file: unnamed until complete (O_TMPFILE), a named temporary
    file where that cannot be made, or copied to one where the system
    refuses to name it; a fault on the way leaves no file of any name."""
    if way == "named":
        monkeypatch.setattr(output_module, "_unnamed_file", lambda directory, mode: None)
    elif way == "copied":
        def refused(descriptor, path):
            raise PermissionError(1, "refused")

        monkeypatch.setattr(output_module, "_link_descriptor", refused)
    target = tmp_path / "out.txt"
    with pytest.raises(Exception, match="broken"):
        output_module.replace_file(str(target), _pieces_then(True), None)
    assert os.listdir(tmp_path) == []
    output_module.replace_file(str(target), _pieces_then(False), None)
    assert os.listdir(tmp_path) == ["out.txt"]
    assert target.read_text() == "first line\nsecond line\n"
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_fault_ends_the_workers_before_the_command_returns(tmp_path, capsys):
    """The fault is raised from a file's pieces; the workers are ended then,
    not when the generators are collected (at exit, where multiprocessing
    sends them SIGTERM, which a worker still starting reported with a
    traceback)."""
    import multiprocessing

    from havhex.cli import main

    bad = tmp_path / "bad.sgf"
    bad.write_bytes(GAME * 10 + b"(;GM[11];B[")
    assert main(["replay", "--quiet", "-j", "2", str(bad)]) == 1
    assert multiprocessing.active_children() == []
    assert capsys.readouterr().err == (f"havhex: {bad}:11: a property value that is never "
                                       f"closed (no ']')\n")


def test_with_two_jobs_this_process_replays_a_share_beside_one_worker(tmp_path, monkeypatch):
    """-j N is N - 1 worker processes and this one, which replays tasks
    itself while the next answer due is not in: N busy processes on N
    cores, not N + 1."""
    from havhex.records import units

    here = []
    replay = units.replay_task

    def counted(*arguments):
        here.append(os.getpid())    # the worker's calls count in its own copy
        return replay(*arguments)

    monkeypatch.setattr(units, "replay_task", counted)
    monkeypatch.setattr(replay_module, "UNIT_BYTES", 4000)
    path = tmp_path / "many.sgf"
    path.write_bytes(GAME * 3000)       # some 30 tasks
    summary = replay_module.Summary()
    outputs = replay_module.replay_outputs([str(path)], "official", "text", 2, summary)
    pieces = [piece for output in outputs for piece in output]
    expected = replay_module.Summary()
    alone = replay_module.replay_outputs([str(path)], "official", "text", 1, expected)
    assert pieces == [piece for output in alone for piece in output]
    tasks = sum(1 for _ in units.plan_replay([str(path)], False, 4000, 64))
    taken_here = len(here) - tasks      # the -j 1 run replayed every task here
    assert 0 < taken_here < tasks, (taken_here, tasks)
    assert (summary.games, expected.games) == (3000, 3000)
