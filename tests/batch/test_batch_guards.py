"""What a batch refuses, so that no caller can break one (issue 36): its
fields cannot be made writable and the cores read nothing back from them
(E3); two threads in one batch get a RuntimeError, not a crash (E4); a
batch is neither copied nor pickled (E6); its threads are capped and none is
left behind when one cannot start (E7); and the small refusals of E9."""
import copy
import ctypes
import os
import pickle
import subprocess
import sys
import textwrap

import pytest

import needs

np = needs.module("numpy")

from havhex.havannah import batch as havannah_batch  # noqa: E402
from havhex.hex import batch as hex_batch  # noqa: E402

GAMES = {
    "hex": lambda n, **kw: hex_batch.Batch(n, 5, seed=1, **kw),
    "havannah": lambda n, **kw: havannah_batch.Batch(n, 4, seed=1, **kw),
}
FIELDS = ("observation", "legal_action_mask", "current_player", "rewards", "terminated",
          "truncated", "final_observation", "final_mask", "winner")


@pytest.fixture(params=sorted(GAMES))
def make(request):
    return GAMES[request.param]


def run_child(code, timeout=60):
    """Run ``code`` in a child Python (a crash or a hang there fails the
    test, not the test run)."""
    try:
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as hung:
        pytest.fail(f"the child hung: {hung.stdout}\n{hung.stderr}")
    assert done.returncode == 0, f"status {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _poke(array, index, value):
    """Write ``value`` into element ``index`` of ``array``'s memory behind
    NumPy's back (a forged field, as only a raw pointer can make one now)."""
    item = np.array(value, array.dtype)
    address = array.ctypes.data + int(np.ravel_multi_index(index, array.shape)) * array.itemsize
    ctypes.memmove(address, item.ctypes.data, array.itemsize)


# ---- E3: the fields -------------------------------------------------------------

def test_no_public_path_makes_a_field_writable(make):
    batch = make(3)
    batch.step(batch.sample_actions())
    fields = FIELDS + (("structures",) if hasattr(batch, "structures") else ())
    for name in fields:
        field = getattr(batch, name)
        assert not field.flags.writeable, name
        with pytest.raises(ValueError):
            field.flags.writeable = True
        with pytest.raises(ValueError):
            field.setflags(write=True)
        with pytest.raises(ValueError):
            np.asarray(field).flags.writeable = True
        strided = np.lib.stride_tricks.as_strided(field, writeable=True)
        assert not strided.flags.writeable
        # Down the chain of bases: every one read-only, the memory too.
        base = field
        while isinstance(base, np.ndarray):
            with pytest.raises(ValueError):
                base.flags.writeable = True
            base = base.base
        assert memoryview(base).readonly, name
        assert not np.frombuffer(base, np.uint8).flags.writeable
        with pytest.raises((TypeError, ValueError, BufferError)):
            np.ndarray(field.shape, field.dtype, buffer=base).flags.writeable = True


def test_the_havannah_core_does_not_read_back_the_player_mask_or_end():
    """Forged fields (written through a raw pointer) change nothing of the
    games: whose turn it is, what is legal and which games ended are the
    core's own.  A forged player made a forfeit write far out of bounds."""
    out = run_child("""
        import ctypes
        import numpy as np
        from havhex.havannah import Batch

        def poke(array, index, value):
            item = np.array(value, array.dtype)
            address = array.ctypes.data + int(np.ravel_multi_index(index, array.shape)) * array.itemsize
            ctypes.memmove(address, item.ctypes.data, array.itemsize)

        batch = Batch(2, 4, seed=3, autoreset="disabled")
        first = np.array([24, 24])              # the centre
        mover = batch.current_player.copy()
        batch.step(first)
        poke(batch.current_player, (0,), 10**8)
        poke(batch.legal_action_mask, (1, 24), True)     # the taken centre "legal"
        poke(batch.terminated, (0,), True)               # game 0 "over"
        batch.step(np.array([6, 24]))   # off the hexagon in game 0; taken in game 1
        assert batch.terminated.all()
        for g in range(2):
            # The player to move after the first stone lost, by its seat.
            assert batch.winner[g] == mover[g], (g, batch.winner, mover)
            assert batch.rewards[g, 1 - mover[g]] == -1 and batch.rewards[g, mover[g]] == 1
        # The centre kept its first stone (the first colour's): nothing
        # was placed on it.
        cells, to_move = batch._core.cells(1)
        assert cells[24] == 1 and sum(c != 0 for c in cells) == 1, cells
        print("ok")
    """)
    assert out.strip() == "ok"


def test_the_hex_core_checks_legality_on_its_own_stones():
    batch = hex_batch.Batch(2, 5, seed=2, illegal="raise", autoreset="disabled")
    batch.step(np.array([12, 12]))
    _poke(batch.legal_action_mask, (0, 12), True)   # the taken centre "legal"
    _poke(batch.terminated, (1,), True)             # game 1 "over"
    before = batch.stones().copy()
    with pytest.raises(ValueError, match="game 0: action 12 is not legal"):
        batch.step(np.array([12, 3]))
    assert np.array_equal(batch.stones(), before)
    batch.step(np.array([3, 4]))                    # game 1 goes on: not over
    assert (batch.stones() != 0).sum() == 4


# ---- E4: one call at a time ------------------------------------------------------

@pytest.mark.parametrize("game", sorted(GAMES))
def test_two_threads_in_one_batch_get_a_runtime_error(game):
    out = run_child(f"""
        import threading
        import numpy as np
        from havhex.hex import Batch as Hex
        from havhex.havannah import Batch as Havannah

        # Too few moves for any game to end: 37 at least on 19 x 19 Hex,
        # 11 for a Havannah ring.
        if {game!r} == "hex":
            batch, per_thread = Hex(4096, 19, swap=False, seed=1), 18
        else:
            batch, per_thread = Havannah(4096, 10, seed=1), 5
        refused = []
        errors = []
        together = threading.Barrier(2)

        def play():
            together.wait()
            made = 0
            while made < per_thread:
                try:
                    batch.step(batch.sample_actions())
                    made += 1
                except RuntimeError as error:
                    refused.append(str(error))
                except BaseException as error:
                    errors.append(error)
                    return

        threads = [threading.Thread(target=play) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors, errors
        assert refused, "the threads never met"
        assert all("one call at a time" in text for text in refused), refused[0]
        stones = batch.observation[..., :2].sum(axis=(1, 2, 3))
        assert (stones == 2 * per_thread).all(), np.unique(stones)
        print(len(refused))
    """)
    assert int(out) > 0


# ---- E6: no copies -----------------------------------------------------------------

def test_a_batch_is_neither_copied_nor_pickled(make):
    batch = make(600, threads=2)
    for attempt in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="neither copied nor pickled"):
            attempt(batch)
    batch.step(batch.sample_actions())          # untouched, still usable


# ---- E7: the threads --------------------------------------------------------------

def test_threads_are_capped_at_the_cores(make):
    import _thread

    before = _thread._count()
    batch = make(1 << 14, threads=10**6)
    cores = os.cpu_count() or 1
    assert batch.threads == cores
    assert len(batch._parts) <= cores
    assert _thread._count() - before <= cores - 1
    zero = make(1 << 14, threads=0)
    assert zero.threads == cores


def test_no_thread_is_left_when_one_cannot_start(make, monkeypatch):
    import _thread
    import gc
    import time

    def settled():
        """The threads running once those of earlier batches have ended."""
        gc.collect()
        deadline = time.monotonic() + 5
        count = _thread._count()
        while time.monotonic() < deadline:
            time.sleep(0.05)
            if _thread._count() == count:
                return count
            count = _thread._count()
        return count

    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    real = _thread.start_new_thread
    calls = []

    def fail_the_third(function, args, *rest):
        calls.append(function)
        if len(calls) == 3:
            raise RuntimeError("can't start new thread")
        return real(function, args, *rest)

    before = settled()
    monkeypatch.setattr(_thread, "start_new_thread", fail_the_third)
    with pytest.raises(RuntimeError, match="can't start new thread"):
        make(4096, threads=4)
    monkeypatch.setattr(_thread, "start_new_thread", real)
    assert len(calls) == 3
    assert settled() == before


@pytest.mark.skipif(sys.platform == "win32", reason="resource.getrusage: POSIX only")
def test_havannah_makes_no_scratch_for_threads_it_does_not_run():
    """A scratch a part, not a thread asked for: 10**6 threads asked once
    took 267 MB for a batch of two games."""
    out = run_child("""
        import resource
        from havhex.havannah import Batch

        Batch(2, base=2, threads=1)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        batch = Batch(2, base=2, threads=10**6)
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        print(grown, batch.threads)
    """)
    grown, _threads = map(int, out.split())
    # ru_maxrss is in kilobytes, on macOS in bytes.
    grown_bytes = grown if sys.platform == "darwin" else grown * 1024
    assert grown_bytes < 20 << 20, f"{grown_bytes} bytes for a batch of two games"


# ---- E9 -----------------------------------------------------------------------------

def test_an_action_out_of_range_is_refused_in_a_game_about_to_be_reset(make):
    batch = make(2)
    first = batch.sample_actions()
    batch.step(first)
    batch.step(first)                   # game 0 and 1 play on a taken cell: lost
    assert batch.terminated.all()
    # 2**32 + 1 is 1 once cut to 32 bits: the range is checked before.
    for bad in (batch.num_actions, -1, 10**9, 2**32 + 1):
        with pytest.raises(ValueError, match="out of range"):
            batch.step(np.array([0, bad]))
    batch.step(np.array([0, 0]))        # in range: the games are reset
    assert not batch.terminated.any()


@pytest.mark.parametrize("none", [None, [], (), np.zeros((0, 5, 5), np.int8)])
def test_hex_set_starts_takes_no_position_for_the_empty_board(none):
    batch = hex_batch.Batch(3, 5, seed=4)
    batch.set_starts(np.zeros((1, 5, 5), np.int8))
    batch.set_starts(none)
    batch.step(batch.sample_actions())
    batch.reset()
    assert not batch.stones().any()


@pytest.mark.parametrize("module", [hex_batch, havannah_batch], ids=["hex", "havannah"])
def test_augment_refuses_a_policy_without_an_action_axis(module):
    batch = hex_batch.Batch(2, 5) if module is hex_batch else havannah_batch.Batch(2, 4)
    for policy in (np.float32(0.5), np.array(0.5)):
        with pytest.raises(ValueError, match="policy"):
            module.augment(batch.observation, policy)
