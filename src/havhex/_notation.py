"""The letters-and-number cell names that every game's engines and records
use in some form (``c12``): a column's letters and back, and a name split
into its letters and its number; and the number of an SGF ``SZ[]`` value,
which the games' records read their sizes from.  A leaf, shared by the
games' descriptors; written without ``re``, which the judges' start-up does
not import."""
from __future__ import annotations

__all__ = ["letters", "column", "split", "sgf_number", "sgf_plain"]

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DIGITS = frozenset("0123456789")


def letters(index: int) -> str:
    """Column ``index`` (0-based) as letters: a..z, then aa, ab, ... (the
    spreadsheet count that havhex's Hex names use past z)."""
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("a") + rest) + text
    return text


def column(text: str) -> int:
    """The 0-based column of the letters ``text`` (case ignored)."""
    value = 0
    for char in text.lower():
        value = value * 26 + (ord(char) - ord("a") + 1)
    return value - 1


def split(text: str) -> tuple[int, int]:
    """(column index, number) of a name such as ``c12``; ValueError when it
    is not ASCII letters then ASCII digits."""
    name = text.strip()
    cut = 0
    while cut < len(name) and name[cut] in _LETTERS:
        cut += 1
    if not 0 < cut < len(name) or not all(char in _DIGITS for char in name[cut:]):
        raise ValueError(f"not a cell name: {text[:40]!r}")
    return column(name[:cut]), int(name[cut:])


def sgf_number(value: bytes, what: str = "SZ") -> int:
    """The board size an SGF value (bytes) holds: digits, space around them
    allowed; ValueError naming ``what`` for anything else, or for more than
    nine digits (no board is that large, and the message stays short)."""
    text = value.strip()
    if not text.isdigit() or len(text) > 9:
        from .errors import shown_bytes

        raise ValueError(f"{what} is not a board size: {shown_bytes(value)}")
    return int(text)


def sgf_plain(value: bytes) -> str:
    """An SGF value for a message: as it reads when it is short printable
    ASCII, else quoted with its bytes escaped."""
    if len(value) <= 40 and all(0x20 <= byte < 0x7F for byte in value):
        return value.decode("ascii")
    from .errors import shown_bytes

    return shown_bytes(value)
