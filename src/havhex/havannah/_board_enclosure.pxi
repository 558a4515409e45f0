# The contest rule's ring test on the live board, compiled into
# havannah/_board.pyx (included there): whether a loop a move closed cuts
# off an empty cell, by a search bounded by the enclosed area (nogil).

cdef uint32_t EPOCH_LAST = 0xFFFFFFF0


cdef inline uint32_t next_epoch(Search* s, int32_t n_slots) noexcept nogil:
    """A fresh stamp base for a search (four labels each); stamps of earlier
    searches are all below it."""
    if s.epoch > EPOCH_LAST:
        memset(s.stamp, 0, <size_t>n_slots * sizeof(uint32_t))
        s.epoch = 0
    s.epoch += 4
    return s.epoch


cdef inline int label_root(const int* class_of, int label) noexcept nogil:
    while class_of[label] != label:
        label = class_of[label]
    return label


cdef bint encloses_empty(Position* p, int32_t cell, uint8_t colour, unsigned int present,
                         Search* s) noexcept nogil:
    """The contest rule, after ``cell`` closed a loop: whether a region of
    cells not ``colour``'s, cut off from the outside, holds an empty cell.

    Every region the move cuts off holds one of the move's neighbours, so
    the search starts from the gaps between its runs of own stones, one
    label each, all in one breadth-first queue: labels that meet merge, a
    label that reaches the border is outside and stops, and one whose
    queue runs dry is cut off.  The outside regions stop at the border, so
    the search costs about the enclosed area times the gaps, not the board.
    """
    cdef uint8_t* cells = p.cells
    cdef const int32_t* offset = p.offset
    cdef unsigned int absent = ~present & 63
    cdef unsigned int starts = run_starts(absent)
    cdef int class_of[3]
    cdef int64_t pending[3]
    cdef bint outside[3]
    cdef bint has_empty[3]
    cdef int n_labels = 0, label, other, k, j, a
    cdef uint32_t base = next_epoch(s, p.n_slots)
    cdef int64_t head = 0, tail = 0
    cdef int32_t u, v
    cdef uint8_t held
    cdef bint all_outside
    while starts:
        k = ctz32(starts)
        starts &= starts - 1
        label = n_labels
        n_labels += 1
        class_of[label] = label
        pending[label] = 0
        outside[label] = False
        has_empty[label] = False
        j = k
        while absent & (1 << j):
            v = cell + offset[j]
            held = cells[v]
            if held == OFF_BOARD:
                outside[label] = True
            else:
                s.stamp[v] = base + label
                s.queue[tail] = v
                tail += 1
                pending[label] += 1
                if held == EMPTY:
                    has_empty[label] = True
            j = (j + 1) % 6
    while head < tail:
        u = s.queue[head]
        head += 1
        label = label_root(class_of, s.stamp[u] - base)
        pending[label] -= 1
        if outside[label]:
            continue
        for k in range(6):
            v = u + offset[k]
            held = cells[v]
            if held == OFF_BOARD:
                outside[label] = True
                break
            if held == colour:
                continue
            if s.stamp[v] < base:
                s.stamp[v] = base + label
                s.queue[tail] = v
                tail += 1
                pending[label] += 1
                if held == EMPTY:
                    has_empty[label] = True
            else:
                other = label_root(class_of, s.stamp[v] - base)
                if other != label:
                    class_of[other] = label
                    outside[label] |= outside[other]
                    has_empty[label] |= has_empty[other]
                    pending[label] += pending[other]
        if not outside[label] and pending[label] == 0 and has_empty[label]:
            return True
        all_outside = True
        for a in range(n_labels):
            if class_of[a] == a and not outside[a] and pending[a] > 0:
                all_outside = False
        if all_outside:
            return False
    return False
