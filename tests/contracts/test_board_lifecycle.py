"""Both live boards under misuse of their life cycle: a board made without
``__init__``, a second ``__init__``, ``__init__`` out of memory, pickles
crafted to carry what no board pickles, and a real SIGINT while threads play.

The dangerous cases run in a child interpreter, so that a crash is a failed
test (a negative return code) and not a lost test run.
"""
import json
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from havhex import havannah, hex as hx

BOARDS = {"hex": hx.Board, "havannah": havannah.Board}
UNMADE = "this Board was made without __init__"
AGAIN = "this Board is initialised already: __init__ runs once per board"


@pytest.fixture(params=sorted(BOARDS))
def name(request):
    return request.param


def run_child(code, *args, timeout=120):
    """Run ``code`` in a new interpreter; (return code, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    return done.returncode, done.stdout, done.stderr


# ---------------------------------------------------------------------------
# A board made without __init__ (D3)
# ---------------------------------------------------------------------------

# Calls every public attribute and method (and the protocols: ==, hash, len,
# copy, pickle, the notebook picture) of boards made without __init__, and
# prints what each raised as JSON.  Run in a child: a crash loses nothing.
WALK = r"""
import copy, inspect, json, pickle, sys
from havhex import havannah, hex as hx

game = sys.argv[1]
cls = hx.Board if game == "hex" else havannah.Board
made = hx.Board(3) if game == "hex" else havannah.Board(3)
cell = (0, 0) if game == "hex" else (1, 1)

class Skipping(cls):
    __slots__ = ()
    def __init__(self):
        pass

ARGS = {"play": (cell,), "cell_name": (cell,), "playouts": (2, 1), "playout": (1,),
        "play_action": (0,), "action_of": (cell,), "move_of": (0,)}
results = {}
for label, bare in (("new", cls.__new__(cls)), ("subclass", Skipping())):
    calls = {}
    for attr in dir(cls):
        if attr.startswith("_"):
            continue
        static = inspect.getattr_static(cls, attr)
        if isinstance(static, (classmethod, staticmethod)) or not callable(static) \
                and not hasattr(static, "__get__"):
            continue                       # constants, and what needs no board
        if callable(static) and not hasattr(type(static), "__set__"):
            calls[attr] = (lambda attr=attr: getattr(bare, attr)(*ARGS.get(attr, ())))
        else:
            calls[attr] = (lambda attr=attr: getattr(bare, attr))
    calls.update({
        "playouts threads=2": lambda: bare.playouts(100, 1, threads=2),
        "draw as_text": lambda: bare.draw(as_text=True),
        "==": lambda: bare == made, "== reversed": lambda: made == bare,
        "== itself": lambda: bare == bare, "!=": lambda: bare != made,
        "hash()": lambda: hash(bare), "len()": lambda: len(bare),
        "copy.copy": lambda: copy.copy(bare), "copy.deepcopy": lambda: copy.deepcopy(bare),
        "pickle": lambda: pickle.dumps(bare), "_repr_svg_": lambda: bare._repr_svg_(),
        "__init__ twice is fine before": lambda: None,
    })
    for what, call in calls.items():
        try:
            call()
            outcome = "returned"
        except Exception as error:
            outcome = f"{type(error).__name__}: {error}"
        results[f"{label} {what}"] = outcome
    results[f"{label} repr"] = repr(bare)
print(json.dumps(results))
"""


def test_every_entry_point_refuses_a_board_made_without_init(name):
    code, out, err = run_child(WALK, name)
    assert code == 0, f"the child ended with {code}: {err[-2000:]}"
    results = json.loads(out)
    for label in ("new", "subclass"):
        assert results.pop(f"{label} repr") == f"<havhex.{name}.Board made without __init__>"
        assert results.pop(f"{label} __init__ twice is fine before") == "returned"
    # The walk found the public surface (it does not skip everything).
    for attr in ("play", "undo", "copy", "moves", "to_move", "winner", "legal_moves",
                 "playouts", "draw", "explain", "to_array", "hash", "cell_name", "is_draw"):
        assert f"new {attr}" in results and f"subclass {attr}" in results
    wrong = {what: got for what, got in results.items() if got != f"TypeError: {UNMADE}"}
    # to_array needs NumPy before it looks at the board.
    wrong = {what: got for what, got in wrong.items()
             if not (what.endswith("to_array") and got.startswith("ImportError"))}
    assert not wrong, wrong


def test_init_on_a_board_made_without_it_makes_it_whole(name):
    board = BOARDS[name].__new__(BOARDS[name])
    with pytest.raises(TypeError, match=UNMADE):
        len(board)
    board.__init__(3)
    assert len(board) == 0 and board.legal_moves() and board.copy() == board
    assert repr(board).startswith(f"<havhex.{name}.Board 3" if name == "hex"
                                  else "<havhex.havannah.Board size=3")


# ---------------------------------------------------------------------------
# A second __init__, and __init__ out of memory (D4)
# ---------------------------------------------------------------------------

def test_a_second_init_raises_and_changes_nothing(name):
    board = BOARDS[name](3)
    first = board.legal_moves()[0]
    board.play(first)
    before = (board.moves, board.hash, board.to_move, board.legal_moves())
    for args in ((3,), (5,), (0,), ("x",)):
        with pytest.raises(TypeError) as caught:
            board.__init__(*args)
        assert str(caught.value) == AGAIN
        assert (board.moves, board.hash, board.to_move, board.legal_moves()) == before
    board.undo()
    assert board.moves == () and board.play(first) == ()


def test_a_second_init_from_a_subclass_raises(name):
    class Twice(BOARDS[name]):
        __slots__ = ()

        def __init__(self, size):
            super().__init__(size)
            super().__init__(size + 1)

    with pytest.raises(TypeError, match="initialised already"):
        Twice(3)


def test_a_second_init_while_threads_play_raises(name):
    """The re-init that freed the arrays under the playout threads
    ("double free or corruption") is refused; the playouts run on."""
    code, out, err = run_child("""
        import sys, threading
        from havhex import havannah, hex as hx
        board = hx.Board(9) if sys.argv[1] == "hex" else havannah.Board(6)
        refused = []
        def reinit():
            for _ in range(200):
                try:
                    board.__init__(4)
                except TypeError:
                    refused.append(1)
        thread = threading.Thread(target=reinit)
        thread.start()
        counts = board.playouts(20000, 1, threads=2)
        thread.join()
        assert sum(counts.values()) == 20000 and len(refused) == 200
        print("ok")
    """, name)
    assert (code, out.strip()) == (0, "ok"), err[-2000:]


@pytest.mark.not_under_sanitizers("caps the address space (RLIMIT_AS), which ASan's shadow memory exceeds")
def test_init_out_of_memory_leaves_the_board_as_it_was(name):
    """``__init__`` allocates before it changes anything: a MemoryError leaves
    a board made without ``__init__`` as it was, and ``__init__`` works on it
    afterwards."""
    code, out, err = run_child("""
        import resource, sys
        from havhex import havannah, hex as hx
        cls = hx.Board if sys.argv[1] == "hex" else havannah.Board
        huge = (20000, 20000) if sys.argv[1] == "hex" else (16384,)
        board = cls.__new__(cls)
        limit = 1 << 30
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        try:
            board.__init__(*huge)
        except MemoryError:
            pass
        else:
            raise SystemExit("no MemoryError")
        assert repr(board).endswith("made without __init__>"), repr(board)
        try:
            board.play((1, 1))
        except TypeError as error:
            assert "without __init__" in str(error)
        board.__init__(3)
        board.play((1, 1))
        board.undo()
        assert board.copy() == board and len(board) == 0
        print("ok")
    """, name)
    assert (code, out.strip()) == (0, "ok"), err[-2000:]


# ---------------------------------------------------------------------------
# Crafted pickles (D5)
# ---------------------------------------------------------------------------

class Crafted:
    """Pickles as a call of ``function(*args)``: the bytes a hostile pickle
    would hold to reach a board's reconstructor with arguments of its own."""

    def __init__(self, function, args):
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args


def crafted_pickles():
    """(label, pickle bytes) of reconstructor calls no board pickles."""
    from havhex.havannah.board import _rebuilt as havannah_rebuilt
    from havhex.hex.board import _rebuilt as hex_rebuilt

    H, V = hx.Board, havannah.Board
    hex_args = [
        (H, 20000, 20000, False, b"", None, ()),              # 0.1.0's crash: cells not checked
        (H, 2, 2, False, b"\x07\x09\xc8\x00", "red", ()),     # no colour's code
        (H, 2, 2, False, b"\x01\x00\x00", "blue", ()),         # one cell short
        (H, 2, 2, False, b"\x01\x00\x00\x00" * 1000, "blue", ()),
        (H, 2 ** 40, 2, False, None, None, ()), (H, 0, 0, False, None, None, ()),
        (H, -5, 3, False, None, None, ()), (H, 2.0, 2, False, None, None, ()),
        (H, True, 2, False, None, None, ()), (H, 2, 2, 1, None, None, ()),
        (H, 2, 2, False, "\x00" * 4, "red", ()), (H, 2, 2, False, None, "blue", ()),
        (H, 2, 2, False, None, None, [(0, 0)]), (H, 2, 2, False, None, None, "a1"),
        (H, 2, 2, False, None, None, ((0, 0), (0, 0))),      # a stone on a stone
        (H, 2, 2, False, None, None, ((5, 0),)), (H, 2, 2, False, None, None, ((0, 0, 0),)),
        (H, 2, 2, False, None, None, ((0.0, 0),)), (H, 2, 2, False, None, None, ("swap-pieces",)),
        (H, 2, 2, False, None, None, ((0, 0), "swap-sides")),  # no swap on this board
        (H, 2, 2, True, None, None, ((0, 0),) * 6),           # more moves than cells
        (H, 2, 2, False, None, None, ((0, 0), (0, 1), (1, 0), (1, 1))),   # moves past the win
        (H, 2, 2, False, b"\x01\x01\x00\x00", "red", ((1, 0),)),          # after a won start
        (int, 2, 2, False, None, None, ()), (H, 2, 2, False, None, None, ((2 ** 70, 0),)),
    ]
    havannah_args = [
        (V, 3, "official", False, ((1, 1), (3, 3)), (0,)),    # a move with no player: dropped
        (V, 3, "official", False, ((1, 1),), (0, 1)),
        (V, 3, "official", False, ((1, 1), "swap"), (0, 1)),  # no swap on this board
        (V, 3, "official", True, ((1, 1), "swap"), (0, 0)),   # the swap by the wrong player
        (V, 3, "official", False, ((1, 1), (1, 1)), (0, 1)),  # a stone on a stone
        (V, 3, "official", False, ((0, 0),), (0,)), (V, 3, "official", False, ((1, 2, 3),), (0,)),
        (V, 3, "official", False, ((1, 1),), (2,)), (V, 3, "official", False, ((1, 1),), (True,)),
        (V, 3, "official", False, [(1, 1)], [0]), (V, 3, "official", False, "ab", "ab"),
        (V, 20000, "official", False, (), ()), (V, 1, "official", False, (), ()),
        (V, 3, "ring", False, (), ()), (V, 3, 7, False, (), ()), (V, 3, "official", 1, (), ()),
        (V, 3.0, "official", False, (), ()), (int, 3, "official", False, (), ()),
        (V, 2, "official", False, ((1, 1),) * 9, (0,) * 9),   # more moves than cells
        (V, 2, "official", False, ((1, 1), (2, 2), (1, 2), (3, 3), (2, 1)), (0, 1, 0, 1, 0)),
    ]
    pickles = [(f"hex {args[1:]!r:.80}", pickle.dumps(Crafted(hex_rebuilt, args)))
               for args in hex_args]
    pickles += [(f"havannah {args[1:]!r:.80}", pickle.dumps(Crafted(havannah_rebuilt, args)))
                for args in havannah_args]
    # 0.1.0's reconstructor, gone: such a pickle names an attribute that is
    # not there.
    old = pickle.dumps(Crafted(hex_rebuilt, (H, 2, 2, False, None, None, ())), 2)
    pickles.append(("0.1.0's _rebuild", old.replace(b"havhex.hex.board", b"havhex.hex._board")
                    .replace(b"_rebuilt", b"_rebuild")))
    return pickles


LOAD = r"""
import json, pickle, sys
for label, data in json.load(sys.stdin):
    try:
        board = pickle.loads(bytes.fromhex(data))
        print(json.dumps([label, "loaded", repr(board)]), flush=True)
    except Exception as error:
        print(json.dumps([label, type(error).__name__, str(error)]), flush=True)
"""


def test_crafted_pickles_raise_a_clean_exception():
    pickles = crafted_pickles()
    done = subprocess.run([sys.executable, "-c", LOAD], capture_output=True, text=True, timeout=120,
                          input=json.dumps([(label, data.hex()) for label, data in pickles]))
    assert done.returncode == 0, f"the child ended with {done.returncode}: {done.stderr[-2000:]}"
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    assert [label for label, *_ in outcomes] == [label for label, _ in pickles]
    for label, kind, message in outcomes:
        wanted = ("AttributeError",) if label == "0.1.0's _rebuild" else ("InputError", "TypeError")
        assert kind in wanted, (label, kind, message)
        assert "\n" not in message and len(message) < 300, (label, message)


def test_pickles_of_boards_still_load_after_the_checks(name):
    board = BOARDS[name](3, swap=True)
    for move in board.legal_moves()[:1] + ["swap" if name == "havannah" else "swap-sides"]:
        board.play(move)
    while not board.is_over:
        board.play(board.legal_moves()[len(board) % len(board.legal_moves())])
        again = pickle.loads(pickle.dumps(board))
        assert again == board and again.moves == board.moves and again.winner == board.winner


# ---------------------------------------------------------------------------
# A real SIGINT (or SIGTERM) while threads play (D2, D18)
# ---------------------------------------------------------------------------

# Windows sends no SIGINT to a child and has no per-thread signal masks.
POSIX_SIGNALS = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

PLAY_UNTIL_STOPPED = r"""
import signal, sys, time
from havhex import havannah, hex as hx

game, signal_name = sys.argv[1], sys.argv[2]
if signal_name == "SIGTERM":
    def stop(number, frame):
        raise SystemExit("terminated")
    signal.signal(signal.SIGTERM, stop)
board = hx.Board(11) if game == "hex" else havannah.Board(8)
board.play(board.legal_moves()[5])
before = (board.moves, board.hash, board.to_move, board.legal_moves())
print("playing", flush=True)
try:
    board.playouts(10 ** 12, 1, threads=2)        # days of work
except (KeyboardInterrupt, SystemExit) as stopped:
    print("stopped", type(stopped).__name__, time.time(), flush=True)
else:
    print("not stopped", flush=True)
assert (board.moves, board.hash, board.to_move, board.legal_moves()) == before
# The board plays on, and its playouts are those of a copy made now.
assert board.playouts(300, 7, threads=2) == board.copy().playouts(300, 7)
board.play(board.legal_moves()[0])
board.undo()
print("usable", flush=True)
"""


def stop_playouts(game, signal_number):
    """Start threaded playouts of days in a child, send it the signal; the
    seconds from the signal to the exception, and the child's lines."""
    child = subprocess.Popen([sys.executable, "-c", PLAY_UNTIL_STOPPED, game,
                              signal.Signals(signal_number).name],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "playing"
        time.sleep(0.3)                    # the threads are under way
        sent = time.time()
        child.send_signal(signal_number)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, f"the child ended with {child.returncode}: {err[-2000:]}"
    lines = out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("stopped ") and lines[1] == "usable", out
    return float(lines[0].split()[2]) - sent, lines[0].split()[1]


@POSIX_SIGNALS
@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_a_signal_stops_threaded_playouts_and_leaves_the_board(name, signal_name):
    """SIGINT raises KeyboardInterrupt (a SIGTERM handler's exception goes
    through alike) once every thread has let go of the shared arrays; the
    board is unchanged and plays on.  (The latency measured on an idle
    machine is milliseconds; the bound here only catches a deaf run.)"""
    number = getattr(signal, signal_name)
    seconds, raised = stop_playouts(name, number)
    assert raised == ("KeyboardInterrupt" if signal_name == "SIGINT" else "SystemExit")
    assert seconds < 5, f"the playouts stopped {seconds:.2f} s after {signal_name}"


@POSIX_SIGNALS
def test_worker_threads_leave_sigint_and_sigterm_to_the_main_thread():
    """A worker blocks the stopping signals, so that the kernel hands them to
    the main thread, whose wait they interrupt at once."""
    from havhex._threads import Worker

    worker = Worker(lambda: signal.pthread_sigmask(signal.SIG_BLOCK, []))
    worker.start()
    assert worker.join(30)
    assert {signal.SIGINT, signal.SIGTERM} <= set(worker.outcome())
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
