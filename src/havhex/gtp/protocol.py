"""The wire of the Go Text Protocol, version 2, shared by the engine
(``havhex gtp``) and the arbiter (``havhex match``).

A command is one line, ``[id] command_name [arguments]``; an answer is
``=[id] result`` or ``?[id] error_message`` followed by an empty line.  The id
follows the sign with no space between them, as the specification writes it
(section 2.6): ``=3 text`` answers command 3, ``= 3`` answers a command with
no id with the text ``3``.

>>> parse_command("12 play b a1  # a comment")
Command(id=12, name='play', args=('b', 'a1'))
>>> answer(12, "ok")
'=12 ok\\n\\n'
>>> parse_response("?12 illegal move")
Response(ok=False, id=12, text='illegal move')
"""
import re
from typing import NamedTuple, Optional, Tuple

__all__ = ["Command", "Response", "ProtocolError", "parse_command", "answer",
           "parse_response", "MAX_ID_DIGITS"]

# The longest id a command may carry.  GTP's ids are ints below 2^31; a longer
# one is answered as a fault, never converted: Python refuses to convert more
# than a few thousand digits, and an answer echoes the id.
MAX_ID_DIGITS = 100

# Every control character but HT and LF is discarded on input (CR with
# them, so that a line ending in CR LF reads as one ending in LF), and DEL.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_DIGITS = re.compile("[0-9]+")
# The head of an answer: its sign, the id glued to it, then a space, a
# newline or the end.
_HEAD = re.compile(r"([=?])([0-9]*)(?:[ \t]+|(?=\n)|$)")


class ProtocolError(ValueError):
    """Text that is not a GTP answer."""


class Command(NamedTuple):
    """One command: its id (None when the line has none), name and
    arguments."""
    id: Optional[int]
    name: str
    args: Tuple[str, ...]


class Response(NamedTuple):
    """One answer: success or failure, the id it repeats (None when it has
    none), and its text (lines joined by ``\\n``, no empty line)."""
    ok: bool
    id: Optional[int]
    text: str


def _clean(text: str) -> str:
    """The specification's preprocessing of one line: control characters
    dropped, a comment (from ``#``) dropped, HT read as a space."""
    text = _CONTROL.sub("", text)
    hash_sign = text.find("#")
    if hash_sign >= 0:
        text = text[:hash_sign]
    return text.replace("\t", " ")


def parse_command(line: str) -> Optional[Command]:
    """The command on ``line`` (one line; a trailing newline is allowed),
    None for a line that holds no command (empty, blank or only a comment).

    An id is a first word made only of digits; a line holding only an id
    gives a command with the empty name, which the engine answers with a
    failure for that id.  An id of more than MAX_ID_DIGITS digits raises
    ProtocolError.
    """
    words = _clean(line).split()
    if not words:
        return None
    command_id = None
    if _DIGITS.fullmatch(words[0]) and words[0].isascii():
        if len(words[0]) > MAX_ID_DIGITS:
            raise ProtocolError(f"the id has more than {MAX_ID_DIGITS} digits")
        command_id = int(words[0])
        words = words[1:]
    if not words:
        return Command(command_id, "", ())
    return Command(command_id, words[0], tuple(words[1:]))


def answer(id: Optional[int], text: str = "", ok: bool = True) -> str:
    """The answer to a command with ``id``: ``=id text``, or ``?id text``
    when not ``ok``, and the empty line that ends it.

    A multi-line text is kept line by line; an empty line inside it would end
    the answer early, so empty lines (and trailing spaces, and control
    characters other than the newline) are dropped.  A text that starts with
    a newline keeps it: ``=id`` stands alone on the first line.
    """
    text = str(text)
    if text.isprintable():
        # One line with nothing to drop, most answers: what the general case
        # below makes of it, without its regex and its join.
        body = text.rstrip()
    else:
        text = _CONTROL.sub("", text.replace("\t", " "))
        body = "\n".join(line.rstrip() for line in text.split("\n") if line.strip())
    head = ("=" if ok else "?") + ("" if id is None else str(int(id)))
    if not body:
        return f"{head}\n\n"
    # A text that starts with a newline (a picture of the board) starts on
    # the line after the sign, so that its first row lines up with the rest.
    separator = "\n" if text.startswith("\n") else " "
    return f"{head}{separator}{body}\n\n"


def parse_response(text: str) -> Response:
    """The answer in ``text``: what an engine wrote up to (not including)
    the empty line that ends an answer.

    Carriage returns and other control characters are dropped and leading
    empty lines skipped; anything that does not start with ``=`` or ``?``
    (with an id glued to it, if any, then a space, a newline or nothing)
    raises ProtocolError.
    """
    text = _CONTROL.sub("", text).replace("\t", " ").lstrip("\n ")
    head = _HEAD.match(text)
    if head is None:
        shown = text.split("\n", 1)[0][:60]
        raise ProtocolError(f"not a GTP answer (an answer starts with '=' or '?'): {shown!r}")
    sign, digits = head.group(1), head.group(2)
    body = text[head.end():]
    if body.startswith("\n"):
        body = body[1:]
    raw = body.rstrip().split("\n")
    if "" in raw[:-1]:
        raise ProtocolError("an empty line inside a GTP answer (two answers in one?)")
    lines = [line.rstrip() for line in raw]
    if len(digits) > MAX_ID_DIGITS:
        # No id the other side sent (and past int()'s digit limit, it would
        # raise a bare ValueError): text that is not a GTP answer to it.
        raise ProtocolError(f"an id of {len(digits)} digits (at most {MAX_ID_DIGITS})")
    return Response(sign == "=", int(digits) if digits else None, "\n".join(lines))
