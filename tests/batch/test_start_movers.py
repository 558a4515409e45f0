"""Start positions and the colour to move (issue 36, E5): after a swap the
stones do not tell who moves, so both batches take ``to_move``; Hex's
positions from records carry it, checked against every prefix of the games
of examples/hex-games.sgf on the live board; Havannah's default accepts the
position a swap leaves; neither accepts a position only a swap reaches when
the swap is off."""
from pathlib import Path

import pytest

import needs

np = needs.module("numpy")

from havhex import records  # noqa: E402
from havhex.havannah import batch as havannah_batch  # noqa: E402
from havhex.hex import batch as hex_batch  # noqa: E402

HEX_GAMES = Path(__file__).resolve().parents[2] / "examples" / "hex-games.sgf"
COLOURS = {"red": 1, "blue": 2}


def hex_prefixes(game):
    """(stones, colour to move, legal mask) before each move of a record's
    game on the live board, up to the last before its end; the position
    just after swap-sides is left out (the same stones and mover as before
    it, with the swap spent, which a batch's position cannot say)."""
    board = game.board()
    seen = [(board.to_array(), COLOURS[board.to_move], board.legal_mask())]
    for _player, move in game.moves:
        try:
            if board.play(move):
                break
        except ValueError:
            break
        if move != "swap-sides":
            seen.append((board.to_array(), COLOURS[board.to_move], board.legal_mask()))
    return seen


def hex_records():
    return [game for game in records.read(HEX_GAMES) if game.game == "hex"]


def test_every_prefix_of_the_example_games_starts_with_the_live_boards_mover():
    games = hex_records()
    assert any(move == "swap-pieces" for game in games for _, move in game.moves)
    swapped_equal_counts = 0
    for game in games:
        prefixes = hex_prefixes(game)
        rows, cols = game.size
        batch = hex_batch.Batch(len(prefixes), rows, cols=cols, swap=True, seed=5)
        stones = np.array([stones for stones, _, _ in prefixes])
        movers = np.array([mover for _, mover, _ in prefixes])
        batch.set_positions(stones, to_move=movers)
        assert np.array_equal(batch.stones(), stones)
        # Plane 2 is all True when the player to move is Blue.
        assert np.array_equal(batch.observation[:, 0, 0, 2], movers == 2)
        assert np.array_equal(batch.legal_action_mask, np.array([m for _, _, m in prefixes]))
        red, blue = (stones == 1).sum(axis=(1, 2)), (stones == 2).sum(axis=(1, 2))
        swapped_equal_counts += int(((red == blue) & (movers == 2)).sum())
        # The same as starts drawn by every reset.
        batch.set_starts(stones, to_move=movers)
        batch.reset()
        drawn = {tuple(s.ravel()) + (int(p),) for s, p in
                 zip(batch.stones(), 1 + batch.observation[:, 0, 0, 2])}
        assert drawn <= {tuple(s.ravel()) + (int(p),) for s, p in zip(stones, movers)}
    assert swapped_equal_counts >= 20       # game 1: 20 prefixes the counts get wrong


def test_positions_from_records_carry_their_mover():
    games = hex_records()
    known = set()
    for game in games:
        if tuple(game.size) == (7, 7):
            known |= {tuple(stones.ravel()) + (mover,) for stones, mover, _ in hex_prefixes(game)}
    positions, movers = hex_batch.record_positions(games, 400, seed=3, size=(7, 7),
                                                   with_to_move=True)
    assert positions.shape == (400, 7, 7) and movers.shape == (400,)
    drawn = {tuple(s.ravel()) + (int(m),) for s, m in zip(positions, movers)}
    assert drawn <= known
    assert any(m == 2 and (s == 1).sum() == (s == 2).sum() for s, m in zip(positions, movers))
    batch = hex_batch.Batch(400, 7, swap=True, seed=6)
    batch.set_positions_from_records(games, seed=3)
    started = {tuple(s.ravel()) + (int(p),) for s, p in
               zip(batch.stones(), 1 + batch.observation[:, 0, 0, 2])}
    assert started <= known
    assert np.array_equal(hex_batch.record_positions(games, 400, seed=3, size=(7, 7)), positions)


def test_hex_without_the_swap_refuses_what_only_a_swap_reaches():
    lone_blue = np.zeros((1, 5, 5), np.int8)
    lone_blue[0, 1, 3] = 2
    even = np.zeros((1, 5, 5), np.int8)
    even[0, 0, 0], even[0, 4, 4] = 1, 2
    plain = hex_batch.Batch(1, 5, swap=False, seed=1)
    with pytest.raises(ValueError, match="swap"):
        plain.set_positions(lone_blue)
    with pytest.raises(ValueError, match="swap"):
        plain.set_starts(lone_blue)
    with pytest.raises(ValueError, match="swap"):
        plain.set_positions(even, to_move=[2])
    plain.set_positions(even)                       # Red to move: no swap needed
    swapping = hex_batch.Batch(1, 5, swap=True, seed=1)
    swapping.set_positions(lone_blue)               # Red to move after the swap
    assert not swapping.observation[0, 0, 0, 2]
    swapping.set_positions(even, to_move=[2])       # Blue, a swap behind
    assert swapping.observation[0, 0, 0, 2] and not swapping.legal_action_mask[0, -1]
    with pytest.raises(ValueError):
        swapping.set_positions(np.zeros((1, 5, 5), np.int8), to_move=[2])
    with pytest.raises(ValueError, match="to_move"):
        swapping.set_positions(even, to_move=[3])


def test_havannah_s_default_mover_takes_the_position_a_swap_leaves():
    width = 7
    after_swap = np.zeros((1, width, width), np.int8)
    after_swap[0, 3, 3] = 2                         # the first stone, now the second colour's
    later = after_swap.copy()
    later[0, 0, 0], later[0, 6, 6] = 1, 2          # then one move each
    batch = havannah_batch.Batch(1, 4, swap=True, seed=2)
    for position in (after_swap, later):
        batch.set_positions(position)
        cells, to_move = batch._core.cells(0)
        assert to_move == 1                         # the first colour moves
        # The first colour's seat moves: its own stones are plane 0.
        assert np.array_equal(batch.observation[0, ..., 0], position[0] == 1)
    plain = havannah_batch.Batch(1, 4, swap=False, seed=2)
    for position in (after_swap, later):
        with pytest.raises(ValueError, match="counts"):
            plain.set_positions(position)
