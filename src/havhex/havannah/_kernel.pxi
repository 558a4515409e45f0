# Included by _judge.pyx (one extension, no import between the parts): the first-win kernel.

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
        prefetch_line(&t.slots[slot_of_hash(t, hashed)])
    for k in range(6):
        plan.neighbour_bit[k] = filter_bit(t, hashed + hash_delta[k])
        if plan.cell_mask != 0 and not on_board(x + NEIGHBOUR_DX[k], y + NEIGHBOUR_DY[k], size):
            plan.candidates &= ~(1 << k)
        elif prefetch and filter_test(t, plan.neighbour_bit[k]):
            # Only neighbours the filter does not rule out now; one placed
            # in the moves still to come is looked up without a prefetch.
            prefetch_line(&t.slots[plan.neighbour_bit[k] >> FILTER_LOG])


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
        there = load_acquire(feed.n_read)
        if there >= needed:
            return there
        if feed.number < load_acquire(feed.n_ready):
            return load_acquire(feed.n_read)
        if load_acquire(feed.parse_done):
            # Complete cases are counted before the reader stops.
            if feed.number < load_acquire(feed.n_ready):
                return load_acquire(feed.n_read)
            return -1
        sleep_us(20)


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
    cdef int64_t there = n_moves if feed == NULL else load_acquire(feed.n_read)
    cdef int64_t needed, lookahead, ready_below, check_at, grow_at, n_stones
    cdef int64_t* played
    cdef int reseeds = 0
    cdef int64_t steps = 0          # probe steps since the table was built
    cdef int64_t built_at = 0       # moves placed when the table was built

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
    # (docs/conventions.md, Havannah: neighbours); consecutive entries are
    # themselves adjacent, which the ring test relies on.
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
                store_relaxed(played, i)
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
                                          next_multiplier(local_table.multiplier))
                    reseeds += 1
                    s.reseeds += 1
                if steps == REBUILD_CUT_SHORT:
                    return JUDGE_CUT_SHORT
                if steps < 0:
                    return JUDGE_NO_MEMORY
                local_table = s.table
                built_at = i
                grow_at = min(moves_fitting(table.mask + 1), n_stones)
                parent = s.parent
                mask = s.mask
                for k in range(6):
                    hash_delta[k] = key_delta[k] * table.multiplier
                if prefetch:
                    plan_moves(plans, table, hash_delta, coords, i,
                               min(i + PLAN_RING - 1, n_moves), size)
            # (A large table comes out of memory the process has not
            # touched yet: its first runs are kept short, see WARM_STEP.)
            check_at = min(min(grow_at, i + (warm_step(i - built_at) if prefetch
                                             else BUDGET_STEP)),
                           ready_below if played == NULL
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
                k = ctz32(candidates)
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
                # find per run suffices.
                starts = run_starts(present)
                if (starts & (starts - 1)) == 0 and plan.cell_mask == 0:
                    # One run, off the border: no ring (that takes two runs of
                    # one group) and no new corner or edge for the group, so no
                    # find is needed; the stone hangs beside its neighbour.
                    uf_hang(parent, <int32_t>i, neighbour[ctz32(starts)])
                else:
                    # Ring: every empty hexagon reached the outside before this
                    # move, so the move encloses something exactly when two
                    # separate runs already belong to one group.
                    n_runs = 0
                    while starts:
                        k = ctz32(starts)
                        starts &= starts - 1
                        root = uf_find(parent, neighbour[k])
                        for a in range(n_runs):
                            if run_root[a] == root:
                                kinds = KIND_RING
                        run_root[n_runs] = root
                        n_runs += 1
                    # Join the runs' groups, then hang the new stone under the
                    # result.  (A run's root that is joined already adds no
                    # border: its bits are in the group's root.)
                    root = run_root[0]
                    for a in range(1, n_runs):
                        other = run_root[a]
                        merged = mask[root] | mask[other]
                        root = uf_union(parent, root, other)
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
                                      else next_multiplier(local_table.multiplier))
                if steps == REBUILD_CUT_SHORT:
                    return JUDGE_CUT_SHORT
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
