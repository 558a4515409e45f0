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

from havhex import InputError
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

ARGS = {"play": (cell,), "cell_name": (cell,), "playouts": (2, 1), "playout": (1,)}
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
