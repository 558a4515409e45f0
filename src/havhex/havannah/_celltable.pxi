# Included by _judge.pyx (one extension, no import between the parts): the cell table and the judge's scratch memory.

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
# On tables larger than the caches each move's slots are computed and
# prefetched PLAN_RING - 1 moves ahead (see MovePlan), which hides the misses
# that a layout keeping neighbours on shared cache lines would only reduce
# (docs/performance.md, "Havannah cell table").
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
    # The first moves into a fresh table fault its pages in: in a table of
    # 32 huge pages most of them within its first hundred inserts, each
    # fault a page the kernel clears, slowly on a virtual machine (see
    # docs/performance.md).  So the checks between runs (and the cancel
    # poll among them) come WARM_STEP moves after a table is built, then
    # twice as far each time, up to BUDGET_STEP: no run faults in more
    # than a few pages, and a cancel is seen within milliseconds.
    WARM_STEP = 1 << 3
    # A rebuild also looks at the cancel flag after every REBUILD_POLL_STEPS
    # probe steps: under a multiplier that lays the input out in long runs
    # (rebuilt again afterwards) a few stones can take long.
    REBUILD_POLL_STEPS = 1 << 16
    # What table_rebuild returns instead of its probe steps.
    REBUILD_NO_MEMORY = -1
    REBUILD_CUT_SHORT = -2


cdef inline int64_t warm_step(int64_t placed) noexcept nogil:
    """Moves to the next check, ``placed`` moves into a fresh table."""
    return min(<int64_t>BUDGET_STEP, max(<int64_t>WARM_STEP, placed))


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
        request_huge_pages(<void*>start, end - start)


cdef void* large_block(size_t size) noexcept nogil:
    """An uninitialised block, on huge pages when large (where the system
    takes the advice); aligned_free releases it.

    Its pages are left to be faulted in as they are first touched, spread
    over the judging: mapping them all at once (MADV_POPULATE_WRITE) or
    zeroing them here would make the workers of ``-j`` clear their tables at
    the same moment (docs/performance.md, "Memory: huge pages and page
    faults")."""
    cdef void* block
    # Aligned to a huge page only where the system takes the advice: elsewhere
    # the alignment would only waste up to a huge page per block.
    if size < 2 * HUGE_PAGE or not HUGE_PAGE_ADVICE:
        return aligned_alloc(MALLOC_ALIGNMENT, size)
    size = (size + HUGE_PAGE - 1) & ~(<size_t>HUGE_PAGE - 1)
    block = aligned_alloc(HUGE_PAGE, size)
    if block != NULL:
        advise_huge_pages(block, size)
    return block


cdef void scratch_free(Scratch* s) noexcept nogil:
    aligned_free(s.table.slots)
    aligned_free(s.table.occupied)
    aligned_free(s.table.filter)
    aligned_free(s.parent)
    aligned_free(s.mask)
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
        aligned_free(t.slots)
        aligned_free(t.occupied)
        aligned_free(t.filter)
        t.slots = <uint64_t*>large_block(n_slots * sizeof(uint64_t))
        t.occupied = <uint64_t*>large_block(n_slots // 8)
        t.filter = <uint64_t*>large_block((n_slots // 8) << FILTER_LOG)
        t.capacity = n_slots
        if t.slots == NULL or t.occupied == NULL or t.filter == NULL:
            aligned_free(t.slots)
            aligned_free(t.occupied)
            aligned_free(t.filter)
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
        aligned_free(parent)
        aligned_free(mask)
        return False
    # Only what is kept is copied: every case initialises the entries it uses.
    if kept:
        memcpy(parent, s.parent, <size_t>kept * sizeof(int32_t))
        memcpy(mask, s.mask, <size_t>kept * sizeof(uint16_t))
    aligned_free(s.parent)
    aligned_free(s.mask)
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
    hold ``n_stones``.  Returns the probe steps of the rebuild, or
    REBUILD_NO_MEMORY when memory is refused, or REBUILD_CUT_SHORT when the
    work is cancelled meanwhile (``cancelled()``); the table is then empty.
    (The judge keeps its own copy of the table and its step count, whose
    addresses it gives to no function that is not inlined: see judge_case.)"""
    cdef CellTable* t = &s.table
    cdef int64_t j, steps = 0, poll_at = REBUILD_POLL_STEPS, next_poll = WARM_STEP
    cdef uint64_t key
    if n_slots <= t.capacity:
        table_clear(t)
    if not table_prepare(t, n_slots) or not stones_reserve(s, n_stones, placed):
        return REBUILD_NO_MEMORY
    t.multiplier = multiplier | 1
    for j in range(placed):
        if j >= next_poll or steps >= poll_at:
            next_poll = j + warm_step(j)
            poll_at = steps + REBUILD_POLL_STEPS
            if cancelled():
                table_clear(t)
                return REBUILD_CUT_SHORT
        # The homes of the stones a few ahead are fetched meanwhile: on a
        # table beyond the caches each insert is otherwise a miss.
        if j + 8 < placed:
            key = cell_key(t, coords[2 * j + 16], coords[2 * j + 17])
            prefetch_line(&t.slots[slot_of_hash(t, key * t.multiplier)])
        key = cell_key(t, coords[2 * j], coords[2 * j + 1])
        table_insert(t, key * t.multiplier, key, <int32_t>j, &steps)
    return steps
