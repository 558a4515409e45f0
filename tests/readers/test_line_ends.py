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
    """Both engines take the reader's statuses and the faults both formats
    have from _native (reader.pxd, faults.pxd); the messages read them from
    an engine."""
    from havhex import errors
    from havhex.havannah import _judge as havannah_engine
    from havhex.hex import _judge as hex_engine

    assert havannah_engine.TOKEN_CODES == hex_engine.TOKEN_CODES
    assert len(set(hex_engine.TOKEN_CODES)) == 4
    shared = havannah_engine.SHARED_FAULT_CODES
    assert shared == hex_engine.SHARED_FAULT_CODES and len(set(shared)) == 3
    token, trailing, memory = shared
    for engine, count in ((havannah_engine, 7), (hex_engine, 9)):
        codes = engine.FAULT_CODES
        assert len(set(codes)) == count and 0 not in codes
        assert (codes[0], codes[-2], codes[-1]) == (token, trailing, memory)
    missing, not_integer, too_long, _ = hex_engine.TOKEN_CODES
    assert errors.token_reason(missing, "T", b"", 0, hex_engine) == "input ends before T"
    assert errors.token_reason(not_integer, "T", b"x", 0, hex_engine) == "expected T as an integer, found 'x'"
    assert errors.token_reason(too_long, "T", b"9" * 19, 0, hex_engine).startswith("T is too long")


def test_both_engines_keep_one_fault_record():
    """The err_* fields, the cancel flag and the reader's opening come from one
    class body (_native/engine_input.pxi) that both engines' inputs extend."""
    from havhex.havannah import _judge as havannah_engine
    from havhex.hex import _judge as hex_engine

    token = hex_engine.SHARED_FAULT_CODES[0]
    not_integer = hex_engine.TOKEN_CODES[1]
    shared = {"err_code", "err_status", "err_field", "err_line", "err_value", "err_io_errno",
              "err_token", "cancel"}
    for parsed in (havannah_engine.parse(b"1\n2 1\nx 1\n"), hex_engine.parse(b"1\nx\n")):
        base = type(parsed).__base__
        assert base.__name__ == "EngineInput" and shared <= set(vars(base))
        assert not shared & set(vars(type(parsed)))
        assert (parsed.err_code, parsed.err_status, parsed.err_token) == (token, not_integer, b"x")


def test_limits_and_codes_are_read_from_the_engines():
    """The facades take the board limits and the engines' codes from the
    engines (the same objects), rather than writing them again."""
    from havhex import havannah, hex as hx
    from havhex.havannah import _judge as havannah_engine, _result as havannah_results
    from havhex.hex import _judge as hex_engine, _result as hex_results

    assert havannah.MAX_SIZE is havannah_engine.MAX_SIZE and havannah.MAX_SIZE == 1 << 30
    assert hx.MAX_SIZE is hex_engine.MAX_SIZE and hx.MAX_SIZE == 30000
    assert havannah_results._KIND_BITS is havannah_engine.KIND_BITS
    assert len(set(havannah_engine.KIND_BITS)) == 3
    assert list(hex_results._STATUS_OF_CODE) == list(hex_engine.VERDICT_CODES)
    assert list(hex_results._REASON_OF_CODE) == list(hex_engine.REASON_CODES)
    assert list(hex_results._COLOUR_OF_CODE) == list(hex_engine.COLOUR_CODES)
