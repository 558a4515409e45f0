"""Worker threads without ``threading`` (havhex._threads)."""
import subprocess
import sys
import time
from pathlib import Path

import pytest

import havhex
from havhex._threads import Worker

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


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


# ---------------------------------------------------------------------------
# run_side_by_side: jobs that sleep or wait on events stand for the compiled
# work, which holds no GIL while it runs.
# ---------------------------------------------------------------------------

class _FakeJob:
    """A job for run_side_by_side: ``run()`` waits (up to ``seconds``, or
    until cancelled, or until ``gate`` is set), then returns ``value`` or
    raises ``error``; the ledger counts how many run at once."""

    def __init__(self, ledger, value, seconds=0.0, error=None, gate=None, then=None):
        import threading

        self.ledger = ledger
        self.value = value
        self.seconds = seconds
        self.error = error
        self.gate = gate
        self.then = then
        self.started = threading.Event()
        self.cancelled = threading.Event()
        self.ended = threading.Event()

    def run(self):
        ledger = self.ledger
        with ledger.lock:
            ledger.running += 1
            ledger.most = max(ledger.most, ledger.running)
            ledger.runs.append(self.value)
        self.started.set()
        try:
            if self.gate is not None:
                self.gate.wait(30)
            else:
                self.cancelled.wait(self.seconds)
            if self.then is not None:
                self.then()
            if self.error is not None:
                raise self.error
            return self.value
        finally:
            with ledger.lock:
                ledger.running -= 1
                ledger.finished.append(self.value)
            self.ended.set()

    def cancel(self):
        self.cancelled.set()
        if self.gate is not None:
            self.gate.set()


class _Ledger:
    def __init__(self):
        import threading

        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.runs = []          # values of the jobs whose run() began, in that order
        self.finished = []      # values of the jobs whose run() ended, in that order
        self.taken = 0          # jobs taken from the iterator


def _counted(ledger, jobs):
    for job in jobs:
        ledger.taken += 1
        yield job


def _threads_alive():
    import _thread

    return _thread._count()


def _settled_thread_count(expected, timeout=5.0):
    """The count of threads started by ``_thread`` once it has come down to
    ``expected`` (a worker joined has returned from its function, but its
    thread may need a moment more to end)."""
    deadline = time.monotonic() + timeout
    while _threads_alive() > expected and time.monotonic() < deadline:
        time.sleep(0.005)
    return _threads_alive()


def test_side_by_side_gives_outcomes_in_input_order_when_later_jobs_finish_first():
    import threading

    from havhex._threads import run_side_by_side

    before = _threads_alive()
    ledger = _Ledger()
    gate = threading.Event()
    # Job 0 waits until job 2 has ended: later jobs finish first.
    jobs = [_FakeJob(ledger, 0, gate=gate), _FakeJob(ledger, 1, 0.02),
            _FakeJob(ledger, 2, 0.01, then=gate.set)]
    jobs += [_FakeJob(ledger, value, 0.03 if value % 2 else 0.0) for value in range(3, 9)]
    assert list(run_side_by_side(_counted(ledger, jobs), 3)) == list(range(9))
    assert ledger.finished.index(2) < ledger.finished.index(0)
    assert sorted(ledger.runs) == list(range(9))
    assert _settled_thread_count(before) == before


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_side_by_side_runs_at_most_threads_jobs_at_once(threads):
    import threading

    from havhex._threads import run_side_by_side

    before = _threads_alive()
    ledger = _Ledger()
    # The first ``threads`` jobs meet at a barrier: they all run at once, so
    # the bound below is reached, not merely respected.
    barrier = threading.Barrier(threads, timeout=10)
    jobs = [_FakeJob(ledger, value, then=barrier.wait) for value in range(threads)]
    jobs += [_FakeJob(ledger, value, 0.01) for value in range(threads, threads + 12)]
    assert list(run_side_by_side(jobs, threads)) == list(range(threads + 12))
    assert ledger.most == threads
    assert _settled_thread_count(before) == before


def test_side_by_side_takes_at_most_twice_threads_jobs_ahead():
    from havhex._threads import run_side_by_side

    ledger = _Ledger()
    threads, count = 2, 11
    jobs = [_FakeJob(ledger, value) for value in range(count)]
    taken = []
    for value in run_side_by_side(_counted(ledger, jobs), threads):
        taken.append(ledger.taken)
    # Each outcome handed over, the window is refilled up to 2 * threads
    # jobs beyond it; never more.
    assert taken == [min(count, number + 1 + 2 * threads) for number in range(count)]


def test_side_by_side_raises_a_jobs_exception_in_its_turn():
    from havhex._threads import run_side_by_side

    before = _threads_alive()
    ledger = _Ledger()
    # Job 2 fails at once, while job 1 still runs: the error waits for 0 and 1.
    jobs = [_FakeJob(ledger, 0, 0.02), _FakeJob(ledger, 1, 0.1),
            _FakeJob(ledger, 2, error=ValueError("job 2 failed")),
            _FakeJob(ledger, 3, 30), _FakeJob(ledger, 4, 30), _FakeJob(ledger, 5, 30)]
    seen = []
    started = time.monotonic()
    with pytest.raises(ValueError, match="job 2 failed"):
        for value in run_side_by_side(jobs, 2):
            seen.append(value)
    assert seen == [0, 1]
    assert ledger.finished.index(2) < ledger.finished.index(1)
    # The jobs after it were cancelled (those running returned), not waited for.
    assert time.monotonic() - started < 10
    for job in jobs[3:]:
        assert job.cancelled.is_set() or not job.started.is_set()
        assert job.ended.is_set() or not job.started.is_set()
    assert _settled_thread_count(before) == before


def test_closing_side_by_side_early_cancels_the_running_jobs_and_runs_no_more():
    from havhex._threads import run_side_by_side

    before = _threads_alive()
    ledger = _Ledger()
    # Jobs 1 and 2 run until cancelled; job 3 and later must never run.
    jobs = [_FakeJob(ledger, 0)] + [_FakeJob(ledger, value, 30) for value in range(1, 10)]
    outcomes = run_side_by_side(_counted(ledger, jobs), 2)
    assert next(outcomes) == 0
    assert jobs[1].started.wait(10) and jobs[2].started.wait(10)
    started = time.monotonic()
    outcomes.close()
    assert time.monotonic() - started < 10
    assert jobs[1].cancelled.is_set() and jobs[2].cancelled.is_set()
    assert jobs[1].ended.is_set() and jobs[2].ended.is_set()
    assert sorted(ledger.runs) == [0, 1, 2]
    assert ledger.taken <= 1 + 2 * 2
    assert _settled_thread_count(before) == before
    # Nothing runs later either.
    time.sleep(0.05)
    assert sorted(ledger.runs) == [0, 1, 2]


def test_side_by_side_closed_before_its_first_outcome_runs_nothing_more():
    from havhex._threads import run_side_by_side

    before = _threads_alive()
    ledger = _Ledger()
    jobs = [_FakeJob(ledger, value, 30) for value in range(6)]
    outcomes = run_side_by_side(jobs, 2)
    outcomes.close()            # never started: no thread, no job run
    assert ledger.runs == []
    assert _threads_alive() == before


def test_side_by_side_leaves_no_thread_once_it_ends():
    import threading

    from havhex._threads import run_side_by_side

    before = (_threads_alive(), threading.active_count())
    ledger = _Ledger()
    jobs = [_FakeJob(ledger, value, 0.005 * (value % 3)) for value in range(10)]
    assert list(run_side_by_side(jobs, 4)) == list(range(10))
    assert (_settled_thread_count(before[0]), threading.active_count()) == before


def test_keyboard_interrupt_in_the_consumer_cancels_the_jobs():
    # The consumer's loop fails; closing the generator (as the CLI does in a
    # ``finally``) cancels the jobs begun.
    from havhex._threads import run_side_by_side

    before = _threads_alive()
    ledger = _Ledger()
    jobs = [_FakeJob(ledger, 0)] + [_FakeJob(ledger, value, 30) for value in range(1, 8)]
    outcomes = run_side_by_side(jobs, 2)
    with pytest.raises(KeyboardInterrupt):
        try:
            for value in outcomes:
                assert jobs[1].started.wait(10)
                raise KeyboardInterrupt
        finally:
            outcomes.close()
    assert jobs[1].cancelled.is_set() and jobs[1].ended.is_set()
    assert all(job.ended.is_set() or not job.started.is_set() for job in jobs)
    # Job 2 may have begun (on the thread job 0 left) before the close;
    # none later did.
    assert sorted(ledger.runs) in ([0, 1], [0, 1, 2])
    assert _settled_thread_count(before) == before


def test_sigint_while_side_by_side_waits_cancels_the_jobs():
    # SIGINT reaches this thread while it waits for an outcome (the workers
    # block it): the KeyboardInterrupt comes out of the generator at once,
    # after every job begun was cancelled and every worker joined.
    import os
    import signal
    import threading

    from havhex._threads import run_side_by_side

    def interrupt(signal_number, frame):
        raise KeyboardInterrupt

    before = _threads_alive()
    ledger = _Ledger()
    jobs = [_FakeJob(ledger, value, 30) for value in range(8)]

    def send():
        if jobs[0].started.wait(10) and jobs[1].started.wait(10):
            os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, interrupt)
    sender = threading.Thread(target=send)
    try:
        sender.start()
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            for value in run_side_by_side(jobs, 2):
                pass
        seconds = time.monotonic() - started
    finally:
        sender.join()
        signal.signal(signal.SIGINT, previous)
    assert seconds < 10
    assert jobs[0].cancelled.is_set() and jobs[1].cancelled.is_set()
    assert jobs[0].ended.is_set() and jobs[1].ended.is_set()
    assert sorted(ledger.runs) == [0, 1]
    assert _settled_thread_count(before) == before


def test_side_by_side_report_sees_the_job_awaited():
    from havhex._threads import run_side_by_side

    ledger = _Ledger()
    jobs = [_FakeJob(ledger, 0, 0.2), _FakeJob(ledger, 1)]
    reported = []
    assert list(run_side_by_side(jobs, 2, reported.append, 0.01)) == [0, 1]
    assert reported and set(map(id, reported)) == {id(jobs[0])}


class _FakeParsed:
    def __init__(self):
        import threading

        self.stop = threading.Event()

    def cancel(self):
        self.stop.set()

    def progress(self):
        return 0, 0


def test_standard_input_named_twice_is_never_read_by_two_threads_at_once(monkeypatch):
    # Two readers of one pipe would each take parts of the other's input;
    # the files named by path are still read beside them.
    from havhex import _files

    ledger = _Ledger()
    counts = {"stdin": 0, "stdin most": 0, "all": 0, "all most": 0}

    def read_input(file, consume):
        with ledger.lock:
            counts["all"] += 1
            counts["stdin"] += file == "-"
            counts["all most"] = max(counts["all most"], counts["all"])
            counts["stdin most"] = max(counts["stdin most"], counts["stdin"])
        time.sleep(0.05)
        with ledger.lock:
            counts["all"] -= 1
            counts["stdin"] -= file == "-"
        return None, file

    def start(threads):
        return _FakeParsed(), None

    monkeypatch.setattr(_files, "read_input", read_input)
    files = ["-", "a.in", "-", "-", "b.in", "-"]
    sources = [source for _, source in _files.judged_side_by_side(files, 3, start)]
    assert sources == files
    assert counts["stdin most"] == 1
    assert counts["all most"] >= 2


def test_a_job_waiting_for_standard_input_ends_when_the_run_stops(monkeypatch):
    # The second "-" waits for the first, which runs until cancelled; the
    # wait for the first's outcome ends by an exception (here its display):
    # both are cancelled, the second never reads, and no thread is left.
    import threading

    from havhex import _files

    before = _threads_alive()
    began = []
    reading = threading.Event()

    def read_input(file, consume):
        began.append(file)
        reading.set()
        consume.stop.wait(30)
        return None, file

    def start(threads):
        parsed = _FakeParsed()
        return parsed, parsed

    class Display:
        closed = False

        def __call__(self, done, total):
            if reading.is_set():
                time.sleep(0.1)     # the second "-" waits for the first by now
                raise KeyboardInterrupt

        def close(self):
            self.closed = True

    displays = []

    def progress_for(file):
        displays.append(Display())
        return displays[-1]

    monkeypatch.setattr(_files, "read_input", read_input)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        for _ in _files.judged_side_by_side(["-", "-", "-"], 2, start, progress_for):
            pass
    assert time.monotonic() - started < 10
    assert began == ["-"]
    assert all(display.closed for display in displays)
    assert _settled_thread_count(before) == before


class _FakeInput:
    """An engine input for havhex._files: ``cancel`` is seen by the consumer."""

    def __init__(self, log):
        import threading

        self.cancelled = threading.Event()
        self.err_code = 0
        self.log = log

    def cancel(self):
        self.cancelled.set()

    def progress(self):
        return (0, 0, 0)


def _meanwhile(tmp_path, names, gate=None, fault_in=None):
    from havhex._files import JudgedMeanwhile

    log = []
    files = []
    for name in names:
        (tmp_path / name).write_bytes(b"1\n")
        files.append(str(tmp_path / name))

    def start(threads):
        parsed = _FakeInput(log)

        def consume(data):
            if gate is not None:
                while not gate.wait(0.01):
                    if parsed.cancelled.is_set():
                        return
            log.append(len(log))
            if fault_in is not None and len(log) - 1 == fault_in:
                parsed.err_code = 1

        return parsed, consume

    return JudgedMeanwhile(files, start, lambda file: not file.endswith("skip")), log


def test_judged_meanwhile_takes_files_in_order_until_stopped(tmp_path):
    import threading

    gate = threading.Event()
    early, log = _meanwhile(tmp_path, ["a", "b", "c", "d"], gate)
    early.begin()
    taken = early.stop()           # the first file is taken at once, or none
    gate.set()
    outcomes = list(early.outcomes())
    assert taken == len(outcomes) <= 1 and log == list(range(taken))
    early, log = _meanwhile(tmp_path, ["a", "b", "c", "skip", "d"])
    early.begin()
    assert early.worker.join(10)       # ends on its own at the unwanted file
    outcomes = list(early.outcomes())
    # Not stopped by the caller: it takes every file up to the first unwanted one.
    assert len(outcomes) == 3 and [source for _, source in outcomes] == [
        str(tmp_path / name) for name in "abc"]


def test_judged_meanwhile_stops_taking_after_a_fault_and_cancels(tmp_path):
    import threading

    early, log = _meanwhile(tmp_path, ["a", "b", "c"], fault_in=1)
    early.begin()
    assert early.worker.join(10)       # ends on its own at the fault
    outcomes = list(early.outcomes())
    assert len(outcomes) == 2 and outcomes[1][0].err_code == 1 and log == [0, 1]
    gate = threading.Event()         # never set: only a cancel ends the work
    early, log = _meanwhile(tmp_path, ["a", "b"], gate)
    early.begin()
    time.sleep(0.05)
    early.cancel()                   # returns once the thread is joined
    assert early.worker.join(0) and early.stop() <= 1
