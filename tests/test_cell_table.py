"""The Havannah kernel's cell table keeps a cell's key and its stone in one
64-bit word.  Where both do not fit (a board of side near 2**30 and more than
four moves), the word keeps the key's low bits only, and a match must be
confirmed on the move's own coordinates.  These tests lay out a probe chain
by hand (a fixed hash multiplier) so that two cells whose keys differ only in
the bits cut off meet in one chain."""
from havhex import _havannah

SIDE = 1 << 30          # cells up to 2**31 - 1: 31 bits a coordinate
TWIN_X = 1000


def _judge(moves, multiplier=1):
    text = f"1\n{SIDE} {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves)
    parsed = _havannah.parse(text.encode())
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
