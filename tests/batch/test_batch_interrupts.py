"""Ctrl-C during a batch's call on several threads: the interrupt is raised
once every part of the call has finished, never in the middle of one, and
the batch stays whole and usable (issue 36, E1).

Each child process steps a batch of two parts (two threads) in a loop while
a helper thread sends SIGINT to the main thread at random moments (as a
terminal's Ctrl-C does: the signal cuts short the main thread's waits); after
each KeyboardInterrupt the child checks that every game took the same number
of steps (a call cut between its parts would leave the two halves apart) and
goes on with the same batch.  A watchdog ends a child that hangs, with the
stacks of its threads, and the test fails on its status."""
import subprocess
import sys
import textwrap

import pytest

import needs

needs.module("numpy")

# Interrupted calls a child makes, and the children (two games each).
INTERRUPTS = 60
CHILDREN = 2

CHILD = textwrap.dedent("""
    import _thread, faulthandler, os, random, signal, sys, time
    import numpy as np

    game, interrupts, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if game == "hex":
        from havhex.hex import Batch
        batch = Batch(512, 11, swap=False, seed=seed, threads=2)
        # A game of 11 x 11 lasts 21 moves at least: 20 steps end none.
        longest = 20
        def stones():
            return (batch.stones() != 0).sum(axis=(1, 2))
    else:
        from havhex.havannah import Batch
        batch = Batch(512, 6, seed=seed, threads=2)
        longest = 9          # a bridge takes 10 moves of one player at base 6
        def stones():
            return batch.observation[..., :2].sum(axis=(1, 2, 3))
    assert len(batch._parts) == 2, batch._parts

    main = _thread.get_ident()
    armed = _thread.allocate_lock()
    armed.acquire()
    rng = random.Random(seed)

    def interrupter():
        while True:
            armed.acquire()
            time.sleep(rng.uniform(0, 0.003))
            if hasattr(signal, "pthread_kill"):
                signal.pthread_kill(main, signal.SIGINT)
            else:
                _thread.interrupt_main()

    _thread.start_new_thread(interrupter, ())
    out = np.zeros(512, np.int32)
    where = {"step": 0, "reset": 0, "sample": 0, "other": 0}
    for run in range(interrupts):
        faulthandler.dump_traceback_later(20, exit=True)
        batch.reset()
        steps = 0
        armed.release()
        doing = "other"
        try:
            while True:
                if steps == longest:
                    doing = "reset"
                    batch.reset()
                    steps = 0
                doing = "sample"
                batch.sample_actions(out)
                doing = "step"
                batch.step(out)
                steps += 1
                doing = "other"
        except KeyboardInterrupt:
            where[doing] += 1
        # Every game took as many steps as the others: no call stopped
        # between its parts.
        counts = stones()
        assert (counts == counts[0]).all(), (run, doing, np.unique(counts))
        assert not batch.terminated.any()
    faulthandler.cancel_dump_traceback_later()
    # Still usable: a whole game to its end.
    batch.reset()
    for _ in range(200):
        batch.step(batch.sample_actions())
    print(game, where)
""")


@pytest.mark.parametrize("child", range(CHILDREN))
def test_an_interrupt_waits_for_every_part_and_the_batch_goes_on(child):
    runs = []
    for game in ("hex", "havannah"):
        runs.append(subprocess.Popen(
            [sys.executable, "-c", CHILD, game, str(INTERRUPTS), str(child * 7 + 1)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    for run in runs:
        try:
            out, err = run.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            run.kill()
            out, err = run.communicate()
            pytest.fail(f"a child hung past its watchdog:\n{out}\n{err}")
        assert run.returncode == 0, f"status {run.returncode}:\n{out}\n{err}"
        # Most interrupts land in the calls themselves, not between them.
        game, counts = out.split(" ", 1)
        where = eval(counts, {})
        assert sum(where.values()) == INTERRUPTS
        assert where["step"] + where["sample"] + where["reset"] >= INTERRUPTS // 2, where
