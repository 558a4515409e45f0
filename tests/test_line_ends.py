"""Faults name the right line whatever the line ends: LF, CRLF or a lone CR."""
import pytest

from havhex import havannah, hex as hex_judge, InputError

ENDINGS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r"}


@pytest.mark.parametrize("ending", ENDINGS)
def test_havannah_fault_line(ending):
    lines = ["2", "3 2", "1 1", "1 2", "3 3", "1 1", "", "9 9"]
    text = ENDINGS[ending].join(lines) + ENDINGS[ending]
    with pytest.raises(InputError) as fault:
        havannah.judge_text(text, source="in")
    assert fault.value.line == 8, str(fault.value)
    assert "(9, 9)" in str(fault.value)


@pytest.mark.parametrize("ending", ENDINGS)
def test_havannah_fault_line_in_the_slow_path(ending):
    # Numbers of 8 digits or more, and long runs of blanks, take the slow reader.
    lines = ["1", "3 2", "00000001   00000001", "", "", "1 x"]
    text = ENDINGS[ending].join(lines)
    with pytest.raises(InputError) as fault:
        havannah.judge_text(text, source="in")
    assert fault.value.line == 6, str(fault.value)


@pytest.mark.parametrize("ending", ENDINGS)
def test_hex_fault_line(ending):
    lines = ["2", "1", "R", "2", "RB", "B?"]
    text = ENDINGS[ending].join(lines) + ENDINGS[ending]
    with pytest.raises(InputError) as fault:
        hex_judge.judge_text(text, source="in")
    assert fault.value.line == 6, str(fault.value)


@pytest.mark.parametrize("ending", ENDINGS)
def test_answers_do_not_depend_on_line_ends(ending):
    lines = ["1", "3 4", "1 1", "2 2", "2 3", "1 3"]
    text = ENDINGS[ending].join(lines) + ENDINGS[ending]
    assert [str(r) for r in havannah.judge_text(text)] == ["bridge in move 4"]


def test_hex_names_a_nul_character():
    with pytest.raises(InputError) as fault:
        hex_judge.judge_text(b"1\n2\nR\0\nRR\n", source="in")
    assert "'\\x00'" in str(fault.value) and fault.value.line == 3


def test_reader_codes_are_stated_once():
    from havhex import errors
    from havhex.havannah import _judge as havannah_engine
    from havhex.hex import _judge as hex_engine

    reader_codes = (errors._TOKEN_MISSING, errors._TOKEN_NOT_INTEGER, errors._TOKEN_TOO_LONG,
                    errors._TOKEN_IO_ERROR)
    assert havannah_engine.TOKEN_CODES == hex_engine.TOKEN_CODES == reader_codes
    assert len(set(havannah_engine.FAULT_CODES)) == 7 and len(set(hex_engine.FAULT_CODES)) == 9
