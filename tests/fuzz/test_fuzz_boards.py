"""Fuzzing the live boards: havhex.hex.Board and havhex.havannah.Board.

Each example is a random sequence of calls on one small board, checked after
every step against the literal reference game (tests/support/ref_*_board.py):
legal moves and swaps, illegal moves of every kind (off the board, on a
stone, after the end, a swap out of turn, values of the wrong type), undo,
copies, pickle round trips, pickles whose reconstructor gets corrupted
arguments, a second ``__init__``, boards made without ``__init__`` and short
threaded playouts.  Misuse must raise ``InputError`` or ``TypeError`` and
change nothing; anything else (another exception, a crash under the
sanitizers, a state that differs from the reference) fails the example.
``HAVHEX_FUZZ_EXAMPLES`` sets the number of examples (see fuzzing.py).
"""
import copy
import pickle

import needs

needs.module("hypothesis")

from fuzzing import EXAMPLES, SETTINGS, given, settings, st  # noqa: E402
from ref_havannah_board import RefBoard  # noqa: E402
from ref_hex_board import Game as RefHex  # noqa: E402

from havhex import InputError, havannah, hex as hx  # noqa: E402
from havhex.havannah.board import _rebuilt as havannah_rebuilt  # noqa: E402
from havhex.hex.board import _rebuilt as hex_rebuilt  # noqa: E402

UNMADE = "this Board was made without __init__"
# Values a careless or hostile caller passes where a move, a size or a flag
# belongs.
ODD_VALUES = (None, 1.5, -1, 0, 2 ** 31, 2 ** 64, -2 ** 63, True, "", "zz99", "swap",
              "swap-pieces", "swap-sides", (), (1,), (1, 2, 3), (True, 0), (0.0, 1), ("a", 1),
              {1: 1}, b"\x00", b"\x01" * 4, b"\x07\x09", (1, 1), ((0, 0),), "official")


class HexGame:
    name = "hex"

    @staticmethod
    def sizes(draw):
        rows = draw(st.integers(1, 5))
        cols = draw(st.one_of(st.none(), st.integers(1, 5)))
        return (rows, cols, draw(st.booleans()))

    @staticmethod
    def make(rows, cols, swap):
        return hx.Board(rows, cols, swap=swap)

    @staticmethod
    def reference(rows, cols, swap):
        return RefHex(rows, cols, swap)

    @staticmethod
    def off_board(board):
        return ((board.rows, 0), (0, board.cols), (-1, 0), (0, -1), (10 ** 30, 0))

    @staticmethod
    def compare(board, ref):
        assert board.moves == tuple(ref.moves)
        assert board.to_move == ref.to_move and board.winner == ref.winner
        assert board.winning_move == ref.winning_move
        assert board.sides_swapped == ref.sides_swapped
        assert board.legal_moves() == ref.legal_moves()
        assert list(board.legal_actions()) == sorted(
            board.action_of(m) for m in ref.legal_moves() if m != "swap-sides")
        grid = ref.array()
        assert board.stone_counts == (sum(row.count(1) for row in grid),
                                      sum(row.count(2) for row in grid))
        assert board._cells_bytes() == bytes(value for row in grid for value in row)

    rebuilt = staticmethod(hex_rebuilt)


class HavannahGame:
    name = "havannah"

    @staticmethod
    def sizes(draw):
        return (draw(st.integers(2, 4)), draw(st.sampled_from(("official", "contest"))),
                draw(st.booleans()))

    @staticmethod
    def make(size, rule, swap):
        return havannah.Board(size, rule, swap)

    @staticmethod
    def reference(size, rule, swap):
        return RefBoard(size, rule, swap)

    @staticmethod
    def off_board(board):
        s = board.size
        return ((0, 1), (1, s + 1), (2 * s, 2 * s), (-1, 1), (10 ** 30, 1))

    @staticmethod
    def compare(board, ref):
        assert board.moves == tuple(ref.moves)
        assert board.to_move == ref.to_move and board.winner == ref.winner
        assert board.winning_move == ref.winning_move
        assert board.is_over == ref.is_over
        assert board.legal_moves() == ref.legal_moves()
        assert list(board.legal_actions()) == sorted(board.action_of(m) for m in ref.legal_moves())

    rebuilt = staticmethod(havannah_rebuilt)


GAMES = {"hex": HexGame, "havannah": HavannahGame}


def snapshot(board):
    return (board.moves, board.hash, board.to_move, board.winner, board.legal_moves(), len(board))


def refused(board, call, errors=(InputError, TypeError)):
    """``call()`` raises one of ``errors`` (nothing else) and changes nothing."""
    before = snapshot(board)
    try:
        call()
    except errors:
        pass
    else:
        raise AssertionError("misuse was accepted")
    assert snapshot(board) == before


def replayed(game, args, moves):
    ref = game.reference(*args)
    for move in moves:
        ref.play(move)
    return ref


def check_bare(game, args, draw):
    """A board made without __init__ (directly, or by a subclass that skips
    it) refuses whatever is asked of it; __init__ then makes it whole."""
    cls = type(game.make(*args))
    if draw(st.booleans()):
        bare = cls.__new__(cls)
    else:
        class Skipping(cls):
            __slots__ = ()

            def __init__(self):
                pass
        bare = Skipping()
    other = game.make(*args)
    calls = [lambda: bare.play(draw(st.sampled_from(ODD_VALUES))), bare.undo, bare.copy,
             lambda: bare.moves, lambda: bare.to_move, lambda: bare.winner, bare.legal_moves,
             lambda: bare.playouts(3, 1, threads=draw(st.sampled_from((1, 2)))),
             lambda: bare.playout(1), lambda: len(bare), lambda: hash(bare),
             lambda: bare == other, lambda: other == bare, lambda: pickle.dumps(bare),
             lambda: copy.deepcopy(bare), bare.explain, bare.draw, bare._repr_svg_,
             lambda: bare.hash, lambda: bare.is_over, lambda: bare.is_draw, lambda: bare.cell_name((1, 1))]
    for call in draw(st.lists(st.sampled_from(calls), min_size=1, max_size=4)):
        try:
            call()
        except TypeError as error:
            assert str(error) == UNMADE, error
        else:
            raise AssertionError("a board made without __init__ answered")
    assert "made without __init__" in repr(bare)
    cls.__init__(bare, *args)
    assert bare == other and bare.moves == ()


def corrupt_pickle(game, board, ref_args, draw):
    """The board's reconstructor called with one argument replaced: it
    rebuilds a consistent board (checked against the reference) or raises
    InputError or TypeError."""
    function, args = board.__reduce__()
    args = list(args)
    at = draw(st.integers(1, len(args) - 1))
    kind = draw(st.integers(0, 3))
    if kind == 0:
        args[at] = draw(st.sampled_from(ODD_VALUES))
    elif kind == 1 and isinstance(args[at], tuple) and args[at]:
        items = list(args[at])
        items[draw(st.integers(0, len(items) - 1))] = draw(st.sampled_from(ODD_VALUES))
        args[at] = tuple(items)
    elif kind == 2 and isinstance(args[at], tuple):
        items = list(args[at])
        if items and draw(st.booleans()):
            del items[draw(st.integers(0, len(items) - 1))]
        else:
            items.append(draw(st.sampled_from(ODD_VALUES)))
        args[at] = tuple(items)
    elif isinstance(args[at], bytes):
        data = bytearray(args[at])
        if data:
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        args[at] = bytes(data[:draw(st.integers(0, len(data)))] if draw(st.booleans()) else data)
    else:
        args[at] = draw(st.sampled_from(ODD_VALUES))
    try:
        again = game.rebuilt(*args)
    except (InputError, TypeError):
        return
    # Accepted: whatever it holds, it is a board some legal game reaches.
    assert isinstance(again, type(board))
    if game.name == "havannah":
        size, rule, swap, moves, players = args[1:]
        # Every move is there, each by its player.
        assert again.moves == moves and tuple(again._players()) == players
        if all(player == number % 2 for number, player in enumerate(players)) \
                and (size, rule, swap) == ref_args:
            game.compare(again, replayed(game, ref_args, moves))
    elif args[4] is None:
        rows, cols, swap = args[1:4]
        game.compare(again, replayed(game, (rows, cols, swap), args[6]))
    assert pickle.loads(pickle.dumps(again)) == again


def run_session(game, data):
    draw = data.draw
    args = game.sizes(draw)
    board = game.make(*args)
    if game.name == "hex" and args[1] is None:
        args = (args[0], args[0], args[2])
    moves = []
    ref = game.reference(*args)
    for _ in range(draw(st.integers(1, 30))):
        action = draw(st.integers(0, 11))
        legal = ref.legal_moves()
        if action <= 3 and legal:
            move = draw(st.sampled_from(legal))
            how = draw(st.integers(0, 2))
            if how == 2 and move != "swap-sides":        # by its action id ("swap-sides" has none)
                action_id = board.action_of(move)
                assert action_id in board.legal_actions() and board.move_of(action_id) == move
                board.play_action(action_id)
            else:
                named = not isinstance(move, str) and how == 1
                board.play(board.cell_name(move) if named else move)  # a cell by its name too
            ref.play(move)
            moves.append(move)
        elif action == 4:
            stones = [m for m in moves if not isinstance(m, str)]
            bad = list(game.off_board(board)) + stones + list(ODD_VALUES)
            if ref.winner is not None or not legal:
                bad += [m for m in game.make(*args).legal_moves()]   # after the end
            move = draw(st.sampled_from(bad))
            if draw(st.booleans()):
                # An action id no legal move has, or no integer at all.
                action_id = draw(st.integers(-3, board.num_actions + 3) | st.sampled_from(ODD_VALUES))
                if type(action_id) is int and action_id in board.legal_actions():
                    continue
                refused(board, lambda: board.play_action(action_id))
                continue
            if move in legal:
                continue
            refused(board, lambda: board.play(move))
        elif action == 5:
            if moves:
                assert board.undo() == moves.pop()
                ref = replayed(game, args, moves)
            else:
                refused(board, board.undo)
        elif action == 6:
            other = draw(st.sampled_from((board.copy, lambda: copy.copy(board),
                                          lambda: copy.deepcopy(board))))()
            assert other == board and other.moves == board.moves and hash(other) == hash(board)
            if draw(st.booleans()):
                board = other
        elif action == 7:
            again = pickle.loads(pickle.dumps(board, draw(st.integers(0, pickle.HIGHEST_PROTOCOL))))
            assert type(again) is type(board) and again == board and again.moves == board.moves
            assert again.winning_move == board.winning_move
            board = again
        elif action == 8:
            corrupt_pickle(game, board, args, draw)
        elif action == 9:
            again_args = draw(st.sampled_from((args, args[:1], (draw(st.sampled_from(ODD_VALUES)),))))
            refused(board, lambda: board.__init__(*again_args), TypeError)
        elif action == 10:
            check_bare(game, args, draw)
        else:
            n = draw(st.integers(0, 20))
            counts = board.playouts(n, draw(st.integers(-2 ** 70, 2 ** 70)),
                                    threads=draw(st.sampled_from((1, 2))))
            assert sum(counts.values()) == n
            if ref.winner is not None:
                assert counts[ref.winner] == n
        game.compare(board, ref)


@settings(max_examples=max(1, EXAMPLES), **SETTINGS)
@given(data=st.data())
def test_hex_board_call_sequences(data):
    run_session(HexGame, data)


@settings(max_examples=max(1, EXAMPLES), **SETTINGS)
@given(data=st.data())
def test_havannah_board_call_sequences(data):
    run_session(HavannahGame, data)
