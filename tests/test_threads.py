"""Worker threads without ``threading`` (havhex._threads)."""
import subprocess
import sys
from pathlib import Path

import pytest

import havhex
from havhex._threads import Worker

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_a_worker_hands_back_its_result():
    worker = Worker(lambda: 6 * 7)
    worker.start()
    assert worker.join() is True
    assert worker.outcome() == 42


def test_a_worker_raises_its_exception_in_the_joining_thread():
    def fail():
        raise ValueError("from the worker")

    worker = Worker(fail)
    worker.start()
    assert worker.join(5) is True
    with pytest.raises(ValueError, match="from the worker"):
        worker.outcome()


def test_join_with_a_timeout_returns_false_while_the_worker_runs():
    import _thread

    gate = _thread.allocate_lock()
    gate.acquire()
    worker = Worker(lambda: gate.acquire(timeout=10))
    worker.start()
    try:
        assert worker.join(0.01) is False
        assert worker.join(0) is False
    finally:
        gate.release()
    assert worker.join(10) is True
    assert worker.outcome() is True


def test_a_worker_that_raises_system_exit_still_finishes():
    worker = Worker(lambda: sys.exit(3))
    worker.start()
    assert worker.join(5) is True
    with pytest.raises(SystemExit):
        worker.outcome()


def test_a_worker_never_started_joins_at_once():
    worker = Worker(lambda: 1)
    assert worker.join() is True
    assert worker.outcome() is None


def test_a_worker_still_joins_after_an_interrupted_join():
    # An interrupt between the join's acquire and release leaves the lock
    # held; the worker must still answer later joins, not block them.
    worker = Worker(lambda: 5)
    worker.start()
    assert worker.join(5) is True
    worker._done.acquire()          # the lock as such an interrupt leaves it
    assert worker.join(0.5) is True
    assert worker.outcome() == 5


def test_judging_survives_a_thread_that_cannot_start(monkeypatch):
    # The second worker fails to start: the first is joined, and the error
    # reaches the caller; nothing is left running.
    import _thread
    import os

    from havhex.havannah import _judge as havannah_engine

    real_start = _thread.start_new_thread
    calls = []

    def start_once(function, args):
        calls.append(function)
        if len(calls) > 1:
            raise RuntimeError("can't start new thread")
        return real_start(function, args)

    monkeypatch.setattr(_thread, "start_new_thread", start_once)
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    text = (EXAMPLES / "havannah.in").read_bytes()
    parsed = havannah_engine.parse(text)
    with pytest.raises(RuntimeError, match="can't start"):
        parsed.judge(3)
    assert len(calls) == 2
    monkeypatch.setattr(_thread, "start_new_thread", real_start)
    parsed.judge(2)
    alone = havannah_engine.parse(text)
    alone.judge(1)
    assert parsed.results() == alone.results()


def test_run_workers_releases_waiting_workers_before_joining_them():
    # This thread fails before doing what the workers wait for: release()
    # frees them, every worker is joined, and this thread's error goes on.
    import _thread

    from havhex._threads import run_workers

    here = _thread.get_ident()
    gate = _thread.allocate_lock()
    gate.acquire()
    done = []

    def work():
        if _thread.get_ident() == here:
            raise ValueError("this thread failed")
        done.append(gate.acquire(timeout=10))
        gate.release()

    with pytest.raises(ValueError, match="this thread failed"):
        run_workers(work, 3, gate.release)
    assert done == [True, True]


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_both_engines_start_their_workers_in_one_place(game, monkeypatch):
    # Both judge on ``threads`` threads through havhex._threads.run_workers,
    # this thread being one of them.
    import importlib
    import os

    from havhex import _threads

    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    engine = importlib.import_module(f"havhex.{game}._judge")
    calls = []
    real = _threads.run_workers

    def counted(work, threads, release=None):
        calls.append(threads)
        return real(work, threads, release)

    monkeypatch.setattr(_threads, "run_workers", counted)
    text = (EXAMPLES / f"{game}.in").read_bytes()
    parsed = engine.parse(text)
    parsed.judge(2)
    assert calls == [2]


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_judging_on_two_threads_does_not_import_threading(game):
    # The point of the module: ``threading`` costs -j runs milliseconds of
    # start-up.  Without ``site`` (-S), whose .pth files may import it first;
    # two cases or more, so that Hex starts its workers too.
    code = (
        "import sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from havhex.cli import main\n"
        "status = main([sys.argv[2], '-j', '2', '--quiet', sys.argv[3]])\n"
        "assert status == 0, status\n"
        "print(sorted(m for m in ('threading', 'array', 'concurrent.futures') if m in sys.modules))\n"
    )
    package_parent = str(Path(havhex.__file__).resolve().parent.parent)
    done = subprocess.run([sys.executable, "-S", "-c", code, package_parent, game,
                           str(EXAMPLES / f"{game}.in")],
                          capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
