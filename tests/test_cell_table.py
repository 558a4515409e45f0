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
