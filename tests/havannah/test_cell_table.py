"""The Havannah kernel's cell table keeps a cell's key and its stone in one
64-bit word.  Where both do not fit (a board of side near 2**30 and more than
four moves), the word keeps the key's low bits only, and a match must be
confirmed on the move's own coordinates.  These tests lay out a probe chain
by hand (a fixed hash multiplier) so that two cells whose keys differ only in
the bits cut off meet in one chain."""
from havhex.havannah import _judge as havannah_engine

SIDE = 1 << 30          # cells up to 2**31 - 1: 31 bits a coordinate
TWIN_X = 1000


def _judge(moves, multiplier=1):
    text = f"1\n{SIDE} {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves)
    parsed = havannah_engine.parse(text.encode())
    parsed._hash_with(multiplier)
    parsed.judge()
    return parsed.results()


def _chain_with_twins():
    """With multiplier 1 a cell's home slot is the top bits of its key
    (x << 31 | y).  The far twin (x + 2**30, y) has its home at slot 16 of
    128; the 22 small cells all have home 0, so they fill slots 0-15 and
    17-22; the near twin then probes from 0 past the far twin's slot.  Its
    key differs from the far twin's only in bit 61, which a 5-bit stone
    number shifts out of the word."""
    far_twin = (TWIN_X + (1 << 30), TWIN_X + 1)
    small = [(10 * i + 10, 10 * i + 11) for i in range(22)]   # none adjacent
    near_twin = (TWIN_X, TWIN_X + 1)
    return far_twin, small, near_twin


def test_cells_whose_keys_share_the_kept_bits_are_told_apart():
    far_twin, small, near_twin = _chain_with_twins()
    kinds, moves, duplicate = _judge([far_twin, *small, near_twin])
    assert duplicate is None
    assert (kinds, moves) == (b"\0", [0])


def test_a_real_repeat_is_still_found_among_twins():
    far_twin, small, near_twin = _chain_with_twins()
    played = [far_twin, *small, near_twin, far_twin]
    _, _, duplicate = _judge(played)
    assert duplicate == (0, len(played) - 1)
    played = [far_twin, *small, near_twin, near_twin]
    _, _, duplicate = _judge(played)
    assert duplicate == (0, len(played) - 1)


def test_a_twin_is_not_taken_for_a_neighbour():
    # The corner (1, 1) looks up its empty neighbour (1, 2); that cell's twin
    # (2**30 + 1, 2) stands in the probe chain, beside the corner (2**30, 1).
    # Taken for a stone, the twin would join the two corners: a bridge.
    corner = (SIDE, 1)
    twin = (SIDE + 1, 2)                      # twin of (1, 2), beside the corner
    small = [(10 * i + 10, 10 * i + 11) for i in range(22)]
    played = [corner, twin, *small, (1, 1)]
    assert _judge(played) == (b"\0", [0], None)


def _ring_only_cases():
    """Random moves packed into a 12 x 12 patch, so that groups, runs and
    rings form (the patch touches no edge of either board below)."""
    import random

    generator = random.Random(20261129)
    for _ in range(40):
        cells = [(x, y) for x in range(12) for y in range(12)]
        generator.shuffle(cells)
        yield cells[:generator.randrange(20, len(cells))]


def test_a_patch_far_out_on_the_largest_board_plays_as_on_a_small_one():
    # On a board of side 2**30 placed near (2**30 + 12345, 2**30 - 777),
    # 2 * 31 key bits and the stone numbers do not fit in a word: every
    # match is confirmed on the coordinates.  On a board of side 40 around
    # its centre, they fit.  Away from the edges only rings can be made, so
    # both must find the same first ring at the same move.
    from havhex import havannah

    for patch in _ring_only_cases():
        small = [(x + 34, y + 34) for x, y in patch]
        far = [(x + SIDE + 12345, y + SIDE - 777) for x, y in patch]
        expected = havannah.first_win(40, small)
        assert havannah.first_win(SIDE, far) == expected
        kinds, moves, duplicate = _judge(far, multiplier=0x9E3779B97F4A7C15)
        assert duplicate is None
        assert moves[0] == (expected.move or 0)


# ---------------------------------------------------------------------------
# Bad multipliers: a table whose probe chains grow long is rebuilt with a
# fresh multiplier.  The work is counted (_table_work), never timed.
# ---------------------------------------------------------------------------

# A multiplier under which a 1000 x 1000 block at S = 3000, played row by
# row, falls into long runs of one probe chain.
BAD_FOR_BLOCKS = 0xbea94e31d9969e03
GOOD = 0x9E3779B97F4A7C15


def _block(side, corner, size):
    from array import array

    coords = array("i")
    for x in range(corner, corner + side):
        for y in range(corner, corner + side):
            coords.extend((x, y))
    return coords


def _judge_moves(size, coords, multiplier):
    parsed = havannah_engine.from_moves(size, coords)
    parsed._hash_with(multiplier)
    parsed.judge()
    return parsed.results(), parsed._table_work


def test_a_multiplier_that_lays_a_dense_block_in_long_runs_is_replaced():
    coords = _block(1000, 2500, 3000)
    n_moves = len(coords) // 2
    good, (_, _, good_steps) = _judge_moves(3000, coords, GOOD)
    bad, (reseeds, growths, steps) = _judge_moves(3000, coords, BAD_FOR_BLOCKS)
    assert bad == good
    assert reseeds >= 1 and growths == 0       # every move was there: no growth
    # Under the bad multiplier alone this takes about 170 steps a move; the
    # budget is 2 a move before a fresh multiplier is drawn.
    assert steps <= 8 * n_moves, (steps / n_moves, good_steps / n_moves)


def _patch_games(count, side, seed):
    import random

    generator = random.Random(seed)
    for _ in range(count):
        cells = [(x, y) for x in range(side) for y in range(side)]
        generator.shuffle(cells)
        yield cells


def test_rebuilds_keep_the_verdicts():
    # Multiplier 1 puts every small key's home at slot 0: one chain, so the
    # table is rebuilt at its first look at the probe budget (every 256
    # moves, played or inserted after the win).  Rebuilt tables must find
    # the same first ring (small tables, and a table beyond the caches whose
    # moves are planned ahead and must be planned again).
    from array import array

    from havhex import havannah

    for patch_side, board, games in ((40, 100, 6), (700, 1000, 2)):
        for patch in _patch_games(games, patch_side, patch_side):
            moves = [(x + board - patch_side // 2, y + board - patch_side // 2)
                     for x, y in patch]
            coords = array("i", [c for move in moves for c in move])
            expected = havannah.first_win(board, moves)
            (kinds, won, duplicate), (reseeds, _, _) = _judge_moves(board, coords, 1)
            assert reseeds >= 1
            assert duplicate is None and won[0] == (expected.move or 0)
