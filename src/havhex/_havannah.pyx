# cython: language_level=3
"""Havannah engine: reader for the judge format and the first-win kernel.

Flow: ``parse`` turns bytes (or a file descriptor) into flat move arrays,
``judge`` runs the kernel over every case, ``enclosed_empty`` is the exact,
slow-but-sure ring witness.  Python objects stay outside the ``nogil`` blocks.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memcpy, memset

from havhex._reader cimport (
    END_IO_ERROR, END_TRAILING, NUMBER_DIGITS_MAX, Reader, TOKEN_IO_ERROR, TOKEN_MISSING,
    TOKEN_NOT_INTEGER, TOKEN_OK, TOKEN_TOO_LONG, SeparatorScan, reader_at_end, reader_fast_pair,
    reader_int, reader_remaining, separators_next, separators_start, swar_marks, swar_value,
)
from havhex._cancel cimport ECANCELED, cancel_requested, cancelled, request_cancel, watch_cancel
from havhex._unionfind cimport uf_find, uf_hang, uf_link

import os

cdef extern from *:
    """
    #define HAVHEX_PREFETCH(address) __builtin_prefetch((const void *)(address), 0, 3)
    #define HAVHEX_ATOMIC_NEXT(counter) __atomic_fetch_add((counter), 1, __ATOMIC_RELAXED)
    #define HAVHEX_ATOMIC_ADD(counter, amount) __atomic_fetch_add((counter), (amount), __ATOMIC_RELAXED)
    #define HAVHEX_CTZ(bits) __builtin_ctz(bits)
    /* The next multiplier after a bad one: a splitmix64 step, odd. */
    static inline uint64_t havhex_next_multiplier(uint64_t previous) {
        uint64_t z = previous + 0x9E3779B97F4A7C15ULL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return (z ^ (z >> 31)) | 1;
    }
    """
    uint64_t havhex_next_multiplier(uint64_t previous) noexcept nogil
    int HAVHEX_CTZ(unsigned int bits) noexcept nogil
    void HAVHEX_PREFETCH(const void* address) noexcept nogil
    int64_t HAVHEX_ATOMIC_NEXT(int64_t* counter) noexcept nogil
    int64_t HAVHEX_ATOMIC_ADD(int64_t* counter, int64_t amount) noexcept nogil

# Kinds of winning structure, as bits; the judge prints them in this order.
cdef enum:
    KIND_BRIDGE = 1
    KIND_FORK = 2
    KIND_RING = 4

cdef enum:
    MAX_SIZE = 1 << 30
    # Union-find indices are int32 and one slot is reserved.
    MAX_MOVES = 2147483646

# What the reader expected when it failed (for messages).
cdef enum Field:
    FIELD_T, FIELD_S, FIELD_M, FIELD_X, FIELD_Y, FIELD_END

# Error kinds.
cdef enum:
    ERR_NONE = 0
    ERR_TOKEN = 1          # reader status in err_status
    ERR_T_RANGE = 2
    ERR_S_RANGE = 3
    ERR_M_RANGE = 4
    ERR_OFF_BOARD = 5
    ERR_TRAILING = 6
    ERR_NO_MEMORY = 7

# The codes as the facade reads them, so that they are stated once.
FAULT_CODES = (ERR_TOKEN, ERR_T_RANGE, ERR_S_RANGE, ERR_M_RANGE, ERR_OFF_BOARD, ERR_TRAILING,
               ERR_NO_MEMORY)
TOKEN_CODES = (TOKEN_MISSING, TOKEN_NOT_INTEGER, TOKEN_TOO_LONG, TOKEN_IO_ERROR)
MAX_NUMBER_DIGITS = NUMBER_DIGITS_MAX

# Neighbours clockwise from twelve o'clock (NOTES.md): consecutive entries are
# themselves adjacent, which the ring test relies on.
cdef int NEIGHBOUR_DX[6]
cdef int NEIGHBOUR_DY[6]
NEIGHBOUR_DX[:] = [1, 0, -1, -1, 0, 1]
NEIGHBOUR_DY[:] = [1, 1, 0, -1, -1, 0]

cdef int64_t LOW32 = 0xFFFFFFFF

# The winning structures a group's border mask makes (see border_mask): a
# bridge joins two corners, a fork three edges.
cdef uint8_t STRUCTURE_KINDS[4096]
for _i in range(4096):
    STRUCTURE_KINDS[_i] = ((KIND_BRIDGE if bin(_i & 63).count("1") >= 2 else 0)
                           | (KIND_FORK if bin(_i >> 6).count("1") >= 3 else 0))


class HavannahError(Exception):
    """Internal carrier; the facade turns it into ``havhex.InputError``."""


# --------------------------------------------------------------------------
# Board geometry
# --------------------------------------------------------------------------

cdef inline bint on_board(int64_t x, int64_t y, int64_t size) noexcept nogil:
    cdef int64_t last = 2 * size - 1
    return 1 <= x <= last and 1 <= y <= last and -(size - 1) <= x - y <= size - 1


cdef inline uint16_t border_mask(int64_t x, int64_t y, int64_t size) noexcept nogil:
    """Bits 0-5: the corner this cell is; bits 6-11: the edge it lies on."""
    cdef int64_t last = 2 * size - 1
    cdef int64_t d = x - y
    if 1 < x < last and 1 < y < last and -(size - 1) < d < size - 1:
        return 0
    if x == 1 and y == 1:
        return 1
    if x == 1 and y == size:
        return 2
    if x == size and y == 1:
        return 4
    if x == size and y == last:
        return 8
    if x == last and y == size:
        return 16
    if x == last and y == last:
        return 32
    if x == 1:
        return 64
    if y == 1:
        return 128
    if x == last:
        return 256
    if y == last:
        return 512
    if -d == size - 1:
        return 1024
    return 2048


cdef inline uint8_t structure_kinds(uint16_t mask) noexcept nogil:
    return STRUCTURE_KINDS[mask & 4095]     # (masks are ORs of border_mask's 12 bits)


# --------------------------------------------------------------------------
# Cell table: open addressing keyed by (x, y), memory proportional to moves.
# The key packs (x, y) as x << coord_bits | y; a neighbour's key is the key
# plus a constant, so with multiply-shift hashing its home slot costs one
# addition.  A slot is one word, key << stone_bits | stone: exact whenever
# both fit in 64 bits (any S up to 2**21 with a million moves).  Beyond that
# the word keeps the key's low bits and a match is confirmed on the move's
# coordinates.
# The multiplier is drawn per run, so crafted coordinates cannot force long
# probe chains; but for a few multipliers in a hundred, structured inputs
# (blocks, rows, lattices) fall into long runs.  The probe steps are counted,
# and a table that takes more than PROBE_BUDGET steps a move is rebuilt with
# a fresh multiplier (see table_rebuild): cheap when the multiplier is good,
# as it nearly always is.  The same rebuild grows a table sized for the moves
# read so far, so that a header claiming more moves than come costs nothing.
# On tables larger than the caches each move's slots are
# computed and prefetched PLAN_RING - 1 moves ahead (see MovePlan); on
# bench/ inputs this beat tiled layouts (4x4 and 2x2 cells per slot group)
# that keep neighbours on shared cache lines.
# --------------------------------------------------------------------------

cdef struct CellTable:
    uint64_t* slots   # never cleared: only slots marked in ``occupied`` count
    # One bit per slot, set when the slot holds a key of this case.  It alone
    # says which slots are in use, so a case ends by clearing these bits, not
    # the slots: the table itself is never zeroed, on allocation or between
    # cases.
    uint64_t* occupied
    # A finer home bitmap: bit h is set when a key's hash, cut to
    # FILTER_LOG more bits than a slot number, is h.  Most neighbours of a
    # move are empty cells; this filter answers "absent" for all but
    # load / 2**FILTER_LOG of them before the table is touched.
    uint64_t* filter
    size_t capacity   # slots allocated
    size_t mask       # slots in use by this case, minus one
    int shift         # 64 - log2(slots in use)
    uint64_t multiplier
    int coord_bits    # key = x << coord_bits | y
    int stone_bits    # slot word = key << stone_bits | stone
    uint64_t stone_mask
    bint confirm      # the key does not fit beside the stone: check coords
    const int32_t* coords


cdef enum:
    # Above this many bytes the table is not expected to stay in the caches.
    PLAN_AHEAD_BYTES = 1 << 21
    FILTER_LOG = 3    # filter bits per slot: 2**FILTER_LOG
    # Probe steps a move may take on average before the table is rebuilt with
    # a fresh multiplier (2**PROBE_BUDGET_LOG), beyond a fixed allowance
    # that short probe chains laid out on purpose (tests) stay within.  A
    # random hash takes well under one step a move at load 1/2, finds
    # included.
    PROBE_BUDGET_LOG = 1
    PROBE_ALLOWANCE = 1 << 12
    BUDGET_STEP = 1 << 8        # moves between two looks at the budget


cdef inline uint64_t cell_key(const CellTable* t, int64_t x, int64_t y) noexcept nogil:
    return (<uint64_t>x << t.coord_bits) | <uint64_t>y


cdef inline bint slot_holds(const CellTable* t, uint64_t word, uint64_t key) noexcept nogil:
    """Whether a slot word in use belongs to ``key``'s cell."""
    cdef uint64_t stone
    if (word ^ (key << t.stone_bits)) > t.stone_mask:
        return False
    if not t.confirm:
        return True
    stone = word & t.stone_mask
    return (<uint64_t>t.coords[2 * stone] == key >> t.coord_bits and
            <uint64_t>t.coords[2 * stone + 1] == key & ((<uint64_t>1 << t.coord_bits) - 1))


cdef inline size_t slot_of_hash(const CellTable* t, uint64_t hashed) noexcept nogil:
    return <size_t>(hashed >> t.shift)


cdef inline bint slot_used(const CellTable* t, size_t slot) noexcept nogil:
    return (t.occupied[slot >> 6] >> (slot & 63)) & 1


cdef inline size_t filter_bit(const CellTable* t, uint64_t hashed) noexcept nogil:
    """The key's filter bit; its home slot is this >> FILTER_LOG."""
    return <size_t>(hashed >> (t.shift - FILTER_LOG))


cdef inline uint64_t filter_test(const CellTable* t, size_t bit) noexcept nogil:
    return (t.filter[bit >> 6] >> (bit & 63)) & 1


cdef inline int32_t table_find(const CellTable* t, size_t slot, uint64_t key,
                               int64_t* steps) noexcept nogil:
    """The stone on ``key``'s cell, or -1.  ``slot`` is the key's home slot,
    known to be in use: the caller has found the key's filter bit set, and
    only an insert into that home sets it.  The slots walked past the home
    are added to ``steps``, the measure of a bad multiplier: counted one
    by one as they are walked, so that a lookup ending at its home (most
    do) does not touch the count."""
    while True:
        if slot_holds(t, t.slots[slot], key):
            return <int32_t>(t.slots[slot] & t.stone_mask)
        slot = (slot + 1) & t.mask
        steps[0] += 1
        if not slot_used(t, slot):
            return -1


cdef inline int32_t table_insert(CellTable* t, uint64_t hashed, uint64_t key,
                                 int32_t stone, int64_t* steps,
                                 bint filtered=True) noexcept nogil:
    """Insert ``key`` (``hashed`` = key * multiplier); return -1, or the
    stone already on that cell.  Without ``filtered`` the filter is not
    told: for moves whose neighbours will never be looked up.  Slots walked
    past the home are added to ``steps``, as in table_find."""
    cdef size_t bit = filter_bit(t, hashed)
    cdef size_t slot = bit >> FILTER_LOG
    while slot_used(t, slot):
        if slot_holds(t, t.slots[slot], key):
            return <int32_t>(t.slots[slot] & t.stone_mask)
        slot = (slot + 1) & t.mask
        steps[0] += 1
    t.slots[slot] = (key << t.stone_bits) | <uint64_t>stone
    t.occupied[slot >> 6] |= (<uint64_t>1) << (slot & 63)
    if filtered:
        t.filter[bit >> 6] |= (<uint64_t>1) << (bit & 63)
    return -1


cdef inline void table_clear(CellTable* t) noexcept nogil:
    """Empty the table for the next case: only the bitmaps are written."""
    if t.occupied == NULL:
        return
    memset(t.occupied, 0, ((t.mask >> 6) + 1) * sizeof(uint64_t))
    memset(t.filter, 0, ((t.mask >> 6) + 1) * sizeof(uint64_t) << FILTER_LOG)


cdef struct Scratch:
    CellTable table
    int32_t* parent
    uint16_t* mask
    int64_t stone_capacity
    # Totals over the cases judged, for tests (see HavannahInput._table_work).
    int64_t reseeds           # tables rebuilt with a fresh multiplier
    int64_t growths           # tables rebuilt larger
    int64_t probe_steps


cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

cdef extern from "<sys/mman.h>" nogil:
    int madvise(void* address, size_t length, int advice)
    int MADV_HUGEPAGE

cdef enum:
    HUGE_PAGE = 1 << 21


cdef void advise_huge_pages(void* block, size_t size) noexcept nogil:
    """Ask for huge pages over the block's whole 2 MiB-aligned pages.

    With 4 KiB pages a 32 MB table costs 8192 page faults, and in a process
    whose threads fault at the same time those serialize in the kernel: the
    threads of ``-j`` then barely run in parallel.  Huge pages cut the faults
    to a few per table.  Advice only: where it is refused, nothing else changes.
    """
    cdef size_t start = (<size_t>block + HUGE_PAGE - 1) & ~(<size_t>HUGE_PAGE - 1)
    cdef size_t end = (<size_t>block + size) & ~(<size_t>HUGE_PAGE - 1)
    if end > start:
        madvise(<void*>start, end - start, MADV_HUGEPAGE)


cdef void* large_block(size_t size) noexcept nogil:
    """An uninitialised block, on huge pages when large.

    Its pages are left to be faulted in as they are first touched: mapping
    them all at once (MADV_POPULATE_WRITE) or zeroing them here both made
    ``-j 2`` slower on the scale input (medians of 12 runs: 139-144 and
    150 ms against 127-132 ms), the two workers then zeroing their tables at
    the same moment."""
    cdef void* block = NULL
    if size < 2 * HUGE_PAGE:
        return malloc(size)
    size = (size + HUGE_PAGE - 1) & ~(<size_t>HUGE_PAGE - 1)
    if posix_memalign(&block, HUGE_PAGE, size) != 0:
        return NULL
    advise_huge_pages(block, size)
    return block


cdef void scratch_free(Scratch* s) noexcept nogil:
    free(s.table.slots)
    free(s.table.occupied)
    free(s.table.filter)
    free(s.parent)
    free(s.mask)
    memset(s, 0, sizeof(Scratch))


cdef int bit_length(uint64_t value) noexcept nogil:
    cdef int bits = 0
    while value:
        bits += 1
        value >>= 1
    return bits


cdef size_t slots_for(int64_t n_moves) noexcept nogil:
    """Slots for ``n_moves``: load <= 1/4 while the table fits the caches,
    else <= 1/2 for memory at scale."""
    cdef size_t n_slots = 64
    while n_slots < <size_t>((4 if n_moves <= (1 << 18) else 2) * n_moves):
        n_slots <<= 1
    return n_slots


cdef int64_t moves_fitting(size_t n_slots) noexcept nogil:
    """The most moves that slots_for gives ``n_slots`` (or fewer) for."""
    return <int64_t>(n_slots // 4 if n_slots < (1 << 20) else n_slots // 2)


cdef inline int64_t stones_fitting(int64_t n_moves, int64_t wanted) noexcept nogil:
    """Moves a table sized for ``wanted`` of a case's ``n_moves`` holds."""
    return min(n_moves, moves_fitting(slots_for(wanted)))


cdef bint table_prepare(CellTable* t, size_t n_slots) noexcept nogil:
    """Use ``n_slots`` slots, none in use; the bitmaps must be clear.  On
    failure the table holds no memory."""
    if n_slots > t.capacity:
        free(t.slots)
        free(t.occupied)
        free(t.filter)
        t.slots = <uint64_t*>large_block(n_slots * sizeof(uint64_t))
        t.occupied = <uint64_t*>large_block(n_slots // 8)
        t.filter = <uint64_t*>large_block((n_slots // 8) << FILTER_LOG)
        t.capacity = n_slots
        if t.slots == NULL or t.occupied == NULL or t.filter == NULL:
            free(t.slots)
            free(t.occupied)
            free(t.filter)
            t.slots = t.occupied = t.filter = NULL
            t.capacity = 0
            return False
        memset(t.occupied, 0, n_slots // 8)
        memset(t.filter, 0, (n_slots // 8) << FILTER_LOG)
    t.mask = n_slots - 1
    t.shift = 65 - bit_length(<uint64_t>n_slots)
    return True


cdef bint stones_reserve(Scratch* s, int64_t n_stones, int64_t kept) noexcept nogil:
    """Union-find arrays for ``n_stones``, keeping the first ``kept`` entries."""
    cdef int32_t* parent
    cdef uint16_t* mask
    if n_stones <= s.stone_capacity:
        return True
    parent = <int32_t*>large_block(<size_t>n_stones * sizeof(int32_t))
    mask = <uint16_t*>large_block(<size_t>n_stones * sizeof(uint16_t))
    if parent == NULL or mask == NULL:
        free(parent)
        free(mask)
        return False
    # Only what is kept is copied: every case initialises the entries it uses.
    if kept:
        memcpy(parent, s.parent, <size_t>kept * sizeof(int32_t))
        memcpy(mask, s.mask, <size_t>kept * sizeof(uint16_t))
    free(s.parent)
    free(s.mask)
    s.parent = parent
    s.mask = mask
    s.stone_capacity = n_stones
    return True


cdef bint scratch_reserve(Scratch* s, int64_t n_target, int64_t n_moves, int64_t size,
                          const int32_t* coords, uint64_t multiplier) noexcept nogil:
    """Size the table and the union-find arrays for ``n_target`` moves of a
    case of ``n_moves`` on a board of side ``size``.  The table grows later
    if more moves come (table_rebuild)."""
    if not table_prepare(&s.table, slots_for(n_target)):
        return False
    s.table.multiplier = multiplier | 1
    s.table.coord_bits = bit_length(<uint64_t>(2 * size - 1))
    # (n_moves - 1 would be all ones for an empty case: a 64-bit shift.)
    s.table.stone_bits = bit_length(<uint64_t>(n_moves - 1)) if n_moves > 1 else 1
    s.table.stone_mask = (<uint64_t>1 << s.table.stone_bits) - 1
    s.table.confirm = 2 * s.table.coord_bits + s.table.stone_bits > 64
    s.table.coords = coords
    return stones_reserve(s, n_target, 0)


cdef int64_t table_rebuild(Scratch* s, const int32_t* coords, size_t n_slots,
                           int64_t placed, int64_t n_stones, uint64_t multiplier) noexcept nogil:
    """Rebuild ``s.table`` with ``n_slots`` slots and ``multiplier``, holding
    the stones of the first ``placed`` moves, and make the union-find arrays
    hold ``n_stones``.  Returns the probe steps of the rebuild, or -1 when
    memory is refused; the table is then empty.  (The judge keeps its own
    copy of the table and its step count, whose addresses it gives to no
    function that is not inlined: see judge_case.)"""
    cdef CellTable* t = &s.table
    cdef int64_t j, steps = 0
    cdef uint64_t key
    if n_slots <= t.capacity:
        table_clear(t)
    if not table_prepare(t, n_slots) or not stones_reserve(s, n_stones, placed):
        return -1
    t.multiplier = multiplier | 1
    for j in range(placed):
        # The homes of the stones a few ahead are fetched meanwhile: on a
        # table beyond the caches each insert is otherwise a miss.
        if j + 8 < placed:
            key = cell_key(t, coords[2 * j + 16], coords[2 * j + 17])
            HAVHEX_PREFETCH(&t.slots[slot_of_hash(t, key * t.multiplier)])
        key = cell_key(t, coords[2 * j], coords[2 * j + 1])
        table_insert(t, key * t.multiplier, key, <int32_t>j, &steps)
    return steps


# --------------------------------------------------------------------------
# The kernel
# --------------------------------------------------------------------------

cdef struct MovePlan:
    # On tables beyond the caches, computed PLAN_RING - 1 moves ahead while
    # the lines are fetched; otherwise just before the move is played.
    uint64_t hashed             # the move's key times the multiplier
    size_t neighbour_bit[6]     # filter bits of the neighbours
    unsigned int candidates     # bit k: neighbour k is on the board
    uint16_t cell_mask


cdef enum:
    PLAN_RING = 16              # moves planned ahead, plus one; a power of two


cdef inline void plan_move(MovePlan* plan, const CellTable* t, const uint64_t* hash_delta,
                           int64_t x, int64_t y, int64_t size,
                           bint prefetch) noexcept nogil:
    cdef int k
    cdef uint64_t hashed = cell_key(t, x, y) * t.multiplier
    plan.hashed = hashed
    plan.cell_mask = border_mask(x, y, size)
    plan.candidates = 63
    if prefetch:
        HAVHEX_PREFETCH(&t.slots[slot_of_hash(t, hashed)])
    for k in range(6):
        plan.neighbour_bit[k] = filter_bit(t, hashed + hash_delta[k])
        if plan.cell_mask != 0 and not on_board(x + NEIGHBOUR_DX[k], y + NEIGHBOUR_DY[k], size):
            plan.candidates &= ~(1 << k)
        elif prefetch and filter_test(t, plan.neighbour_bit[k]):
            # Only neighbours the filter does not rule out now; one placed
            # in the moves still to come is looked up without a prefetch.
            HAVHEX_PREFETCH(&t.slots[plan.neighbour_bit[k] >> FILTER_LOG])


cdef struct MoveFeed:
    # A case that may still be being read: its moves below ``n_read[0]``
    # are there; the case is complete once its number is below ``n_ready[0]``,
    # and will never be once ``parse_done[0]`` is set without that.
    int64_t* n_read
    int64_t* n_ready
    int64_t* parse_done
    int64_t number
    int64_t* played             # moves judged so far, every PROGRESS_STEP (or NULL)
    const int* cancel           # the input's cancel flag, polled with ``played``


cdef int64_t feed_wait(const MoveFeed* feed, int64_t needed) noexcept nogil:
    """Wait until ``needed`` moves are there; the moves there, or -1 when the
    case was cut short by a fault (it is not judged)."""
    cdef int64_t there
    while True:
        there = HAVHEX_LOAD_I64(feed.n_read)
        if there >= needed:
            return there
        if feed.number < HAVHEX_LOAD_I64(feed.n_ready):
            return HAVHEX_LOAD_I64(feed.n_read)
        if HAVHEX_LOAD_I64(feed.parse_done):
            # Complete cases are counted before the reader stops.
            if feed.number < HAVHEX_LOAD_I64(feed.n_ready):
                return HAVHEX_LOAD_I64(feed.n_read)
            return -1
        usleep(20)


cdef enum:
    STEP_MORE = -1          # the reader has more to read (fault codes are > 0)
    PROGRESS_STEP = 1 << 13 # moves between two progress notes (and cancel polls) of a worker


cdef enum:
    JUDGED = 0
    JUDGE_NO_MEMORY = -1
    JUDGE_CUT_SHORT = 1     # the feed's case ended in a fault


cdef inline void plan_moves(MovePlan* plans, const CellTable* t, const uint64_t* hash_delta,
                            const int32_t* coords, int64_t first, int64_t stop,
                            int64_t size) noexcept nogil:
    """Plan (and prefetch) moves ``first`` .. ``stop - 1`` into their ring entries."""
    cdef int64_t ahead
    for ahead in range(first, stop):
        plan_move(&plans[ahead & (PLAN_RING - 1)], t, hash_delta, coords[2 * ahead],
                  coords[2 * ahead + 1], size, True)


cdef inline bint over_probe_budget(int64_t steps, int64_t placed) noexcept nogil:
    """Whether a table holding ``placed`` stones, which took ``steps`` probe
    steps since it was built, walks further than a good multiplier would."""
    return steps > PROBE_ALLOWANCE + (placed << PROBE_BUDGET_LOG)


cdef inline size_t reseed_slots(const CellTable* t, int reseeds) noexcept nogil:
    """Slots for a rebuild with a fresh multiplier: as many, unless this case
    already drew several bad ones (then twice as many, so that even an input
    no multiplier suits ends its rebuilds)."""
    return (t.mask + 1) * (2 if reseeds >= 4 else 1)


cdef int judge_case(int64_t size, const int32_t* coords, int64_t n_moves,
                    uint64_t seed, Scratch* s, uint8_t* kinds_out,
                    int64_t* move_out, int64_t* duplicate_out,
                    const MoveFeed* feed) noexcept nogil:
    """First winning move of one case of ``n_moves`` moves.

    Returns JUDGED, JUDGE_NO_MEMORY, or JUDGE_CUT_SHORT.  ``duplicate_out``
    receives the index of the first move that repeats a hexagon (or -1);
    moves after the win are still checked for that, but not played.  With a
    ``feed``, the moves may still be arriving: each is read only once the
    feed says it is there.
    """
    cdef CellTable local_table
    cdef CellTable* table
    cdef int32_t* parent
    cdef uint16_t* mask
    cdef int64_t i, ahead, stop
    cdef uint64_t key
    cdef uint64_t key_delta[6]
    cdef uint64_t hash_delta[6]
    cdef MovePlan plans[PLAN_RING]
    cdef MovePlan* plan
    cdef bint prefetch
    cdef int32_t neighbour[6]
    cdef int32_t run_root[3]
    cdef int k, n_runs, a, status
    cdef unsigned int present, starts, candidates
    cdef uint64_t occupied
    cdef uint16_t merged
    cdef int32_t root, other
    cdef uint8_t kinds = 0
    cdef int64_t there = n_moves if feed == NULL else HAVHEX_LOAD_I64(feed.n_read)
    cdef int64_t needed, lookahead, ready_below, check_at, grow_at, n_stones
    cdef int64_t* played
    cdef int reseeds = 0
    cdef int64_t steps = 0          # probe steps since the table was built

    kinds_out[0] = 0
    move_out[0] = 0
    duplicate_out[0] = -1
    # The table starts with room for the moves read, not for those claimed:
    # a case still being read grows it as its moves come (see grow_at).  The
    # union-find arrays hold as many stones as the table does.
    n_stones = stones_fitting(n_moves, min(n_moves, max(there, 1 << 10)))
    if not scratch_reserve(s, n_stones, n_moves, size, coords, seed):
        return JUDGE_NO_MEMORY
    # A copy no store through the arrays below can alias, so that the
    # compiler keeps its fields in registers.
    local_table = s.table
    table = &local_table
    parent = s.parent
    mask = s.mask
    # Key offsets of the six neighbours, clockwise from twelve o'clock
    # (NOTES.md); consecutive entries are themselves adjacent, which the
    # ring test relies on.
    for k in range(6):
        key_delta[k] = ((<uint64_t><int64_t>NEIGHBOUR_DX[k]) << table.coord_bits) + \
            <uint64_t><int64_t>NEIGHBOUR_DY[k]
        hash_delta[k] = key_delta[k] * table.multiplier
    # A table far larger than the caches (once all moves are there): plan
    # each move ahead of time so its slots' lines arrive before they are
    # needed.
    prefetch = slots_for(n_moves) * sizeof(uint64_t) > PLAN_AHEAD_BYTES
    if prefetch:
        needed = min(PLAN_RING - 1, n_moves)
        if needed > there:
            there = feed_wait(feed, needed)
            if there < 0:
                table_clear(table)
                return JUDGE_CUT_SHORT
        plan_moves(plans, table, hash_delta, coords, 0, needed, size)
    grow_at = min(moves_fitting(table.mask + 1), n_stones)

    # A step reads its own move and, when planning ahead, a later one.
    lookahead = PLAN_RING - 1 if prefetch else 0
    ready_below = n_moves if there >= n_moves else there - lookahead
    # The checks, at check_at, cover the feed, the progress note, the cancel
    # poll (a feed always has a note to write, so that the poll is reached)
    # and the table's growth and probe budget.  The moves between two checks
    # go in one run: within a run the table does not change, so that what
    # the loop derives from it stays in registers.
    played = feed.played if feed != NULL else NULL
    check_at = min(min(grow_at, BUDGET_STEP), ready_below if played == NULL else 0)
    i = 0
    while i < n_moves:
        if i >= check_at:
            if played != NULL:
                HAVHEX_STORE_RELAXED(played, i)
                if cancel_requested(feed.cancel):
                    table_clear(table)
                    return JUDGE_CUT_SHORT
            if i >= ready_below:
                there = feed_wait(feed, min(i + lookahead + 1, n_moves))
                if there < 0:
                    table_clear(table)
                    return JUDGE_CUT_SHORT
                ready_below = n_moves if there >= n_moves else there - lookahead
            if i >= grow_at or over_probe_budget(steps, i):
                # Full as its size allows: rebuild the table for the moves
                # read by now (at least twice those placed).  Or a
                # multiplier that lays this input out in long runs: draw
                # another and rebuild.  Either way the planned moves are
                # planned again.
                s.table = local_table
                s.probe_steps += steps
                if i >= grow_at:
                    n_stones = stones_fitting(n_moves, min(n_moves, max(2 * i, there)))
                    steps = table_rebuild(s, coords, slots_for(n_stones), i, n_stones,
                                          local_table.multiplier)
                    s.growths += 1
                else:
                    steps = table_rebuild(s, coords, reseed_slots(table, reseeds), i, n_stones,
                                          havhex_next_multiplier(local_table.multiplier))
                    reseeds += 1
                    s.reseeds += 1
                if steps < 0:
                    return JUDGE_NO_MEMORY
                local_table = s.table
                grow_at = min(moves_fitting(table.mask + 1), n_stones)
                parent = s.parent
                mask = s.mask
                for k in range(6):
                    hash_delta[k] = key_delta[k] * table.multiplier
                if prefetch:
                    plan_moves(plans, table, hash_delta, coords, i,
                               min(i + PLAN_RING - 1, n_moves), size)
            check_at = min(min(grow_at, i + BUDGET_STEP), ready_below if played == NULL
                           else min(ready_below, i + PROGRESS_STEP))
        stop = min(max(check_at, i + 1), n_moves)     # a run plays one move at least
        while i < stop:
            if prefetch:
                plan = &plans[i & (PLAN_RING - 1)]
            else:
                plan = &plans[0]
                plan_move(plan, table, hash_delta, coords[2 * i], coords[2 * i + 1], size, False)
            key = cell_key(table, coords[2 * i], coords[2 * i + 1])
            if table_insert(table, plan.hashed, key, <int32_t>i, &steps) >= 0:
                duplicate_out[0] = i
                s.probe_steps += steps
                table_clear(table)
                return JUDGED
            # Which neighbours may hold a stone: on the board, and not ruled out
            # by the filter.  The six filter bits are gathered without branches
            # (on a dense board each is a coin toss a branch would mispredict);
            # only these candidates are looked up in the table.
            candidates = plan.candidates
            occupied = 0
            for k in range(6):
                occupied |= filter_test(table, plan.neighbour_bit[k]) << k
            candidates &= occupied
            present = 0
            while candidates:
                k = HAVHEX_CTZ(candidates)
                candidates &= candidates - 1
                neighbour[k] = table_find(table, plan.neighbour_bit[k] >> FILTER_LOG,
                                          key + key_delta[k], &steps)
                if neighbour[k] >= 0:
                    present |= 1 << k
            parent[i] = -1
            mask[i] = plan.cell_mask
            if present:
                # The stone neighbours fall into runs around the circle; the
                # stones of a run touch each other, so a run is one group and one
                # find per run suffices.  A run starts at a present neighbour whose
                # predecessor is absent (all six present: one run).
                starts = present & ~(((present << 1) | (present >> 5)) & 63)
                if not starts:
                    starts = 1
                if (starts & (starts - 1)) == 0 and plan.cell_mask == 0:
                    # One run, off the border: no ring (that takes two runs of
                    # one group) and no new corner or edge for the group, so no
                    # find is needed; the stone hangs beside its neighbour.
                    uf_hang(parent, <int32_t>i, neighbour[HAVHEX_CTZ(starts)])
                else:
                    # Ring: every empty hexagon reached the outside before this
                    # move, so the move encloses something exactly when two
                    # separate runs already belong to one group.
                    n_runs = 0
                    while starts:
                        k = HAVHEX_CTZ(starts)
                        starts &= starts - 1
                        root = uf_find(parent, neighbour[k])
                        for a in range(n_runs):
                            if run_root[a] == root:
                                kinds = KIND_RING
                        run_root[n_runs] = root
                        n_runs += 1
                    # Join the runs' groups (a root equal to an earlier run's is
                    # joined already), then hang the new stone under the result.
                    root = run_root[0]
                    for a in range(1, n_runs):
                        other = run_root[a]
                        if other != run_root[0] and (a == 1 or other != run_root[1]):
                            merged = mask[root] | mask[other]
                            root = uf_link(parent, root, other)
                            mask[root] = merged
                    parent[i] = root
                    parent[root] -= 1
                    mask[root] |= plan.cell_mask
                    kinds |= structure_kinds(mask[root])

            ahead = i + PLAN_RING - 1
            if prefetch and ahead < n_moves:
                plan_move(&plans[ahead & (PLAN_RING - 1)], table, hash_delta, coords[2 * ahead],
                          coords[2 * ahead + 1], size, True)
            if kinds:
                kinds_out[0] = kinds
                move_out[0] = i + 1
                s.table = local_table
                status = insert_remaining(s, coords, i + 1, n_moves, duplicate_out,
                                          feed, there, reseeds, steps)
                if status != JUDGE_NO_MEMORY:
                    table_clear(&s.table)
                return status
            i += 1
    s.probe_steps += steps
    table_clear(table)
    return JUDGED


cdef inline int64_t insert_run(CellTable* t, const int32_t* coords, int64_t first,
                               int64_t stop, int64_t* steps) noexcept nogil:
    """Insert moves ``first`` .. ``stop - 1`` (their neighbours are never
    looked up); the first that repeats a hexagon, or ``stop``.  A loop with
    no other test, its step count in a local: after a win most of a case's
    moves go through here."""
    cdef int64_t i, walked = 0
    cdef uint64_t key
    for i in range(first, stop):
        key = cell_key(t, coords[2 * i], coords[2 * i + 1])
        if table_insert(t, key * t.multiplier, key, <int32_t>i, &walked, False) >= 0:
            steps[0] += walked
            return i
    steps[0] += walked
    return stop


cdef int insert_remaining(Scratch* s, const int32_t* coords, int64_t first,
                          int64_t n_moves, int64_t* duplicate_out,
                          const MoveFeed* feed, int64_t there, int reseeds,
                          int64_t steps) noexcept nogil:
    """Moves after the win are not played, but a repeated hexagon is still a
    fault.  JUDGED, JUDGE_CUT_SHORT when the feed's case was cut short, or
    JUDGE_NO_MEMORY.  The table grows, and is rebuilt on a bad multiplier,
    as in judge_case (``steps``: its probe steps so far); the union-find
    arrays are done with.  Works on ``s.table`` through a copy, as
    judge_case does."""
    cdef CellTable local_table = s.table
    cdef CellTable* table = &local_table
    cdef int64_t i = first, check_at, stop
    cdef int64_t grow_at = moves_fitting(table.mask + 1)
    cdef int status = JUDGED
    cdef bint grow
    check_at = min(min(there, grow_at), first + BUDGET_STEP)
    while i < n_moves:
        # The feed, the cancel poll and the table's checks, between runs.
        if i >= check_at:
            if feed != NULL and cancel_requested(feed.cancel):
                status = JUDGE_CUT_SHORT
                break
            if i >= there:
                there = feed_wait(feed, i + 1)
                if there < 0:
                    status = JUDGE_CUT_SHORT
                    break
            grow = i >= grow_at
            if grow or over_probe_budget(steps, i):
                s.table = local_table
                s.probe_steps += steps
                steps = table_rebuild(s, coords,
                                      slots_for(min(n_moves, max(2 * i, there))) if grow
                                      else reseed_slots(table, reseeds), i, 0,
                                      local_table.multiplier if grow
                                      else havhex_next_multiplier(local_table.multiplier))
                if steps < 0:
                    return JUDGE_NO_MEMORY
                local_table = s.table
                if grow:
                    s.growths += 1
                else:
                    reseeds += 1
                    s.reseeds += 1
                grow_at = moves_fitting(table.mask + 1)
            # Past i in every case: the moves up to there are read, and the
            # table has room beyond i.
            check_at = min(min(there, grow_at), i + BUDGET_STEP)
        stop = min(check_at, n_moves)
        i = insert_run(table, coords, i, stop, &steps)
        if i < stop:
            duplicate_out[0] = i
            break
    s.table = local_table
    s.probe_steps += steps
    return status


# --------------------------------------------------------------------------
# Parsed input.  Each case owns its arrays, so a case published by the parser
# never moves: workers judge early cases while later ones are still read.
# --------------------------------------------------------------------------

cdef extern from *:
    """
    #define HAVHEX_LOAD(pointer) __atomic_load_n((pointer), __ATOMIC_ACQUIRE)
    #define HAVHEX_CAS(pointer, expected, wanted) __extension__ ({ \
        int64_t havhex_expected = (expected); \
        __atomic_compare_exchange_n((pointer), &havhex_expected, (wanted), 0, \
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE); })
    #define HAVHEX_STORE(pointer, value) __atomic_store_n((pointer), (value), __ATOMIC_RELEASE)
    #define HAVHEX_LOAD_RELAXED(pointer) __atomic_load_n((pointer), __ATOMIC_RELAXED)
    #define HAVHEX_STORE_RELAXED(pointer, value) __atomic_store_n((pointer), (value), __ATOMIC_RELAXED)
    """
    int64_t HAVHEX_LOAD_I64 "HAVHEX_LOAD"(int64_t* pointer) noexcept nogil
    void HAVHEX_STORE_I64 "HAVHEX_STORE"(int64_t* pointer, int64_t value) noexcept nogil
    int64_t HAVHEX_LOAD_RELAXED(int64_t* pointer) noexcept nogil
    void HAVHEX_STORE_RELAXED(int64_t* pointer, int64_t value) noexcept nogil
    bint HAVHEX_CAS(int64_t* pointer, int64_t expected, int64_t wanted) noexcept nogil
    CaseData** HAVHEX_LOAD_TABLE "HAVHEX_LOAD"(CaseData*** pointer) noexcept nogil
    void HAVHEX_STORE_TABLE "HAVHEX_STORE"(CaseData*** pointer, CaseData** value) noexcept nogil

cdef extern from "<unistd.h>" nogil:
    int usleep(unsigned int microseconds)


cdef struct CaseData:
    int64_t size
    int64_t n_claimed         # M of the header
    # Moves read so far; while a case is read, workers may already judge the
    # moves below this (stored with release, loaded with acquire).
    int64_t n_moves
    int64_t capacity
    int64_t first_line        # line of the first move
    int32_t* coords           # x0, y0, x1, y1, ...
    # Line of each move's x, kept only once some move is not on the line
    # after its predecessor (a regular file costs no memory for this).
    int64_t* lines
    uint8_t kinds             # judge results
    int64_t move
    int64_t duplicate


cdef void case_free(CaseData* case) noexcept nogil:
    if case != NULL:
        free(case.coords)
        free(case.lines)
        free(case)


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


cdef extern from "_lines.h" nogil:
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
    """havhex_read_lines (_lines.h) without SSSE3: the same lines, the same
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
    HAVHEX_STORE_I64(&case.n_moves, i)
    return i


cdef struct MoveFault:
    # Where read_moves stopped, for the message.
    int token_status            # TOKEN_* of a bad or missing token
    int field                   # FIELD_X or FIELD_Y
    int64_t line
    int64_t value               # 1-based move number
    int64_t x
    int64_t y


cdef inline int token_fault_at(MoveFault* fault, int status, int field,
                               int64_t move) noexcept nogil:
    fault.token_status = status
    fault.field = field
    fault.value = move
    return ERR_TOKEN


cdef int read_moves(Reader* r, CaseData* case, int64_t n_moves, MoveFault* fault) noexcept nogil:
    """Read the ``n_moves`` moves of a case into ``case`` (which may have
    room for them already); ERR_NONE, or ERR_TOKEN, ERR_OFF_BOARD or
    ERR_NO_MEMORY with ``fault`` filled in."""
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
                return token_fault_at(fault, status, FIELD_X, i + 1)
            x_line = r.token_line
        fault.line = x_line
        fault.value = 0
        if i == case.capacity and not case_grow(case, n_moves):
            return ERR_NO_MEMORY
        if case.lines != NULL:
            case.lines[i] = x_line
        elif x_line != case.first_line + i:
            if not case_keep_lines(case):
                return ERR_NO_MEMORY
            case.lines[i] = x_line
        if not fast:
            status = reader_int(r, &y)
            if status != TOKEN_OK:
                return token_fault_at(fault, status, FIELD_Y, i + 1)
        if not on_board(x, y, size):
            fault.x = x
            fault.y = y
            fault.value = i + 1
            return ERR_OFF_BOARD
        case.coords[2 * i] = <int32_t>x
        case.coords[2 * i + 1] = <int32_t>y
        HAVHEX_STORE_I64(&case.n_moves, i + 1)
        i += 1
    return ERR_NONE


cdef inline int64_t case_line(const CaseData* case, int64_t move) noexcept nogil:
    if case.lines != NULL:
        return case.lines[move]
    return case.first_line + move


cdef enum:
    # Old case tables are kept until the end (a worker may still read one);
    # doubling from 64 entries, this many generations is never reached.
    MAX_TABLE_GENERATIONS = 58


from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec


cdef int64_t now_us() noexcept nogil:
    cdef timespec now
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec * 1000000 + now.tv_nsec // 1000


cdef struct WorkerNote:
    # What one worker is judging, for the reader's choice (_enough_read).
    # All fields are read by other threads, with relaxed atomic loads: they
    # only feed an estimate.
    int64_t busy              # 1 while judging
    int64_t n_moves           # moves of the case
    int64_t played            # moves judged so far, every PROGRESS_STEP
    int64_t started           # now_us() when the case was taken


cdef enum:
    CLAIM_NOT_YET = -1        # no case to take until more is read
    CLAIM_NONE_LEFT = -2


cdef class HavannahInput:
    """Cases of one input, their verdicts, and the first fault if any."""
    cdef CaseData** cases               # published table, replaced when full
    cdef int64_t table_capacity
    cdef void* retired[MAX_TABLE_GENERATIONS]
    cdef int n_retired
    cdef int64_t n_open                 # cases in the table, in input order
    cdef int64_t n_ready                # complete cases: the first n_ready
    cdef bint stream_cases              # open a case to workers as it is read
    # The input, when any worker with nothing to judge reads the next case.
    cdef Reader reader
    cdef object reader_owner            # what ``reader`` points into
    cdef bint shared_reading            # workers read in turn (_read_turn)
    cdef int64_t reader_busy            # 1 while a worker reads
    cdef int64_t n_cases_claimed        # T, once read
    cdef int64_t n_cases_read           # cases whose header is read
    cdef bint count_read
    cdef int64_t parse_done
    cdef int64_t next_case              # shared by the workers
    cdef WorkerNote* notes              # one per worker while judge() reads in turn
    cdef int64_t n_notes
    cdef int64_t next_note
    cdef int64_t last_read_us           # time the last case took to read
    cdef bint hand_over_reading         # tests: stop reading after every case
    cdef int64_t read_turns             # times a worker took the reader
    cdef int64_t refuse_memory_for      # tests: this case is refused memory (-1: none)
    cdef object hash_multiplier         # tests: the cell table's multiplier (None: random)
    cdef int64_t table_reseeds          # tests: totals of the workers' Scratch counters
    cdef int64_t table_growths
    cdef int64_t table_probe_steps
    cdef CaseData* partial              # the moves read of a case cut by a fault
    cdef int64_t bytes_read             # progress, read while other threads work
    cdef int64_t n_judged
    cdef bint judged
    cdef int cancel_flag                # set by cancel(), polled by the work
    # Parse fault: ERR_* code and its context.
    cdef public int err_code
    cdef public int err_status
    cdef public int err_field
    cdef public int64_t err_line
    cdef public int64_t err_value
    cdef public int64_t err_x
    cdef public int64_t err_y
    cdef public int64_t err_size
    cdef public int err_io_errno
    cdef public bytes err_token
    cdef int err_token_pending

    def __cinit__(self):
        self.refuse_memory_for = -1

    def __dealloc__(self):
        cdef int64_t i
        for i in range(self.n_ready):
            case_free(self.cases[i])
        free(self.cases)
        for i in range(self.n_retired):
            free(self.retired[i])
        case_free(self.partial)
        free(self.notes)

    def partial_duplicate(self):
        """In the case cut short by the fault: the first repeated hexagon as
        (move index, first index, x, y, line), or None.  A repeat before the
        fault is the earlier fault."""
        cdef CaseData* case = self.partial
        cdef int64_t i
        if case == NULL:
            return None
        seen = {}
        for i in range(case.n_moves):
            cell = (case.coords[2 * i], case.coords[2 * i + 1])
            if cell in seen:
                return i, seen[cell], cell[0], cell[1], case_line(case, i)
            seen[cell] = i
        return None

    @property
    def n_cases(self):
        return self.n_ready

    @property
    def n_moves(self):
        cdef int64_t i, total = 0
        for i in range(self.n_ready):
            total += self.cases[i].n_moves
        return total

    cdef CaseData* _case(self, int64_t case) except NULL:
        if not 0 <= case < self.n_ready:
            raise IndexError(case)
        return self.cases[case]

    def case_size(self, int64_t case):
        return self._case(case).size

    def case_moves(self, int64_t case):
        """Moves of one case as a list of (x, y)."""
        cdef CaseData* data = self._case(case)
        cdef int64_t i
        return [(data.coords[2 * i], data.coords[2 * i + 1]) for i in range(data.n_moves)]

    def case_coords(self, int64_t case, n_moves=None):
        """The first ``n_moves`` moves (default all) of one case as an
        ``array('i')`` of interleaved x, y: one copy, no object per move."""
        cdef CaseData* data = self._case(case)
        cdef int64_t n = data.n_moves if n_moves is None else min(max(<int64_t>n_moves, 0), data.n_moves)
        from array import array
        coords = array("i", bytes(<size_t>(2 * n) * sizeof(int32_t)))
        cdef int32_t[::1] view = coords
        if n:
            memcpy(&view[0], data.coords, <size_t>(2 * n) * sizeof(int32_t))
        return coords

    def move_line(self, int64_t case, int64_t move):
        cdef CaseData* data = self._case(case)
        if not 0 <= move < data.n_moves:
            raise IndexError(move)
        return case_line(data, move)

    cdef bint _append(self, CaseData* case) noexcept nogil:
        """Append a case to the table; workers see it once n_open covers it."""
        cdef CaseData** table = self.cases
        cdef int64_t capacity
        if self.n_open == self.table_capacity:
            if self.n_retired == MAX_TABLE_GENERATIONS:
                return False
            capacity = self.table_capacity * 2 if self.table_capacity else 64
            table = <CaseData**>malloc(<size_t>capacity * sizeof(CaseData*))
            if table == NULL:
                return False
            if self.n_open:
                memcpy(table, self.cases, <size_t>self.n_open * sizeof(CaseData*))
            if self.cases != NULL:
                self.retired[self.n_retired] = self.cases
                self.n_retired += 1
            self.table_capacity = capacity
        table[self.n_open] = case
        HAVHEX_STORE_TABLE(&self.cases, table)
        HAVHEX_STORE_I64(&self.n_open, self.n_open + 1)
        return True

    cdef bint _publish(self, CaseData* case) noexcept nogil:
        """Append a complete case."""
        if not self._append(case):
            return False
        HAVHEX_STORE_I64(&self.n_ready, self.n_ready + 1)
        return True

    cdef int _parse(self, Reader* r) noexcept nogil:
        """Read the whole judge format; stop at the first fault (recorded)."""
        cdef int status = STEP_MORE
        while status == STEP_MORE:
            status = self._read_step(r)
        HAVHEX_STORE_I64(&self.parse_done, 1)
        return status

    cdef int _read_step(self, Reader* r) noexcept nogil:
        """Read on: the case count first, then one case a call, then the end.
        STEP_MORE while there is more to read, ERR_NONE at a sound end, or
        the code of the fault (recorded)."""
        cdef int status, end
        if cancelled():
            r.io_errno = ECANCELED
            return self._token_fault(r, TOKEN_IO_ERROR, FIELD_END)
        if not self.count_read:
            status = reader_int(r, &self.n_cases_claimed)
            if status != TOKEN_OK:
                return self._token_fault(r, status, FIELD_T)
            if self.n_cases_claimed < 0:
                return self._fault(ERR_T_RANGE, r.token_line, self.n_cases_claimed)
            self.count_read = True
            return STEP_MORE
        if self.n_cases_read < self.n_cases_claimed:
            self.n_cases_read += 1
            status = self._read_case(r)
            return STEP_MORE if status == ERR_NONE else status
        end = reader_at_end(r)
        if end == END_TRAILING:
            self.err_token_pending = 1
            return self._fault(ERR_TRAILING, r.token_line, 0)
        if end == END_IO_ERROR:
            return self._token_fault(r, TOKEN_IO_ERROR, FIELD_END)
        return ERR_NONE

    cdef int _read_case(self, Reader* r) noexcept nogil:
        """Read one case: its header, then its moves."""
        cdef int64_t size, n_moves, cells, remaining
        cdef CaseData* case = NULL
        cdef MoveFault fault
        cdef int status
        cdef bint streamed
        status = reader_int(r, &size)
        if status != TOKEN_OK:
            return self._token_fault(r, status, FIELD_S)
        if size < 2 or size > MAX_SIZE:
            return self._fault(ERR_S_RANGE, r.token_line, size)
        status = reader_int(r, &n_moves)
        if status != TOKEN_OK:
            return self._token_fault(r, status, FIELD_M)
        cells = 3 * size * (size - 1) + 1
        if n_moves < 0 or n_moves > cells or n_moves > MAX_MOVES:
            self.err_size = size
            return self._fault(ERR_M_RANGE, r.token_line, n_moves)
        case = <CaseData*>calloc(1, sizeof(CaseData))
        if case == NULL:
            return self._fault(ERR_NO_MEMORY, r.token_line, 0)
        case.size = size
        case.n_claimed = n_moves
        case.first_line = r.token_line + 1
        case.duplicate = -1
        # When the input left can hold the claimed moves (each takes at
        # least 4 bytes), room for all of them is made at once: the
        # coordinates then never move, so workers may judge the case
        # while it is read (a worker's table grows with the moves read).
        # Otherwise memory grows with the moves read, never ahead of them:
        # a header can claim memory only as far as the input left could
        # hold its moves.
        streamed = False
        remaining = reader_remaining(r)
        # (Where that much memory is refused, the moves are read as they
        # come, as for a pipe.)
        if 0 < n_moves <= remaining // 4 and case_grow_to(case, n_moves):
            if self.stream_cases:
                if not self._append(case):
                    case_free(case)
                    return self._fault(ERR_NO_MEMORY, r.token_line, 0)
                streamed = True
        status = read_moves(r, case, n_moves, &fault)
        if status != ERR_NONE:
            self.partial = case
            if status == ERR_TOKEN:
                self.err_value = fault.value
                return self._token_fault(r, fault.token_status, fault.field)
            if status == ERR_OFF_BOARD:
                self.err_x = fault.x
                self.err_y = fault.y
                self.err_size = size
            return self._fault(status, fault.line, fault.value)
        if streamed:
            HAVHEX_STORE_I64(&self.n_ready, self.n_ready + 1)
        elif not self._publish(case):
            case_free(case)
            return self._fault(ERR_NO_MEMORY, r.token_line, 0)
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

    cdef int64_t _claim_case(self) noexcept nogil:
        """Take the next case read (or being read): its number, CLAIM_NOT_YET
        while it is not read yet, or CLAIM_NONE_LEFT."""
        cdef int64_t number, done
        while True:
            # parse_done first: once it is set, n_open is final.
            done = HAVHEX_LOAD_I64(&self.parse_done)
            number = HAVHEX_LOAD_I64(&self.next_case)
            if number < HAVHEX_LOAD_I64(&self.n_open):
                if HAVHEX_CAS(&self.next_case, number, number + 1):
                    return number
                continue
            return CLAIM_NONE_LEFT if done else CLAIM_NOT_YET

    cdef bint _read_turn(self) noexcept nogil:
        """Read whole cases if no other worker is reading, until this worker
        had better judge what it read (_enough_read).  False if it did not
        read."""
        cdef int status
        cdef int64_t started
        if (not self.shared_reading or HAVHEX_LOAD_I64(&self.parse_done)
                or not HAVHEX_CAS(&self.reader_busy, 0, 1)):
            return False
        self.read_turns += 1
        while not HAVHEX_LOAD_I64(&self.parse_done):
            started = now_us()
            status = self._read_step(&self.reader)
            if status != STEP_MORE:
                HAVHEX_STORE_I64(&self.parse_done, 1)
                break
            self.last_read_us = now_us() - started
            if self.hand_over_reading or self._enough_read():
                break
        HAVHEX_STORE_I64(&self.reader_busy, 0)
        return True

    cdef void _read_rest(self) noexcept nogil:
        """Read to the end of the input (or its first fault), whoever judges."""
        while not HAVHEX_LOAD_I64(&self.parse_done):
            if not self._read_turn():
                usleep(20)

    cdef bint _enough_read(self) noexcept nogil:
        """Whether the reader should stop and judge the case it just read.

        Reading on pays while no case waits (nothing to judge), or while
        another worker will finish its case about as soon as the next case
        can be read: that worker then finds a case ready, and this one takes
        the case waiting now.  Otherwise the reader would leave a case
        waiting that it could be judging.  With four large cases on two
        threads, reading everything first made one thread judge the last
        case alone."""
        cdef int64_t w, played, now
        cdef double remaining
        cdef WorkerNote* note
        if HAVHEX_LOAD_I64(&self.next_case) >= HAVHEX_LOAD_I64(&self.n_open):
            return False
        now = now_us()
        for w in range(self.n_notes):
            note = &self.notes[w]
            if not HAVHEX_LOAD_RELAXED(&note.busy):
                continue
            played = HAVHEX_LOAD_RELAXED(&note.played)
            if played > 0:
                remaining = (<double>(now - HAVHEX_LOAD_RELAXED(&note.started))
                             * (HAVHEX_LOAD_RELAXED(&note.n_moves) - played) / played)
                if remaining <= 1.5 * self.last_read_us:
                    return False
        return True

    cdef int _work(self, uint64_t seed) noexcept nogil:
        """Take cases until none is left; when none is read yet, read."""
        cdef Scratch scratch
        cdef MoveFeed feed
        cdef int64_t number
        cdef CaseData* case
        cdef WorkerNote* note = NULL
        cdef int64_t played = 0             # the note of a worker nobody watches
        cdef int status = 0
        if self.notes != NULL:
            note = &self.notes[HAVHEX_ATOMIC_NEXT(&self.next_note) % self.n_notes]
        memset(&scratch, 0, sizeof(Scratch))
        while True:
            number = self._claim_case()
            if number == CLAIM_NONE_LEFT or cancelled():
                break
            if number == CLAIM_NOT_YET:
                if not self._read_turn():
                    usleep(20)
                continue
            case = HAVHEX_LOAD_TABLE(&self.cases)[number]
            feed.n_read = &case.n_moves
            feed.n_ready = &self.n_ready
            feed.parse_done = &self.parse_done
            feed.number = number
            feed.played = &played
            feed.cancel = &self.cancel_flag
            if note != NULL:
                HAVHEX_STORE_RELAXED(&note.n_moves, case.n_claimed)
                HAVHEX_STORE_RELAXED(&note.played, 0)
                HAVHEX_STORE_RELAXED(&note.started, now_us())
                HAVHEX_STORE_RELAXED(&note.busy, 1)
                feed.played = &note.played
            if number == self.refuse_memory_for:
                status = JUDGE_NO_MEMORY
            else:
                status = judge_case(case.size, case.coords, case.n_claimed, seed, &scratch,
                                    &case.kinds, &case.move, &case.duplicate, &feed)
            if note != NULL:
                HAVHEX_STORE_RELAXED(&note.busy, 0)
            if status == JUDGE_NO_MEMORY:
                # Room is made for the moves a case holds.  A case still
                # being read may claim more than it holds: if it ends cut
                # short, its fault is what the reader reports, not memory.
                if feed_wait(&feed, case.n_claimed) >= 0:
                    break
                status = 0
                continue
            status = 0
            HAVHEX_ATOMIC_NEXT(&self.n_judged)
        HAVHEX_ATOMIC_ADD(&self.table_reseeds, scratch.reseeds)
        HAVHEX_ATOMIC_ADD(&self.table_growths, scratch.growths)
        HAVHEX_ATOMIC_ADD(&self.table_probe_steps, scratch.probe_steps)
        scratch_free(&scratch)
        return status

    def _hand_over_reading(self, bint wanted):
        """Tests: with threads > 1, make every reader stop after each case,
        so that reading passes from worker to worker."""
        self.hand_over_reading = wanted

    def _hash_with(self, multiplier):
        """Tests: hash cells with this odd multiplier instead of a random
        one, so that probe chains can be laid out by hand."""
        self.hash_multiplier = multiplier

    @property
    def _table_work(self):
        """Tests: (rebuilds with a fresh multiplier, rebuilds to grow, probe
        steps) of the cell tables, totalled over every judge() so far."""
        return self.table_reseeds, self.table_growths, self.table_probe_steps

    def _refuse_memory_for(self, int64_t case):
        """Tests: judging ``case`` fails as if its table were refused."""
        self.refuse_memory_for = case

    @property
    def _read_turns(self):
        """Tests: how many times a worker took the reader."""
        return self.read_turns

    def cancel(self):
        """Make the compiled work on this input (in any thread) stop within
        milliseconds, leaving meaningless results; for a caller that is
        leaving by an exception (havhex._threads.run_interruptibly)."""
        request_cancel(&self.cancel_flag)

    def _worker(self, uint64_t seed):
        cdef int status
        with nogil:
            watch_cancel(&self.cancel_flag)
            status = self._work(seed)
            watch_cancel(NULL)
        if status != 0:
            raise MemoryError("out of memory while judging")

    def judge(self, int threads=1, source=None, Py_ssize_t chunk_size=1 << 20):
        """Judge every case on ``threads`` workers sharing the cases.

        With ``source`` (bytes or a file descriptor), the input is read here:
        with one thread first, with more by whichever worker has nothing to
        judge (_read_turn), and a worker starts on a case as soon as its
        header is read.
        """
        if source is not None and HAVHEX_LOAD_I64(&self.parse_done):
            raise RuntimeError("this input was read already")
        if source is None and not HAVHEX_LOAD_I64(&self.parse_done):
            raise RuntimeError("nothing was read: give a source, or use parse()")
        # Judging again (benchmarks do) starts the shared counters afresh.
        self.next_case = 0
        self.n_judged = 0
        self.judged = True
        cdef uint64_t seed = (int.from_bytes(os.urandom(8), "little")
                              if self.hash_multiplier is None else self.hash_multiplier)
        started = []
        threads = min(threads, os.cpu_count() or 1)

        try:
            if threads > 1:
                from havhex._threads import Worker

                if source is not None:
                    # Any worker with nothing to judge reads on (_read_turn),
                    # and workers start on a case as soon as its header is read.
                    _open_reader(self, source, chunk_size)
                    self.shared_reading = True
                    self.stream_cases = True
                    self.notes = <WorkerNote*>calloc(threads, sizeof(WorkerNote))
                    if self.notes == NULL:
                        raise MemoryError("out of memory while judging")
                    self.n_notes = threads
                    self.next_note = 0
                # The calling thread is one of the ``threads`` workers.  (A
                # worker more was slower: three threads on two cores evict
                # each other's tables from the caches.)
                for _ in range(threads - 1):
                    worker = Worker(lambda: self._worker(seed))
                    started.append(worker)      # joined below even if start is interrupted
                    worker.start()
            if source is not None and not self.shared_reading:
                _parse_into(self, source, chunk_size)
            try:
                self._worker(seed)
            except MemoryError:
                # As with one thread, the input is still read to its end, so
                # that a fault in it is known, before memory is reported.
                if self.shared_reading:
                    with nogil:
                        watch_cancel(&self.cancel_flag)
                        self._read_rest()
                        watch_cancel(NULL)
                raise
        finally:
            HAVHEX_STORE_I64(&self.parse_done, 1)
            for worker in started:
                worker.join()
            if self.shared_reading:
                _close_reader(self)
                self.shared_reading = False
            free(self.notes)
            self.notes = NULL
            self.n_notes = 0
        for worker in started:
            worker.outcome()

    def progress(self):
        """(bytes read, cases read, cases judged) so far; safe to call from
        another thread while this input is being judged."""
        return (HAVHEX_LOAD_I64(&self.bytes_read), HAVHEX_LOAD_I64(&self.n_ready),
                HAVHEX_LOAD_I64(&self.n_judged))

    def result(self, int64_t case):
        """(kinds bitmask, 1-based winning move or 0, duplicate move index or -1)."""
        cdef CaseData* data = self._case(case)
        if not self.judged:
            raise RuntimeError("judge() has not run")
        return data.kinds, data.move, data.duplicate

    def results(self):
        """Kinds bitmasks (bytes), winning moves (list), and the first duplicate
        as (case, move index) or None."""
        if not self.judged:
            raise RuntimeError("judge() has not run")
        cdef int64_t i
        kinds = bytearray(self.n_ready)
        moves = [0] * self.n_ready
        duplicate = None
        for i in range(self.n_ready):
            kinds[i] = self.cases[i].kinds
            moves[i] = self.cases[i].move
            if duplicate is None and self.cases[i].duplicate >= 0:
                duplicate = (i, self.cases[i].duplicate)
        return bytes(kinds), moves, duplicate

    def first_played(self, int64_t case, int64_t move):
        """Index of the earlier move on the same hexagon as ``move``."""
        cdef CaseData* data = self._case(case)
        cdef int64_t i
        if not 0 <= move < data.n_moves:
            raise IndexError(move)
        for i in range(move):
            if (data.coords[2 * i] == data.coords[2 * move] and
                    data.coords[2 * i + 1] == data.coords[2 * move + 1]):
                return i
        return -1


cdef int64_t _bytes_ahead(int descriptor):
    """Bytes from the descriptor's position to the end of its regular file,
    or -1 (a pipe, a terminal, anything whose size is not known)."""
    import stat
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            return -1
        return max(status.st_size - os.lseek(descriptor, 0, os.SEEK_CUR), 0)
    except OSError:
        return -1


cdef _open_reader(HavannahInput parsed, source, Py_ssize_t chunk_size):
    """Point ``parsed.reader`` at bytes, or at a file descriptor read through
    a chunk of ``chunk_size`` bytes; ``parsed.reader_owner`` keeps the
    memory alive."""
    cdef Reader* reader = &parsed.reader
    cdef const unsigned char[::1] view
    cdef bytearray chunk
    memset(reader, 0, sizeof(Reader))
    reader.line = 1
    reader.token_line = 1
    if isinstance(source, int):
        chunk = bytearray(chunk_size)
        reader.fd = source
        reader.chunk = <unsigned char*>chunk
        reader.chunk_size = chunk_size
        reader.bytes_counter = &parsed.bytes_read
        reader.input_size = _bytes_ahead(source)
        parsed.reader_owner = chunk
    else:
        view = source
        reader.fd = -1
        reader.data = &view[0] if view.shape[0] else NULL
        reader.end = view.shape[0]
        reader.input_size = view.shape[0]
        parsed.reader_owner = view


cdef _close_reader(HavannahInput parsed):
    if parsed.err_token_pending:
        parsed.err_token = bytes(parsed.reader.bad_token[:parsed.reader.bad_length])
    memset(&parsed.reader, 0, sizeof(Reader))
    parsed.reader_owner = None


cdef _parse_into(HavannahInput parsed, source, Py_ssize_t chunk_size):
    _open_reader(parsed, source, chunk_size)
    try:
        with nogil:
            watch_cancel(&parsed.cancel_flag)
            parsed._parse(&parsed.reader)
            watch_cancel(NULL)
    finally:
        _close_reader(parsed)


def parse(source, Py_ssize_t chunk_size=1 << 20):
    """Parse the judge format from a bytes-like object or a file descriptor.

    Never raises for bad input: the returned object holds the complete cases
    before the first fault and describes that fault (``err_code``).
    """
    cdef HavannahInput parsed = HavannahInput()
    _parse_into(parsed, source, chunk_size)
    return parsed


# Inputs in memory below this many bytes are judged in the calling thread:
# they take milliseconds, less than handing them to a worker thread would add.
WAIT_ON_A_WORKER_FROM = 1 << 20


def parse_and_judge(source, int threads=1, Py_ssize_t chunk_size=1 << 20, progress=None):
    """Parse and judge in one pass: with threads > 1, judging overlaps reading.

    ``progress``, if given, is called about ten times a second with
    ``(bytes read, cases read, cases judged)`` while the work runs in a thread.
    A file (a descriptor) or a large input is read and judged on a worker
    thread while this one waits, so that an interrupt here stops the work
    (``HavannahInput.cancel``) and is raised at once.
    """
    cdef HavannahInput parsed = HavannahInput()
    if (progress is None and isinstance(source, (bytes, bytearray))
            and len(source) < WAIT_ON_A_WORKER_FROM):
        parsed.judge(threads, source, chunk_size)
        return parsed
    from havhex._threads import run_interruptibly

    report = None if progress is None else (lambda: progress(*parsed.progress()))
    run_interruptibly(lambda: parsed.judge(threads, source, chunk_size), parsed.cancel,
                      report, 0.1 if progress is not None else 0.05)
    return parsed


ctypedef fused coordinate_t:
    int32_t
    int64_t


def from_moves(int64_t size, const coordinate_t[::1] coords):
    """One case from interleaved x, y coordinates.

    Moves off the board are recorded as a fault (``err_code``), like ``parse``.
    """
    cdef HavannahInput parsed = HavannahInput()
    cdef int64_t n = coords.shape[0] // 2
    cdef int64_t i, x, y
    cdef CaseData* case = <CaseData*>calloc(1, sizeof(CaseData))
    if case == NULL:
        raise MemoryError()
    case.size = size
    case.n_claimed = n
    case.duplicate = -1
    case.capacity = n
    case.coords = <int32_t*>malloc(<size_t>(2 * n + 2) * sizeof(int32_t))
    if case.coords == NULL:
        case_free(case)
        raise MemoryError()
    with nogil:
        for i in range(n):
            x = coords[2 * i]
            y = coords[2 * i + 1]
            if not on_board(x, y, size):
                parsed.err_x = x
                parsed.err_y = y
                parsed.err_size = size
                parsed._fault(ERR_OFF_BOARD, 0, i + 1)
                break
            case.coords[2 * i] = <int32_t>x
            case.coords[2 * i + 1] = <int32_t>y
        case.n_moves = n
    if parsed.err_code or not parsed._publish(case):
        case_free(case)
        if not parsed.err_code:
            raise MemoryError()
    parsed.parse_done = 1
    return parsed


# --------------------------------------------------------------------------
# Exact ring witness: empty hexagons cut off from the board's exterior.
# Empty cells are grouped into runs along each row x; runs of neighbouring rows
# touch when their y ranges overlap by the hex adjacency.  Rows without stones,
# and runs reaching the row's ends, belong to the exterior.  Memory and time
# follow the number of stones, not the board.
# --------------------------------------------------------------------------

cdef int compare_keys(const void* a, const void* b) noexcept nogil:
    cdef int64_t ka = (<const int64_t*>a)[0]
    cdef int64_t kb = (<const int64_t*>b)[0]
    return (ka > kb) - (ka < kb)


cdef struct EmptyRun:
    int64_t x
    int64_t first
    int64_t last


cdef int64_t row_low(int64_t x, int64_t size) noexcept nogil:
    return x - size + 1 if x > size else 1


cdef int64_t row_high(int64_t x, int64_t size) noexcept nogil:
    return x + size - 1 if x + size - 1 < 2 * size - 1 else 2 * size - 1


def enclosed_runs(int64_t size, const int32_t[::1] coords):
    """Empty hexagons that cannot reach the exterior, as (x, first_y, last_y) runs.

    ``coords`` holds distinct on-board stones as interleaved x, y.
    """
    cdef int64_t n = coords.shape[0] // 2
    cdef int64_t* keys = <int64_t*>malloc(<size_t>(n if n else 1) * sizeof(int64_t))
    # At most one run before each stone plus one per row.
    cdef EmptyRun* runs = <EmptyRun*>malloc(<size_t>(2 * n + 1) * sizeof(EmptyRun))
    cdef int32_t* parent = <int32_t*>malloc(<size_t>(2 * n + 2) * sizeof(int32_t))
    cdef int64_t i, j, x, y, low, high, previous_y, n_runs = 0
    cdef int64_t row_start, prev_row_start = 0, prev_row_end = 0, prev_x = -10
    cdef int64_t a, b, exterior, run_index
    cdef int32_t ra, rb
    if keys == NULL or runs == NULL or parent == NULL:
        free(keys)
        free(runs)
        free(parent)
        raise MemoryError()
    result = []
    try:
        with nogil:
            for i in range(n):
                keys[i] = (<int64_t>coords[2 * i] << 32) | coords[2 * i + 1]
            qsort(keys, <size_t>n, sizeof(int64_t), compare_keys)
            # Node 0 is the exterior; run k is node k + 1.
            exterior = 0
            parent[0] = -1
            i = 0
            while i < n:
                x = keys[i] >> 32
                low = row_low(x, size)
                high = row_high(x, size)
                row_start = n_runs
                previous_y = low - 1
                while i < n and (keys[i] >> 32) == x:
                    y = keys[i] & LOW32
                    if y > previous_y + 1:
                        runs[n_runs].x = x
                        runs[n_runs].first = previous_y + 1
                        runs[n_runs].last = y - 1
                        n_runs += 1
                    previous_y = y
                    i += 1
                if previous_y < high:
                    runs[n_runs].x = x
                    runs[n_runs].first = previous_y + 1
                    runs[n_runs].last = high
                    n_runs += 1
                for j in range(row_start, n_runs):
                    parent[j + 1] = -1
                    # A run at the row's end holds a border hexagon; the rows
                    # above and below without stones are exterior entirely.
                    if (runs[j].first == low or runs[j].last == high
                            or prev_x != x - 1 or x == 1 or x == 2 * size - 1):
                        ra = uf_find(parent, <int32_t>(j + 1))
                        rb = uf_find(parent, 0)
                        if ra != rb:
                            uf_link(parent, ra, rb)
                # Runs of the previous row (x - 1) touch run [a, b] of this
                # row when they overlap [a - 1, b]: (x, y) neighbours
                # (x - 1, y) and (x - 1, y - 1).
                if prev_x == x - 1:
                    a = prev_row_start
                    for j in range(row_start, n_runs):
                        while a < prev_row_end and runs[a].last < runs[j].first - 1:
                            a += 1
                        b = a
                        while b < prev_row_end and runs[b].first <= runs[j].last:
                            ra = uf_find(parent, <int32_t>(j + 1))
                            rb = uf_find(parent, <int32_t>(b + 1))
                            if ra != rb:
                                uf_link(parent, ra, rb)
                            b += 1
                # The previous row's runs also meet the exterior when this row
                # is not x + 1 of theirs (handled above, symmetric case):
                if prev_x >= 1 and prev_x != x - 1:
                    for j in range(prev_row_start, prev_row_end):
                        ra = uf_find(parent, <int32_t>(j + 1))
                        rb = uf_find(parent, 0)
                        if ra != rb:
                            uf_link(parent, ra, rb)
                prev_x = x
                prev_row_start = row_start
                prev_row_end = n_runs
            # The last row with stones has an empty row (or the border) after it.
            for j in range(prev_row_start, prev_row_end):
                ra = uf_find(parent, <int32_t>(j + 1))
                rb = uf_find(parent, 0)
                if ra != rb:
                    uf_link(parent, ra, rb)
        exterior = uf_find(parent, 0)
        for run_index in range(n_runs):
            if uf_find(parent, <int32_t>(run_index + 1)) != exterior:
                result.append((runs[run_index].x, runs[run_index].first,
                               runs[run_index].last))
    finally:
        free(keys)
        free(runs)
        free(parent)
    return result
