"""havhex.hex.cases: an input's boards, read and checked as judge_file reads
them (the ``draw`` command reads its case through it)."""
import pytest

from conftest import write
from havhex import InputError
from havhex.hex import cases


def test_boards_hold_the_rows(tmp_path):
    boards = [["R"], ["B.", ".R"], ["R.B", "...", "BBR"]]
    text = f"{len(boards)}\n" + "".join(f"{len(rows)}\n" + "\n".join(rows) + "\n" for rows in boards)
    path = write(tmp_path, "boards.in", text.replace("\n", "\r\n"))
    for read in (cases.read_boards(str(path)), cases.read_boards_text(text)):
        assert len(read) == len(boards)
        for number, rows in enumerate(boards, 1):
            assert read.size(number) == len(rows)
            assert read.rows(number) == rows
    assert cases.read_boards(str(path)).source == str(path)


def test_faults_and_missing_cases_are_input_errors(tmp_path):
    path = write(tmp_path, "bad.in", "1\n2\nRX\n..\n")
    with pytest.raises(InputError) as raised:
        cases.read_boards(str(path))
    assert raised.value.line == 3 and raised.value.source == str(path)
    read = cases.read_boards_text("2\n1\nR\n1\n.\n")
    for number, message in ((3, r"there is no case #3 \(the input has 2 cases\)"),
                            (0, r"there is no case #0 \(cases are numbered from 1\)")):
        for accessor in (read.size, read.rows):
            with pytest.raises(InputError, match=message):
                accessor(number)
