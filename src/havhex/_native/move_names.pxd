# cython: language_level=3
"""The names of moves (move_names.h): the SGF reader's decoding of a
record's move, which the live boards use for the names users write, and
its inverse, a cell's name."""
from libc.stdint cimport int32_t, int64_t

cdef extern from "havhex/_native/move_names.h" nogil:
    enum:
        SGF_HEX
        SGF_HAVANNAH
    # The kind (record_moves.h's) of data[start:stop], and a cell's two
    # coordinates in *a, *b (Hex: rows x cols; Havannah: base rows).
    int sgf_decode_move(const unsigned char* data, int64_t start, int64_t stop, int game,
                        int64_t rows, int64_t cols, int32_t* a, int32_t* b) noexcept
    # A cell's name into out (room for 32 bytes); its length.
    int sgf_cell_name(int game, int64_t size, int64_t a, int64_t b, char* out) noexcept


cdef inline str cell_name(int game, int64_t size, int64_t a, int64_t b):
    cdef char out[32]
    cdef int n = sgf_cell_name(game, size, a, b, out)
    return out[:n].decode("ascii")


cdef inline int decode_name(str name, int game, int64_t rows, int64_t cols,
                            int32_t* a, int32_t* b) except -1:
    """The kind of the move ``name`` names (its cell in *a, *b)."""
    cdef bytes data = name.encode("utf-8", "replace")
    return sgf_decode_move(data, 0, len(data), game, rows, cols, a, b)
