# The move kernel of havannah/_board.pyx (included there): a stone placed
# with its groups joined and its structures found, and taken back exactly
# (nogil; the union-find keeps no compressed paths, so undo restores it).

cdef inline bint surrounded(const uint8_t* cells, const int32_t* offset, int32_t cell,
                            uint8_t colour) noexcept nogil:
    cdef int k
    for k in range(6):
        if cells[cell + offset[k]] != colour:
            return False
    return True


cdef inline uint8_t place(Position* p, int32_t cell, uint8_t colour, MoveRecord* record,
                          Search* search, bint playing_out) noexcept nogil:
    """Put ``colour``'s stone on the empty ``cell``; the kinds it completes.

    ``record`` (or NULL) receives what undo needs.  The structure tests are
    the judge's: a group's corner and edge mask for bridges and forks, and
    for rings the runs of own stones around the move (consecutive
    neighbours are adjacent): since no loop existed before, the move closes
    one exactly when two separate runs already belong to one group.  The
    official rule counts the cells inside whatever they hold, so a loop is
    a ring, and so is a stone whose six neighbours are its own (the flower,
    which no run test sees); the contest rule wants an empty cell inside.

    ``playing_out`` (a constant at each call): a playout, which never undoes
    and never hashes, so its finds compress paths (the words they rewrite
    need no log) and the hash is left alone.
    """
    cdef int32_t* parent = p.parent
    cdef uint16_t* mask = p.mask
    cdef uint8_t* cells = p.cells
    cdef const int32_t* offset = p.offset
    cdef unsigned int present = 0, starts, triples
    cdef int k, a, n_runs = 0, n_saved = 0
    cdef int32_t run_root[3]
    cdef int32_t root, other, up
    cdef uint16_t merged
    cdef uint8_t kinds = 0
    cdef bint closed = False
    cells[cell] = colour
    p.n_empty -= 1
    if not playing_out:
        p.hash ^= stone_key(cell, colour)
    parent[cell] = -1
    for k in range(6):
        present |= (cells[cell + offset[k]] == colour) << k
    if record != NULL:
        record.n_saved = 0
    if not present:
        return 0
    starts = run_starts(present)
    if (starts & (starts - 1)) == 0 and mask[cell] == 0:
        # One run, off the border: no loop closed and no corner or edge
        # added, so no find; the stone hangs beside its neighbour, as deep.
        up = parent[cell + offset[ctz32(starts)]]
        parent[cell] = up if up >= 0 else cell + offset[ctz32(starts)]
    else:
        # At least one run (``present`` is not empty), so the loop tests at
        # its end: run_root[0] is set on every path, as the compiler can see.
        while True:
            k = ctz32(starts)
            starts &= starts - 1
            root = (uf_find(parent, cell + offset[k]) if playing_out
                    else uf_root(parent, cell + offset[k]))
            for a in range(n_runs):
                if run_root[a] == root:
                    closed = True
            run_root[n_runs] = root
            n_runs += 1
            if not starts:
                break
        if record != NULL:
            for a in range(n_runs):
                if a == 0 or (run_root[a] != run_root[0] and (a == 1 or run_root[a] != run_root[1])):
                    record.saved_root[n_saved] = run_root[a]
                    record.saved_parent[n_saved] = parent[run_root[a]]
                    record.saved_mask[n_saved] = mask[run_root[a]]
                    n_saved += 1
            record.n_saved = <uint8_t>n_saved
        root = run_root[0]
        for a in range(1, n_runs):
            other = run_root[a]
            if other != run_root[0] and (a == 1 or other != run_root[1]):
                merged = mask[root] | mask[other]
                # Union by size: the larger count stays on top.
                if parent[other] < parent[root]:
                    root, other = other, root
                parent[root] += parent[other]
                parent[other] = root
                mask[root] = merged
        parent[cell] = root
        parent[root] -= 1
        mask[root] |= mask[cell]
        kinds = structure_kinds(mask[root])
        if closed and (p.official or encloses_empty(p, cell, colour, present, search)):
            kinds |= KIND_RING
    if p.official and not (kinds & KIND_RING):
        if present == 63:
            kinds |= KIND_RING
        else:
            # A neighbour k can be a flower's centre only with its two
            # neighbours beside the move (k - 1 and k + 1) own stones too.
            triples = present & ((present << 1) | (present >> 5)) & ((present >> 1) | (present << 5)) & 63
            while triples:
                k = ctz32(triples)
                triples &= triples - 1
                if surrounded(cells, offset, cell + offset[k], colour):
                    kinds |= KIND_RING
                    break
    return kinds


cdef inline void take_back(Position* p, const MoveRecord* record) noexcept nogil:
    """Undo ``place``: the saved roots' words, in reverse, then the cell."""
    # Inline, as the rest of this file: havannah/_batch.pyx includes it and
    # never undoes, and an unused plain static function is a warning there.
    cdef int a
    for a in range(record.n_saved - 1, -1, -1):
        p.parent[record.saved_root[a]] = record.saved_parent[a]
        p.mask[record.saved_root[a]] = record.saved_mask[a]
    p.cells[record.cell] = EMPTY
    p.n_empty += 1
    p.hash ^= stone_key(record.cell, record.colour)


cdef inline void recolour(Position* p, int32_t cell, uint8_t was, uint8_t becomes) noexcept nogil:
    """The swap: the first stone is alone, a group of one, so only its
    colour changes."""
    p.cells[cell] = becomes
    p.hash ^= stone_key(cell, was) ^ stone_key(cell, becomes)


cdef inline void set_mover(Position* p, uint8_t colour) noexcept nogil:
    if colour != p.to_move:
        p.hash ^= BLACK_TO_MOVE_KEY
        p.to_move = colour
