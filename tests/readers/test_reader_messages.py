"""What a message shows of a bad token, and the one rule for numbers.

A bad token is shown as its bytes are, each escaped once: a NUL inside it
does not cut it short, a byte that is not UTF-8 is ``\\xff`` (not
``\\\\xff``).  A number is an optional sign and at most 18 digits, leading
zeros included, whatever its value: 19 digits are "too long" even for 1.
"""
import os

import pytest

from havhex import InputError, havannah, hex as hex_judge
from havhex.havannah import _judge as havannah_engine
from havhex.hex import _judge as hex_engine

GAMES = {"havannah": havannah, "hex": hex_judge}


def _fault(game, data):
    """The fault of ``data`` read in memory, which must be the fault of the
    same bytes read from a pipe."""
    with pytest.raises(InputError) as in_memory:
        GAMES[game].judge_text(data, source="in")
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb") as pipe:     # small inputs: the pipe holds them
        pipe.write(data)
    with os.fdopen(read_end, "rb") as pipe, pytest.raises(InputError) as streamed:
        GAMES[game].judge_file(pipe)
    assert (streamed.value.line, streamed.value.reason) == (in_memory.value.line,
                                                             in_memory.value.reason)
    return in_memory.value


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("data, line, shown", [
    (b"1\x001\n", 1, "'1\\x001'"),                  # a NUL inside a token
    (b"\x00\x00\x00", 1, "'\\x00\\x00\\x00'"),      # nothing but NULs
    ("1\n".encode("utf-16"), 1, "'\\xff\\xfe1\\x00'"),  # a UTF-16 text: its BOM and a NUL
    (b"\xc3\xa9t\xc3\xa9\n", 1, "'\u00e9t\u00e9'"),  # UTF-8 text shows as it reads
    (b"\n\n'x\"\n", 3, "'\\'x\"'"),                 # quotes
    (b"x" * 41, 1, "'" + "x" * 40 + "'..."),        # cut after 40 bytes
    (b"\xff" * 12, 1, "'" + "\\xff" * 10 + "'..."),  # ... or 40 characters shown
    ("\u00e9".encode() * 30, 1, "'" + "\u00e9" * 20 + "'..."),   # never inside a character
])
def test_a_bad_token_is_shown_as_it_is_escaped_once(game, data, line, shown):
    fault = _fault(game, data)
    assert fault.line == line
    assert fault.reason == f"expected the number of test cases T as an integer, found {shown}"


@pytest.mark.parametrize("data, shown", [
    (b"1\n2\nR\xff\nRR\n", "'\\xff'"),
    (b"1\n2\nR\xc3\xa9\nRR\n", "'\u00e9'"),
    (b"1\n2\nR\x00\nRR\n", "'\\x00'"),
])
def test_a_bad_row_character_is_escaped_once(data, shown):
    fault = _fault("hex", data)
    assert fault.reason == f"row 1 of case #1 has {shown} at column 2; only B, R and . are allowed"


def test_trailing_data_is_escaped_once():
    fault = _fault("havannah", b"0\n\xff\xfe\x00x")
    assert (fault.line, fault.reason) == (
        2, "unexpected data after the last test case: '\\xff\\xfe\\x00x'")


def test_the_rule_is_stated_once():
    assert havannah_engine.MAX_NUMBER_DIGITS == hex_engine.MAX_NUMBER_DIGITS == 18


def _padded(text, width):
    """``text`` with every number written with leading zeros to ``width`` digits."""
    return "\n".join(" ".join(word.zfill(width) if word.isdigit() else word for word in line.split())
                     for line in text.splitlines()) + "\n"


HAVANNAH_TEXT = "2\n3 4\n1 1\n1 2\n2 3\n1 3\n5 3\n9 9\n8 9\n7 7\n"
HEX_TEXT = "2\n1\nR\n3\nRB.\nRB.\nR..\n"


@pytest.mark.parametrize("game, text", [("havannah", HAVANNAH_TEXT), ("hex", HEX_TEXT)])
def test_leading_zeros_are_read_up_to_18_digits(game, text):
    judge = GAMES[game]
    expected = judge.judge_text(text)
    assert judge.judge_text(_padded(text, 18)) == expected
    assert judge.judge_text("+" + _padded(text, 18)) == expected
    assert judge.judge_text("-" + "0" * 18 + "\n") == []        # -0 cases: none


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("number", ["0000000000000000001", "0000000000000000000",
                                    "-0000000000000000001", "+1000000000000000000",
                                    "1" * 60])
def test_more_than_18_digits_are_too_long_whatever_the_value(game, number):
    fault = _fault(game, number.encode() + b"\n")
    shown = number if len(number) <= 40 else number[:40]
    assert fault.reason == (f"the number of test cases T is too long: '{shown}'"
                            + ("..." if len(number) > 40 else "")
                            + " (a number has at most 18 digits)")


def test_a_long_number_in_a_move_is_too_long_in_the_fast_paths_too():
    """A move line of 19 digits after long regular runs (where the in-memory
    read takes its fast paths)."""
    moves = "".join(f"{1 + i % 9} {1 + i % 9}\n" for i in range(9))
    for bad in ("0000000000000000001 1", "1 0000000000000000001"):
        text = f"1\n10 10\n{moves}{bad}\n" + " " * 100
        fault = _fault("havannah", text.encode())
        field = "x" if bad.startswith("0") else "y"
        assert (fault.line, fault.reason) == (
            12, f"the {field} of move 10 of case #1 is too long: '0000000000000000001' "
            "(a number has at most 18 digits)")
