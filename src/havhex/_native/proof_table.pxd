# cython: language_level=3
"""The solver's transposition table, declared once for both games: a fixed
block of buckets, never grown, so a solve holds the memory its caller set.

An entry keeps a position's proof and disproof numbers (see
dfpn_driver.pxi) under its 64-bit key, the best move found there, and the
work (nodes searched) below it.  A full bucket gives up its entry of least
work: the cheapest to find again.  Key 0 marks an empty entry (a real key 0
is stored as 1; the one position that could share it is searched again).
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

cdef enum:
    # Above every real count, and small enough that thresholds plus one
    # still fit a uint32.
    PN_INFINITE = 0x7FFFFFF0
    BUCKET_ENTRIES = 4


cdef struct ProofEntry:
    uint64_t key
    uint32_t phi        # proof number: the mover wins
    uint32_t delta      # disproof number: the mover loses
    uint32_t work       # nodes searched below, the replacement's measure
    int32_t move        # the best move found (the winning one once proven), else -1


cdef struct ProofBucket:
    ProofEntry entries[BUCKET_ENTRIES]


cdef struct ProofTable:
    ProofBucket* buckets
    uint64_t mask           # buckets - 1 (a power of two)
    int64_t stored          # entries in use
    int64_t replaced        # entries given up for others


cdef inline uint64_t entry_key(uint64_t key) noexcept nogil:
    return key if key else 1


cdef inline bint table_open(ProofTable* t, int64_t size_bytes) noexcept nogil:
    """The largest power-of-two count of buckets within ``size_bytes`` (at
    least one); False without the memory."""
    cdef uint64_t n = 1
    while <int64_t>(n * 2 * sizeof(ProofBucket)) <= size_bytes:
        n *= 2
    # calloc: the system's zero pages, taken as they are first written, so
    # a large bound costs only what a solve fills.
    t.buckets = <ProofBucket*>calloc(n, sizeof(ProofBucket))
    if t.buckets == NULL:
        return False
    t.mask = n - 1
    t.stored = 0
    t.replaced = 0
    return True


cdef inline void table_clear(ProofTable* t) noexcept nogil:
    memset(t.buckets, 0, (t.mask + 1) * sizeof(ProofBucket))
    t.stored = 0
    t.replaced = 0


cdef inline void table_close(ProofTable* t) noexcept nogil:
    if t.buckets != NULL:
        free(t.buckets)
        t.buckets = NULL


cdef inline int64_t table_capacity(const ProofTable* t) noexcept nogil:
    return <int64_t>(t.mask + 1) * BUCKET_ENTRIES


cdef inline ProofEntry* table_find(ProofTable* t, uint64_t key) noexcept nogil:
    """The entry of ``key``, or NULL."""
    cdef ProofBucket* bucket = &t.buckets[(key >> 17) & t.mask]
    cdef int k
    key = entry_key(key)
    for k in range(BUCKET_ENTRIES):
        if bucket.entries[k].key == key:
            return &bucket.entries[k]
    return NULL


cdef inline void table_store(ProofTable* t, uint64_t key, uint32_t phi, uint32_t delta,
                             uint32_t work, int32_t move) noexcept nogil:
    """``key``'s numbers, in its own entry, else an empty one, else in
    place of the bucket's entry of least work."""
    cdef ProofBucket* bucket = &t.buckets[(key >> 17) & t.mask]
    cdef ProofEntry* chosen = NULL
    cdef ProofEntry* entry
    cdef int k
    key = entry_key(key)
    for k in range(BUCKET_ENTRIES):
        entry = &bucket.entries[k]
        if entry.key == key:
            chosen = entry
            break
        if entry.key == 0:
            if chosen == NULL or chosen.key != 0:
                chosen = entry
        elif chosen == NULL or (chosen.key != 0 and entry.work < chosen.work):
            chosen = entry
    if chosen.key != key:
        if chosen.key == 0:
            t.stored += 1
        else:
            t.replaced += 1
    chosen.key = key
    chosen.phi = phi
    chosen.delta = delta
    chosen.work = work
    chosen.move = move
