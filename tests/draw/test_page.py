"""A game move by move (havhex.draw.page): the steps against the live
boards, the SVG of one position and the HTML page as text.  The page in a
real browser is tests/draw/test_page_browser.py."""
import html.parser
import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

import needs
from havhex import InputError
from havhex.draw.page import game_page, game_steps, position_svg
from havhex.havannah import Board as HavannahBoard
from havhex.hex import Board as HexBoard

np = needs.module("numpy")
SVG = "{http://www.w3.org/2000/svg}"


def random_game(board, rng, played_on=0, swap_at_two=False):
    """Random legal moves until the game is won (or the board is full),
    then ``played_on`` more moves on empty cells; returns the moves."""
    moves = []
    while not board.is_over:
        legal = board.legal_moves()
        swaps = [m for m in legal if isinstance(m, str)]
        move = swaps[0] if swap_at_two and swaps else rng.choice([m for m in legal
                                                                  if not isinstance(m, str)])
        board.play(move)
        moves.append(move)
    taken = {m for m in moves if not isinstance(m, str)}
    empty = [m for m in board_cells(board) if m not in taken]
    moves += rng.sample(empty, min(played_on, len(empty)))
    return moves


def board_cells(board):
    if isinstance(board, HavannahBoard):
        s = board.size
        return [(x, y) for x in range(1, 2 * s) for y in range(1, 2 * s) if abs(x - y) < s]
    return [(i, j) for i in range(board.rows) for j in range(board.cols)]


def stones_of(board, players):
    """{cell: colour} read from the board's array (an independent reading)."""
    array = board.to_array()
    offset = 1 if isinstance(board, HavannahBoard) else 0
    return {(int(a) + offset, int(b) + offset): players[int(array[a, b]) - 1]
            for a, b in zip(*np.nonzero(array > 0))}


def shown(game, move):
    return {game.cells[i]: colour for i, colour in enumerate(game.stones(move)) if colour}


@pytest.mark.parametrize("seed", range(12))
def test_havannah_steps_follow_the_board(seed):
    rng = random.Random(seed)
    size = rng.choice([3, 4, 5])
    moves = random_game(HavannahBoard(size, swap=True), rng, played_on=seed % 3,
                        swap_at_two=seed % 2 == 0)
    game = game_steps("havannah", size, moves)
    board = HavannahBoard(size, swap=True)
    assert game.stones(0) == [""] * len(game.cells)
    for number, move in enumerate(moves, 1):
        if board.is_over:
            break
        board.play(move)
        assert shown(game, number) == stones_of(board, ("white", "black")), number
    assert game.win == (board.winning_move + 1 if board.winner else None)
    assert game.winner == board.winner
    assert len(game.steps) == len(moves)
    # The moves played on after the win: one stone each, the colours alternating.
    if game.win is not None:
        last = board.winner
        for number in range(game.win + 1, len(moves) + 1):
            colour = "black" if last == "white" else "white"
            assert shown(game, number) == {**shown(game, number - 1), moves[number - 1]: colour}
            last = colour
        # The marks are the witness's cells, the winning cell the winning move.
        witness = board.explain().to_dict()
        cells = set()
        for kind, key in (("bridge", "path"), ("fork", "cells"), ("ring", "loop")):
            cells |= {tuple(c) for c in (witness.get(kind) or {}).get(key, ())}
        marked = {game.cells[i] for i, classes in game.marks.items() if classes != "enclosed"}
        assert marked == cells
        assert game.cells[game.winning_cell] == moves[game.win - 1]


def test_havannah_swap_recolours_the_first_stone():
    game = game_steps("havannah", 3, [(2, 2), "swap", (1, 1)])
    assert shown(game, 1) == {(2, 2): "white"}
    assert shown(game, 2) == {(2, 2): "black"}
    assert shown(game, 3) == {(2, 2): "black", (1, 1): "white"}
    assert [label for label, _ in game.steps] == ["White 2,2", "Black: swap", "White 1,1"]
    # The number stays with the stone.
    assert [n[:3] for n in game.numbers()] == [(game.index[(2, 2)], 1, 1), (game.index[(1, 1)], 3, 3)]


def test_hex_swaps():
    pieces = game_steps("hex", 4, [(0, 2), "swap-pieces", (1, 1)])
    assert shown(pieces, 2) == {(2, 0): "blue"}
    assert shown(pieces, 3) == {(2, 0): "blue", (1, 1): "red"}
    # The first stone's number leaves with it; the mirror's is the swap's.
    assert [n for n in pieces.numbers()][:2] == [(pieces.index[(0, 2)], 1, 1, 2),
                                                 (pieces.index[(2, 0)], 2, 2, None)]
    sides = game_steps("hex", 4, [(0, 2), "swap-sides", (1, 1)])
    assert shown(sides, 2) == {(0, 2): "red"}
    assert shown(sides, 3) == {(0, 2): "red", (1, 1): "blue"}


@pytest.mark.parametrize("seed", range(8))
def test_hex_steps_follow_the_board(seed):
    rng = random.Random(100 + seed)
    rows, cols = rng.choice([(3, 3), (4, 5), (5, 4), (6, 6)])
    moves = random_game(HexBoard(rows, cols, swap=True), rng, played_on=seed % 2,
                        swap_at_two=seed % 3 == 0)
    game = game_steps("hex", (rows, cols), moves)
    board = HexBoard(rows, cols, swap=True)
    for number, move in enumerate(moves, 1):
        if board.is_over:
            break
        board.play(move)
        assert shown(game, number) == stones_of(board, ("red", "blue")), number
    assert game.win == board.winning_move + 1 and game.winner == board.winner
    chain = {tuple(c) for _, cells in board.explain().chains for c in cells}
    assert {game.cells[i] for i in game.marks} == chain


def test_not_moves_are_skipped_and_letters_taken():
    game = game_steps("havannah", 3, [("W", (1, 1)), ("B", "pass"), ("B", (2, 2)), ("W", "resign")])
    assert len(game.steps) == 2 and shown(game, 2) == {(1, 1): "white", (2, 2): "black"}
    assert game.ending == "White resigns"
    assert game.summary().endswith("; White resigns after move 2")
    # Only the last move counts as the ending.
    assert game_steps("hex", 3, [("B", (0, 0)), ("W", "pass"), ("W", (1, 1))]).ending is None
    assert game_steps("hex", 3, [("B", (0, 0)), ("W", "forfeit")]).ending == "Blue forfeits"


@pytest.mark.parametrize("moves, number, words", [
    ([(1, 1), (1, 1)], 2, "occupied|taken"),
    ([(1, 1), (9, 9)], 2, "off|board"),
    ([(1, 1), "swap", "swap"], 3, "swap"),
    ([(1, 1), "h3"], 2, ""),
])
def test_the_replay_stops_at_an_illegal_move(moves, number, words):
    game = game_steps("havannah", 3, moves)
    assert game.illegal[0] == number and len(game.steps) == number - 1
    assert re.search(words, game.illegal[1], re.I)
    assert f"move {number} is illegal" in game.summary()


def test_illegal_after_the_win():
    moves = [(1, 1), (3, 3), (1, 2), (3, 2), (1, 1)]
    game = game_steps("havannah", 2, moves, swap=False)
    assert game.win == 3 and game.illegal[0] == 5 and len(game.steps) == 4


def test_sizes_beyond_the_pictures_are_refused():
    with pytest.raises(InputError, match="S = 42"):
        game_steps("havannah", 42, [])
    game_steps("havannah", 41, [(1, 1)])
    with pytest.raises(InputError, match="201"):
        game_steps("hex", (3, 201), [])


# ---------------------------------------------------------------------------
# The pictures
# ---------------------------------------------------------------------------

def bridge_game():
    board = HavannahBoard(3)
    moves = [(1, 1), (5, 5), (2, 1), (5, 4), (3, 1), (4, 5), (2, 2)]
    for move in moves:
        if board.play(move):
            break
    return game_steps("havannah", 3, moves, swap=False), board


def svg_cells(document):
    root = ET.fromstring(document.encode())
    return [e for e in root.iter(f"{SVG}path") if "cell" in e.get("class", "").split()]


def test_position_svg_shows_the_stones_and_the_structure_from_the_win():
    game, board = bridge_game()
    assert game.win == board.winning_move + 1
    for move in range(len(game.steps) + 1):
        document = position_svg(game, move)
        cells = svg_cells(document)
        assert len(cells) == len(game.cells)
        held = {(int(e.get("data-x")), int(e.get("data-y"))): e.get("data-stone")
                for e in cells if e.get("data-stone")}
        assert held == shown(game, move)
        marked = {(int(e.get("data-x")), int(e.get("data-y"))) for e in cells
                  if "bridge" in e.get("class").split()}
        won = move >= game.win
        assert bool(marked) == won
        assert ('class="structure over"' in document) == won
        assert f"move {move}" in ET.fromstring(document.encode()).find(f"{SVG}title").text
    assert f"move {game.win}" in position_svg(game).split("</title>")[0]
    with pytest.raises(InputError, match="moves"):
        position_svg(game, len(game.steps) + 1)


class Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def test_the_page_is_self_contained():
    game, _ = bridge_game()
    page = game_page(game, 0)
    parser = Tags()
    parser.feed(page)
    tags = parser.tags
    # Nothing the browser would fetch: no links, sources, imports or URLs
    # (the one address is the SVG namespace, a name, never fetched).
    assert not [t for t, a in tags if t in ("link", "img", "iframe", "object", "embed")]
    assert not [a for _, a in tags if "src" in a or "href" in a]
    assert "@import" not in page and "url(" not in page
    assert re.findall(r"https?://[^\"' ]+", page) == ["http://www.w3.org/2000/svg"]
    root = [a for t, a in tags if a.get("id") == "havhex-game"][0]
    assert root["data-move"] == "0" and root["data-moves"] == str(len(game.steps))
    assert root["data-win"] == str(game.win) and root["data-structure"] == "hidden"
    for name in ("first", "prev", "next", "last", "status"):
        assert [a for _, a in tags if a.get("id") == name]
    data = json.loads(re.search(r'id="havhex-steps">(.*?)</script>', page, re.S).group(1))
    assert data["win"] == game.win and len(data["steps"]) == len(game.steps)
    # Opened at the winning move unless told.
    assert 'data-structure="shown"' in game_page(game)


def test_the_page_data_cannot_close_its_script():
    game = game_steps("havannah", 3, [(1, 1)], heading="</script><b>")
    page = game_page(game)
    assert page.count("</script>") == 2
    assert "<b>" not in page


@pytest.mark.parametrize("kind, size, moves", [
    ("havannah", 3, [(2, 2), "swap", (1, 1), (3, 3), (1, 2)]),
    ("hex", 3, [(0, 0), (2, 2), (1, 0), (1, 2), (2, 0)]),
])
def test_cells_by_name_step_as_the_cells_do(kind, size, moves):
    # A move given by its name ("a1") is the cell the board reads, not a swap.
    board = (HavannahBoard(size) if kind == "havannah" else HexBoard(size))
    names = [move if isinstance(move, str) else board.cell_name(move) for move in moves]
    assert all(isinstance(name, str) for name in names)
    by_cell = game_steps(kind, size, moves)
    by_name = game_steps(kind, size, names)
    assert by_name.illegal is None and by_cell.illegal is None
    assert [changes for _, changes in by_name.steps] == [changes for _, changes in by_cell.steps]
    assert [label for label, _ in by_name.steps] == [label for label, _ in by_cell.steps]
    assert by_name.win == by_cell.win
