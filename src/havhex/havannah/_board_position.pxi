# The live board's position (included by havannah/_board.pyx and by the
# batch, havannah/_batch.pyx, after _geometry.pxi): the cells, the union-find
# and the border masks that the move kernel (_board_place.pxi) and the
# contest rule's search (_board_enclosure.pxi) work on, laid out alike in
# both, so that both play moves with the same kernel.

# What a cell holds.  A player's colour is its index in PLAYERS plus one.
cdef enum:
    EMPTY = 0
    WHITE = 1
    BLACK = 2
    OFF_BOARD = 3

# Zobrist keys are computed, not stored: a table would double the memory
# per cell and miss the caches on large boards.
cdef uint64_t KEY_SALT = 0x5851F42D4C957F2D
cdef uint64_t BLACK_TO_MOVE_KEY = 0xD6E8FEB86659FD93


cdef inline uint64_t stone_key(int32_t cell, uint8_t colour) noexcept nogil:
    return splitmix64_mix(((<uint64_t>cell) << 2 | colour) + KEY_SALT)


cdef struct Position:
    int32_t size
    int32_t width               # 2S + 1
    int32_t n_slots             # width * width
    int32_t offset[6]           # index offsets of the neighbours
    int32_t* parent             # union-find: >= 0 up, < 0 a root's -count
    uint16_t* mask              # a root's corners and edges; a free cell's own
    uint8_t* cells              # EMPTY, WHITE, BLACK, OFF_BOARD
    int32_t n_empty
    uint8_t official            # ring rule: 1 official, 0 contest
    uint8_t to_move             # WHITE or BLACK
    uint8_t winner              # 0 while no one has won
    uint64_t hash


cdef struct MoveRecord:
    int32_t cell
    uint8_t colour              # who moved
    uint8_t kinds               # what the move completed
    uint8_t is_swap
    uint8_t n_saved
    int32_t saved_root[3]       # the roots the move changed, and their words before
    int32_t saved_parent[3]
    uint16_t saved_mask[3]


cdef struct Search:
    # Scratch of the contest rule's enclosure search (one per thread).
    uint32_t* stamp
    int32_t* queue
    uint32_t epoch


cdef inline size_t block_bytes(int32_t n_slots) noexcept nogil:
    return <size_t>n_slots * (sizeof(int32_t) + sizeof(uint16_t) + sizeof(uint8_t))


cdef inline void point_into(Position* p, char* block) noexcept nogil:
    """The three arrays of one allocation: one memcpy copies a position."""
    p.parent = <int32_t*>block
    p.mask = <uint16_t*>(block + <size_t>p.n_slots * sizeof(int32_t))
    p.cells = <uint8_t*>(block + <size_t>p.n_slots * (sizeof(int32_t) + sizeof(uint16_t)))


cdef void lay_out_counts(Position* p, int32_t size) noexcept nogil:
    """What an empty board holds beside its arrays."""
    cdef int k
    for k in range(6):
        p.offset[k] = NEIGHBOUR_DX[k] * p.width + NEIGHBOUR_DY[k]
    p.n_empty = 3 * size * (size - 1) + 1
    p.to_move = WHITE
    p.winner = 0
    p.hash = 0


cdef void lay_out(Position* p, int32_t size) noexcept nogil:
    """The empty board of base ``size`` into ``p``'s arrays."""
    cdef int32_t width = 2 * size + 1
    cdef int32_t x, y, i
    lay_out_counts(p, size)
    for x in range(width):
        for y in range(width):
            i = x * width + y
            p.parent[i] = -1
            if on_board(x, y, size):
                p.cells[i] = EMPTY
                p.mask[i] = border_mask(x, y, size)
            else:
                p.cells[i] = OFF_BOARD
                p.mask[i] = 0
