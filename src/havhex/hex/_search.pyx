# cython: language_level=3, auto_pickle=False
"""Hex's part of the search (havhex.search): the position the tree walks,
played and taken back by the live board's own kernels (the union-find of
_board_union.pxi, the flood of _flood.pxi that finds a filled board's
winner).

A move id is the cell's padded index (the board's layout: (i, j) at
(i + 1) * W + j, W = cols + 1), then two more for "swap-pieces" and
"swap-sides".  The tree counts players, not colours: the first player holds
Red until "swap-sides" hands Red to the second, so a player is the colour's
index xor the sides' exchange, and players alternate at every move, swaps
included ("swap-sides" keeps Blue to move, now the other player).

A playout (bridge_playout) is the search's own: a random game in turn whose
stones answer an intrusion into their bridges.  From a node where the swap
is still open it leaves the swap out: the tree weighs the swaps as moves of
their own.
"""
from libc.math cimport log, sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport abs, calloc, free, malloc
from libc.string cimport memcpy, memset

from havhex._native.cancel cimport cancel_requested, request_cancel
from havhex._native.mcts cimport *
from havhex._native.neighbours cimport run_starts
from havhex._native.portable cimport byte_shift, monotonic_us
from havhex._native.random cimport Xoshiro, random_below, splitmix64_mix, xoshiro_seed
from havhex._native.unionfind cimport uf_root
from havhex.hex._cells cimport BLUE, EMPTY, RED

from havhex._threads import run_interruptibly
from havhex.hex._board import SWAP_PIECES, SWAP_SIDES, BoardCore

include "_board_union.pxi"
include "_flood.pxi"

# The largest pool: node indices are int32.
MAX_NODES = 0x7FFFFFFF


cdef struct Played:
    int32_t move
    int32_t log_start


cdef struct Chains         # the solver's (_virtual.pxi)


cdef struct State:
    Geometry g
    uint8_t* stones
    int32_t* parent
    LogEntry* log
    int32_t log_used
    Played* played          # the moves played since the root position, for undo
    int32_t n_played
    int32_t* cells          # the real cells' padded indices, row by row
    int32_t n_cells
    int32_t* empty          # scratch: a playout's empty cells
    int32_t* threats        # scratch: the opponent's winning cells
    int32_t* slot           # scratch, per padded cell: its place in a playout's order, else -1
    uint8_t* edge           # per padded cell: 0 on the board; on the padding, whose edge it is
    PlayoutScratch scratch
    uint8_t mover           # the colour to move
    uint8_t swapped         # the sides were exchanged ("swap-sides")
    uint8_t swap_allowed
    uint8_t sides_swap      # "swap-sides" is a move (the batch's Hex has swap-pieces alone)
    int32_t red_count
    int32_t blue_count
    int32_t lone_red        # the red stone while it is Red's only stone and Blue has none
    int32_t opening_last    # the cell of the board's last move when the search began, else -1
    Chains* chains          # the solver's scratch (game_solver_open), else NULL


cdef inline int32_t swap_pieces_id(const State* s) noexcept nogil:
    return s.g.padded


cdef inline int32_t swap_sides_id(const State* s) noexcept nogil:
    return s.g.padded + 1


cdef inline int32_t mirror_of(const Geometry* g, int32_t cell) noexcept nogil:
    """(i, j) -> (j, i), or -1 off the board (BoardCore._mirror's rule)."""
    cdef int32_t row = cell // g.width - 1
    cdef int32_t col = cell - (row + 1) * g.width
    if col >= g.rows or row >= g.cols:
        return -1
    return (col + 1) * g.width + row


cdef inline bint swap_open(const State* s) noexcept nogil:
    """BoardCore._swap_cell's rule: one red stone, nothing else, Blue to
    move, the sides not exchanged."""
    return (s.swap_allowed and s.red_count == 1 and s.blue_count == 0 and s.mover == BLUE
            and not s.swapped)


cdef inline uint8_t game_player(const State* s) noexcept nogil:
    return (s.mover - 1) ^ s.swapped


cdef uint8_t game_play(State* s, int32_t move) noexcept nogil:
    cdef Played* entry = &s.played[s.n_played]
    cdef int32_t row, mirror
    cdef uint8_t colour = s.mover
    cdef bint won
    entry.move = move
    entry.log_start = s.log_used
    s.n_played += 1
    if move < s.g.padded:
        row = move // s.g.width - 1
        won = place_stone(&s.g, s.stones, s.parent, s.log, &s.log_used, move, row,
                          move - (row + 1) * s.g.width, colour)
        if colour == RED:
            s.red_count += 1
            if s.red_count == 1 and s.blue_count == 0:
                s.lone_red = move
        else:
            s.blue_count += 1
        s.mover = RED + BLUE - colour
        return 1 if won else 0
    if move == swap_sides_id(s):
        s.swapped ^= 1
        return 0
    # swap-pieces: the red stone leaves (its word logged: the blue one may
    # come on the same cell) and Blue's mirror takes its place.
    mirror = mirror_of(&s.g, s.lone_red)
    s.log[s.log_used].index = s.lone_red
    s.log[s.log_used].old = s.parent[s.lone_red]
    s.log_used += 1
    s.stones[s.lone_red] = EMPTY
    row = mirror // s.g.width - 1
    won = place_stone(&s.g, s.stones, s.parent, s.log, &s.log_used, mirror, row,
                      mirror - (row + 1) * s.g.width, BLUE)
    s.red_count = 0
    s.blue_count = 1
    s.mover = RED
    return 1 if won else 0


cdef void game_undo(State* s) noexcept nogil:
    cdef Played* entry
    cdef uint8_t colour
    s.n_played -= 1
    entry = &s.played[s.n_played]
    take_back_writes(s.parent, s.log, &s.log_used, entry.log_start)
    if entry.move < s.g.padded:
        colour = s.stones[entry.move]
        s.stones[entry.move] = EMPTY
        s.mover = colour
        if colour == RED:
            s.red_count -= 1
        else:
            s.blue_count -= 1
    elif entry.move == swap_sides_id(s):
        s.swapped ^= 1
    else:
        s.stones[mirror_of(&s.g, s.lone_red)] = EMPTY
        s.stones[s.lone_red] = RED
        s.red_count = 1
        s.blue_count = 0
        s.mover = BLUE


cdef int32_t game_candidates(State* s, int32_t* out, uint8_t* verdict) noexcept nogil:
    """The empty cells (and the swaps while open); a cell that wins at once
    alone; else, when the opponent would win at once on some cells, those
    cells alone: a stone elsewhere changes nothing of the opponent's
    groups, so every other move loses at once, and with two such cells
    every move does (EXPAND_LOST)."""
    cdef int32_t k, cell, n = 0, n_threats = 0
    cdef uint8_t other = RED + BLUE - s.mover
    verdict[0] = EXPAND_OPEN
    if swap_open(s):
        for k in range(s.n_cells):
            if s.stones[s.cells[k]] == EMPTY:
                out[n] = s.cells[k]
                n += 1
        if mirror_of(&s.g, s.lone_red) >= 0:
            out[n] = swap_pieces_id(s)
            n += 1
        if s.sides_swap:
            out[n] = swap_sides_id(s)
            n += 1
        return n
    for k in range(s.n_cells):
        cell = s.cells[k]
        if s.stones[cell] != EMPTY:
            continue
        if stone_would_win(&s.g, s.stones, s.parent, cell, s.mover):
            out[0] = cell
            verdict[0] = EXPAND_WIN
            return 1
        if stone_would_win(&s.g, s.stones, s.parent, cell, other):
            s.threats[n_threats] = cell
            n_threats += 1
        out[n] = cell
        n += 1
    if n_threats:
        memcpy(out, s.threats, <size_t>n_threats * sizeof(int32_t))
        verdict[0] = EXPAND_FORCED if n_threats == 1 else EXPAND_LOST
        return n_threats
    return n


cdef inline uint8_t side_of(const uint8_t* stones, const uint8_t* edge, int32_t index) noexcept nogil:
    """The stone on a padded index, or the colour whose edge a padding
    cell stands for (``edge``: 0 on the cells), so that a stone's link to
    its edge reads as a bridge."""
    return stones[index] | edge[index]


cdef inline int32_t bridge_reply(const Geometry* g, const uint8_t* stones, const uint8_t* edge,
                                 const int32_t* slot, int32_t intruder,
                                 uint8_t colour) noexcept nogil:
    """The cell that saves a bridge of ``colour`` the opponent's stone on
    ``intruder`` has just broken into, or -1.  Around a cell its
    neighbours n0..n5 come in order, each beside the next: ``colour``'s
    stones (or edge) on n[k] and n[k+2] were joined through the intruder
    and n[k+1], so n[k+1], while still to be played (``slot`` >= 0), saves
    the link."""
    cdef int k
    cdef int32_t middle
    for k in range(6):
        middle = intruder + g.offset[(k + 1) % 6]
        if (slot[middle] >= 0 and side_of(stones, edge, intruder + g.offset[k]) == colour
                and side_of(stones, edge, intruder + g.offset[(k + 2) % 6]) == colour):
            return middle
    return -1


cdef inline int32_t hex_distance(const Geometry* g, int32_t a, int32_t b) noexcept nogil:
    """Moves of a stone between two cells (padded indices)."""
    cdef int32_t row_a = a // g.width, row_b = b // g.width
    cdef int32_t dr = row_b - row_a
    cdef int32_t dc = (b - row_b * g.width) - (a - row_a * g.width)
    return (abs(dr) + abs(dc) + abs(dr + dc)) // 2


cdef uint16_t game_knowledge(State* s, int32_t move) noexcept nogil:
    """morat's Hex knowledge: a stone near the opponent's last one (5 for
    each step closer than 4), and much more (100) for the cell that saves
    the bridge (or the link to an edge) the last stone broke into."""
    cdef int32_t last = s.played[s.n_played - 1].move if s.n_played else s.opening_last
    cdef int32_t distance, k, middle
    cdef uint16_t know = 0
    if move >= s.g.padded or last < 0 or last >= s.g.padded:
        return 0
    distance = hex_distance(&s.g, last, move)
    if distance < 4:
        know += <uint16_t>(5 * (4 - distance))
    if distance == 1:
        for k in range(6):
            middle = last + s.g.offset[(k + 1) % 6]
            if (middle == move and side_of(s.stones, s.edge, last + s.g.offset[k]) == s.mover
                    and side_of(s.stones, s.edge, last + s.g.offset[(k + 2) % 6]) == s.mover):
                know += 100
                break
    return know


cdef uint8_t bridge_playout(State* s, int32_t n, Xoshiro* rng) noexcept nogil:
    """The winner of a random game from the position (no swap open) whose
    ``n`` empty cells are in ``s.empty``, played out in turn on
    ``s.scratch.stones``: a stone that breaks into a bridge of the
    opponent's is answered by the bridge's other cell (random Hex
    playouts otherwise lose every bridge half the time, so that a
    connection the opponent cannot stop reads as a coin toss); else a
    uniformly random empty cell.  The board fills, which in Hex changes no
    winner."""
    cdef uint8_t* stones = s.scratch.stones
    cdef int32_t* order = s.scratch.order
    cdef int32_t* slot = s.slot
    cdef int32_t k, j, cell, last = -1
    cdef uint8_t colour = s.mover
    memcpy(stones, s.stones, <size_t>s.g.padded)
    memcpy(order, s.empty, <size_t>n * sizeof(int32_t))
    for k in range(n):
        slot[order[k]] = k
    for k in range(n):
        cell = -1
        if last >= 0:
            cell = bridge_reply(&s.g, stones, s.edge, slot, last, colour)
        if cell < 0:
            j = k + <int32_t>random_below(rng, <uint32_t>(n - k))
            cell = order[j]
        else:
            j = slot[cell]
        # The cell takes place k; the one there moves to its old place.
        order[j] = order[k]
        slot[order[j]] = j
        order[k] = cell
        slot[cell] = -1
        stones[cell] = colour
        last = cell
        colour = RED + BLUE - colour
    return RED if red_joins(&s.g, stones, s.scratch.stack) else BLUE


cdef uint8_t game_evaluate(State* s, Xoshiro* rng, uint8_t* owner) noexcept nogil:
    cdef int32_t k, cell, n = 0
    cdef uint8_t winner, colour
    for k in range(s.n_cells):
        if s.stones[s.cells[k]] == EMPTY:
            s.empty[n] = s.cells[k]
            n += 1
    winner = bridge_playout(s, n, rng)
    # The fill: a cell is Blue's or Red's (the flood marks some red ones
    # VISITED).
    for k in range(n):
        cell = s.empty[k]
        colour = BLUE if s.scratch.stones[cell] == BLUE else RED
        owner[cell] = ((colour - 1) ^ s.swapped) + 1
    return (winner - 1) ^ s.swapped


cdef void game_close(State* s) noexcept:
    free(s.parent)
    free(s.log)
    free(s.played)
    free(s.cells)
    free(s.empty)
    free(s.threats)
    free(s.slot)
    free(s.edge)
    free(s.scratch.stones)
    free(s.scratch.order)
    free(s.scratch.stack)


cdef int32_t game_open(State* s, board) except -1:
    """The position of ``board`` (a live Hex board, not over), laid out as
    the board lays its own; the number of move ids."""
    cdef int32_t rows = board.rows, cols = board.cols
    cdef int32_t w = cols + 1
    cdef int32_t padded = (rows + 2) * w + 1
    cdef int32_t n_cells = rows * cols
    cdef int32_t row, col, cell, used
    cdef bytes stones = board._cells_bytes()
    cdef const uint8_t* data = stones
    memset(s, 0, sizeof(State))
    geometry_set(&s.g, rows, cols)
    s.parent = <int32_t*>malloc(<size_t>padded * (sizeof(int32_t) + 1))
    s.log = <LogEntry*>malloc(<size_t>(n_cells + 4) * LOG_PER_MOVE * sizeof(LogEntry))
    s.played = <Played*>malloc(<size_t>(n_cells + 4) * sizeof(Played))
    s.cells = <int32_t*>malloc(<size_t>n_cells * sizeof(int32_t))
    s.empty = <int32_t*>malloc(<size_t>(n_cells + 1) * sizeof(int32_t))
    s.threats = <int32_t*>malloc(<size_t>(n_cells + 1) * sizeof(int32_t))
    s.slot = <int32_t*>malloc(<size_t>padded * sizeof(int32_t))
    s.edge = <uint8_t*>malloc(<size_t>padded)
    s.scratch.stones = <uint8_t*>malloc(<size_t>padded)
    s.scratch.order = <int32_t*>malloc(<size_t>(n_cells + 1) * sizeof(int32_t))
    s.scratch.stack = <int32_t*>malloc(<size_t>padded * sizeof(int32_t))
    if (s.parent == NULL or s.log == NULL or s.played == NULL or s.cells == NULL
            or s.empty == NULL or s.threats == NULL or s.slot == NULL or s.edge == NULL
            or s.scratch.stones == NULL
            or s.scratch.order == NULL or s.scratch.stack == NULL):
        game_close(s)
        raise MemoryError("no memory for the search's position")
    s.stones = <uint8_t*>(s.parent + padded)
    memset(s.stones, 0, <size_t>padded)
    # Every cell out of a playout's order: the padding stays so.  The
    # padding above and below the board is Red's edge, the column beside it
    # Blue's (a corner's padding counts as Red's).
    for cell in range(padded):
        s.slot[cell] = -1
        row = cell // w - 1
        if row < 0 or row >= rows:
            s.edge[cell] = RED
        elif cell - (row + 1) * w >= cols:
            s.edge[cell] = BLUE
        else:
            s.edge[cell] = EMPTY
    s.lone_red = -1
    s.opening_last = -1
    moves = board.moves
    if moves and not isinstance(moves[len(moves) - 1], str):
        row, col = moves[len(moves) - 1]
        s.opening_last = (row + 1) * w + col
    # The stones join as they would in play; their log is dropped (they
    # are never taken back).
    for row in range(rows):
        for col in range(cols):
            cell = (row + 1) * w + col
            s.cells[row * cols + col] = cell
            if data[row * cols + col]:
                used = 0
                place_stone(&s.g, s.stones, s.parent, s.log, &used, cell, row, col,
                            data[row * cols + col])
                if data[row * cols + col] == RED:
                    s.red_count += 1
                    s.lone_red = cell
                else:
                    s.blue_count += 1
    s.n_cells = n_cells
    s.mover = RED if board.to_move == "red" else BLUE
    s.swapped = board.sides_swapped
    s.swap_allowed = board.swap
    s.sides_swap = 1
    return padded + 2


cdef int32_t game_move_id(State* s, move) except -2:
    """A move as the board's ``moves`` lists it."""
    if move == SWAP_PIECES:
        return swap_pieces_id(s)
    if move == SWAP_SIDES:
        return swap_sides_id(s)
    row, col = move
    if not (0 <= row < s.g.rows and 0 <= col < s.g.cols):
        raise ValueError(f"{move!r} is off the board")
    return (row + 1) * s.g.width + col


cdef object game_move_object(State* s, int32_t move):
    cdef int32_t row
    if move == swap_pieces_id(s):
        return SWAP_PIECES
    if move == swap_sides_id(s):
        return SWAP_SIDES
    row = move // s.g.width - 1
    return (row, move - (row + 1) * s.g.width)


def accepts(board):
    """Whether ``board`` is a live Hex board (this module searches it)."""
    return isinstance(board, BoardCore)


# ---- the batch's view (havhex.hex.Batch), for the batched search ----------
#
# The batch's action r * cols + c is cell (r, c), and rows * cols swaps
# pieces; its observation is four bytes a cell, row by row: the mover's
# stone, the opponent's, "the mover is Blue" and "the swap is legal".


cdef bint batch_mode(State* s) noexcept nogil:
    """The batch's rules: swap-pieces is its one swap (True: nothing to
    allocate)."""
    s.sides_swap = 0
    return True


cdef void game_batch_sizes(const State* s, int32_t* n_actions, int32_t* observation_bytes) noexcept nogil:
    n_actions[0] = s.n_cells + 1
    observation_bytes[0] = 4 * s.n_cells


cdef inline int32_t game_action(const State* s, int32_t move) noexcept nogil:
    cdef int32_t row
    if move >= s.g.padded:
        return s.n_cells
    row = move // s.g.width - 1
    return row * s.g.cols + (move - (row + 1) * s.g.width)


cdef bint game_set_observed(State* s, const uint8_t* obs, uint8_t swap_option) noexcept nogil:
    """The position of one observation: the mover's and the opponent's
    stones placed by the board's kernel, the mover's colour from plane 2;
    the swap offered as the batch offers it (``swap_option``, and only
    where plane 3 says it is legal at the root).  True when a side has
    already won (there is nothing to search)."""
    cdef int32_t k, cell, row, used = 0
    cdef uint8_t mover = BLUE if s.n_cells and obs[2] else RED
    cdef uint8_t other = RED + BLUE - mover
    cdef uint8_t colour
    cdef bint won = False
    memset(s.stones, 0, <size_t>s.g.padded)
    s.log_used = 0
    s.n_played = 0
    s.red_count = 0
    s.blue_count = 0
    s.lone_red = -1
    s.swapped = 0
    s.opening_last = -1
    for k in range(s.n_cells):
        if obs[4 * k]:
            colour = mover
        elif obs[4 * k + 1]:
            colour = other
        else:
            continue
        cell = s.cells[k]
        row = cell // s.g.width - 1
        won |= place_stone(&s.g, s.stones, s.parent, s.log, &used, cell, row,
                           cell - (row + 1) * s.g.width, colour)
        if colour == RED:
            s.red_count += 1
            s.lone_red = cell
        else:
            s.blue_count += 1
    s.mover = mover
    s.swap_allowed = swap_option
    if swap_open(s) and not obs[3]:
        s.swap_allowed = 0
    return won


# A cell's four planes are one 32-bit word: the bytes' shifts.
cdef int PLANE_SHIFT[4]
PLANE_SHIFT[:] = [byte_shift(0), byte_shift(1), byte_shift(2), byte_shift(3)]


cdef void game_observe(const State* s, uint8_t* obs, uint8_t* mask) noexcept nogil:
    """The batch's observation of the position (a word a cell, into the
    evaluator's row, which NumPy aligns), and its legal actions."""
    cdef int32_t k
    cdef uint8_t stone
    cdef uint8_t mover = s.mover
    cdef uint8_t other = RED + BLUE - mover
    cdef uint8_t swap_plane = swap_open(s)
    cdef uint32_t base = ((<uint32_t>(mover == BLUE) << PLANE_SHIFT[2])
                          | (<uint32_t>swap_plane << PLANE_SHIFT[3]))
    cdef uint32_t* words = <uint32_t*>obs
    cdef int own_shift = PLANE_SHIFT[0], other_shift = PLANE_SHIFT[1]
    for k in range(s.n_cells):
        stone = s.stones[s.cells[k]]
        words[k] = (base | (<uint32_t>(stone == mover) << own_shift)
                    | (<uint32_t>(stone == other) << other_shift))
        mask[k] = stone == EMPTY
    mask[s.n_cells] = swap_plane and mirror_of(&s.g, s.lone_red) >= 0


include "havhex/_native/mcts_driver.pxi"
include "havhex/_native/batch_driver.pxi"
include "_virtual.pxi"
include "havhex/_native/dfpn_driver.pxi"
