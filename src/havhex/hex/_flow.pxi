# Included by _judge.pyx (one extension, no import between the parts): the witness flow (chains and cut stones).

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
