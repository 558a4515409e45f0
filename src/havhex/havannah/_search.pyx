# cython: language_level=3, auto_pickle=False
"""Havannah's part of the search (havhex.search): the position the tree
walks, played and taken back by the live board's own move kernel
(``place``/``take_back`` of _board_place.pxi, both ring rules), and valued
by its playout (``play_out`` of _playout_kernel.pxi).

A move id is the cell's index in the board's padded square (``x * (2S+1)
+ y``), then one more for the swap.  The players are the colours (the swap
hands the first stone to Black, and White moves next), White first.

The forced replies: a stone of ours never changes whether the opponent's
stone on another cell would complete a bridge or a fork (their groups'
corners and edges), nor, under the official rule, a ring (a loop of their
stones counts whatever it holds), so every move but a threatened cell loses
at once.  Under the contest rule a ring must hold an empty cell, which our
stone may fill: a ring threat there prunes nothing.
"""
from libc.math cimport log, sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from havhex._native.cancel cimport cancel_requested, request_cancel
from havhex._native.mcts cimport *
from havhex._native.portable cimport ctz32, monotonic_us
from havhex._native.random cimport Xoshiro, random_below, splitmix64_mix, xoshiro_seed
from havhex._native.unionfind cimport uf_find, uf_root
from havhex.havannah._structure cimport (
    KIND_BRIDGE, KIND_FORK, KIND_RING, run_starts, structure_kinds,
)

from havhex._threads import run_interruptibly
from havhex.havannah._board import SWAP, BoardCore

include "_geometry.pxi"
include "_board_position.pxi"
include "_board_enclosure.pxi"
include "_board_place.pxi"
include "_playout_kernel.pxi"

# The largest pool: node indices are int32.
MAX_NODES = 0x7FFFFFFF


cdef struct State:
    Position position
    char* block
    Search search           # the contest rule's scratch
    MoveRecord* played      # the moves played since the root position, for undo
    int32_t n_played
    int64_t n_moves         # the moves of the game (the swap's rule)
    int32_t first_cell      # the game's first stone, once played
    int32_t opening_last    # the cell of the board's last move when the search began, else -1
    uint8_t swap_option
    int32_t* cells          # the cells of the board, in index order
    int32_t n_cells
    int32_t* free_cells     # scratch: a playout's empty cells
    int32_t* threats        # scratch: the opponent's winning cells
    Playground ground       # a playout's copy of the position
    uint8_t* borders        # the batched search's: per slot, 1 a corner, 2 an edge (else NULL)


cdef inline int32_t swap_id(const State* s) noexcept nogil:
    return s.position.n_slots


cdef inline bint swap_open(const State* s) noexcept nogil:
    """The board's _swap_legal: the second move of a game with the option,
    White's stone on the board."""
    return (s.swap_option and s.n_moves == 1 and s.position.to_move == BLACK
            and s.position.cells[s.first_cell] == WHITE)


cdef inline uint8_t game_player(const State* s) noexcept nogil:
    return s.position.to_move - 1


cdef uint8_t game_play(State* s, int32_t move) noexcept nogil:
    cdef Position* p = &s.position
    cdef MoveRecord* record = &s.played[s.n_played]
    cdef uint8_t colour = p.to_move
    cdef uint8_t kinds = 0
    s.n_played += 1
    s.n_moves += 1
    record.colour = colour
    if move == swap_id(s):
        recolour(p, s.first_cell, WHITE, BLACK)
        record.cell = s.first_cell
        record.is_swap = 1
        record.n_saved = 0
        record.kinds = 0
    else:
        kinds = place(p, move, colour, record, &s.search, False)
        record.cell = move
        record.is_swap = 0
        record.kinds = kinds
        if s.n_moves == 1:
            s.first_cell = move
    set_mover(p, colour ^ 3)
    if kinds:
        p.winner = colour
        return 1
    return 2 if p.n_empty == 0 else 0


cdef void game_undo(State* s) noexcept nogil:
    cdef MoveRecord* record
    s.n_played -= 1
    s.n_moves -= 1
    record = &s.played[s.n_played]
    if record.is_swap:
        recolour(&s.position, record.cell, BLACK, WHITE)
    else:
        take_back(&s.position, record)
    s.position.winner = 0
    set_mover(&s.position, record.colour)


cdef inline uint8_t kinds_if_placed(State* s, int32_t cell, uint8_t colour) noexcept nogil:
    """What a stone of ``colour`` on the empty ``cell`` would complete: placed
    and taken back by the board's kernel.  A stone with no neighbour of its
    colour completes nothing (one cell is one corner at most, on no two
    edges, and closes no loop), so most cells need no placing."""
    cdef MoveRecord record
    cdef uint8_t kinds
    cdef int k
    cdef const uint8_t* cells = s.position.cells
    for k in range(6):
        if cells[cell + s.position.offset[k]] == colour:
            break
    else:
        return 0
    kinds = place(&s.position, cell, colour, &record, &s.search, False)
    record.cell = cell
    record.colour = colour
    take_back(&s.position, &record)
    return kinds


cdef int32_t game_candidates(State* s, int32_t* out, uint8_t* verdict) noexcept nogil:
    """The empty cells (and the swap while open); a cell that wins at once
    alone; else, when the opponent would win at once on some cells and no
    other move can stop it (see the module's docstring), those cells alone,
    each lost when there are two or more (EXPAND_LOST)."""
    cdef int32_t k, cell, n = 0, n_threats = 0
    cdef uint8_t mover = s.position.to_move
    cdef uint8_t other = mover ^ 3
    cdef uint8_t kinds
    cdef bint blockable_elsewhere = False
    verdict[0] = EXPAND_OPEN
    if swap_open(s):
        for k in range(s.n_cells):
            if s.position.cells[s.cells[k]] == EMPTY:
                out[n] = s.cells[k]
                n += 1
        out[n] = swap_id(s)
        return n + 1
    for k in range(s.n_cells):
        cell = s.cells[k]
        if s.position.cells[cell] != EMPTY:
            continue
        if kinds_if_placed(s, cell, mover):
            out[0] = cell
            verdict[0] = EXPAND_WIN
            return 1
        kinds = kinds_if_placed(s, cell, other)
        if kinds:
            s.threats[n_threats] = cell
            n_threats += 1
            if kinds == KIND_RING and not s.position.official:
                blockable_elsewhere = True
        out[n] = cell
        n += 1
    if n_threats and not blockable_elsewhere:
        memcpy(out, s.threats, <size_t>n_threats * sizeof(int32_t))
        verdict[0] = EXPAND_FORCED if n_threats == 1 else EXPAND_LOST
        return n_threats
    return n


cdef uint16_t game_knowledge(State* s, int32_t move) noexcept nogil:
    """morat's Havannah knowledge: 20 for each corner and edge the stone's
    group would touch (its own cell's and its neighbour groups'), and 25
    for the cell that saves a bridge of ours the opponent's last stone
    broke into (our stones on both sides of it, this cell the other way
    through)."""
    cdef Position* p = &s.position
    cdef uint8_t mover = p.to_move
    cdef uint32_t touched
    cdef int32_t k, last = -1
    cdef uint16_t know = 0
    if move >= p.n_slots:
        return 0
    touched = p.mask[move]
    for k in range(6):
        if p.cells[move + p.offset[k]] == mover:
            touched |= p.mask[uf_root(p.parent, move + p.offset[k])]
    while touched:
        know += 20
        touched &= touched - 1
    if s.n_played:
        if not s.played[s.n_played - 1].is_swap:
            last = s.played[s.n_played - 1].cell
    else:
        last = s.opening_last
    if last >= 0 and p.cells[last] == (mover ^ 3):
        for k in range(6):
            if (last + p.offset[(k + 1) % 6] == move and p.cells[last + p.offset[k]] == mover
                    and p.cells[last + p.offset[(k + 2) % 6]] == mover):
                know += 25
                break
    return know


cdef uint8_t game_evaluate(State* s, Xoshiro* rng, uint8_t* owner) noexcept nogil:
    cdef int32_t k, cell, n = 0
    cdef uint8_t winner, colour
    for k in range(s.n_cells):
        if s.position.cells[s.cells[k]] == EMPTY:
            s.free_cells[n] = s.cells[k]
            n += 1
    winner = play_out(&s.ground, &s.position, s.block, s.free_cells, -1, rng)
    # The cells the playout filled before its end (the rest stay empty).
    for k in range(n):
        cell = s.free_cells[k]
        colour = s.ground.position.cells[cell]
        if colour == WHITE or colour == BLACK:
            owner[cell] = colour
    return winner - 1 if winner else 2


cdef void game_close(State* s) noexcept:
    free(s.block)
    free(s.search.stamp)
    free(s.search.queue)
    free(s.played)
    free(s.cells)
    free(s.free_cells)
    free(s.threats)
    playground_close(&s.ground)
    free(s.borders)
    s.borders = NULL


cdef int32_t game_open(State* s, board) except -1:
    """The position of ``board`` (a live Havannah board, not over): its
    stones placed on an empty board by the move kernel; the number of move
    ids."""
    cdef int32_t size = board.size
    cdef bytes cells = board._cells_bytes()
    cdef const uint8_t* data = cells
    cdef Position* p = &s.position
    cdef int32_t i, n_cells = 3 * size * (size - 1) + 1
    memset(s, 0, sizeof(State))
    p.size = size
    p.width = 2 * size + 1
    p.n_slots = p.width * p.width
    p.official = board.rule == "official"
    s.block = <char*>malloc(block_bytes(p.n_slots))
    s.search.stamp = <uint32_t*>calloc(<size_t>p.n_slots, sizeof(uint32_t))
    s.search.queue = <int32_t*>malloc(<size_t>p.n_slots * sizeof(int32_t))
    s.played = <MoveRecord*>malloc(<size_t>(n_cells + 4) * sizeof(MoveRecord))
    s.cells = <int32_t*>malloc(<size_t>n_cells * sizeof(int32_t))
    s.free_cells = <int32_t*>malloc(<size_t>(n_cells + 1) * sizeof(int32_t))
    s.threats = <int32_t*>malloc(<size_t>(n_cells + 1) * sizeof(int32_t))
    if (s.block == NULL or s.search.stamp == NULL or s.search.queue == NULL or s.played == NULL
            or s.cells == NULL or s.free_cells == NULL or s.threats == NULL):
        game_close(s)
        raise MemoryError("no memory for the search's position")
    point_into(p, s.block)
    lay_out(p, size)
    for i in range(p.n_slots):
        if p.cells[i] == EMPTY:
            s.cells[s.n_cells] = i
            s.n_cells += 1
            if data[i] == WHITE or data[i] == BLACK:
                place(p, i, data[i], NULL, &s.search, False)
    set_mover(p, WHITE if board.to_move == "white" else BLACK)
    s.swap_option = board.swap
    s.n_moves = len(board)
    s.first_cell = -1
    if s.n_moves >= 1:
        first = board.moves[0]
        if first != SWAP:
            s.first_cell = first[0] * p.width + first[1]
    s.opening_last = -1
    if s.n_moves >= 1:
        last = board.moves[s.n_moves - 1]
        if last != SWAP:
            s.opening_last = last[0] * p.width + last[1]
    if s.n_moves == 1 and s.first_cell < 0:
        s.n_moves = 2               # a lone swap cannot be: no swap follows
    if not playground_open(&s.ground, p):
        game_close(s)
        raise MemoryError("no memory for the search's playouts")
    return p.n_slots + 1


cdef int32_t game_move_id(State* s, move) except -2:
    """A move as the board's ``moves`` lists it."""
    if move == SWAP:
        return swap_id(s)
    x, y = move
    if not (1 <= x < s.position.width - 1 and 1 <= y < s.position.width - 1):
        raise ValueError(f"{move!r} is off the board")
    return x * s.position.width + y


cdef object game_move_object(State* s, int32_t move):
    if move == swap_id(s):
        return SWAP
    return (move // s.position.width, move % s.position.width)


def accepts(board):
    """Whether ``board`` is a live Havannah board (this module searches it)."""
    return isinstance(board, BoardCore)


# ---- the batch's view (havhex.havannah.Batch), for the batched search -----
#
# The batch's action (x-1)*(2S-1) + (y-1) is slot x * (2S+1) + y; its swap
# is the first stone's own cell.  Its observation is eight bytes a cell of
# the (2S-1)-square (havannah/batch.py's PLANES): own, opponent, empty,
# on_board, edge, corner, swap, last.


cdef enum:
    PLANES = 8


cdef bint batch_mode(State* s) noexcept nogil:
    """The batch plays the search's rules as they are; the observation's
    corner and edge planes are looked up, not worked out a cell at a time
    (False without memory for the table)."""
    cdef Position* p = &s.position
    cdef int32_t slot
    cdef uint16_t border
    s.borders = <uint8_t*>calloc(<size_t>p.n_slots, 1)
    if s.borders == NULL:
        return False
    for slot in range(p.n_slots):
        border = border_mask(slot // p.width, slot % p.width, p.size)
        s.borders[slot] = 1 if border & 0x3F else (2 if border else 0)
    return True


cdef void game_batch_sizes(const State* s, int32_t* n_actions, int32_t* observation_bytes) noexcept nogil:
    cdef int32_t side = 2 * s.position.size - 1
    n_actions[0] = side * side
    observation_bytes[0] = PLANES * side * side


cdef inline int32_t game_action(const State* s, int32_t move) noexcept nogil:
    cdef int32_t side = 2 * s.position.size - 1
    if move == swap_id(s):
        move = s.first_cell
    return (move // s.position.width - 1) * side + move % s.position.width - 1


cdef inline int32_t slot_of_action(const State* s, int32_t action) noexcept nogil:
    cdef int32_t side = 2 * s.position.size - 1
    return (action // side + 1) * s.position.width + action % side + 1


cdef bint game_set_observed(State* s, const uint8_t* obs, uint8_t swap_option) noexcept nogil:
    """The position of one observation, its stones placed by the board's
    kernel on an empty board.  The planes give no colour (the rules are
    the same for both): the mover plays White unless the swap plane is set,
    which only the second move of a game offers (then the mover is Black
    and the one stone White's, the game's first).  True when a stone
    already completes a structure (there is nothing to search)."""
    cdef Position* p = &s.position
    cdef int32_t side = 2 * p.size - 1
    cdef int32_t a, slot, stones = 0, opponent_slot = -1
    cdef uint8_t size_official = p.official
    cdef bint offered = False, over = False
    cdef uint8_t mover, other
    for a in range(side * side):
        if obs[PLANES * a + 6]:
            offered = True
            break
    mover = BLACK if offered else WHITE
    other = mover ^ 3
    point_into(p, s.block)
    lay_out(p, p.size)
    p.official = size_official
    s.n_played = 0
    s.opening_last = -1
    for a in range(side * side):
        slot = slot_of_action(s, a)
        if p.cells[slot] == OFF_BOARD:
            continue
        if obs[PLANES * a + 7]:
            s.opening_last = slot
        if obs[PLANES * a]:
            over |= place(p, slot, mover, NULL, &s.search, False) != 0
            stones += 1
        elif obs[PLANES * a + 1]:
            over |= place(p, slot, other, NULL, &s.search, False) != 0
            stones += 1
            opponent_slot = slot
    set_mover(p, mover)
    s.swap_option = swap_option
    s.first_cell = -1
    if offered and stones == 1 and opponent_slot >= 0:
        s.n_moves = 1
        s.first_cell = opponent_slot
    else:
        # One stone and no swap offered: the swap is past (taken, or not
        # offered); any count past one leaves it past too.
        s.n_moves = stones if stones != 1 else 2
    return over


cdef void game_observe(const State* s, uint8_t* obs, uint8_t* mask) noexcept nogil:
    """The batch's observation of the position, and its legal actions."""
    cdef const Position* p = &s.position
    cdef int32_t side = 2 * p.size - 1
    cdef int32_t a, slot, last = -1
    cdef uint8_t v, mover = p.to_move, border
    cdef bint offered = swap_open(s)
    cdef uint8_t* o
    if s.n_played:
        last = s.played[s.n_played - 1].cell
    else:
        last = s.opening_last
    for a in range(side * side):
        slot = slot_of_action(s, a)
        v = p.cells[slot]
        o = obs + PLANES * a
        if v == OFF_BOARD:
            memset(o, 0, PLANES)
            mask[a] = 0
            continue
        border = s.borders[slot]
        o[0] = v == mover
        o[1] = v == (mover ^ 3)
        o[2] = v == EMPTY
        o[3] = 1
        o[4] = border == 2
        o[5] = border == 1
        o[6] = offered
        o[7] = slot == last
        mask[a] = v == EMPTY or (offered and slot == s.first_cell)


include "havhex/_native/mcts_driver.pxi"
include "havhex/_native/batch_driver.pxi"


# The solver's knowledge is the search's: wins at once and forced replies.
cdef inline int32_t game_solver_candidates(State* s, int32_t* out, uint8_t* verdict) noexcept nogil:
    return game_candidates(s, out, verdict)


cdef inline bint game_solver_open(State* s) noexcept nogil:
    return True


cdef inline void game_solver_close(State* s) noexcept nogil:
    pass


include "havhex/_native/dfpn_driver.pxi"
