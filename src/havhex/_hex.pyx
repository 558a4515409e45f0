# cython: language_level=3
"""Hex engine: reader for the judge format and the position kernel.

Flow: ``parse`` turns bytes (or a file descriptor) into padded boards,
``HexInput.judge`` runs ``judge_board`` over every case with the GIL released,
``HexInput.explain`` runs one case again and keeps the witnesses (chains).

Board layout, one byte per cell: a case of side N is stored with row stride
W = N + 1 between one empty padding row above and one below, so cell (i, j)
sits at (i + 1) * W + j and byte (i + 1) * W + N separates two rows.  Every
neighbour of a real cell is then a valid index and an off-board neighbour reads
as empty, so the kernels need no bounds checks.  Neighbours of (i, j)
(NOTES.md): (i-1, j), (i-1, j+1), (i, j-1), (i, j+1), (i+1, j-1), (i+1, j),
that is the offsets -W, -W+1, -1, +1, W-1, +W.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from havhex._reader cimport (
    END_IO_ERROR, END_TRAILING, NUMBER_DIGITS_MAX, Reader, TOKEN_IO_ERROR, TOKEN_MISSING,
    TOKEN_NOT_INTEGER, TOKEN_OK, TOKEN_TOO_LONG, reader_at_end, reader_int, reader_peek,
    reader_refill, reader_skip_space,
)
from havhex._cancel cimport ECANCELED, cancelled, request_cancel, watch_cancel
from havhex._unionfind cimport uf_find, uf_link
from cpython.exc cimport PyErr_CheckSignals

cdef extern from *:
    """
    #ifndef HAVHEX_ATOMIC_NEXT
    #define HAVHEX_ATOMIC_NEXT(counter) __atomic_fetch_add((counter), 1, __ATOMIC_RELAXED)
    #endif
    """
    int64_t HAVHEX_ATOMIC_NEXT(int64_t* counter) noexcept nogil

# Cell bytes: the colour in bits 0-1; the second side of each colour as a flag
# (set on stones only), so a search knows it has arrived without a division.
cdef enum:
    EMPTY = 0
    RED = 1
    BLUE = 2
    COLOUR = 3
    RED_SINK = 4          # last row: Red's second side
    BLUE_SINK = 8         # last column: Blue's second side
    CODE_SPACE = 0xFE     # white space ends a row token
    CODE_BAD = 0xFF

# Search marks (one byte per cell of the scratch).
cdef enum:
    SEEN = 1              # reached by the chain search
    ON_CHAIN = 2          # on the first winning chain (the unit flow)
    IN_SEEN = 4           # residual search reached the stone's entry node
    OUT_SEEN = 8          # ... and its exit node

# Verdicts and reasons (mirrored in hex.py).
cdef enum:
    NOBODY_WINS = 0
    RED_WINS = 1
    BLUE_WINS = 2
    IMPOSSIBLE = 3
cdef enum:
    REASON_NONE = 0
    REASON_COUNTS = 1
    REASON_BOTH_CONNECTED = 2
    REASON_LOSER_MOVED_LAST = 3
    REASON_NO_SINGLE_LAST_MOVE = 4

cdef enum:
    # Scratch indices are int32 and a search state is 2 * cell + side, so
    # 2 * (N + 2) * (N + 1) must stay below 2**31.
    MAX_SIZE = 30000

# What the reader expected when it failed (for messages).
cdef enum:
    FIELD_T = 0
    FIELD_N = 1
    FIELD_END = 2

# Fault kinds.
cdef enum:
    ERR_NONE = 0
    ERR_TOKEN = 1          # reader status in err_status, field in err_field
    ERR_T_RANGE = 2
    ERR_N_SMALL = 3
    ERR_N_LARGE = 4
    ERR_ROW_MISSING = 5
    ERR_ROW_LENGTH = 6
    ERR_ROW_CHAR = 7
    ERR_TRAILING = 8
    ERR_NO_MEMORY = 9

# The codes as the facade reads them, so that they are stated once.
FAULT_CODES = (ERR_TOKEN, ERR_T_RANGE, ERR_N_SMALL, ERR_N_LARGE, ERR_ROW_MISSING, ERR_ROW_LENGTH,
               ERR_ROW_CHAR, ERR_TRAILING, ERR_NO_MEMORY)
TOKEN_CODES = (TOKEN_MISSING, TOKEN_NOT_INTEGER, TOKEN_TOO_LONG, TOKEN_IO_ERROR)
MAX_NUMBER_DIGITS = NUMBER_DIGITS_MAX

cdef uint8_t CODE[256]
memset(CODE, CODE_BAD, 256)
CODE[ord(".")] = EMPTY
CODE[ord("R")] = RED
CODE[ord("B")] = BLUE
for _c in (32, 9, 10, 11, 12, 13):
    CODE[_c] = CODE_SPACE


cdef inline int64_t board_cells(int64_t n) noexcept nogil:
    return (n + 2) * (n + 1)


# --------------------------------------------------------------------------
# Rows
# --------------------------------------------------------------------------

cdef inline Py_ssize_t scan_row(const unsigned char* src, Py_ssize_t avail,
                                uint8_t* dest, int64_t done, int64_t n) noexcept nogil:
    """Translate row characters into cell codes; stop at white space, at a bad
    byte, or after the row's character n + 1 (the row is too long then: no
    more of it is read, so a row that never ends is reported at once).

    ``done`` (at most n) characters of the row were stored before.  Returns
    the number of bytes consumed, all row characters.
    """
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t store = n - done
    cdef uint8_t code
    if store > avail:
        store = avail
    while i < store:
        code = CODE[src[i]]
        if code > BLUE:
            return i
        dest[done + i] = code
        i += 1
    if i < avail and CODE[src[i]] <= BLUE:
        i += 1                  # character n + 1: counted, never stored
    return i


cdef inline void finish_row(uint8_t* row, int64_t n, bint last) noexcept nogil:
    """Separator byte, and the second-side flags of the last column and row."""
    cdef int64_t j
    row[n] = EMPTY
    if row[n - 1]:
        row[n - 1] |= BLUE_SINK
    if last:
        for j in range(n):
            if row[j]:
                row[j] |= RED_SINK


cdef inline void keep_bad_character(Reader* r) noexcept nogil:
    """Copy the bad byte under the reader (with its UTF-8 continuation bytes)."""
    cdef int length = 0
    cdef int c = reader_peek(r)
    while c >= 0 and length < 4:
        r.bad_token[length] = <unsigned char>c
        length += 1
        r.pos += 1
        c = reader_peek(r)
        if c < 0x80 or c > 0xBF:       # not a continuation byte
            break
    r.bad_length = length


# --------------------------------------------------------------------------
# Scratch memory of one worker
# --------------------------------------------------------------------------

cdef struct Scratch:
    int32_t* work        # 2 * cells: the union-find forest, then queues and chain
    int32_t* link        # cells: search parent of each reached stone
    uint8_t* mark        # cells: search marks
    int64_t capacity     # cells


cdef void scratch_free(Scratch* s) noexcept nogil:
    free(s.work)
    free(s.link)
    free(s.mark)
    s.work = NULL
    s.link = NULL
    s.mark = NULL
    s.capacity = 0


cdef bint scratch_reserve(Scratch* s, int64_t cells) noexcept nogil:
    if cells <= s.capacity:
        return True
    scratch_free(s)
    s.work = <int32_t*>malloc(<size_t>(2 * cells) * sizeof(int32_t))
    s.link = <int32_t*>malloc(<size_t>cells * sizeof(int32_t))
    s.mark = <uint8_t*>malloc(<size_t>cells)
    if s.work == NULL or s.link == NULL or s.mark == NULL:
        scratch_free(s)
        return False
    s.capacity = cells
    return True


cdef struct CaseResult:
    uint8_t status
    uint8_t reason
    int64_t red
    int64_t blue
    int32_t* last_moves      # padded cells, in chain order (owned; wins, when asked for)
    int64_t n_last_moves


cdef struct Witness:
    # Up to two chains, each from the colour's first side to its second side.
    int32_t* chain[2]
    int64_t length[2]
    uint8_t colour[2]
    int n_chains


cdef void witness_free(Witness* w) noexcept nogil:
    free(w.chain[0])
    free(w.chain[1])
    w.chain[0] = NULL
    w.chain[1] = NULL
    w.n_chains = 0


# --------------------------------------------------------------------------
# Kernels
#
# Every loop that can run over a whole board polls ``cancelled()`` (every
# POLL_ROWS rows, or POLL_STEPS search steps) and stops early once it is set:
# the result is then meaningless, and discarded by the caller.  (A poll every
# row cost small boards 2% more instructions.)
# --------------------------------------------------------------------------

cdef enum:
    POLL_STEPS = 1 << 12
    POLL_ROWS = 1 << 6

cdef inline void set_offsets(int64_t* offset, int64_t n) noexcept nogil:
    cdef int64_t w = n + 1
    offset[0] = -w
    offset[1] = -w + 1
    offset[2] = -1
    offset[3] = 1
    offset[4] = w - 1
    offset[5] = w


cdef inline int64_t first_side_cell(uint8_t colour, int64_t n, int64_t k) noexcept nogil:
    """The k-th cell of the colour's first side: row 0 for Red, column 0 for Blue."""
    if colour == RED:
        return n + 1 + k
    return (k + 1) * (n + 1)


cdef inline void uf_union(int32_t* parent, int32_t a, int32_t b) noexcept nogil:
    a = uf_find(parent, a)
    b = uf_find(parent, b)
    if a != b:
        uf_link(parent, a, b)


cdef void count_stones(const uint8_t* b, int64_t n, int64_t* counts) noexcept nogil:
    """Stones of each colour.  Branch-free over bytes (the compiler vectorizes
    it), so a board that fails the counts never pays for the union-find."""
    cdef int64_t w = n + 1
    cdef int64_t i, j
    cdef uint32_t codes, stones
    cdef const uint8_t* row
    counts[0] = 0
    counts[1] = 0
    counts[2] = 0
    for i in range(n):
        if (i & (POLL_ROWS - 1)) == 0 and cancelled():
            return
        row = b + (i + 1) * w
        codes = 0       # red + 2 * blue; N <= MAX_SIZE keeps 2 * N in range
        stones = 0
        for j in range(n):
            codes += row[j] & COLOUR
            stones += (row[j] & COLOUR) != 0
        counts[BLUE] += codes - stones
        counts[RED] += 2 * stones - codes


cdef void join_sides(const uint8_t* b, int64_t n, int32_t* parent,
                     bint* red_joined, bint* blue_joined) noexcept nogil:
    """For each colour, whether a chain of its stones joins its two sides.

    One pass of union-find over the stones.  Only the neighbours already
    scanned are joined: up, up-right and left.  Up and up-right touch each
    other, and so do left and up, so one union per stone usually suffices.
    The two sides of each colour are virtual nodes kept in padding bytes that
    never hold a stone.
    """
    cdef int64_t w = n + 1
    cdef int64_t cells = board_cells(n)
    cdef int32_t red_top = 0
    cdef int32_t red_bottom = <int32_t>(cells - 1)
    cdef int32_t blue_left = <int32_t>(w - 1)
    cdef int32_t blue_right = <int32_t>(cells - w)
    cdef int64_t i, p, end
    cdef int32_t root = -1, other
    cdef uint8_t c
    parent[red_top] = -1
    parent[red_bottom] = -1
    parent[blue_left] = -1
    parent[blue_right] = -1
    for i in range(n):
        if (i & (POLL_ROWS - 1)) == 0 and cancelled():
            break
        p = (i + 1) * w
        end = p + n
        while p < end:
            c = b[p] & COLOUR
            if c:
                # The new stone is a singleton: hang it under its first
                # neighbour's root instead of a full union.  The left
                # neighbour's root is still ``root`` from the previous step.
                if (b[p - 1] & COLOUR) == c:
                    if (b[p - w] & COLOUR) != c and (b[p - w + 1] & COLOUR) == c:
                        other = uf_find(parent, <int32_t>(p - w + 1))
                        if other != root:
                            root = uf_link(parent, root, other)
                elif (b[p - w] & COLOUR) == c:
                    root = uf_find(parent, <int32_t>(p - w))
                elif (b[p - w + 1] & COLOUR) == c:
                    root = uf_find(parent, <int32_t>(p - w + 1))
                else:
                    parent[p] = -1
                    root = <int32_t>p
                    p += 1
                    continue
                parent[root] -= 1
                parent[p] = root
            p += 1
    # The sides (a corner cell lies on both of its sides).
    for i in range(n):
        p = w + i
        if (b[p] & COLOUR) == RED:
            uf_union(parent, <int32_t>p, red_top)
        p = n * w + i
        if (b[p] & COLOUR) == RED:
            uf_union(parent, <int32_t>p, red_bottom)
        p = (i + 1) * w
        if (b[p] & COLOUR) == BLUE:
            uf_union(parent, <int32_t>p, blue_left)
        p = (i + 1) * w + n - 1
        if (b[p] & COLOUR) == BLUE:
            uf_union(parent, <int32_t>p, blue_right)
    red_joined[0] = uf_find(parent, red_top) == uf_find(parent, red_bottom)
    blue_joined[0] = uf_find(parent, blue_left) == uf_find(parent, blue_right)


cdef int64_t find_chain(const uint8_t* b, int64_t n, uint8_t colour, int32_t* queue,
                        int32_t* link, uint8_t* mark, int32_t* chain) noexcept nogil:
    """A shortest winning chain of ``colour``, by breadth-first search from its
    first side.

    Writes the chain to ``chain`` (first side to second side), marks its
    stones ON_CHAIN and returns its length; 0 when there is no such chain.
    ``link`` of each chain stone is its predecessor on the chain (-1 for the
    first).  ``mark`` must have no SEEN bits.
    """
    cdef int64_t offset[6]
    cdef uint8_t sink = RED_SINK if colour == RED else BLUE_SINK
    cdef int64_t head = 0, tail = 0, k, p, v, u, end = -1, length = 0
    cdef int32_t swap
    set_offsets(offset, n)
    for k in range(n):
        p = first_side_cell(colour, n, k)
        if (b[p] & COLOUR) == colour:
            mark[p] |= SEEN
            link[p] = -1
            if b[p] & sink:
                end = p
                break
            queue[tail] = <int32_t>p
            tail += 1
    while end < 0 and head < tail:
        if (head & (POLL_STEPS - 1)) == 0 and cancelled():
            return 0
        v = queue[head]
        head += 1
        for k in range(6):
            u = v + offset[k]
            if (b[u] & COLOUR) == colour and not (mark[u] & SEEN):
                mark[u] |= SEEN
                link[u] = <int32_t>v
                if b[u] & sink:
                    end = u
                    break
                queue[tail] = <int32_t>u
                tail += 1
    if end < 0:
        return 0
    v = end
    while v >= 0:
        chain[length] = <int32_t>v
        mark[v] |= ON_CHAIN
        length += 1
        v = link[v]
    for k in range(length // 2):
        swap = chain[k]
        chain[k] = chain[length - 1 - k]
        chain[length - 1 - k] = swap
    return length


cdef int64_t cut_stones(const uint8_t* b, int64_t n, uint8_t colour,
                        const int32_t* chain, int64_t length, const int32_t* link,
                        uint8_t* mark, int32_t* queue, int32_t* cuts,
                        int32_t* came_from, int32_t* last_state) noexcept nogil:
    """The stones that lie on every winning chain of ``colour``, in chain order.

    Max-flow view: each stone has capacity one (an entry node and an exit
    node joined by one arc); the sides are a source and a sink of unbounded
    capacity.  ``chain`` (from ``find_chain``) is one unit of flow.  The
    search runs over the residual graph, state = 2 * stone + (0 entry, 1 exit):
    entry -> exit when the stone carries no flow, else entry -> exit of its
    chain predecessor (the reversed flow arc); exit -> entry of every
    neighbour, and exit -> own entry on the chain (the reversed stone arc).

    * Reaching the second side in the first round is a second augmenting
      path: two stone-disjoint chains, so no single last move.  Returns 0.
    * Otherwise the reached states are the source side of the minimum cut
      closest to the source; its one saturated arc is the chain stone whose
      entry was reached but not its exit.  That stone is on every chain.
      Letting the search through it (as if its capacity were unbounded) and
      going on finds the next such stone along the chain, and so on until the
      second side is reached.  No state is searched twice, so the whole test
      is linear in the number of stones.

    ``queue`` needs room for two states per stone of the colour.  When
    ``came_from`` is not NULL it receives each state's predecessor, and
    ``last_state`` the exit state that reached the second side.  Returns the
    number of cut stones, or -1 if the search contradicts the flow (a bug).
    """
    cdef int64_t offset[6]
    cdef uint8_t sink = RED_SINK if colour == RED else BLUE_SINK
    cdef int64_t head = 0, tail = 0, k, p, v, u, state, scan = 0, n_cuts = 0
    set_offsets(offset, n)
    last_state[0] = -1
    for k in range(n):
        p = first_side_cell(colour, n, k)
        if (b[p] & COLOUR) == colour:
            mark[p] |= IN_SEEN
            if came_from != NULL:
                came_from[2 * p] = -1
            queue[tail] = <int32_t>(2 * p)
            tail += 1
    while True:
        while head < tail:
            if (head & (POLL_STEPS - 1)) == 0 and cancelled():
                return -1
            state = queue[head]
            head += 1
            v = state >> 1
            if (state & 1) == 0:
                # Entry node: on to the own exit, or back along the flow.
                u = link[v] if mark[v] & ON_CHAIN else v
                if u < 0 or mark[u] & OUT_SEEN:
                    continue
                mark[u] |= OUT_SEEN
                if came_from != NULL:
                    came_from[2 * u + 1] = <int32_t>state
                if b[u] & sink:
                    last_state[0] = <int32_t>(2 * u + 1)
                    return n_cuts
                queue[tail] = <int32_t>(2 * u + 1)
                tail += 1
            else:
                for k in range(6):
                    u = v + offset[k]
                    if (b[u] & COLOUR) == colour and not (mark[u] & IN_SEEN):
                        mark[u] |= IN_SEEN
                        if came_from != NULL:
                            came_from[2 * u] = <int32_t>state
                        queue[tail] = <int32_t>(2 * u)
                        tail += 1
                if (mark[v] & (ON_CHAIN | IN_SEEN)) == ON_CHAIN:
                    mark[v] |= IN_SEEN
                    if came_from != NULL:
                        came_from[2 * v] = <int32_t>state
                    queue[tail] = <int32_t>(2 * v)
                    tail += 1
        # Stuck: the cut is the one chain stone entered but not left.  Cut
        # stones come in chain order, so the scan never moves backwards.
        while scan < length and (mark[chain[scan]] & (IN_SEEN | OUT_SEEN)) != IN_SEEN:
            scan += 1
        if scan == length:
            return -1
        v = chain[scan]
        cuts[n_cuts] = <int32_t>v
        n_cuts += 1
        mark[v] |= OUT_SEEN
        if b[v] & sink:
            return n_cuts
        queue[tail] = <int32_t>(2 * v + 1)
        tail += 1


cdef int two_chains(const int32_t* chain, int64_t length, const int32_t* came_from,
                    int32_t last_state, int64_t cells, Witness* w) noexcept nogil:
    """Two stone-disjoint chains from the chain and the augmenting path.

    Flow is kept as each stone's successor (-1: the second side, -2: no
    flow).  Walking the augmenting path: exit -> neighbour's entry adds that
    arc, exit -> own entry cancels the stone, entry -> predecessor's exit
    cancels an arc whose tail is overwritten at its next step.  The two flow
    paths are then read off from their first stones.
    """
    cdef int32_t* succ = <int32_t*>malloc(<size_t>cells * sizeof(int32_t))
    cdef int32_t* path = NULL
    cdef int64_t n_path = 0, i, k, steps
    cdef int32_t state, previous, a, start
    if succ == NULL:
        return -1
    for i in range(cells):
        succ[i] = -2
    for i in range(length - 1):
        succ[chain[i]] = chain[i + 1]
    succ[chain[length - 1]] = -1
    state = last_state
    while state >= 0:
        n_path += 1
        state = came_from[state]
    path = <int32_t*>malloc(<size_t>n_path * sizeof(int32_t))
    if path == NULL:
        free(succ)
        return -1
    state = last_state
    i = n_path
    while state >= 0:
        i -= 1
        path[i] = state
        state = came_from[state]
    for i in range(1, n_path):
        previous = path[i - 1]
        state = path[i]
        if (previous & 1) == 1 and (state & 1) == 0:
            a = previous >> 1
            succ[a] = -2 if a == (state >> 1) else (state >> 1)
    succ[last_state >> 1] = -1
    for k in range(2):
        start = chain[0] if k == 0 else (path[0] >> 1)
        w.length[k] = 0
        a = start
        steps = 0
        while a >= 0 and steps <= length + n_path:
            a = succ[a]
            steps += 1
        w.chain[k] = <int32_t*>malloc(<size_t>(steps if steps else 1) * sizeof(int32_t))
        if w.chain[k] == NULL:
            free(succ)
            free(path)
            return -1
        a = start
        while a >= 0 and w.length[k] < steps:
            w.chain[k][w.length[k]] = a
            w.length[k] += 1
            a = succ[a]
        w.colour[k] = 0
        w.n_chains = k + 1
    free(succ)
    free(path)
    return 0


cdef int keep_chain(Witness* w, const int32_t* chain, int64_t length,
                    uint8_t colour) noexcept nogil:
    cdef int k = w.n_chains
    w.chain[k] = <int32_t*>malloc(<size_t>(length if length else 1) * sizeof(int32_t))
    if w.chain[k] == NULL:
        return -1
    memcpy(w.chain[k], chain, <size_t>length * sizeof(int32_t))
    w.length[k] = length
    w.colour[k] = colour
    w.n_chains = k + 1
    return 0


cdef int start_verdict(const uint8_t* b, int64_t n, Scratch* s, CaseResult* out,
                       int64_t* counts) noexcept nogil:
    """The checks both verdict paths begin with: room, and the stone counts.
    -1 when memory ran out, 0 when the counts decide (Impossible), else 1."""
    out.status = IMPOSSIBLE
    out.reason = REASON_NONE
    out.last_moves = NULL
    out.n_last_moves = 0
    if not scratch_reserve(s, board_cells(n)):
        return -1
    count_stones(b, n, counts)
    out.red = counts[RED]
    out.blue = counts[BLUE]
    if counts[RED] - counts[BLUE] > 1 or counts[BLUE] - counts[RED] > 1:
        out.reason = REASON_COUNTS
        return 0
    return 1


cdef int explain_board(const uint8_t* b, int64_t n, Scratch* s, CaseResult* out,
                       Witness* w) noexcept nogil:
    """Verdict on one padded board; with ``w``, also its witness chains.

    Checks in the order of the reasons: counts, both colours joined, the
    winner has fewer stones, no stone on every winning chain.  Returns 0, or
    -1 when memory ran out (or on an internal contradiction).
    """
    cdef int64_t cells = board_cells(n)
    cdef int64_t counts[3]
    cdef bint red_joined, blue_joined
    cdef uint8_t winner, loser
    cdef int64_t length, n_cuts
    cdef int32_t* chain
    cdef int32_t* came_from = NULL
    cdef int32_t last_state
    cdef int status = start_verdict(b, n, s, out, counts)

    if status <= 0:
        return status
    status = 0
    join_sides(b, n, s.work, &red_joined, &blue_joined)
    # From here the stones of one colour number at most (N*N + 1) / 2, so two
    # search states per stone fit in the first half of ``work``, and the chain
    # and its cut stones in the second.
    chain = s.work + cells
    memset(s.mark, 0, <size_t>cells)
    if red_joined and blue_joined:
        out.reason = REASON_BOTH_CONNECTED
        if w != NULL:
            for winner in range(RED, BLUE + 1):
                memset(s.mark, 0, <size_t>cells)
                length = find_chain(b, n, winner, s.work, s.link, s.mark, chain)
                if keep_chain(w, chain, length, winner) != 0:
                    return -1
        return 0
    if not red_joined and not blue_joined:
        out.status = NOBODY_WINS
        return 0
    winner = RED if red_joined else BLUE
    loser = BLUE if red_joined else RED
    if counts[winner] < counts[loser]:
        out.reason = REASON_LOSER_MOVED_LAST
        if w != NULL:
            length = find_chain(b, n, winner, s.work, s.link, s.mark, chain)
            if keep_chain(w, chain, length, winner) != 0:
                return -1
        return 0
    length = find_chain(b, n, winner, s.work, s.link, s.mark, chain)
    if w != NULL:
        came_from = <int32_t*>malloc(<size_t>(2 * cells) * sizeof(int32_t))
        if came_from == NULL:
            return -1
    n_cuts = cut_stones(b, n, winner, chain, length, s.link, s.mark, s.work,
                        chain + length, came_from, &last_state)
    if n_cuts < 0:
        status = -1
    elif n_cuts == 0:
        out.reason = REASON_NO_SINGLE_LAST_MOVE
        if w != NULL:
            status = two_chains(chain, length, came_from, last_state, cells, w)
            w.colour[0] = winner
            w.colour[1] = winner
    else:
        out.status = RED_WINS if winner == RED else BLUE_WINS
        out.last_moves = <int32_t*>malloc(<size_t>n_cuts * sizeof(int32_t))
        if out.last_moves == NULL:
            status = -1
        else:
            memcpy(out.last_moves, chain + length, <size_t>n_cuts * sizeof(int32_t))
            out.n_last_moves = n_cuts
            if w != NULL:
                status = keep_chain(w, chain, length, winner)
    free(came_from)
    return status


# --------------------------------------------------------------------------
# Verdict without witnesses (the judging path)
#
# Works on the board (``grid``, or a copy of it) whose spare bits record the
# searches, so a neighbour test is one byte load and one compare, and the
# search loops write their marks without branching: on boards from random
# games the outcome of each neighbour test is a coin toss, and a mispredicted
# branch per test cost more than all the rest of the search.
# --------------------------------------------------------------------------

# Grid bits above the cell bits (COLOUR and the sink flags).
cdef enum:
    GRID_SOURCE = 0x10    # the winner's stone on its first side
    GRID_LABELLED = 0x20  # put in a bypass component (or on the chain)
    GRID_CHAIN = 0x40     # on the chain of the side search
    GRID_SEEN = 0x80      # reached by the side search


cdef int64_t side_search(uint8_t* grid, int64_t n, uint8_t colour, uint64_t* stack,
                         int32_t* link, int32_t* chain) noexcept nogil:
    """Depth-first search of ``colour`` from its first side to its second.

    Writes a chain (first side to second side) to ``chain`` and returns its
    length; 0 when the sides are not joined.  Each stack entry packs the
    stone with the stone that pushed it; ``link`` (one entry per cell) takes
    that parent when the entry is popped, which happens once per stone.  The
    neighbour towards the second side is pushed last, so the search heads
    for it first: on a board of straight lines it walks one line instead of
    sweeping all of them as a breadth-first search would.  ``stack`` needs
    room for one more entry than the colour has stones: a rejected neighbour
    is written at the top and then overwritten.
    """
    cdef int64_t w = n + 1
    cdef int64_t offset[6]
    cdef uint8_t sink = RED_SINK if colour == RED else BLUE_SINK
    cdef int64_t top = 0, k, p, v, u, end = -1, length = 0, until_poll = POLL_STEPS
    cdef uint64_t entry
    cdef uint8_t c, ok
    # Away from the second side first, towards it last.
    if colour == RED:
        set_offsets(offset, n)
    else:
        offset[0] = -1
        offset[1] = w - 1
        offset[2] = -w
        offset[3] = w
        offset[4] = -w + 1
        offset[5] = 1
    for k in range(n - 1, -1, -1):
        p = first_side_cell(colour, n, k)
        c = grid[p]
        if (c & COLOUR) == colour:
            grid[p] = c | GRID_SEEN
            stack[top] = (<uint64_t><uint32_t>-1 << 32) | <uint64_t>p
            top += 1
    while top > 0:
        until_poll -= 1
        if until_poll == 0:
            if cancelled():
                return 0
            until_poll = POLL_STEPS
        top -= 1
        entry = stack[top]
        v = <uint32_t>entry
        link[v] = <int32_t>(entry >> 32)
        if grid[v] & sink:
            end = v
            break
        for k in range(6):
            u = v + offset[k]
            c = grid[u]
            ok = (c & (GRID_SEEN | COLOUR)) == colour
            grid[u] = c | (ok << 7)
            stack[top] = (<uint64_t>v << 32) | <uint64_t>u
            top += ok
    if end < 0:
        return 0
    v = end
    while v >= 0:
        length += 1
        v = link[v]
    v = end
    k = length
    while v >= 0:
        k -= 1
        chain[k] = <int32_t>v
        v = link[v]
    return length


cdef inline void label_component(uint8_t* grid, int64_t seed, uint8_t colour, uint8_t sink,
                                 const int64_t* offset, const int32_t* position,
                                 int32_t* queue, int32_t* reach, int64_t top) noexcept nogil:
    """Label the off-chain component of ``seed`` (if it is an unlabelled stone
    of ``colour``) and record the step it offers from its lowest index to its
    highest."""
    cdef int64_t head = 0, tail = 1, x, u, j, low = top, high = 0, index
    cdef uint8_t c, d, ok
    d = grid[seed]
    if (d & (GRID_LABELLED | COLOUR)) != colour:
        return
    grid[seed] = d | GRID_LABELLED
    queue[0] = <int32_t>seed
    while head < tail:
        x = queue[head]
        head += 1
        c = grid[x]
        if c & GRID_SOURCE:
            low = 0
        if c & sink:
            high = top
        for j in range(6):
            u = x + offset[j]
            d = grid[u]
            ok = (d & (GRID_LABELLED | COLOUR)) == colour
            grid[u] = d | (ok << 5)
            queue[tail] = <int32_t>u
            tail += ok
            if (d & (GRID_CHAIN | COLOUR)) == (GRID_CHAIN | colour):
                # Rare (next to the chain), so a branch is cheaper here.
                index = position[u]
                if index < low:
                    low = index
                if index > high:
                    high = index
    if low < high and reach[low] < high:
        reach[low] = <int32_t>high


cdef int64_t cut_stones_on_grid(uint8_t* grid, int64_t n, uint8_t colour,
                                const int32_t* chain, int64_t length, int32_t* position,
                                int32_t* queue, int32_t* reach, int32_t* cuts) noexcept nogil:
    """The stones that lie on every winning chain, in chain order.

    Number the first side 0, the chain stones 1..L and the second side L+1.
    A chain stone i is avoidable exactly when some other path steps from an
    index below i to one above it: either directly (two chain stones, or a
    chain stone and a side, adjacent out of turn) or through one component
    of the colour's stones off the chain, which joins every index it
    touches.  So: label those components once, record for each lowest index
    touched the highest one reachable (``reach``), and sweep along the chain;
    the stones no step jumps over are the cut stones.  Linear in the stones
    of the components touching the first side or the chain.

    ``position`` needs one entry per cell (read only on chain stones),
    ``queue`` room for the colour's stones, ``reach`` for L + 1 entries.
    With ``cuts`` NULL only the verdict is wanted: returns 1 at the first
    cut stone found, 0 when there is none.
    """
    cdef int64_t offset[6]
    cdef uint8_t sink = RED_SINK if colour == RED else BLUE_SINK
    cdef int64_t i, j, k, p, u, best, n_cuts = 0
    cdef int64_t top = length + 1
    set_offsets(offset, n)
    for i in range(length):
        grid[chain[i]] |= GRID_CHAIN | GRID_LABELLED
        position[chain[i]] = <int32_t>(i + 1)
        reach[i] = <int32_t>(i + 1)
    reach[length] = <int32_t>top
    for k in range(n):
        p = first_side_cell(colour, n, k)
        if (grid[p] & COLOUR) == colour:
            grid[p] |= GRID_SOURCE
    # Direct steps out of turn (a shortest chain has none; kept so that the
    # test does not depend on how the chain was found).
    for i in range(length):
        p = chain[i]
        if i > 0 and grid[p] & GRID_SOURCE and reach[0] < i + 1:
            reach[0] = <int32_t>(i + 1)
        if i < length - 1 and grid[p] & sink:
            reach[i + 1] = <int32_t>top
        for k in range(6):
            u = p + offset[k]
            if (grid[u] & (GRID_CHAIN | COLOUR)) == (GRID_CHAIN | colour):
                j = position[u]
                if j > reach[i + 1]:
                    reach[i + 1] = <int32_t>j
    # Components off the chain, seeded from the chain's neighbours and from
    # the first side.
    # Once a component joins both sides (two disjoint chains) nothing is a
    # cut stone and the rest need not be labelled.
    for i in range(length):
        if (i & (POLL_STEPS - 1)) == 0 and cancelled():
            return 0
        for k in range(6):
            label_component(grid, chain[i] + offset[k], colour, sink, offset, position,
                            queue, reach, top)
        if reach[0] == top:
            return 0
    for k in range(n):
        label_component(grid, first_side_cell(colour, n, k), colour, sink, offset, position,
                        queue, reach, top)
        if reach[0] == top:
            return 0
    best = 0
    for i in range(1, length + 1):
        if reach[i - 1] > best:
            best = reach[i - 1]
        if best == i:
            if cuts == NULL:
                return 1
            cuts[n_cuts] = chain[i - 1]
            n_cuts += 1
    return n_cuts


cdef int judge_board_fast(uint8_t* b, int64_t n, Scratch* s, CaseResult* out,
                          bint keep_last_moves) noexcept nogil:
    """Verdict on one padded board, without chains (see ``explain_board``
    for the checks and their order; the verdicts are the same).  The
    possible last moves of a win are kept only with ``keep_last_moves``:
    the verdict needs to know only that there is one.

    Judging (one worker per case) marks the board's spare bits itself and
    clears them before returning, so it needs no copy of the board; the
    last moves are asked for by readers of results, possibly several
    threads on one case at once, so each of those searches its own copy.
    """
    cdef int64_t cells = board_cells(n)
    cdef int64_t counts[3]
    cdef uint8_t* grid
    cdef int64_t p
    cdef int status = start_verdict(b, n, s, out, counts)

    if status <= 0:
        return status
    if keep_last_moves:
        grid = s.mark
        memcpy(grid, b, <size_t>cells)
    else:
        grid = b
    status = verdict_on_grid(grid, n, s, out, counts, keep_last_moves)
    if grid == b:
        for p in range(cells):
            b[p] &= COLOUR | RED_SINK | BLUE_SINK
    return status


cdef int verdict_on_grid(uint8_t* grid, int64_t n, Scratch* s, CaseResult* out,
                         const int64_t* counts, bint keep_last_moves) noexcept nogil:
    """The searches of ``judge_board_fast`` on a board whose spare bits are
    free for their marks."""
    cdef int64_t cells = board_cells(n)
    cdef int64_t half = cells // 2
    cdef uint8_t winner, loser
    cdef int64_t length, n_cuts
    cdef int32_t* chain
    # From here a colour has at most (N*N + 1) / 2 stones, fewer than half
    # the padded cells: the first ``cells`` int32 of ``work`` hold the search
    # stack (int64 entries) and later a queue and the cut stones, the rest
    # the chain and the reach table.
    chain = s.work + cells
    # Two chains that join opposite sides would cross, and on the hex grid
    # crossing chains share a cell; so once one colour is joined the other
    # is not, and its search is skipped.  The colour with more stones is
    # searched first: a winner who moved last has at least as many.
    winner = BLUE if counts[BLUE] > counts[RED] else RED
    length = side_search(grid, n, winner, <uint64_t*>s.work, s.link, chain)
    if length == 0:
        winner = RED if winner == BLUE else BLUE
        length = side_search(grid, n, winner, <uint64_t*>s.work, s.link, chain)
        if length == 0:
            out.status = NOBODY_WINS
            return 0
    loser = BLUE if winner == RED else RED
    if counts[winner] < counts[loser]:
        out.reason = REASON_LOSER_MOVED_LAST
        return 0
    n_cuts = cut_stones_on_grid(grid, n, winner, chain, length, s.link, s.work,
                                chain + half, s.work + half if keep_last_moves else NULL)
    if n_cuts == 0:
        out.reason = REASON_NO_SINGLE_LAST_MOVE
        return 0
    out.status = RED_WINS if winner == RED else BLUE_WINS
    if not keep_last_moves:
        return 0
    out.last_moves = <int32_t*>malloc(<size_t>n_cuts * sizeof(int32_t))
    if out.last_moves == NULL:
        return -1
    memcpy(out.last_moves, s.work + half, <size_t>n_cuts * sizeof(int32_t))
    out.n_last_moves = n_cuts
    return 0


cdef int judge_board(uint8_t* b, int64_t n, Scratch* s, CaseResult* out,
                     Witness* w) noexcept nogil:
    """Verdict on one padded board; with ``w``, also its witness chains (the
    flow search, which yields two disjoint chains when there are) and its
    possible last moves."""
    if w == NULL:
        return judge_board_fast(b, n, s, out, False)
    return explain_board(b, n, s, out, w)


# --------------------------------------------------------------------------
# Parsed input
# --------------------------------------------------------------------------

cdef class _CaseCounter:
    cdef int64_t next_case


cdef class HexInput:
    """Cases of one input as padded boards, plus the first fault if any."""
    cdef readonly int64_t n_cases
    cdef readonly int64_t bytes_read
    cdef readonly int64_t n_judged       # progress, read while workers judge
    cdef int64_t case_capacity
    cdef int64_t* sizes
    cdef int64_t* offsets         # first byte of each case's padded board
    cdef int64_t* header_lines
    cdef uint8_t* cells
    cdef int64_t cells_used
    cdef int64_t cells_capacity
    cdef CaseResult* verdicts
    cdef int cancel_flag          # set by cancel(), polled by the work
    # Parse fault: ERR_* code and its context.
    cdef public int err_code
    cdef public int err_status
    cdef public int err_field
    cdef public int64_t err_line
    cdef public int64_t err_value     # T or N as read
    cdef public int64_t err_size      # N of the case with a bad row
    cdef public int64_t err_row       # 1-based row
    cdef public int64_t err_column    # 1-based column of a bad character
    cdef public int64_t err_length    # characters in a row of the wrong length
    cdef public int err_io_errno
    cdef public bytes err_token
    cdef int err_token_pending

    def __dealloc__(self):
        self._free_verdicts()
        free(self.sizes)
        free(self.offsets)
        free(self.header_lines)
        free(self.cells)

    cdef void _free_verdicts(self) noexcept:
        cdef int64_t case
        if self.verdicts != NULL:
            for case in range(self.n_cases):
                free(self.verdicts[case].last_moves)
            free(self.verdicts)
            self.verdicts = NULL

    def case_size(self, int64_t case):
        self._check_case(case)
        return self.sizes[case]

    def header_line(self, int64_t case):
        self._check_case(case)
        return self.header_lines[case]

    def board(self, int64_t case):
        """The rows of one case as strings of B, R and '.'."""
        self._check_case(case)
        cdef int64_t n = self.sizes[case]
        cdef int64_t i, j
        cdef const uint8_t* b = self.cells + self.offsets[case]
        cdef bytearray row
        rows = []
        for i in range(n):
            row = bytearray(n)
            for j in range(n):
                row[j] = b".RB"[b[(i + 1) * (n + 1) + j] & COLOUR]
            rows.append(row.decode("ascii"))
        return rows

    cdef _check_case(self, int64_t case):
        if not 0 <= case < self.n_cases:
            raise IndexError(case)

    # ---- building --------------------------------------------------------

    cdef bint _add_case(self, int64_t n, int64_t offset, int64_t line) noexcept nogil:
        cdef int64_t capacity
        cdef void* grown
        if self.n_cases == self.case_capacity:
            capacity = self.case_capacity * 2 if self.case_capacity else 16
            grown = realloc(self.sizes, <size_t>capacity * sizeof(int64_t))
            if grown == NULL:
                return False
            self.sizes = <int64_t*>grown
            grown = realloc(self.offsets, <size_t>capacity * sizeof(int64_t))
            if grown == NULL:
                return False
            self.offsets = <int64_t*>grown
            grown = realloc(self.header_lines, <size_t>capacity * sizeof(int64_t))
            if grown == NULL:
                return False
            self.header_lines = <int64_t*>grown
            self.case_capacity = capacity
        self.sizes[self.n_cases] = n
        self.offsets[self.n_cases] = offset
        self.header_lines[self.n_cases] = line
        self.n_cases += 1
        return True

    cdef bint _reserve_cells(self, int64_t needed) noexcept nogil:
        """Room for ``needed`` bytes of boards.  Boards grow one row at a time,
        so memory follows the rows actually read, never the N announced."""
        cdef int64_t capacity
        cdef void* grown
        if needed <= self.cells_capacity:
            return True
        capacity = self.cells_capacity * 2 if self.cells_capacity else 4096
        while capacity < needed:
            capacity *= 2
        grown = realloc(self.cells, <size_t>capacity)
        if grown == NULL:
            return False
        self.cells = <uint8_t*>grown
        self.cells_capacity = capacity
        return True

    cdef int _begin_board(self, int64_t n) noexcept nogil:
        """Reserve and clear the padding row above a new board."""
        if not self._reserve_cells(self.cells_used + (n + 1)):
            return self._fault(ERR_NO_MEMORY, 0, 0)
        memset(self.cells + self.cells_used, 0, <size_t>(n + 1))
        return ERR_NONE

    cdef int _end_board(self, int64_t n, int64_t line) noexcept nogil:
        cdef int64_t start = self.cells_used
        cdef int64_t bottom = start + (n + 1) * (n + 1)
        if not self._reserve_cells(bottom + n + 1):
            return self._fault(ERR_NO_MEMORY, line, 0)
        memset(self.cells + bottom, 0, <size_t>(n + 1))
        if not self._add_case(n, start, line):
            return self._fault(ERR_NO_MEMORY, line, 0)
        self.cells_used = start + board_cells(n)
        return ERR_NONE

    cdef int _read_row(self, Reader* r, int64_t n, int64_t row) noexcept nogil:
        """One row token into the board being built; a fault names the row."""
        cdef int64_t done = 0
        cdef Py_ssize_t used
        cdef uint8_t* dest
        cdef int c
        if (row & (POLL_ROWS - 1)) == 0 and cancelled():
            r.io_errno = ECANCELED
            return self._token_fault(r, TOKEN_IO_ERROR, FIELD_END)
        if not self._reserve_cells(self.cells_used + (row + 2) * (n + 1)):
            return self._fault(ERR_NO_MEMORY, r.token_line, 0)
        dest = self.cells + self.cells_used + (row + 1) * (n + 1)
        self.err_row = row + 1
        self.err_size = n
        c = reader_skip_space(r)
        if c < 0:
            if r.io_errno:
                return self._token_fault(r, TOKEN_IO_ERROR, FIELD_END)
            return self._fault(ERR_ROW_MISSING, r.token_line, 0)
        r.token_line = r.line
        while done <= n:
            if r.pos == r.end and not reader_refill(r):
                break
            used = scan_row(r.data + r.pos, r.end - r.pos, dest, done, n)
            r.pos += used
            done += used
            if r.pos < r.end:
                break
        if r.io_errno:
            return self._token_fault(r, TOKEN_IO_ERROR, FIELD_END)
        if done <= n and r.pos < r.end and CODE[r.data[r.pos]] == CODE_BAD:
            self.err_column = done + 1
            keep_bad_character(r)
            self.err_token_pending = 1
            return self._fault(ERR_ROW_CHAR, r.token_line, 0)
        if done != n:
            self.err_length = done      # n + 1 for a row longer than n
            return self._fault(ERR_ROW_LENGTH, r.token_line, 0)
        finish_row(dest, n, row == n - 1)
        return ERR_NONE

    cdef int _parse(self, Reader* r) noexcept nogil:
        """Read the whole judge format; stop at the first fault (recorded)."""
        cdef int64_t n_cases, case, n, row, header_line
        cdef int status, end
        status = reader_int(r, &n_cases)
        if status != TOKEN_OK:
            return self._token_fault(r, status, FIELD_T)
        if n_cases < 0:
            return self._fault(ERR_T_RANGE, r.token_line, n_cases)
        for case in range(n_cases):
            status = reader_int(r, &n)
            if status != TOKEN_OK:
                return self._token_fault(r, status, FIELD_N)
            header_line = r.token_line
            if n < 1:
                return self._fault(ERR_N_SMALL, header_line, n)
            if n > MAX_SIZE:
                return self._fault(ERR_N_LARGE, header_line, n)
            if self._begin_board(n) != ERR_NONE:
                return self.err_code
            for row in range(n):
                if self._read_row(r, n, row) != ERR_NONE:
                    return self.err_code
            if self._end_board(n, header_line) != ERR_NONE:
                return self.err_code
        end = reader_at_end(r)
        if end == END_TRAILING:
            self.err_token_pending = 1
            return self._fault(ERR_TRAILING, r.token_line, 0)
        if end == END_IO_ERROR:
            return self._token_fault(r, TOKEN_IO_ERROR, FIELD_END)
        return ERR_NONE

    cdef int _fault(self, int code, int64_t line, int64_t value) noexcept nogil:
        self.err_code = code
        self.err_line = line
        self.err_value = value
        return code

    cdef int _token_fault(self, Reader* r, int status, int field) noexcept nogil:
        self.err_code = ERR_TOKEN
        self.err_status = status
        self.err_field = field
        self.err_line = r.token_line
        self.err_io_errno = r.io_errno
        self.err_token_pending = 1
        return ERR_TOKEN

    # ---- judging ----------------------------------------------------------

    cdef int _judge_worker(self, int64_t* next_case) noexcept nogil:
        """Take cases from the shared counter until none is left."""
        cdef Scratch scratch
        cdef int64_t case
        cdef int status = 0
        memset(&scratch, 0, sizeof(Scratch))
        while True:
            case = HAVHEX_ATOMIC_NEXT(next_case)
            if case >= self.n_cases or cancelled():
                break
            if judge_board(self.cells + self.offsets[case], self.sizes[case], &scratch,
                           &self.verdicts[case], NULL) != 0:
                status = -1
                break
            HAVHEX_ATOMIC_NEXT(&self.n_judged)
        scratch_free(&scratch)
        return status

    def cancel(self):
        """Make the compiled work on this input (in any thread) stop within
        milliseconds, leaving meaningless results; for a caller that is
        leaving by an exception (havhex._threads.run_interruptibly)."""
        request_cancel(&self.cancel_flag)

    def _run_worker(self, _CaseCounter counter):
        cdef int status
        with nogil:
            watch_cancel(&self.cancel_flag)
            status = self._judge_worker(&counter.next_case)
            watch_cancel(NULL)
        if status != 0:
            raise MemoryError("havhex: out of memory while judging")

    def progress(self):
        """(bytes read, cases read, cases judged) so far, for a display that
        polls from another thread while this input is read and judged."""
        return self.bytes_read, self.n_cases, self.n_judged

    def judge(self, int threads=1):
        """Judge every case; ``threads`` workers share the cases dynamically."""
        self.n_judged = 0
        self._free_verdicts()
        self.verdicts = <CaseResult*>calloc(<size_t>(self.n_cases if self.n_cases else 1),
                                            sizeof(CaseResult))
        if self.verdicts == NULL:
            raise MemoryError()
        counter = _CaseCounter()
        if threads <= 1 or self.n_cases <= 1:
            self._run_worker(counter)
            return
        from havhex._threads import Worker

        workers = []
        try:
            for _ in range(min(threads, self.n_cases)):
                worker = Worker(lambda: self._run_worker(counter))
                workers.append(worker)          # joined below even if start is interrupted
                worker.start()
        finally:
            for worker in workers:
                worker.join()
        for worker in workers:
            worker.outcome()

    cdef list _cells(self, int64_t n, const int32_t* cells, int64_t count):
        """Padded cell indices as (row, col) pairs.  A chain can hold
        millions of cells: signals are looked at on the way, so that an
        interrupt need not wait for the whole list."""
        cdef int64_t w = n + 1
        cdef int64_t k
        cdef list pairs = []
        for k in range(count):
            if (k & 0xFFFF) == 0xFFFF:
                PyErr_CheckSignals()
            pairs.append((cells[k] // w - 1, cells[k] % w))
        return pairs

    def verdict_codes(self):
        """(status codes, reason codes) of every case, as bytes."""
        if self.verdicts == NULL:
            raise RuntimeError("judge() has not run")
        cdef bytearray statuses = bytearray(self.n_cases)
        cdef bytearray reasons = bytearray(self.n_cases)
        cdef int64_t case
        for case in range(self.n_cases):
            statuses[case] = self.verdicts[case].status
            reasons[case] = self.verdicts[case].reason
        return bytes(statuses), bytes(reasons)

    def last_moves(self, int64_t case):
        """Possible last moves of a case as (row, col), in chain order (empty
        unless somebody wins).  ``judge`` finds only the verdicts, so this
        judges the case again, keeping them."""
        self._check_case(case)
        cdef Scratch scratch
        cdef CaseResult verdict
        cdef int status
        memset(&scratch, 0, sizeof(Scratch))
        memset(&verdict, 0, sizeof(CaseResult))
        try:
            with nogil:
                status = judge_board_fast(self.cells + self.offsets[case], self.sizes[case],
                                          &scratch, &verdict, True)
            if status != 0:
                raise MemoryError("havhex: out of memory while judging")
            return self._cells(self.sizes[case], verdict.last_moves, verdict.n_last_moves)
        finally:
            scratch_free(&scratch)
            free(verdict.last_moves)

    def explain(self, int64_t case):
        """Judge one case again, keeping the witnesses.

        Returns (status, reason, red stones, blue stones, last moves, chains);
        chains is a list of (colour code, [(row, col), ...]): the winner's
        chain for a win or for "loser-moved-last", Red's then Blue's for
        "both-connected", two stone-disjoint chains for "no-single-last-move".
        """
        self._check_case(case)
        cdef Scratch scratch
        cdef CaseResult verdict
        cdef Witness witness
        cdef int status
        cdef int64_t n = self.sizes[case]
        cdef int k
        memset(&scratch, 0, sizeof(Scratch))
        memset(&witness, 0, sizeof(Witness))
        memset(&verdict, 0, sizeof(CaseResult))
        try:
            with nogil:
                watch_cancel(&self.cancel_flag)
                status = judge_board(self.cells + self.offsets[case], n, &scratch,
                                     &verdict, &witness)
                watch_cancel(NULL)
            if status != 0:
                raise MemoryError("havhex: out of memory while judging")
            chains = [(witness.colour[k], self._cells(n, witness.chain[k], witness.length[k]))
                      for k in range(witness.n_chains)]
            return (verdict.status, verdict.reason, verdict.red, verdict.blue,
                    self._cells(n, verdict.last_moves, verdict.n_last_moves), chains)
        finally:
            scratch_free(&scratch)
            witness_free(&witness)
            free(verdict.last_moves)


def parse(source, Py_ssize_t chunk_size=1 << 20, HexInput into=None):
    """Parse the judge format from a bytes-like object or a file descriptor.

    Never raises for bad input: the returned object holds the complete cases
    before the first fault and describes that fault (``err_code``).
    """
    cdef HexInput parsed = HexInput() if into is None else into
    cdef Reader reader
    cdef const unsigned char[::1] view
    cdef bytearray chunk
    memset(&reader, 0, sizeof(Reader))
    reader.line = 1
    reader.token_line = 1
    if isinstance(source, int):
        chunk = bytearray(chunk_size)
        reader.fd = source
        reader.chunk = <unsigned char*>chunk
        reader.chunk_size = chunk_size
        reader.bytes_counter = &parsed.bytes_read
        reader.input_size = -1
        with nogil:
            watch_cancel(&parsed.cancel_flag)
            parsed._parse(&reader)
            watch_cancel(NULL)
    else:
        view = source
        reader.fd = -1
        reader.data = &view[0] if view.shape[0] else NULL
        reader.end = view.shape[0]
        reader.input_size = view.shape[0]
        parsed.bytes_read = view.shape[0]
        with nogil:
            watch_cancel(&parsed.cancel_flag)
            parsed._parse(&reader)
            watch_cancel(NULL)
    if parsed.err_token_pending:
        parsed.err_token = bytes(reader.bad_token[:reader.bad_length])
    return parsed


def from_rows(list rows):
    """One case from a list of N row ``bytes``; faults are recorded (line 0)
    like ``parse`` records them."""
    cdef HexInput parsed = HexInput()
    cdef int64_t n = len(rows)
    cdef int64_t i
    cdef Py_ssize_t used, end
    cdef const unsigned char[::1] view
    cdef uint8_t* dest
    parsed.err_size = n
    if n < 1 or n > MAX_SIZE:
        parsed._fault(ERR_N_SMALL if n < 1 else ERR_N_LARGE, 0, n)
        return parsed
    if parsed._begin_board(n) != ERR_NONE:
        raise MemoryError()
    for i in range(n):
        view = rows[i]
        if not parsed._reserve_cells((i + 2) * (n + 1)):
            raise MemoryError()
        dest = parsed.cells + (i + 1) * (n + 1)
        used = 0
        if view.shape[0]:
            with nogil:
                used = scan_row(&view[0], view.shape[0], dest, 0, n)
        parsed.err_row = i + 1
        if used <= n and used < view.shape[0]:
            parsed.err_column = used + 1
            character = bytes(view[used:used + 1])
            if character[0] >= 0xC0:
                end = used + 1
                while end < view.shape[0] and end < used + 4 and 0x80 <= view[end] <= 0xBF:
                    end += 1
                character = bytes(view[used:end])
            parsed.err_token = character
            parsed._fault(ERR_ROW_CHAR, 0, 0)
            return parsed
        if used != n:
            parsed.err_length = used
            parsed._fault(ERR_ROW_LENGTH, 0, 0)
            return parsed
        finish_row(dest, n, i == n - 1)
    if parsed._end_board(n, 0) != ERR_NONE:
        raise MemoryError()
    return parsed
