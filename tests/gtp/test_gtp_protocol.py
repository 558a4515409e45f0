"""havhex.gtp.protocol against the GTP 2 specification: preprocessing of
commands (ids, comments, control characters, tabs, empty lines), answers
(ids, multi-line text) and the parsing of answers, malformed ones included."""
import pytest

from havhex.gtp import Command, ProtocolError, Response, answer, parse_command, parse_response


@pytest.mark.parametrize("line, expected", [
    ("play b a1", Command(None, "play", ("b", "a1"))),
    ("play b a1\n", Command(None, "play", ("b", "a1"))),
    ("12 genmove w", Command(12, "genmove", ("w",))),
    ("0 name", Command(0, "name", ())),
    ("007 name", Command(7, "name", ())),
    ("  3   boardsize   11  ", Command(3, "boardsize", ("11",))),
    ("3\tplay\tb\ta1", Command(3, "play", ("b", "a1"))),
    ("play b a1 # the first move", Command(None, "play", ("b", "a1"))),
    ("play b a1#no space", Command(None, "play", ("b", "a1"))),
    ("pl\x01ay b\x7f a1\r\n", Command(None, "play", ("b", "a1"))),
    ("play b a1\r", Command(None, "play", ("b", "a1"))),
    ("list_commands\x00", Command(None, "list_commands", ())),
    ("3foo", Command(None, "3foo", ())),
    ("-3 foo", Command(None, "-3", ("foo",))),
    ("42", Command(42, "", ())),
    ("42 # only an id", Command(42, "", ())),
    ("boardsize 11 11", Command(None, "boardsize", ("11", "11"))),
])
def test_parse_command(line, expected):
    assert parse_command(line) == expected


@pytest.mark.parametrize("line", ["", "\n", "   ", "\t\t", "# a comment", "   # indented",
                                  "\x01\x02\r\n", "\r", "\t# tab then comment"])
def test_lines_without_a_command_are_none(line):
    assert parse_command(line) is None


def test_unicode_digits_are_not_an_id():
    # str.isdigit() says yes to Arabic-Indic digits; the id is ASCII digits only.
    assert parse_command("\u0663 name") == Command(None, "\u0663", ("name",))


@pytest.mark.parametrize("args, expected", [
    ((None, ""), "=\n\n"),
    ((None, "ok"), "= ok\n\n"),
    ((3, ""), "=3\n\n"),
    ((3, "ok"), "=3 ok\n\n"),
    ((3, "illegal move", False), "?3 illegal move\n\n"),
    ((None, "unknown command", False), "? unknown command\n\n"),
    ((7, "a\nb\nc"), "=7 a\nb\nc\n\n"),
    ((7, "a\n\nb\n\n\n"), "=7 a\nb\n\n"),
    ((7, "a  \n  \nb"), "=7 a\nb\n\n"),
    ((7, "\n  a b\n1 . .\n"), "=7\n  a b\n1 . .\n\n"),
    ((None, "x\ty\x01z"), "= x yz\n\n"),
    ((None, "\r\n"), "=\n\n"),
])
def test_answer(args, expected):
    assert answer(*args) == expected


def test_an_answer_never_holds_an_empty_line_but_its_end():
    text = answer(5, "\n\nrow one\n\n\r\n\nrow two\n\n")
    assert text.endswith("\n\n")
    assert "\n\n" not in text[:-2]


@pytest.mark.parametrize("text, expected", [
    ("=", Response(True, None, "")),
    ("= ", Response(True, None, "")),
    ("=3", Response(True, 3, "")),
    ("=3 b4", Response(True, 3, "b4")),
    ("= b4", Response(True, None, "b4")),
    ("= 3", Response(True, None, "3")),
    ("?12 illegal move", Response(False, 12, "illegal move")),
    ("? unknown command", Response(False, None, "unknown command")),
    ("?", Response(False, None, "")),
    ("= b4\n", Response(True, None, "b4")),
    ("= b4\r\n", Response(True, None, "b4")),
    ("=\t b4", Response(True, None, "b4")),
    ("\n\n= b4", Response(True, None, "b4")),
    ("=1 line one\nline two\nline three", Response(True, 1, "line one\nline two\nline three")),
    ("=1\n  a b\n1 . .", Response(True, 1, "  a b\n1 . .")),
    ("= a\r\nb\r\n", Response(True, None, "a\nb")),
])
def test_parse_response(text, expected):
    assert parse_response(text) == expected


@pytest.mark.parametrize("text", ["", "\n", "b4", "ok = b4", "=b4", "=3b4", "?x",
                                  "== b4", "= a\n\nb", "+ b4", "=-1 b4"])
def test_malformed_responses_raise(text):
    with pytest.raises(ProtocolError):
        parse_response(text)


def test_protocol_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse_response("nonsense")


@pytest.mark.parametrize("command_id", [None, 0, 1, 99])
@pytest.mark.parametrize("ok", [True, False])
@pytest.mark.parametrize("text", ["", "b4", "a\nb", "\n  a b\n1 . ."])
def test_answers_read_back(command_id, ok, text):
    written = answer(command_id, text, ok)
    assert written.endswith("\n\n")
    response = parse_response(written[:-2])
    assert response == Response(ok, command_id, text.lstrip("\n"))


def _reference_answer(command_id, text, ok=True):
    """answer() as its docstring says it: control characters but LF
    dropped (tabs read as spaces), trailing spaces and empty lines dropped,
    a text that starts with a newline starting on the line after the sign."""
    text = "".join(" " if char == "\t" else char for char in text
                   if char in "\t\n" or not (ord(char) < 32 or char == "\x7f"))
    body = "\n".join(line.rstrip() for line in text.split("\n") if line.strip())
    head = ("=" if ok else "?") + ("" if command_id is None else str(command_id))
    if not body:
        return f"{head}\n\n"
    return f"{head}{chr(10) if text.startswith(chr(10)) else ' '}{body}\n\n"


def test_answers_of_every_kind_of_text():
    # answer() takes a short way for one printable line: both ways agree.
    import random
    rng = random.Random(36)
    alphabet = ["a", "b", "1", " ", "\t", "\n", "\r", "\x00", "\x7f", "\u3000", "\u2028",
                "\x85", "\xa0", "\u00e9"]
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(8)))
        command_id = rng.choice([None, 0, 7])
        ok = rng.random() < 0.5
        assert answer(command_id, text, ok) == _reference_answer(command_id, text, ok), repr(text)
