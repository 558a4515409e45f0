"""Cases of hundreds of thousands of moves (the reader grows their arrays many
times): complete, cut short by a fault, and with a late repeat."""
import gc

import pytest

from havhex import InputError, havannah

SIZE = 1000  # a board of 2,997,001 hexagons


def _moves(count):
    """``count`` distinct cells along the rows of the board, no structure:
    every other cell of every other row, away from the corners."""
    moves = []
    x = 3
    while len(moves) < count:
        low, high = max(1, x - SIZE + 1), min(2 * SIZE - 1, x + SIZE - 1)
        moves.extend((x, y) for y in range(low + 2, high - 1, 2))
        x += 2
    return moves[:count]


@pytest.fixture(scope="module")
def big_case():
    return _moves(600_000)


def _text(moves, claimed=None):
    lines = ["1", f"{SIZE} {len(moves) if claimed is None else claimed}"]
    lines += [f"{x} {y}" for x, y in moves]
    return "\n".join(lines) + "\n"


def test_complete_large_case(big_case):
    # The stones stand apart (every other cell of every other row): no group
    # ever touches two corners or three edges, and nothing is enclosed.
    assert [str(r) for r in havannah.judge_text(_text(big_case), threads=2)] == ["none"]


def test_large_case_cut_short(big_case):
    with pytest.raises(InputError) as fault:
        havannah.judge_text(_text(big_case, claimed=len(big_case) + 1))
    assert fault.value.line == len(big_case) + 2
    assert "input ends before the x of move 600001" in str(fault.value)


def test_large_case_repeat_before_a_later_fault(big_case):
    moves = big_case + [big_case[123_456], (10**9, 1)]
    with pytest.raises(InputError) as fault:
        havannah.judge_text(_text(moves))
    assert fault.value.line == len(big_case) + 3
    assert f"move {len(big_case) + 1} of case #1 plays" in str(fault.value)
    assert "first played in move 123457" in str(fault.value)


@pytest.mark.parametrize("ending", ["\r\n", "\r"])
def test_large_case_line_ends(big_case, ending):
    """The one-move-a-line fast path and the general path count lines alike."""
    moves = big_case[:300_000] + [(10**9, 1)]
    text = _text(moves).replace("\n", ending)
    with pytest.raises(InputError) as fault:
        havannah.judge_text(text)
    assert fault.value.line == 300_000 + 3, str(fault.value)
    assert "(1000000000, 1), is off the board" in str(fault.value)


def test_a_large_cases_coordinates_wait_for_the_next_large_case(big_case):
    """A freed large case's coordinates wait in a slot for the next large
    case (an allocator that hands large blocks back to the system would
    have them faulted in anew); judging again takes and gives back the same
    blocks, so the slots do not fill up, and never hold more than their
    bound."""
    from havhex.havannah import _judge

    gc.collect()                # inputs earlier tests left give back their blocks first
    _judge._spare_coords(empty=True)
    text = _text(big_case).encode()
    expected = [str(result) for result in havannah.judge_text(text)]
    kept = _judge._spare_coords()
    assert len(kept) == 1 and kept[0] >= 8 * len(big_case)
    for _ in range(3):
        assert [str(result) for result in havannah.judge_text(text)] == expected
        assert _judge._spare_coords() == kept
    many = "".join(_text(big_case[:150_000 + 1000 * number]).partition("\n")[2]
                   for number in range(8))
    havannah.judge_text(f"8\n{many}")
    assert len(_judge._spare_coords()) <= 4
    assert all(size <= 16 << 20 for size in _judge._spare_coords())


def test_a_case_on_kept_coordinates_reads_only_its_own_moves(big_case):
    """A smaller case judged on a larger case's kept block (the block is
    taken, not a new one made: the slots hold that one block after): only
    its own moves count, what the earlier case left behind is never read."""
    from havhex.havannah import _judge

    gc.collect()                # inputs earlier tests left give back their blocks first
    _judge._spare_coords(empty=True)
    havannah.judge_text(_text(big_case).encode())
    kept = _judge._spare_coords()
    moves = big_case[300_000:150_000:-1] + [big_case[200_000]]
    with pytest.raises(InputError) as fault:
        havannah.judge_text(_text(moves).encode())
    message = str(fault.value)
    del fault                   # its traceback holds the parsed input, and the block
    gc.collect()
    assert _judge._spare_coords() == kept
    # big_case[200_000] is the 100,001st move of the reversed run.
    assert f"move {len(moves)} of case #1 plays" in message
    assert "first played in move 100001" in message
