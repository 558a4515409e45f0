# cython: language_level=3
"""What a Hex cell holds, as the judge and the live board both store it: one
byte a cell, the colour in bits 0-1.  Red moves first and joins top and
bottom; the codes are also the players' numbers that ``to_array`` and the
judge's ``COLOUR_CODES`` give (PLAYERS order plus one)."""

cdef enum:
    EMPTY = 0
    RED = 1
    BLUE = 2
    COLOUR = 3            # the colour bits; each user keeps its other bits to itself
