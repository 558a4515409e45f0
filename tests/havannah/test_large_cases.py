"""Cases of hundreds of thousands of moves (the reader grows their arrays many
times): complete, cut short by a fault, and with a late repeat."""
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
