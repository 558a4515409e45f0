"""An interrupt (SIGINT, SIGTERM) stops a judge within a fraction of a second,
whatever it is doing: reading, or judging in the compiled kernels.

The inputs are large enough that the work interrupted would go on for a
second or more; each test waits until the child is where it should be
interrupted (its input read to the end, or its pipe drained), sends the
signal, and expects it gone within EXIT_BOUND.
"""
import fcntl
import os
import signal
import subprocess
import sys
import termios
import threading
import time

import pytest

from havhex import havannah
from havhex import hex as hx
from boards import snake
from conftest import SANITIZED

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fdinfo"),
                                reason="needs /proc to see how far the input was read")

# From the signal to the exit: the work stops within milliseconds; the rest is
# slack for a busy machine.  Waiting for the work to end takes seconds.  In
# the build with AddressSanitizer (.ci/sanitizers) every step of the stop
# and of the exit runs several times slower, and the work itself far more:
# there the bound only tells a stop from a wait for the work.
EXIT_BOUND = 2.0 if SANITIZED else 0.5
# Side of the Hex snake: its search runs over 12.5 million stones.
SNAKE_SIDE = 4999


def _havannah_lattice(path, cases=2, side=1800):
    """Cases of side * side stones, two hexagons apart on a large board: no
    two touch, so nothing is ever won and the kernel plays every move, over
    a second in all.  Two cases, so that with two threads both judge."""
    size = 1 << 20
    ys = [str(size - 2 * side + 2 * j) for j in range(side)]
    with open(path, "w") as out:
        out.write(f"{cases}\n")
        for _ in range(cases):
            out.write(f"{size} {side * side}\n")
            for i in range(side):
                x = str(size - 2 * side + 2 * i)
                out.write(x + " " + ("\n" + x + " ").join(ys) + "\n")
    return path


@pytest.fixture(scope="module")
def havannah_input(tmp_path_factory):
    return _havannah_lattice(tmp_path_factory.mktemp("interrupt") / "lattice.in")


@pytest.fixture(scope="module")
def hex_input(tmp_path_factory):
    path = tmp_path_factory.mktemp("interrupt") / "snake.in"
    path.write_text(f"1\n{SNAKE_SIDE}\n" + "\n".join(snake(SNAKE_SIDE)) + "\n")
    return path


def _position(pid, path):
    """How far process ``pid`` has read ``path`` (None while it is not open)."""
    folder = f"/proc/{pid}/fd"
    try:
        descriptors = os.listdir(folder)
    except OSError:
        return None
    for descriptor in descriptors:
        try:
            if os.readlink(f"{folder}/{descriptor}") != str(path):
                continue
            with open(f"/proc/{pid}/fdinfo/{descriptor}") as info:
                for line in info:
                    if line.startswith("pos:"):
                        return int(line.split()[1])
        except OSError:
            continue
    return None


def _wait_until_read(pid, path, done=lambda: False, closed=False, timeout=120):
    """Wait until ``pid`` has read ``path`` to its end (Havannah then judges
    with the file still open), or with ``closed`` until it has closed it
    again (Hex reads it whole, closes it, then judges).  False if ``done()``
    first (the work ended)."""
    size = os.path.getsize(path)
    seen = False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return False
        position = _position(pid, path)
        if position is None:
            if seen and closed:
                return True
        else:
            seen = True
            if position >= size and not closed:
                return True
        time.sleep(0.001)
    raise AssertionError(f"{path} was not read within {timeout} s")


def _start(args, **options):
    return subprocess.Popen([sys.executable, "-m", "havhex", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, **options)


def _stop(child, signal_number=signal.SIGINT):
    """Send the signal; (exit status, seconds to exit, stdout, stderr).  A
    child still running after ten times the bound is killed (status None)."""
    sent = time.monotonic()
    child.send_signal(signal_number)
    try:
        out, err = child.communicate(timeout=10 * EXIT_BOUND)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        return None, time.monotonic() - sent, out, err
    return child.returncode, time.monotonic() - sent, out, err


def _check_clean_exit(result, output_folder, status=130):
    returncode, seconds, out, err = result
    assert returncode == status, (returncode, seconds, err)
    assert seconds < EXIT_BOUND, seconds
    assert out == b""
    assert b"Traceback" not in err, err
    assert sorted(os.listdir(output_folder)) == []


@pytest.mark.parametrize("output_format", ["text", "json"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_havannah_stops_while_judging(havannah_input, tmp_path, jobs, output_format):
    child = _start(["havannah", "-j", jobs, "--format", output_format, havannah_input,
                    "-o", tmp_path / "out.txt"])
    # With two threads the kernel judges while the input is read; read to its
    # end, the one case is still being judged.
    assert _wait_until_read(child.pid, havannah_input, lambda: child.poll() is not None)
    _check_clean_exit(_stop(child), tmp_path)


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_hex_stops_while_judging(hex_input, tmp_path, output_format):
    child = _start(["hex", "--format", output_format, hex_input, "-o", tmp_path / "out.txt"])
    assert _wait_until_read(child.pid, hex_input, lambda: child.poll() is not None, closed=True)
    _check_clean_exit(_stop(child), tmp_path)


def test_sigterm_also_leaves_nothing_behind(havannah_input, tmp_path):
    child = _start(["havannah", havannah_input, "-o", tmp_path / "out.txt"])
    assert _wait_until_read(child.pid, havannah_input, lambda: child.poll() is not None)
    _check_clean_exit(_stop(child, signal.SIGTERM), tmp_path, status=128 + signal.SIGTERM)


@pytest.fixture(scope="module")
def havannah_copies(havannah_input, tmp_path_factory):
    """Three names of the large Havannah input (hard links, no copies), to
    be judged side by side."""
    folder = tmp_path_factory.mktemp("side_by_side")
    copies = [folder / f"lattice-{number}.in" for number in range(3)]
    for copy in copies:
        os.link(havannah_input, copy)
    return copies


@pytest.mark.parametrize("signal_number, output_format", [
    (signal.SIGINT, "text"), (signal.SIGINT, "json"), (signal.SIGTERM, "text")])
def test_files_side_by_side_stop_while_judging(havannah_copies, tmp_path, signal_number,
                                               output_format):
    """``-j 2`` on several files judges two at once, each on a worker thread
    while the main thread waits for the first: a signal cancels both and
    the run ends at once, leaving nothing behind."""
    child = _start(["havannah", "-j", 2, "--format", output_format, *havannah_copies,
                    "-o", tmp_path / "out.txt"])
    # The first file read to its end: its last case is still being judged,
    # the second file is being read or judged beside it.
    assert _wait_until_read(child.pid, havannah_copies[0], lambda: child.poll() is not None)
    result = _stop(child, signal_number)
    _check_clean_exit(result, tmp_path, status=128 + signal_number)
    err = result[3]
    assert err.count(b"\n") <= 1 and (err == b"" or err.endswith(b"\n")), err


def _pipe_drained(descriptor):
    unread = bytearray(4)
    fcntl.ioctl(descriptor, termios.FIONREAD, unread)
    return int.from_bytes(unread, sys.byteorder) == 0


@pytest.mark.parametrize("game, start", [("havannah", b"1\n5 20\n1 1\n"), ("hex", b"1\n3\n..")])
@pytest.mark.parametrize("jobs, files", [(1, 1), (2, 1), (2, 3)])
def test_stops_while_waiting_for_input(tmp_path, game, start, jobs, files):
    """A pipe that stays open with nothing more in it: the reader waits for
    input, and an interrupt ends the wait.  With several files (side by
    side), the others are judged on another thread meanwhile."""
    fifo = tmp_path / "input.fifo"
    os.mkfifo(fifo)
    others = tmp_path / "others"
    others.mkdir()
    small = others / "small.in"
    small.write_bytes(b"1\n2 2\n1 1\n1 2\n" if game == "havannah" else b"1\n1\nR\n")
    inputs = [fifo] + [small] * (files - 1)
    child = _start([game, "-j", jobs, *inputs, "-o", tmp_path / "out.txt"])
    writer = os.open(fifo, os.O_WRONLY)     # returns once the judge opened it
    try:
        os.write(writer, start)
        deadline = time.monotonic() + 60
        while not _pipe_drained(writer):
            assert time.monotonic() < deadline
            time.sleep(0.002)
        time.sleep(0.05)                    # in the read that waits for more
        result = _stop(child)
    finally:
        os.close(writer)
    os.unlink(fifo)
    small.unlink()
    others.rmdir()
    _check_clean_exit(result, tmp_path)


def test_a_failed_wait_cancels_the_work_and_waits_for_it():
    """When the wait ends by an exception (here the report), the work is
    asked to stop and has stopped before the exception goes on."""
    import _thread

    from havhex._threads import run_interruptibly

    stop = _thread.allocate_lock()
    stop.acquire()
    finished = []

    def work():
        stop.acquire(timeout=30)
        finished.append(True)

    def report():
        raise RuntimeError("the display broke")

    with pytest.raises(RuntimeError, match="the display broke"):
        run_interruptibly(work, stop.release, report)
    assert finished == [True]


class _InterruptWhenRead:
    """Send this process SIGINT from a thread once ``path`` is read to its
    end; while inside the ``with`` block SIGINT raises KeyboardInterrupt.
    ``seconds`` then holds the time from the signal to the interrupt."""

    def __init__(self, path, closed):
        self.path = path
        self.closed = closed
        self.sent = None
        self.seconds = None
        self.inside = False

    def _handler(self, signal_number, frame):
        if self.inside:
            raise KeyboardInterrupt

    def _send(self):
        if _wait_until_read(os.getpid(), self.path, lambda: not self.inside, self.closed):
            self.sent = time.monotonic()
            os.kill(os.getpid(), signal.SIGINT)

    def __enter__(self):
        self.previous = signal.signal(signal.SIGINT, self._handler)
        self.inside = True
        self.thread = threading.Thread(target=self._send)
        self.thread.start()
        return self

    def __exit__(self, kind, value, traceback):
        self.inside = False
        if kind is KeyboardInterrupt and self.sent is not None:
            self.seconds = time.monotonic() - self.sent
        self.thread.join()
        signal.signal(signal.SIGINT, self.previous)
        return False


@pytest.mark.parametrize("game, threads", [("havannah", 1), ("havannah", 2), ("hex", 1)])
def test_api_raises_keyboard_interrupt_promptly(havannah_input, hex_input, game, threads):
    module, path = (havannah, havannah_input) if game == "havannah" else (hx, hex_input)
    with pytest.raises(KeyboardInterrupt):
        with _InterruptWhenRead(path, closed=game == "hex") as interrupt:
            module.judge_file(str(path), threads=threads)
    assert interrupt.seconds is not None and interrupt.seconds < EXIT_BOUND, interrupt.seconds


def test_api_judges_on_after_an_interrupt(havannah_input):
    """An interrupted input leaves nothing behind that later calls see."""
    with pytest.raises(KeyboardInterrupt):
        with _InterruptWhenRead(havannah_input, closed=False):
            havannah.judge_file(str(havannah_input))
    assert [str(result) for result in havannah.judge_text("1\n2 2\n1 1\n1 2\n")] == \
        ["bridge in move 2"]
    assert str(hx.judge(["R.", "RB"])) == "Red wins"
