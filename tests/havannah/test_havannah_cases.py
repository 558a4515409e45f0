"""havhex.havannah.cases: an input's cases with their moves, judged as
judge_file judges them (the ``draw`` command reads its case through it)."""
import pytest

import ref_havannah as ref
from conftest import write
from havhex import InputError, havannah
from havhex.havannah import cases


def test_cases_hold_the_moves_and_the_verdicts(tmp_path):
    import random

    rng = random.Random(3)
    games = [(size, ref.random_game(rng, size)) for size in (2, 3, 5, 8, 4)]
    text = f"{len(games)}\n" + "".join(
        f"{size} {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves) for size, moves in games)
    path = write(tmp_path, "games.in", text)
    for judged in (cases.read_cases(str(path)), cases.read_cases_text(text)):
        assert len(judged) == len(games)
        assert [judged.result(n) for n in range(1, len(games) + 1)] == havannah.judge_text(text)
        for number, (size, moves) in enumerate(games, 1):
            assert judged.size(number) == size
            assert judged.move_count(number) == len(moves)
            assert judged.moves(number) == moves
            assert judged.moves(number, 3) == moves[:3]
            assert judged.moves(number, 0) == []
    assert cases.read_cases(str(path)).source == str(path)


def test_faults_and_missing_cases_are_input_errors(tmp_path):
    path = write(tmp_path, "bad.in", "1\n2 2\n1 1\n9 9\n")
    with pytest.raises(InputError) as raised:
        cases.read_cases(str(path))
    assert raised.value.line == 4 and raised.value.source == str(path)
    with pytest.raises(InputError, match=r"plays \(1, 1\) again"):
        cases.read_cases_text("1\n2 2\n1 1\n1 1\n")
    judged = cases.read_cases_text("1\n2 0\n")
    for number, message in ((2, r"there is no case #2 \(the input has 1 case\)"),
                            (0, r"there is no case #0 \(cases are numbered from 1\)")):
        for accessor in (judged.size, judged.result, judged.moves, judged.move_count):
            with pytest.raises(InputError, match=message):
                accessor(number)
