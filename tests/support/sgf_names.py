"""SGF Hex cell names written out from the specification, independent of
havhex's writer, for the tests that build records by hand: columns a..z,
then aa, ab, ... (bijective base 26), rows from 1."""


def column_letters(col):
    """The letters of 0-based column ``col``: 0 is ``a``, 26 is ``aa``."""
    out = ""
    col += 1
    while col:
        col, digit = divmod(col - 1, 26)
        out = chr(ord("a") + digit) + out
    return out


def hex_cell_name(cell):
    """The name of cell ``(row, col)`` (both from 0): ``(0, 0)`` is ``a1``."""
    row, col = cell
    return f"{column_letters(col)}{row + 1}"
