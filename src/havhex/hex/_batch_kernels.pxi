# The nogil kernels of hex/_batch.pyx (included there): one game's reset,
# move and observation, over the arrays the core holds.
#
# A game's cells are one byte each, row-major without padding (cell
# r * cols + c is action r * cols + c), plus one guard byte after them that
# stays empty: the neighbour table points every off-board neighbour at it.
# The union-find is the live board's: a root holds minus (size * 4 + sides),
# sides in bits 0-1 (the colour's first and second side), found with path
# halving (its forest is never undone, unlike the live board's).


cdef struct Shape:
    int32_t rows
    int32_t cols
    int32_t cells             # rows * cols; also the swap action and the guard byte
    bint swap                 # swap-pieces legal as the second move
    const int32_t* around     # six neighbours a cell, round it; off-board: ``cells``
    const uint8_t* sides      # [colour * cells + cell]: the colour's sides the cell lies on
    int shift_own             # where plane 0's byte sits in a cell's 32-bit word
    int shift_opp
    uint32_t colour_word      # plane 2 set (the viewer moves second)
    uint32_t swap_word        # plane 3 set


cdef struct HexGame:
    Xoshiro rng
    int32_t steps             # moves since the empty board, the swap included (pgx step_count)
    int32_t first_cell        # the first stone, which a swap moves
    uint8_t first_seat        # the seat that moves first (colour 0, Red)
    uint8_t over              # ended; reset by the next step (next-step) or a reset


cdef struct Start:
    # A start position: its stones and forest, copied into a game at reset.
    int32_t steps
    int32_t first_cell


cdef struct Fields:
    # The batch's arrays, as the core writes them (see havhex._batch).
    uint8_t* observation      # (n, cells, 4)
    uint8_t* mask             # (n, cells + 1)
    int32_t* current_player
    float* rewards            # (n, 2)
    uint8_t* terminated
    uint8_t* final_observation
    uint8_t* final_mask
    int8_t* winner


cdef struct State:
    Shape shape
    Fields f
    HexGame* games
    uint8_t* stones           # (n, cells + 1)
    int32_t* parent           # (n, cells)
    int32_t n_starts
    Start* starts
    const uint8_t* start_stones   # (n_starts, cells + 1)
    const int32_t* start_parent   # (n_starts, cells)
    # One call's inputs: the actions copied and checked by check_step (the
    # caller's array may change while the parts run), the sampling's out
    # array and the reset's mask (written, and read as yes or no, alone).
    int32_t* actions          # (n,)
    int32_t* sampled
    const uint8_t* reset_mask
    int mode


cdef inline void write_observation(const Shape* s, uint32_t* out, const uint8_t* stones,
                                   int32_t steps) noexcept nogil:
    """Every cell's four planes as one 32-bit word, from the view of the
    colour to move: the stone codes 1 (Red) and 2 (Blue) give own and
    opponent bytes by shifts that swap with the mover, so the loop is
    branch-free and the compiler vectorises it."""
    cdef uint32_t base = s.colour_word if steps & 1 else 0
    cdef int red_shift, blue_shift
    cdef int32_t c
    cdef uint32_t stone
    if s.swap and steps == 1:
        base |= s.swap_word
    if steps & 1:
        red_shift = s.shift_opp
        blue_shift = s.shift_own
    else:
        red_shift = s.shift_own
        blue_shift = s.shift_opp
    for c in range(s.cells):
        stone = stones[c]
        out[c] = ((stone & 1) << red_shift) | ((stone >> 1) << blue_shift) | base


cdef inline bint place(const Shape* s, uint8_t* stones, int32_t* parent, int32_t cell,
                       uint8_t colour) noexcept nogil:
    """Put a stone of ``colour`` (0 Red, 1 Blue) on an empty cell and join
    its groups; whether its group now touches both of its sides."""
    cdef const int32_t* around = s.around + 6 * cell
    cdef uint8_t code = colour + 1
    cdef uint32_t same = 0, starts
    cdef int32_t root = cell, other, a, b
    cdef int k
    for k in range(6):
        same |= (<uint32_t>(stones[around[k]] == code)) << k
    stones[cell] = code
    parent[cell] = -(SIZE_UNIT + s.sides[colour * s.cells + cell])
    # A run of the colour's stones round the cell is one group: one find a
    # run (see havhex._native.neighbours).
    starts = run_starts(same)
    while starts:
        k = LOWEST_BIT[starts]
        starts &= starts - 1
        other = uf_find(parent, around[k])
        if other != root:
            a = -parent[root]
            b = -parent[other]
            if a < b:
                root, other = other, root
            parent[root] = -(((a | b) & BOTH_SIDES) + ((a >> 2) + (b >> 2)) * SIZE_UNIT)
            parent[other] = root
    return ((-parent[root]) & BOTH_SIDES) == BOTH_SIDES


cdef inline void show(State* st, int64_t i) noexcept nogil:
    """The observation, mover and mask of game ``i``'s position (not
    ended): the fields a reset writes."""
    cdef const Shape* s = &st.shape
    cdef HexGame* g = &st.games[i]
    cdef const uint8_t* stones = st.stones + i * (s.cells + 1)
    cdef uint8_t* mask = st.f.mask + i * (s.cells + 1)
    cdef int32_t c
    for c in range(s.cells):
        mask[c] = stones[c] == 0
    mask[s.cells] = s.swap and g.steps == 1
    st.f.current_player[i] = g.first_seat ^ (g.steps & 1)
    write_observation(s, <uint32_t*>(st.f.observation + i * s.cells * 4), stones, g.steps)


cdef inline void restart(State* st, int64_t i) noexcept nogil:
    """Game ``i`` from a start position (the empty board, or one of the
    starts drawn from its stream), with a seat drawn for the first mover."""
    restart_at(st, i, -1)


cdef inline void restart_at(State* st, int64_t i, int64_t chosen) noexcept nogil:
    """Game ``i`` from start ``chosen``, or (``chosen`` < 0) from one drawn
    from its stream; a seat is drawn for the first mover either way."""
    cdef const Shape* s = &st.shape
    cdef HexGame* g = &st.games[i]
    cdef uint8_t* stones = st.stones + i * (s.cells + 1)
    cdef int64_t pick = chosen
    g.first_seat = <uint8_t>(xoshiro_next(&g.rng) >> 63)
    g.over = 0
    if st.n_starts:
        if pick < 0:
            pick = random_below(&g.rng, <uint32_t>st.n_starts)
        memcpy(stones, st.start_stones + pick * (s.cells + 1), s.cells + 1)
        memcpy(st.parent + i * s.cells, st.start_parent + pick * s.cells,
               s.cells * sizeof(int32_t))
        g.steps = st.starts[pick].steps
        g.first_cell = st.starts[pick].first_cell
    else:
        memset(stones, 0, s.cells + 1)
        g.steps = 0
        g.first_cell = -1
    show(st, i)


cdef inline void clear_outcome(State* st, int64_t i) noexcept nogil:
    st.f.rewards[2 * i] = 0
    st.f.rewards[2 * i + 1] = 0
    st.f.terminated[i] = 0
    st.f.winner[i] = -1


cdef inline void end_game(State* st, int64_t i, uint8_t winner_seat) noexcept nogil:
    """Game ``i`` has ended, won by ``winner_seat``: the rewards, and every
    action marked legal (as pgx, for a policy's normalisation)."""
    cdef const Shape* s = &st.shape
    st.games[i].over = 1
    st.f.terminated[i] = 1
    st.f.winner[i] = <int8_t>winner_seat
    st.f.rewards[2 * i + winner_seat] = 1
    st.f.rewards[2 * i + 1 - winner_seat] = -1
    memset(st.f.mask + i * (s.cells + 1), 1, s.cells + 1)


cdef inline void play(State* st, int64_t i, int32_t action) noexcept nogil:
    """One action in game ``i`` (not ended; the action in range)."""
    cdef const Shape* s = &st.shape
    cdef HexGame* g = &st.games[i]
    cdef uint8_t* stones = st.stones + i * (s.cells + 1)
    cdef int32_t* parent = st.parent + i * s.cells
    cdef uint8_t* mask = st.f.mask + i * (s.cells + 1)
    cdef uint8_t colour = g.steps & 1
    cdef uint8_t seat = g.first_seat ^ colour
    cdef bint won = False
    cdef int32_t mirror
    clear_outcome(st, i)
    if action == s.cells:
        if not (s.swap and g.steps == 1):
            illegal(st, i, seat, action)
            return
        # swap-pieces: Red's one stone becomes Blue's, mirrored in the long
        # diagonal; Red moves next.
        mirror = (g.first_cell % s.cols) * s.cols + g.first_cell // s.cols
        stones[g.first_cell] = 0
        mask[g.first_cell] = 1
        won = place(s, stones, parent, mirror, 1)
        mask[mirror] = 0
        mask[s.cells] = 0
    else:
        if stones[action]:
            illegal(st, i, seat, action)
            return
        won = place(s, stones, parent, action, colour)
        mask[action] = 0
        if g.steps == 0:
            g.first_cell = action
            mask[s.cells] = s.swap
        elif g.steps == 1:
            mask[s.cells] = 0
    g.steps += 1
    st.f.current_player[i] = seat ^ 1
    if won:
        end_game(st, i, seat)
    write_observation(s, <uint32_t*>(st.f.observation + i * s.cells * 4), stones, g.steps)


cdef inline void illegal(State* st, int64_t i, uint8_t seat, int32_t action) noexcept nogil:
    """An illegal action (an occupied cell, a swap out of turn): the mover
    loses at once and the turn passes (pgx's rule).  The stones change as
    pgx's (and EnvPool's) step changes them, for the last observation to
    match theirs: a stone on an occupied cell replaces the one there; a
    swap out of turn moves the first stone in row-major order to its mirror
    as the mover's (on a square board, when there is a stone).  The forest
    is left behind: the game is over and a restart rebuilds it."""
    cdef const Shape* s = &st.shape
    cdef HexGame* g = &st.games[i]
    cdef uint8_t* stones = st.stones + i * (s.cells + 1)
    cdef uint8_t code = (g.steps & 1) + 1
    cdef int32_t c
    if action < s.cells:
        stones[action] = code
    elif s.rows == s.cols:
        for c in range(s.cells):
            if stones[c]:
                stones[c] = 0
                stones[(c % s.cols) * s.cols + c // s.cols] = code
                break
    g.steps += 1
    st.f.current_player[i] = seat ^ 1
    end_game(st, i, seat ^ 1)
    write_observation(s, <uint32_t*>(st.f.observation + i * s.cells * 4), stones, g.steps)


cdef inline bint legal(const State* st, int64_t i, int32_t action) noexcept nogil:
    """Whether ``action`` (in range) is legal in game ``i`` (not ended),
    from the game's own stones: no field is read back."""
    cdef const Shape* s = &st.shape
    if action == s.cells:
        return s.swap and st.games[i].steps == 1
    return st.stones[i * (s.cells + 1) + action] == 0


cdef inline int32_t action_of(const State* st, int64_t i) noexcept nogil:
    return st.actions[i]


cdef inline void prefetch_game(const State* st, int64_t i) noexcept nogil:
    """Ask for the lines game ``i``'s move will read: the forest and the
    stones round its cell.  A batch's games outgrow the core's cache, and a
    find waiting for its parent from the shared cache would otherwise be
    most of a step."""
    cdef const Shape* s = &st.shape
    cdef int32_t action = action_of(st, i)
    cdef int32_t above, below
    if action >= s.cells:
        return
    above = action - s.cols if action >= s.cols else 0
    below = action + s.cols if action + s.cols < s.cells else s.cells - 1
    prefetch_line(st.parent + i * s.cells + above)
    prefetch_line(st.parent + i * s.cells + action)
    prefetch_line(st.parent + i * s.cells + below)
    prefetch_line(st.stones + i * (s.cells + 1) + above)
    prefetch_line(st.stones + i * (s.cells + 1) + below)
    prefetch_line(st.f.mask + i * (s.cells + 1) + action)


# Games ahead whose lines a step asks for.
cdef enum:
    PREFETCH_AHEAD = 4


cdef void step_games(State* st, int64_t lo, int64_t hi) noexcept nogil:
    cdef const Shape* s = &st.shape
    cdef int64_t i
    cdef int32_t action
    cdef size_t obs_bytes = s.cells * 4
    for i in range(lo, min(lo + PREFETCH_AHEAD, hi)):
        prefetch_game(st, i)
    for i in range(lo, hi):
        if i + PREFETCH_AHEAD < hi:
            prefetch_game(st, i + PREFETCH_AHEAD)
        action = action_of(st, i)
        if st.mode == SAME_STEP:
            st.f.final_mask[i] = 0
        if st.games[i].over:
            # Only under next-step: the game that ended last step restarts.
            clear_outcome(st, i)
            restart(st, i)
            continue
        play(st, i, action)
        if st.mode == SAME_STEP and st.games[i].over:
            memcpy(st.f.final_observation + i * obs_bytes, st.f.observation + i * obs_bytes,
                   obs_bytes)
            st.f.final_mask[i] = 1
            restart(st, i)


cdef void reset_games(State* st, int64_t lo, int64_t hi) noexcept nogil:
    cdef int64_t i
    for i in range(lo, hi):
        if st.reset_mask[i]:
            clear_outcome(st, i)
            st.f.final_mask[i] = 0
            restart(st, i)


cdef void sample_games(State* st, int64_t lo, int64_t hi) noexcept nogil:
    """A uniformly random legal action a game (any action once it has
    ended), by rejection: a non-ended Hex game has an empty cell (a full
    board has a winner), and the empty cells are most of the board in a
    random game, so the expected draws a game are few."""
    cdef const Shape* s = &st.shape
    cdef int64_t i
    cdef HexGame* g
    cdef const uint8_t* stones
    cdef uint32_t choices, pick
    for i in range(lo, hi):
        g = &st.games[i]
        stones = st.stones + i * (s.cells + 1)
        if g.over:
            st.sampled[i] = <int32_t>random_below(&g.rng, <uint32_t>(s.cells + 1))
            continue
        choices = <uint32_t>(s.cells + (1 if s.swap and g.steps == 1 else 0))
        while True:
            pick = random_below(&g.rng, choices)
            if pick == <uint32_t>s.cells or stones[pick] == 0:
                break
        st.sampled[i] = <int32_t>pick
