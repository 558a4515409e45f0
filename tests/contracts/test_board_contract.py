"""One contract, both live boards: havhex.hex.Board and havhex.havannah.Board.

Each test runs once per board (the ``game`` fixture): what a board does
with moves, undo, copies, hashes, pickles, arrays, names of cells, pictures,
playouts and misuse is the same on both, and the same misuse raises the same
exception.  What only one game has (swap-sides, the contest rule...) stays in
tests/hex/test_hex_board.py and tests/havannah/test_havannah_board.py.
"""
import _thread
import copy
import os
import pickle
import re
import threading
import time
from dataclasses import dataclass
from typing import Callable, Dict, Tuple

import pytest

import needs
from havhex import InputError
from havhex import havannah, hex as hx


@dataclass
class Game:
    """What the contract needs to know of one game."""
    name: str
    board: Callable                  # board(swap=False): an empty small board
    big: Callable                    # an empty board where playouts take a while
    cells: Tuple                     # cells that complete nothing, played in turn
    off_board: Tuple                 # cells off the small board
    names: Dict                      # cell -> its name in the game's records
    off_name: str                    # a name off the small board
    win: Tuple                       # moves from the start that end in a win
    players: Tuple[str, str]         # first, second
    last_mark: str                   # what _repr_svg_ marks the last move with
    win_mark: str                    # what it marks a winning structure with
    stone_classes: Tuple[str, str]   # its class of the first player's and the second's
                                     # stones after an odd number of moves


GAMES = {
    "hex": Game(
        "hex", lambda swap=False: hx.Board(4, swap=swap), lambda: hx.Board(11),
        cells=((0, 0), (1, 1), (2, 3), (3, 0)), off_board=((4, 0), (0, 4), (-1, 2), (10 ** 30, 0)),
        names={(0, 0): "a1", (1, 2): "c2", (3, 3): "d4", (2, 0): "a3"}, off_name="e1",
        win=((0, 1), (1, 1), (1, 0), (2, 2), (2, 0), (3, 3), (3, 0)), players=("red", "blue"),
        last_mark="played-last", win_mark="chain", stone_classes=("red", "blue")),
    "havannah": Game(
        "havannah", lambda swap=False: havannah.Board(3, swap=swap), lambda: havannah.Board(8),
        cells=((1, 1), (3, 3), (5, 4), (2, 4)), off_board=((0, 1), (1, 4), (6, 6), (10 ** 30, 1)),
        names={(1, 1): "A1", (3, 3): "C3", (5, 5): "E3", (2, 1): "A2"}, off_name="F1",
        win=((1, 1), (3, 3), (1, 2), (4, 4), (1, 3)), players=("white", "black"),
        last_mark="last-move", win_mark="bridge", stone_classes=("other-stone", "stone")),
}


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return GAMES[request.param]


# The boards the state contract (moves, undo, copies, hashes, pickles,
# playouts) also runs on: with the swap, under the contest rule, not square.
# Each holds every cell of its game's ``cells`` and ``win``.
VARIANTS = {
    "hex": ("hex", lambda: hx.Board(4)),
    "hex-swap": ("hex", lambda: hx.Board(4, swap=True)),
    "hex-4x6": ("hex", lambda: hx.Board(4, 6)),
    "hex-6x4-swap": ("hex", lambda: hx.Board(6, 4, swap=True)),
    "havannah": ("havannah", lambda: havannah.Board(3)),
    "havannah-swap": ("havannah", lambda: havannah.Board(3, swap=True)),
    "havannah-contest": ("havannah", lambda: havannah.Board(3, rule="contest", swap=True)),
}


@dataclass
class Variant:
    game: Game
    board: Callable                  # board(): an empty board of the variant

    def played(self, moves):
        board = self.board()
        for move in moves:
            board.play(move)
        return board

    def swap_moves(self):
        """Games with a swap, when the board allows one."""
        if not self.board().swap:
            return ()
        first, second = self.game.cells[:2]
        swaps = ("swap",) if self.game.name == "havannah" else ("swap-pieces", "swap-sides")
        return tuple((first, swap, second) for swap in swaps
                     if swap in self.played((first,)).legal_moves())


@pytest.fixture(params=sorted(VARIANTS))
def variant(request):
    name, board = VARIANTS[request.param]
    return Variant(GAMES[name], board)


def played(game, moves, swap=False):
    board = game.board(swap)
    for move in moves:
        board.play(move)
    return board


def state(board):
    return (board.moves, board.hash, board.to_move, board.winner, board.legal_moves())


def raises_and_keeps(board, call, error):
    """``call()`` raises exactly ``error`` and the board is as before."""
    before = state(board)
    with pytest.raises(error) as caught:
        call()
    assert type(caught.value) is error, f"{type(caught.value).__name__}: {caught.value}"
    assert state(board) == before


# ---------------------------------------------------------------------------
# Moves, undo, copies, hashes, equality, pickles
# ---------------------------------------------------------------------------

def test_play_and_undo_come_back_exactly(variant):
    game = variant.game
    board = variant.board()
    fresh = variant.board()
    hashes = [board.hash]
    for number, move in enumerate(game.cells):
        assert board.play(move) == ()
        assert board.to_move == game.players[(number + 1) % 2]
        hashes.append(board.hash)
    assert board.moves == game.cells and len(board) == len(game.cells)
    assert len(set(hashes)) == len(hashes)
    for k in range(len(game.cells), 0, -1):
        assert board.undo() == game.cells[k - 1]
        assert board.hash == hashes[k - 1]
    assert board == fresh and board.hash == fresh.hash and hash(board) == hash(fresh)
    raises_and_keeps(board, board.undo, InputError)
    for moves in variant.swap_moves():
        for move in moves:
            board.play(move)
        assert board.moves == moves and board != fresh
        for k in range(len(moves), 0, -1):
            assert board.undo() == moves[k - 1]
        assert board == fresh and board.hash == fresh.hash


def test_a_win_ends_the_game_and_undo_reopens_it(game):
    board = game.board()
    for move in game.win[:-1]:
        assert board.play(move) == ()
    assert board.winner is None and board.explain() is None and not board.is_over
    assert board.play(game.win[-1]) != ()
    assert board.winner == game.players[(len(game.win) - 1) % 2]
    assert board.winning_move == len(game.win) - 1
    assert board.is_over and not board.is_draw and board.legal_moves() == []
    explanation = board.explain()
    assert explanation is not None and explanation.game == game.name and explanation.case is None
    free = next(cell for cell in game.names if cell not in game.win)
    raises_and_keeps(board, lambda: board.play(free), InputError)
    board.undo()
    assert board.winner is None and not board.is_over and free in board.legal_moves()


def test_copies_are_equal_and_independent(variant):
    game = variant.game
    for moves in (game.cells[:3],) + variant.swap_moves():
        board = variant.played(moves)
        for other in (board.copy(), copy.copy(board), copy.deepcopy(board)):
            assert type(other) is type(board)
            assert other == board and other.hash == board.hash and other.moves == board.moves
            assert other.swap == board.swap and other.legal_moves() == board.legal_moves()
            other.play(game.cells[3])
            assert other != board and board.moves == moves
            other.undo()
            assert other == board
            while len(other):
                other.undo()
            assert other == variant.board() and len(board) == len(moves)


def test_equal_positions_by_other_orders_hash_equal(variant):
    game = variant.game
    a = variant.played(game.cells)
    first, second, third, fourth = game.cells
    b = variant.played((third, fourth, first, second))
    assert a == b and a.hash == b.hash and hash(a) == hash(b) and a.moves != b.moves
    c = variant.played((second, first, third, fourth))     # the colours of two stones differ
    assert a != c and a.hash != c.hash
    assert (a == 1) is False and a != played(GAMES["hex" if game.name != "hex" else "havannah"], ())


def test_pickles_keep_the_moves_and_the_win(variant):
    game = variant.game
    for moves in (game.cells, game.win, ()) + variant.swap_moves():
        board = variant.played(moves)
        again = pickle.loads(pickle.dumps(board))
        assert type(again) is type(board) and again == board and again.hash == board.hash
        assert again.moves == board.moves and again.winning_move == board.winning_move
        assert again.legal_moves() == board.legal_moves()


def test_repr_names_the_board_and_its_state(game):
    board = played(game, game.cells[:1])
    text = repr(board)
    assert text.startswith(f"<havhex.{game.name}.Board") and "1 moves" in text
    assert f"{game.players[1]} to move" in text


def test_legal_moves_are_the_empty_cells(game):
    board = game.board()
    empty = board.legal_moves()
    assert len(empty) == len(set(empty)) and all(cell not in empty for cell in game.off_board)
    for cell in game.cells:
        board.play(cell)
    assert board.legal_moves() == [cell for cell in empty if cell not in game.cells]


def test_replay_takes_only_a_first_row_of_the_table(game):
    np = needs.module("numpy")
    board = game.board()
    table = np.zeros((2, 4), dtype=np.int32)
    for first in (-1, -2 ** 62, 3, 2 ** 62):
        raises_and_keeps(board, lambda: board._replay(table, first), InputError)


# ---------------------------------------------------------------------------
# Arrays
# ---------------------------------------------------------------------------

def test_arrays_round_trip(game):
    np = needs.module("numpy")
    board = played(game, game.cells)
    array = board.to_array()
    assert array.dtype == np.int8 and array.ndim == 2
    assert int((array == 1).sum()) == 2 and int((array == 2).sum()) == 2
    again = type(board).from_array(array)
    assert again == board and again.hash == board.hash and again.to_move == board.to_move
    with pytest.raises(TypeError):
        type(board).from_array(array.astype(float))
    # A bool array holds the first player's stones alone.
    first = played(game, game.cells[:1])
    again = type(board).from_array(first.to_array() == 1)
    assert again == first and again.to_move == game.players[1]
    bad = array.copy()
    bad[bad >= 0] = 3
    with pytest.raises(InputError):
        type(board).from_array(bad)


# ---------------------------------------------------------------------------
# Cells by name
# ---------------------------------------------------------------------------

def test_cells_by_their_names_in_the_records(game):
    for cell, name in game.names.items():
        by_name, by_cell = game.board(), game.board()
        assert by_name.play(name) == by_cell.play(cell)
        assert by_name.moves == (cell,) and by_name == by_cell
        assert by_cell.cell_name(cell) == name and by_cell.cell_name(list(cell)) == name
        assert by_cell.cell_name(name.swapcase()) == name
    board = game.board()
    names = [board.cell_name(cell) for cell in board.legal_moves()]
    assert len(set(names)) == len(names)
    for cell in board.legal_moves():
        again = game.board()
        again.play(board.cell_name(cell))
        assert again.moves == (cell,)


def test_names_that_are_no_cell_of_the_board(game):
    board = played(game, game.cells[:1])
    taken = board.cell_name(game.cells[0])
    for name in (game.off_name, "zz99", "", "1a", "pass", taken):
        raises_and_keeps(board, lambda: board.play(name), InputError)
    for name in (game.off_name, "zz99"):
        with pytest.raises(InputError):
            board.cell_name(name)
    for cell in game.off_board:
        with pytest.raises(InputError):
            board.cell_name(cell)


# ---------------------------------------------------------------------------
# Misuse: one exception for one misuse on both boards
# ---------------------------------------------------------------------------

def test_misuse_raises_input_error_and_changes_nothing(game):
    board = played(game, game.cells[:2])
    for cell in game.off_board + game.cells[:2]:
        raises_and_keeps(board, lambda: board.play(cell), InputError)
    swap = "swap" if game.name == "havannah" else "swap-sides"
    raises_and_keeps(board, lambda: board.play(swap), InputError)     # made with swap=False
    # Overflowing int64 first: without the bound the last would run for ever.
    for n in (-1, 2 ** 63, 2 ** 64, 10 ** 30, 2 ** 62 + 1):
        raises_and_keeps(board, lambda: board.playouts(n, 1), InputError)
    assert sum(board.playouts(3, 2 ** 63).values()) == 3          # any seed
    assert board.playouts(3, -2 ** 70) == board.playouts(3, -2 ** 70 % 2 ** 64)
    raises_and_keeps(board, lambda: board.playouts(5, 1, threads=-1), InputError)
    for size in (0, -3):
        with pytest.raises(InputError) as caught:
            type(board)(size)
        assert type(caught.value) is InputError
    assert issubclass(InputError, ValueError)
    for board_type in (hx.Board, havannah.Board):
        assert "InputError" in board_type.__doc__


def test_wrong_types_raise_type_error_and_change_nothing(game):
    board = played(game, game.cells[:1])
    for move in (None, 3, 2.5, (1, 2, 3), (1.0, 2), (True, 1), ("1", 2)):
        raises_and_keeps(board, lambda: board.play(move), TypeError)
    for call in (lambda: board.playouts(1.5, 1), lambda: board.playouts(True, 1),
                 lambda: board.playouts(5, None), lambda: board.playouts(5, 1.0),
                 lambda: board.playouts(5, 1, threads="2"), lambda: board.playouts(5, 1, threads=True),
                 lambda: board.playout("7")):
        raises_and_keeps(board, call, TypeError)
    for size in (3.0, True, "3", None):
        with pytest.raises(TypeError):
            type(board)(size)


def test_numpy_integers_are_taken_wherever_a_number_is(game):
    np = needs.module("numpy")
    cell = game.cells[0]
    board = type(game.board())(np.int64(4 if game.name == "hex" else 3))
    assert board == game.board()
    assert board.play((np.int64(cell[0]), np.int32(cell[1]))) == () and board.moves == (cell,)
    assert board.play(list(game.cells[1])) == () and board.moves == game.cells[:2]
    assert board.cell_name((np.uint8(cell[0]), np.int16(cell[1]))) == board.cell_name(cell)
    counts = board.playouts(np.int64(200), np.uint64(5), threads=np.int8(2))
    assert counts == board.playouts(200, 5)
    assert board.playout(np.int32(9)) == board.playout(9)


# ---------------------------------------------------------------------------
# Playouts
# ---------------------------------------------------------------------------

def test_playouts_add_up_repeat_and_leave_the_board(game):
    board = played(game, game.cells[:1])
    before = state(board)
    counts = board.playouts(3001, 99)
    assert sum(counts.values()) == 3001 and counts[game.players[0]] > 0 and counts[game.players[1]] > 0
    assert board.playouts(3001, 99) == counts
    assert board.playouts(3001, 100) != counts
    assert state(board) == before
    assert board.playouts(0, 1) == dict.fromkeys(counts, 0)
    for seed in range(5):
        assert board.playouts(1, seed)[board.playout(seed) or "draw"] == 1
    won = played(game, game.win)
    assert won.playouts(7, 1)[won.winner] == 7


@pytest.mark.parametrize("threads", [0, 2, 3, 10 ** 6, 10 ** 30])
def test_any_thread_count_from_zero_gives_the_same_counts(variant, threads):
    # Playouts are claimed 64 at a time on these small boards: more claims
    # than threads, so that the threads share them in some order of their own.
    cores = os.cpu_count() or 1
    n = max(3001, 64 * 4 * cores + 1)
    for moves in ((variant.game.cells[0],),) + variant.swap_moves()[:1]:
        board = variant.played(moves)
        counts = board.playouts(n, 99, threads=threads)
        assert counts == board.playouts(n, 99, threads=1) and sum(counts.values()) == n


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_playouts_and_leaves_the_board(game, threads):
    board = game.big()
    board.play(game.cells[0])
    before = state(board)
    start = time.perf_counter()
    board.playouts(2000, 1)
    rate = 2000 / (time.perf_counter() - start)
    n = int(rate * 30)              # some 30 s if Ctrl-C went unheard
    timer = threading.Timer(0.2, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            board.playouts(n, 1, threads=threads)
        elapsed = time.perf_counter() - start
    finally:
        timer.cancel()
        timer.join()
    assert elapsed < 3, f"the interrupt took {elapsed:.1f} s"
    assert state(board) == before
    assert board.playouts(100, 3) == board.copy().playouts(100, 3)


# ---------------------------------------------------------------------------
# Pictures
# ---------------------------------------------------------------------------

def test_draw_and_the_notebook_picture(game):
    board = played(game, game.cells[:3])
    assert board.draw().lstrip().startswith(("<svg", "<?xml"))
    assert isinstance(board.draw(as_text=True), str)
    picture = board._repr_svg_()
    drawn = picture.split("</style>")[-1]       # the elements, not the stylesheet
    assert picture.lstrip().startswith(("<svg", "<?xml")) and game.last_mark in drawn
    assert game.win_mark not in drawn
    # Both players' stones: the first player's two, the second's one.
    classes = [set(names.split()) for names in re.findall(r'<[^>]*class="([^"]*)"', drawn)
               if "cell" in names.split()]
    first, second = game.stone_classes
    assert sum(first in names for names in classes) == 2
    assert sum(second in names for names in classes) == 1
    won = played(game, game.win)
    drawn = won._repr_svg_().split("</style>")[-1]
    assert game.last_mark in drawn and game.win_mark in drawn
    assert game.last_mark not in game.board()._repr_svg_().split("</style>")[-1]


def test_both_boards_meet_the_board_protocol_of_the_source(game):
    from havhex import contract

    board = game.board()
    assert isinstance(board, contract.Board)
    for name, is_method in contract.members().items():
        assert callable(getattr(board, name)) == is_method, name
