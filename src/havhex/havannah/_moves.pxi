# Included by _judge.pyx (one extension, no import between the parts): cases and the move reader.

# --------------------------------------------------------------------------
# Parsed input.  Each case owns its arrays, so a case published by the parser
# never moves: workers judge early cases while later ones are still read.
# --------------------------------------------------------------------------


cdef struct CaseData:
    int64_t size
    int64_t n_claimed         # M of the header
    # Moves read so far; while a case is read, workers may already judge the
    # moves below this (stored with release, loaded with acquire).
    int64_t n_moves
    int64_t capacity
    int64_t first_line        # line of the first move
    int32_t* coords           # x0, y0, x1, y1, ...
    size_t coords_bytes       # its block (a kept one may hold more than capacity)
    # Line of each move's x, kept only once some move is not on the line
    # after its predecessor (a regular file costs no memory for this).
    int64_t* lines
    uint8_t kinds             # judge results
    int64_t move
    int64_t duplicate


# --------------------------------------------------------------------------
# Spare coordinates.  A large case's coordinates, once freed, are kept for
# the next large case, in this process's few slots, instead of going back to
# the system: an allocator that hands every large block back when it is
# freed (a Dask worker's, with MALLOC_TRIM_THRESHOLD_ set) would have the
# kernel fault in and clear each case's pages anew, a large share of a scale
# case's judging (docs/performance.md, "Parallel runs").  Blocks of
# SPARE_BYTES_MIN to SPARE_BYTES_MAX are kept, so that the slots hold at
# most SPARE_SLOTS * SPARE_BYTES_MAX; a block holds its size in its first
# bytes while it waits.
# --------------------------------------------------------------------------

cdef enum:
    SPARE_SLOTS = 4

cdef size_t SPARE_BYTES_MIN = 1 << 20
cdef size_t SPARE_BYTES_MAX = 16 << 20
cdef void* spare_coords[SPARE_SLOTS]


cdef int32_t* spare_take(int64_t capacity, size_t* got) noexcept nogil:
    """A kept block with room for ``capacity`` moves, and its size in bytes
    in ``got``; NULL when no slot has one."""
    cdef size_t wanted = <size_t>capacity * 2 * sizeof(int32_t)
    cdef void* block
    cdef size_t size
    cdef int slot
    if wanted < SPARE_BYTES_MIN or wanted > SPARE_BYTES_MAX:
        return NULL
    for slot in range(SPARE_SLOTS):
        block = pointer_exchange(&spare_coords[slot], NULL)
        if block == NULL:
            continue
        size = (<size_t*>block)[0]
        if size >= wanted:
            got[0] = size
            return <int32_t*>block
        # Too small for this case: back in its slot, or freed if another
        # thread has filled the slot since.
        if not pointer_compare_exchange(&spare_coords[slot], NULL, block):
            free(block)
    return NULL


cdef void coords_free(int32_t* coords, size_t size) noexcept nogil:
    """Free a case's coordinates (a block of ``size`` bytes), or keep them
    in a free slot."""
    cdef int slot
    if coords != NULL and SPARE_BYTES_MIN <= size <= SPARE_BYTES_MAX:
        (<size_t*>coords)[0] = size
        for slot in range(SPARE_SLOTS):
            if pointer_compare_exchange(&spare_coords[slot], NULL, coords):
                return
    free(coords)


def _spare_coords(bint empty=False):
    """Tests: the sizes in bytes of the coordinates kept in the slots; with
    ``empty``, the slots are emptied (their blocks freed)."""
    cdef void* block
    cdef int slot
    sizes = []
    for slot in range(SPARE_SLOTS):
        block = pointer_exchange(&spare_coords[slot], NULL)
        if block != NULL:
            sizes.append((<size_t*>block)[0])
            if empty or not pointer_compare_exchange(&spare_coords[slot], NULL, block):
                free(block)
    return sizes


cdef void case_free(CaseData* case) noexcept nogil:
    if case != NULL:
        coords_free(case.coords, case.coords_bytes)
        free(case.lines)
        free(case)


cdef bint case_reserve(CaseData* case, int64_t capacity) noexcept nogil:
    """Room for ``capacity`` moves at once, in a case that has none yet:
    kept coordinates where a slot has room for them (the case's capacity
    is still what it asked for: line numbers, if it needs them, are sized
    from it)."""
    cdef size_t got = 0
    cdef int32_t* kept = spare_take(capacity, &got) if case.coords == NULL else NULL
    if kept == NULL:
        return case_grow_to(case, capacity)
    case.coords = kept
    case.coords_bytes = got
    case.capacity = capacity
    return True


cdef bint case_grow(CaseData* case, int64_t claimed) noexcept nogil:
    """Room for more moves: doubling, but never past what the case claims and
    never ahead of what was read, so memory follows the moves."""
    cdef int64_t capacity = case.capacity * 2 if case.capacity else 256
    return case_grow_to(case, min(capacity, claimed))


cdef bint case_grow_to(CaseData* case, int64_t capacity) noexcept nogil:
    cdef void* grown = realloc(case.coords, <size_t>capacity * 2 * sizeof(int32_t))
    if grown == NULL:
        return False
    case.coords = <int32_t*>grown
    case.coords_bytes = <size_t>capacity * 2 * sizeof(int32_t)
    if case.lines != NULL:
        grown = realloc(case.lines, <size_t>capacity * sizeof(int64_t))
        if grown == NULL:
            return False
        case.lines = <int64_t*>grown
    case.capacity = capacity
    return True


cdef bint case_keep_lines(CaseData* case) noexcept nogil:
    """Switch to explicit line numbers, filling in the regular ones so far."""
    cdef int64_t i
    case.lines = <int64_t*>malloc(<size_t>case.capacity * sizeof(int64_t))
    if case.lines == NULL:
        return False
    for i in range(case.n_moves):
        case.lines[i] = case.first_line + i
    return True


cdef extern from "havhex/_native/lines.h" nogil:
    void havhex_lines_init()
    bint havhex_lines_available()
    int64_t havhex_read_lines(const unsigned char** at, const unsigned char* limit,
                              int64_t max_moves, int64_t size, int32_t* coords)

havhex_lines_init()
# The SSSE3 line reader when the CPU has it; tests switch it off to check the
# portable loop (set_wide_lines).
cdef bint wide_lines = havhex_lines_available()


def set_wide_lines(bint wanted):
    """Use the SSSE3 line reader (if the CPU has it) or the portable loop;
    returns whether the SSSE3 reader is now in use.  For tests."""
    global wide_lines
    wide_lines = wanted and havhex_lines_available()
    return wide_lines


cdef int64_t read_lines_portable(const unsigned char** at, const unsigned char* limit,
                                 int64_t max_moves, int64_t size,
                                 int32_t* coords) noexcept nogil:
    """havhex_read_lines (lines.h) without SSSE3: the same lines, the same
    contract.  A SeparatorScan gives each line's space and line feed, so a
    line's start does not wait for the previous line's digits."""
    cdef const unsigned char* p = at[0]             # the break before the next move
    cdef const unsigned char* start                 # the line's first byte
    cdef const unsigned char* space
    cdef const unsigned char* feed
    cdef const unsigned char* y_end
    cdef SeparatorScan scan
    cdef int64_t moves = 0, x, y
    cdef int64_t x_digits, y_digits
    cdef uint64_t x_chunk, y_chunk
    separators_start(&scan, p, limit)
    feed = separators_next(&scan)
    if feed == NULL or not (feed == p and p[0] == 10
                            or feed == p + 1 and p[0] == 13 and p[1] == 10):
        feed = NULL
    while moves < max_moves and feed != NULL:
        start = feed + 1
        space = separators_next(&scan)
        if space == NULL or space[0] != 32:
            break
        feed = separators_next(&scan)
        if feed == NULL or feed[0] != 10:
            break
        y_end = feed - 1 if (feed - 1)[0] == 13 else feed
        x_digits = space - start
        y_digits = y_end - (space + 1)
        if not (1 <= x_digits <= 7 and 1 <= y_digits <= 7):
            break
        memcpy(&x_chunk, start, 8)
        memcpy(&y_chunk, space + 1, 8)
        x_chunk -= 0x3030303030303030ULL
        y_chunk -= 0x3030303030303030ULL
        # Every byte of both numbers a digit: their marks, cut to their lengths.
        if ((swar_marks(x_chunk) & ((1ULL << (8 * x_digits)) - 1))
                | (swar_marks(y_chunk) & ((1ULL << (8 * y_digits)) - 1))):
            break
        x = swar_value(x_chunk, <int>x_digits)
        y = swar_value(y_chunk, <int>y_digits)
        if not on_board(x, y, size):
            break
        coords[2 * moves] = <int32_t>x
        coords[2 * moves + 1] = <int32_t>y
        p = y_end
        moves += 1
    at[0] = p
    return moves


cdef int64_t read_regular_moves(Reader* r, CaseData* case, int64_t first, int64_t stop,
                                int64_t size) noexcept nogil:
    """Read moves ``first`` .. ``stop - 1`` while each is "X Y" on the line
    after the previous one: a line break ("\n" or "\r\n"), two numbers of
    at most 7 digits split by one space, on the board, with more input
    buffered behind.  Stops before the first move that is anything else,
    consuming nothing of it; returns the index of that move.  Line numbers
    stay implicit (a move a line), and ``case.coords`` must have room."""
    cdef const unsigned char* p = r.data + r.pos
    cdef int64_t i
    if r.end - r.pos < 96:
        return first            # too little buffered for one 64-byte block and its slack
    if wide_lines:
        i = first + havhex_read_lines(&p, r.data + r.end - 16, stop - first, size,
                                      case.coords + 2 * first)
    else:
        i = first + read_lines_portable(&p, r.data + r.end - 16, stop - first, size,
                                        case.coords + 2 * first)
    if i > first:
        r.line += i - first
        r.token_line = r.line          # the last y read
        r.after_cr = False
        r.pos = p - r.data
    store_release(&case.n_moves, i)
    return i


cdef inline int move_token_fault(Fault* fault, const Reader* r, int status, int field,
                                 int64_t move) noexcept nogil:
    """A bad token in a move: its value is the move's 1-based number."""
    fault_token(fault, r, status, field)
    fault.value = move
    return FAULT_TOKEN


cdef int read_moves(Reader* r, CaseData* case, int64_t n_moves, Fault* fault,
                    int64_t* off_board) noexcept nogil:
    """Read the ``n_moves`` moves of a case into ``case`` (which may have
    room for them already); FAULT_NONE, or FAULT_TOKEN, ERR_OFF_BOARD
    (the move's x and y in ``off_board``) or FAULT_NO_MEMORY, recorded in
    ``fault``."""
    cdef int64_t i = 0, x, y, x_line
    cdef int64_t size = case.size
    cdef int status
    cdef bint fast
    while i < n_moves:
        # The common layout, a move a line, goes in one tight loop; anything
        # else (and every fault) takes the general path below.
        if (case.lines == NULL and i < case.capacity
                and r.line == case.first_line + i - 1):
            i = read_regular_moves(r, case, i, min(n_moves, case.capacity), size)
            if i == n_moves:
                break
        fast = reader_fast_pair(r, &x, &y, &x_line)
        if not fast:
            status = reader_int(r, &x)
            if status != TOKEN_OK:
                return move_token_fault(fault, r, status, FIELD_X, i + 1)
            x_line = r.token_line
        if i == case.capacity and not case_grow(case, n_moves):
            return fault_set(fault, FAULT_NO_MEMORY, x_line, 0)
        if case.lines != NULL:
            case.lines[i] = x_line
        elif x_line != case.first_line + i:
            if not case_keep_lines(case):
                return fault_set(fault, FAULT_NO_MEMORY, x_line, 0)
            case.lines[i] = x_line
        if not fast:
            status = reader_int(r, &y)
            if status != TOKEN_OK:
                return move_token_fault(fault, r, status, FIELD_Y, i + 1)
        if not on_board(x, y, size):
            off_board[0] = x
            off_board[1] = y
            return fault_set(fault, ERR_OFF_BOARD, x_line, i + 1)
        case.coords[2 * i] = <int32_t>x
        case.coords[2 * i + 1] = <int32_t>y
        store_release(&case.n_moves, i + 1)
        i += 1
    return FAULT_NONE


cdef inline int64_t case_line(const CaseData* case, int64_t move) noexcept nogil:
    if case.lines != NULL:
        return case.lines[move]
    return case.first_line + move
