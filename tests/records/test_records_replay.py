"""havhex.records: replaying records against the literal reference games.

Random games are played on the reference boards (tests/support), written
as records (SGF Hex; Little Golem Havannah with its coordinates), and
replayed: the first winning move, its player and kinds, the end and the
flags must be what the reference says.  Then the Little Golem archive's
known figures.
"""
import os
import random
from pathlib import Path

import pytest

import needs
import ref_hex_board
from sgf_names import hex_cell_name
from ref_havannah_board import RefBoard
from havhex import InputError, records

LITTLE_GOLEM = Path(__file__).resolve().parents[2].parent / "shared" / "records" / "littlegolem-havannah"
GAMES = max(20, int(os.environ.get("HAVHEX_BOARD_GAMES", "500")) // 2)


def lg_cell(size, cell):
    """Little Golem's name of the board cell (x, y): the inverse of the
    mapping that docs/records.md states."""
    x, y = cell
    r, c = y - 1, x - 1
    if r >= size:
        c -= r + 1 - size
    return f"{chr(65 + r)}{c + 1}"


def random_hex_game(rng, rows, cols, swap_first):
    game = ref_hex_board.Game(rows, cols, swap=True)
    letters = []
    while game.winner is None:
        legal = game.legal_moves()
        swaps = [m for m in legal if m in ref_hex_board.SWAPS]
        move = rng.choice(swaps) if swaps and swap_first else rng.choice(
            [m for m in legal if m not in ref_hex_board.SWAPS])
        # The record names a move by the colour that plays it.
        letters.append("B" if game.to_move == "red" else "W")
        game.play(move)
    return game, letters


def hex_record(rows, cols, moves, letters, result=None, extra=""):
    size = f"{rows}" if rows == cols else f"{cols}:{rows}"
    body = "".join(f";{letter}[{m if isinstance(m, str) else hex_cell_name(m)}]"
                   for letter, m in zip(letters, moves))
    re = f"RE[{result}]" if result else ""
    return f"(;FF[4]GM[11]SZ[{size}]{re}{extra}{body})"


def test_hex_games_replay_as_the_reference_plays_them():
    rng = random.Random(14)
    texts, expected = [], []
    for number in range(GAMES):
        rows, cols = rng.randint(1, 9), rng.randint(1, 9)
        if number % 2:
            cols = rows
        game, letters = random_hex_game(rng, rows, cols, swap_first=number % 3 == 0)
        winner = "B" if game.winner == "red" else "W"
        # Every fifth record claims the other winner.
        claimed = winner if number % 5 else ("W" if winner == "B" else "B")
        texts.append(hex_record(rows, cols, game.moves, letters, f"{claimed}+"))
        expected.append((len(game.moves), winner, claimed))
    replays = list(records.replay("\n".join(texts).encode()))
    assert len(replays) == GAMES
    for index, (replayed, (moves, winner, claimed)) in enumerate(zip(replays, expected), 1):
        assert replayed.record.index == index
        assert replayed.moves == moves
        assert replayed.win.move == moves and replayed.win.player == winner
        assert replayed.win.kinds == ("chain",)
        assert replayed.recorded == claimed
        assert replayed.end == "structure"
        assert replayed.flags == (() if claimed == winner else ("result-disagrees",))


def random_havannah_game(rng, size, rule):
    board = RefBoard(size, rule, swap=True)
    letters = []
    kinds = ()
    while not board.is_over:
        legal = board.legal_moves()
        move = "swap" if "swap" in legal and rng.random() < 0.3 else rng.choice(
            [m for m in legal if m != "swap"])
        letters.append("W" if board.to_move == "white" else "B")
        kinds = board.play(move)
    return board, letters, kinds


def lg_record(size, moves, letters, loser=None):
    body = "".join(f";{letter}[{m if m == 'swap' else lg_cell(size, m)}]"
                   for letter, m in zip(letters, moves))
    re = f"RE[{loser}]" if loser else ""
    return f"(;FF[4]SZ[{size}]RU[LG]{re}{body})"


@pytest.mark.parametrize("rule", ["official", "contest"])
def test_havannah_games_replay_as_the_reference_plays_them(rule):
    rng = random.Random(41 if rule == "official" else 42)
    texts, boards = [], []
    for number in range(GAMES // 5):
        size = rng.randint(2, 5)
        board, letters, kinds = random_havannah_game(rng, size, rule)
        loser = None
        if board.winner:
            loser = "B" if board.winner == "white" else "W"   # Little Golem's RE[] names the loser
        texts.append(lg_record(size, board.moves, letters, loser))
        boards.append((board, kinds))
    replays = list(records.replay("".join(texts).encode(), rule, game="havannah"))
    assert len(replays) == len(boards)
    for replayed, (board, kinds) in zip(replays, boards):
        assert replayed.record.game == "havannah"
        assert replayed.moves == len(board.moves)
        if board.winner is None:
            assert replayed.win is None and replayed.end == "none"
            assert replayed.flags == ("no-result",)
            continue
        winner = "W" if board.winner == "white" else "B"
        assert replayed.win.move == board.winning_move + 1
        assert replayed.win.player == winner
        assert set(replayed.win.kinds) == set(kinds)
        assert replayed.recorded == winner
        assert replayed.flags == ()


def test_played_on_illegal_and_resign_are_reported():
    base = "(;FF[4]GM[11]SZ[2]RE[B+];B[a1];W[b1];B[a2]"
    played_on = list(records.replay((base + ";W[b2])").encode()))[0]
    assert played_on.win.move == 3 and played_on.moves == 4
    assert played_on.flags == ("played-on",)
    occupied = list(records.replay(b"(;GM[11]SZ[3];B[a1];W[a1];B[b2])"))[0]
    assert occupied.illegal == (2, "the cell is occupied")
    assert occupied.flags == ("illegal", "no-result") and occupied.win is None
    off = list(records.replay(b"(;GM[11]SZ[3];B[a1];W[d1])"))[0]
    assert off.illegal == (2, "the cell is off the board")
    assert off.record.moves[1] == ("W", "d1")
    late_swap = list(records.replay(b"(;GM[11]SZ[3];B[a1];W[b1];B[swap-sides])"))[0]
    assert late_swap.illegal[0] == 3 and "swap" in late_swap.illegal[1]
    resigned = list(records.replay(b"(;GM[11]SZ[3]RE[W+R];B[a1];W[b1];B[resign])"))[0]
    assert (resigned.moves, resigned.end, resigned.recorded, resigned.flags) == (2, "resign", "W", ())
    out_of_turn = list(records.replay(b"(;GM[11]SZ[3];B[a1];B[b1])"))[0]
    assert out_of_turn.illegal == (2, "played out of turn")


def test_collections_number_games_and_a_broken_one_names_its_line():
    text = b"(;GM[11]SZ[2];B[a1])\n(;GM[11]SZ[2];B[b2])\n\n(;GM[11]SZ[2];B[a1]"
    games = records.read(text)
    # The games before the fault are read; the fault comes where it is.
    assert next(games).index == 1 and next(games).index == 2
    with pytest.raises(InputError) as caught:
        next(games)
    assert caught.value.line == 4 and "never closed" in caught.value.reason
    games = list(records.read(text[:-19]))
    assert [(g.index, g.line, g.moves) for g in games] == [
        (1, 1, (("B", (0, 0)),)), (2, 2, (("B", (1, 1)),))]


def test_variations_follow_the_main_line():
    text = b"(;GM[11]SZ[3];B[a1](;W[b1](;B[c1])(;B[c2]));W[c3])(;GM[11]SZ[3];B[b2](;W[a1])(;W[a2]))"
    first, second = records.read(text)
    assert [m for _, m in first.moves] == [(0, 0), (0, 1), (0, 2)]
    assert [m for _, m in second.moves] == [(1, 1), (0, 0)]


@pytest.fixture
def little_golem():
    needs.shared("records", "littlegolem-havannah", need="records")
    return sorted(LITTLE_GOLEM.glob("*.hgf"))


@pytest.mark.parametrize("rule, last_stone, resigned, nothing", [
    ("official", 1056, 860, 230), ("contest", 1002, 860, 284)])
def test_little_golem_archive(little_golem, rule, last_stone, resigned, nothing):
    """docs/records.md's figures, both players on the board: under the official
    rule 1,056 games end with the last stone completing a structure (the
    1,045 + 11 own-stones rings), under the contest rule 1,002 (a loop
    around the opponent's stones encloses no empty cell); none is won
    earlier; 860 resign with nothing built."""
    counts = {"last": 0, "earlier": 0, "resign": 0, "nothing": 0, "disagrees": 0}
    games = 0
    for path in little_golem:
        for replayed in records.replay(path, rule):
            games += 1
            assert "illegal" not in replayed.flags, (path, replayed.illegal)
            if replayed.win is None:
                counts["resign" if replayed.end == "resign" else "nothing"] += 1
            elif replayed.win.move == replayed.moves:
                counts["last"] += 1
            else:
                counts["earlier"] += 1
            counts["disagrees"] += "result-disagrees" in replayed.flags
    assert games == 2146
    assert counts == {"last": last_stone, "earlier": 0, "resign": resigned,
                      "nothing": nothing, "disagrees": 0}


def test_cuts_for_workers_fall_between_games_with_their_counts():
    """game_ranges walks only brackets and parentheses: its cuts must be
    where the reader's games end, with the games and lines before them."""
    from havhex.records import _reader

    parts = []
    for number in range(200):
        comment = "a ( b \\] c\n" * (number % 3)
        parts.append(f"(;GM[11]SZ[3]C[{comment}](;B[a1];W[b{number % 3 + 1}])(;B[c3]))\n")
    data = "".join(parts).encode()
    games = list(records.read(data))
    offset = 0
    ends = []
    for part in parts:
        offset += len(part.encode())
        ends.append(offset - 1)          # the newline after the closing ')'
    for pieces in (2, 7, 50):
        cuts = _reader.game_ranges(memoryview(data), pieces)
        assert cuts[0] == (0, 0, 1) and cuts[-1] == (len(data), -1, -1)
        assert len(cuts) > 2
        for offset, before, line in cuts[1:-1]:
            assert offset == ends[before - 1]
            assert line == _reader.line_of(memoryview(data), offset)
            rest = list(records.game.read_bytes(data[offset:], "<bytes>", None, before + 1, line))
            assert [(g.index, g.line, g.moves) for g in rest] == [
                (g.index, g.line, g.moves) for g in games[before:]]
