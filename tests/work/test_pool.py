"""havhex._pool: worker processes that run the task they are given, the
answers taken back in plan order, this process working while it would
wait, the tasks a worker has not begun taken back at the end of the plan,
and a worker's failure or death reported as itself.

Most tests give the pool ``havhex replay -j``'s task (records replayed);
the first two give it tasks of their own, as the pool knows nothing of
records."""
import os
import sys
import time

import pytest

from havhex._pool import Pool, run_here
from havhex.errors import InputError

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the tests' inputs are FIFOs and their workers forked")

GAME = b"(;FF[4]GM[11]SZ[11];B[a1];W[b2];B[c3])\n"


def _wait_for(condition, what, bound=30.0):
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.01)


def _doubled(units):
    return [("ok", 2 * unit) for unit in units]


def _ending(units):
    os._exit(3)


def _replay_pool(processes):
    """A pool of ``processes`` workers replaying as ``havhex replay -j``'s
    do, with the records' replay_task as it is when called (a test may
    have replaced it)."""
    from havhex.records.run import replay_pool

    return replay_pool(processes, "official", "text")


def test_the_pool_runs_the_task_it_is_given():
    """Any ``work(units)`` runs, a worker's or this process's turn alike,
    its results in plan order, with a fault found in planning in its
    place; run_here gives the same one unit at a time."""
    plan = ([("task", [(0, 1), (0, 2)]), ("fault", 1, "unreadable"), ("task", [(2, 3)])]
            + [("task", [(number, number)]) for number in range(3, 40)])
    expected = ([(0, ("ok", 2)), (0, ("ok", 4)), (1, ("fault", "unreadable")), (2, ("ok", 6))]
                + [(number, ("ok", 2 * number)) for number in range(3, 40)])
    pool = Pool(1, _doubled)
    try:
        assert list(pool.ordered(iter(plan), 2)) == expected
    finally:
        pool.close()
    assert list(run_here(iter(plan), _doubled)) == expected


def test_a_dead_worker_is_named_with_the_units_it_held():
    pool = Pool(1, _ending, lambda unit: f"unit {unit}", "sums")
    try:
        ticket = pool.submit([7, 8])
        with pytest.raises(InputError) as raised:
            ticket.result()
    finally:
        pool.close()
    assert raised.value.reason.startswith("a sums worker process (pid ")
    assert raised.value.reason.endswith(") ended with status 3; lost the output of unit 7, "
                                        "unit 8")


def test_a_failure_in_a_worker_is_raised_here(tmp_path, monkeypatch):
    """A worker's failure that is no input's fault (here: out of memory)
    reaches the command as itself, one line."""
    from havhex.records import units

    def failing(rule, output_format, game, max_cells, units_):
        raise MemoryError

    monkeypatch.setattr(units, "replay_task", failing)
    path = tmp_path / "one.sgf"
    path.write_bytes(GAME * 3)
    pool = _replay_pool(2)
    try:
        plan = [("task", [(0, ("path", str(path)))])]
        with pytest.raises(MemoryError):
            list(pool.ordered(iter(plan), 4))
    finally:
        pool.close()
    assert pool.workers == []


def test_a_worker_replays_on_while_its_answer_waits_to_be_taken(tmp_path):
    """The parent takes answers in task order, so a worker's answer can wait
    (another worker's is taken first); one larger than a pipe holds must
    not stop the worker.  The proof: with the first answer untaken, the
    worker opens the second task's input, a FIFO, for reading (which this
    test sees as a writer's non-blocking open succeeding)."""
    big = tmp_path / "big.sgf"
    big.write_bytes(GAME * 4000)              # an answer of some 300 KB of text
    fifo = tmp_path / "later.sgf"
    os.mkfifo(fifo)
    pool = _replay_pool(1)
    writer = None
    try:
        first = pool.submit([("path", str(big))])
        second = pool.submit([("path", str(fifo))])

        def reader_is_there():
            nonlocal writer
            try:
                writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:         # ENXIO: nobody reads it yet
                return False
            return True

        _wait_for(reader_is_there, "the worker to open the second task's input")
        os.write(writer, GAME)
        os.close(writer)
        writer = None
        [(status, (text, counts))] = first.result()
        assert status == "ok" and counts[0] == 4000 and len(text) > 1 << 17
        [(status, (text, counts))] = second.result()
        assert status == "ok" and counts[0] == 1
    finally:
        if writer is not None:
            os.close(writer)
        pool.close()


def test_at_the_end_of_the_plan_the_parent_takes_back_what_a_worker_has_not_begun(
        tmp_path, monkeypatch):
    """Once the plan is out, the parent does not wait for a worker's queue:
    it replays the tasks the worker holds behind the one it is on, and the
    worker's answer is taken only for that one.  The worker here holds on to
    its first task until the parent has replayed five (or ten seconds have
    passed, so that a parent that waits ends the test rather than hangs)."""
    from havhex.records import units

    parent = os.getpid()
    go = tmp_path / "go"
    done_here = []

    def replay_task(rule, output_format, game, max_cells, units_):
        name = units_[0][1]
        if os.getpid() == parent:
            done_here.append(name)
            if len(done_here) == 5:
                go.write_bytes(b"")
            return [("ok", (f"here {name}", (1, 0, 0, {})))]
        until = time.monotonic() + 10
        while not go.exists() and time.monotonic() < until:
            time.sleep(0.01)
        return [("ok", (f"worker {name}", (1, 0, 0, {})))]

    monkeypatch.setattr(units, "replay_task", replay_task)
    pool = _replay_pool(1)
    try:
        plan = [("task", [(number, ("path", f"unit{number}"))]) for number in range(6)]
        found = [(index, result[1][0]) for index, result in pool.ordered(iter(plan), 4)]
    finally:
        pool.close()
    # The worker took units 0, 2 and 4 (one more a turn, as the parent
    # replays the next); it is on 0 when the plan runs out.
    assert found == [(0, "worker unit0")] + [(number, f"here unit{number}")
                                             for number in range(1, 6)]


def test_a_task_taken_back_from_a_worker_has_its_answer_dropped(tmp_path):
    """The answer to a task the parent took back is read and dropped: the
    next ticket of that worker gets its own task's answer, and a worker that
    dies names only the tasks still wanted."""
    files = []
    for games in (1, 2, 3):
        path = tmp_path / f"{games}.sgf"
        path.write_bytes(GAME * games)
        files.append(str(path))
    pool = _replay_pool(1)
    try:
        first = pool.submit([("path", files[0])])
        pool.submit([("path", files[1])])
        worker = pool.workers[0]
        assert worker.take_back(1) == [("path", files[1])]
        third = pool.submit([("path", files[2])])
        assert [result[0][1][1][0] for result in (first.result(), third.result())] == [1, 3]
        assert list(worker.waiting) == []
        pool.submit([("path", files[0])])
        assert worker.take_back(0) == [("path", files[0])]
        pool.submit([("path", files[2])])
        assert worker.lost() == files[2]
        with pytest.raises(IndexError):
            worker.take_back(1)         # one task is wanted: nothing behind it
    finally:
        pool.close()
