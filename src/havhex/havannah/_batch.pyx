# cython: language_level=3, auto_pickle=False
"""The compiled core of ``havhex.havannah.Batch``: n Havannah games stepped
together with the GIL released, on arrays the Python layer made once.

Each game is the live board's position (_board_position.pxi: the padded
square of ``(2S+1)**2`` cells, its union-find and border masks), played by
the live board's move kernel (``place`` in _board_place.pxi) in its playout
form, which compresses paths and keeps no undo log: the batch never undoes.
So a bridge, a fork and a ring (either rule) are found exactly as
``havannah.Board`` finds them, by the same code.

Actions and the observation use OpenSpiel's ``(2S-1)``-square: action
``(x-1)*(2S-1) + (y-1)`` is the judge's cell (x, y).  The observation of a
game is ``(2S-1)**2`` cells of eight one-byte planes (module docstring of
havhex/havannah/batch.py), so one cell is one 64-bit word.  The view turns
to the next mover at every move: each stone's own and opponent bytes are
exchanged, by one xor of its word, over the game's list of stones; no
plane depends on the mover's colour, so the empty cells' words stay as
they are.  The stone played, the last-move byte and, at the second move
only, the swap plane are the other writes.
"""
from libc.stdint cimport (
    int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
)
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from havhex._native.unionfind cimport uf_find, uf_root
from havhex._native.random cimport Xoshiro, random_below, splitmix64_mix, xoshiro_seed
from havhex._native.portable cimport (
    compare_exchange, ctz32, fetch_add, prefetch_line, store_release,
)
from havhex.havannah._structure cimport (
    KIND_BRIDGE, KIND_FORK, KIND_RING, run_starts, structure_kinds,
)

include "_geometry.pxi"
include "_board_position.pxi"
include "_board_enclosure.pxi"
include "_board_place.pxi"

# The planes of a cell's observation word, byte by byte (batch.py's PLANES).
cdef enum:
    PLANE_OWN = 0
    PLANE_OPPONENT = 1
    PLANE_EMPTY = 2
    PLANE_ON_BOARD = 3
    PLANE_EDGE = 4
    PLANE_CORNER = 5
    PLANE_SWAP = 6
    PLANE_LAST = 7
    N_PLANES = 8

# Gymnasium's autoreset modes.
cdef enum:
    NEXT_STEP = 0
    SAME_STEP = 1
    DISABLED = 2

# Why step refuses the actions (check_actions' answer, beside the game).
cdef enum:
    ACTION_OK = 0
    ACTION_OUT_OF_RANGE = 1
    ACTION_ILLEGAL = 2
    ACTION_AFTER_END = 3

# An action kept for step_part that is illegal in its game, under
# illegal="lose": the game is lost by its player to move.
cdef enum:
    FORFEIT = -2

# Start positions refused (set_position's answers).
cdef enum:
    START_OK = 0
    START_BAD_CELL = 1
    START_COUNTS = 2
    START_OVER = 3
    START_OFF_BOARD = 4

# Games ahead of the one stepped whose memory is asked for.
cdef int32_t PREFETCH_AHEAD = 3

AUTORESET_MODES = ("next-step", "same-step", "disabled")


cdef struct Game:
    Position position
    Xoshiro rng
    int32_t n_moves
    int32_t n_stones            # stones[0:n_stones]: the actions of the stones on the board
    int32_t last_action         # the last move's cell, or -1
    uint16_t* stones
    int32_t swap_action         # the action that swaps now, or -1
    uint8_t white_seat          # the seat (0/1) that plays the first colour


# A stone's own and opponent bytes (one of them 1): xor turns the view.
cdef uint64_t OWN_AND_OPPONENT = 0x0101


cdef inline size_t block_stride(int32_t n_slots) noexcept nogil:
    """The distance between two games' blocks: a block's bytes rounded up
    to a cache line, so that each game's parent array (int32) and masks
    (uint16) are aligned, and no line holds two games (threads step
    neighbouring games)."""
    return (block_bytes(n_slots) + 63) & ~(<size_t>63)


cdef class BatchCore:
    """The games and the arrays they write (see the module docstring)."""
    cdef readonly int32_t n, base, width, num_actions, n_threads, mode
    cdef readonly tuple observation_shape
    cdef readonly bint swap_option, official
    cdef public bint illegal_raises  # illegal="raise": ValueError, not pgx's loss
    cdef int32_t n_slots
    cdef Game* games
    cdef char* blocks
    cdef uint16_t* stone_lists
    cdef char* template_block
    cdef uint64_t* template_obs
    cdef uint8_t* template_mask
    cdef int32_t* action_cell
    cdef int32_t* row_first       # the actions of the hexagon in row x: [first, end)
    cdef int32_t* row_end
    cdef Search* searches          # one a thread, claimed by a part (search_busy)
    cdef int64_t* search_busy
    cdef int64_t* actions
    cdef const uint8_t* reset_which   # the mask of the reset being run
    cdef int32_t* sample_out          # the out array of the sampling being run
    cdef uint64_t* obs
    cdef uint8_t* mask
    cdef int32_t* current_player
    cdef float* rewards
    cdef uint8_t* terminated
    cdef uint8_t* truncated
    cdef int8_t* winner
    cdef uint8_t* structures
    cdef uint64_t* final_obs
    cdef uint8_t* final_mask
    cdef uint8_t* over             # the core's own: the games ended and not reset
    cdef object fields      # keeps the fields' memory the pointers point into
    cdef object call_inputs # keeps one call's arrays alive while its parts run

    def __cinit__(self):
        self.games = NULL

    def __dealloc__(self):
        cdef int32_t k
        free(self.games)
        free(self.blocks)
        free(self.stone_lists)
        free(self.template_block)
        free(self.template_obs)
        free(self.template_mask)
        free(self.action_cell)
        free(self.row_first)
        free(self.row_end)
        free(self.actions)
        free(self.over)
        free(self.search_busy)
        if self.searches != NULL:
            for k in range(self.n_threads):
                free(self.searches[k].stamp)
                free(self.searches[k].queue)
            free(self.searches)

    def __init__(self, int32_t n, int32_t base, bint official, bint swap, int threads,
                 dict blocks):
        """``threads``: the parts a call runs side by side, each with its
        own scratch; ``blocks``: the fields' memory by name
        (havhex._batch_core.Block), each checked here for its size before
        a pointer is taken."""
        cdef int32_t width = 2 * base - 1
        cdef int32_t k, a, x, y
        cdef Position laid
        if self.games != NULL:
            raise TypeError("a BatchCore is initialised once")
        if n < 1 or not 2 <= base <= 128 or threads < 1:
            raise ValueError("n >= 1, base from 2 to 128, threads >= 1")
        self.n = n
        self.base = base
        self.width = width
        self.num_actions = width * width
        self.observation_shape = (width, width, N_PLANES)
        self.n_threads = threads
        self.mode = NEXT_STEP
        self.swap_option = swap
        self.official = official
        laid.size = base
        laid.width = base * 2 + 1
        laid.n_slots = laid.width * laid.width
        laid.official = official
        self.n_slots = laid.n_slots
        self.games = <Game*>calloc(<size_t>n, sizeof(Game))
        self.blocks = <char*>malloc(<size_t>n * block_stride(laid.n_slots))
        self.stone_lists = <uint16_t*>malloc(<size_t>n * self.num_actions * sizeof(uint16_t))
        self.template_block = <char*>malloc(block_bytes(laid.n_slots))
        self.template_obs = <uint64_t*>calloc(<size_t>self.num_actions, sizeof(uint64_t))
        self.template_mask = <uint8_t*>calloc(<size_t>self.num_actions, 1)
        self.action_cell = <int32_t*>malloc(<size_t>self.num_actions * sizeof(int32_t))
        self.actions = <int64_t*>calloc(<size_t>n, sizeof(int64_t))
        self.over = <uint8_t*>calloc(<size_t>n, 1)
        self.row_first = <int32_t*>malloc(<size_t>width * sizeof(int32_t))
        self.row_end = <int32_t*>malloc(<size_t>width * sizeof(int32_t))
        self.searches = <Search*>calloc(<size_t>threads, sizeof(Search))
        self.search_busy = <int64_t*>calloc(<size_t>threads, sizeof(int64_t))
        if (self.games == NULL or self.blocks == NULL or self.stone_lists == NULL or self.template_block == NULL
                or self.template_obs == NULL or self.template_mask == NULL
                or self.action_cell == NULL or self.actions == NULL or self.over == NULL
                or self.searches == NULL
                or self.search_busy == NULL
                or self.row_first == NULL or self.row_end == NULL):
            raise MemoryError(f"no memory for a batch of {n} games of base {base}")
        for k in range(threads):
            self.searches[k].stamp = <uint32_t*>calloc(<size_t>laid.n_slots, sizeof(uint32_t))
            self.searches[k].queue = <int32_t*>malloc(<size_t>laid.n_slots * sizeof(int32_t))
            if self.searches[k].stamp == NULL or self.searches[k].queue == NULL:
                raise MemoryError(f"no memory for a batch of {n} games of base {base}")
        point_into(&laid, self.template_block)
        lay_out(&laid, base)
        for a in range(self.num_actions):
            x = a // width + 1
            y = a % width + 1
            self.action_cell[a] = x * laid.width + y
            if on_board(x, y, base):
                self.template_mask[a] = 1
                self.template_obs[a] = cell_word(border_mask(x, y, base))
        for x in range(width):
            self.row_first[x] = x * width + max(0, x - (base - 1))
            self.row_end[x] = x * width + min(width - 1, x + base - 1) + 1
        for k in range(n):
            self.games[k].position = laid
            point_into(&self.games[k].position, self.blocks + <size_t>k * block_stride(laid.n_slots))
            self.games[k].stones = self.stone_lists + <size_t>k * self.num_actions
        cdef size_t games = <size_t>n, actions = <size_t>self.num_actions
        self.obs = <uint64_t*>_pointer(blocks["observation"], games * actions * N_PLANES)
        self.final_obs = <uint64_t*>_pointer(blocks["final_observation"],
                                             games * actions * N_PLANES)
        self.mask = _pointer(blocks["legal_action_mask"], games * actions)
        self.current_player = <int32_t*>_pointer(blocks["current_player"], games * 4)
        self.rewards = <float*>_pointer(blocks["rewards"], games * 8)
        self.terminated = _pointer(blocks["terminated"], games)
        self.truncated = _pointer(blocks["truncated"], games)
        self.winner = <int8_t*>_pointer(blocks["winner"], games)
        self.structures = _pointer(blocks["structures"], games)
        self.final_mask = _pointer(blocks["final_mask"], games)
        self.fields = blocks

    # ---- seeding and resets ------------------------------------------------

    def reseed(self, seed):
        """Game g draws from stream g of ``seed``: the same games whatever
        the threads."""
        cdef uint64_t s = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
        cdef int32_t g
        for g in range(self.n):
            xoshiro_seed(&self.games[g].rng, s, <uint64_t>g)

    def check_reset(self, const uint8_t[::1] which):
        """The games the next reset_part calls reset: where ``which`` (a
        uint8 mask of shape (n,)) is not 0."""
        if which.shape[0] != self.n:
            raise ValueError(f"a mask of shape ({self.n},) is wanted")
        self.call_inputs = which
        self.reset_which = &which[0]

    def reset_part(self, int64_t lo, int64_t hi):
        """Empty boards for games lo to hi - 1 that check_reset marked (the
        report fields of those games cleared too)."""
        cdef int32_t g
        if not 0 <= lo <= hi <= self.n or self.reset_which == NULL:
            raise ValueError("reset_part without check_reset, or out of range")
        with nogil:
            for g in range(lo, hi):
                if self.reset_which[g]:
                    self._clear_report(g)
                    self.final_mask[g] = 0
                    self._reset_game(g)

    cdef inline void _clear_report(self, int32_t g) noexcept nogil:
        self.rewards[2 * g] = 0
        self.rewards[2 * g + 1] = 0
        self.terminated[g] = 0
        self.over[g] = 0
        self.truncated[g] = 0
        self.winner[g] = -1
        self.structures[g] = 0

    cdef void _reset_game(self, int32_t g) noexcept nogil:
        """The empty board, a seat drawn for the first colour (pgx draws
        the first player at random the same way)."""
        cdef Game* game = &self.games[g]
        memcpy(<char*>game.position.parent, self.template_block, block_bytes(self.n_slots))
        lay_out_counts(&game.position, self.base)
        game.n_moves = 0
        game.n_stones = 0
        game.last_action = -1
        game.swap_action = -1
        game.white_seat = <uint8_t>random_below(&game.rng, 2)
        self.over[g] = 0
        memcpy(self.obs + <size_t>g * self.num_actions, self.template_obs,
               <size_t>self.num_actions * sizeof(uint64_t))
        memcpy(self.mask + <size_t>g * self.num_actions, self.template_mask, <size_t>self.num_actions)
        self.current_player[g] = game.white_seat

    # ---- stepping ----------------------------------------------------------

    def check_actions(self, actions):
        """Copy ``actions`` (a NumPy array of any integer dtype, shape (n,))
        in, checking each against its game; ``(ACTION_OK, -1)`` or ``(why,
        game)`` of the first refused one.  Nothing of any game changes
        here, and nothing is allocated for the usual dtypes."""
        if actions.ndim != 1 or actions.shape[0] != self.n:
            raise ValueError(f"one action a game: shape ({self.n},)")
        if not actions.dtype.isnative or not actions.flags.c_contiguous:
            actions = actions.astype(actions.dtype.newbyteorder("="), order="C")
        kind = actions.dtype.kind
        size = actions.dtype.itemsize
        if kind == "i":
            if size == 8:
                return check_all[int64_t](self, actions)
            if size == 4:
                return check_all[int32_t](self, actions)
            if size == 2:
                return check_all[int16_t](self, actions)
            return check_all[int8_t](self, actions)
        if size == 8:
            return check_all[uint64_t](self, actions)
        if size == 4:
            return check_all[uint32_t](self, actions)
        if size == 2:
            return check_all[uint16_t](self, actions)
        return check_all[uint8_t](self, actions)

    cdef inline int _check_one(self, int32_t g, int64_t action) noexcept nogil:
        """Checks game g's action (-1 when out of range) and keeps it.  An
        action out of range is refused in every game, one about to be
        reset too.  What the game allows is read from the core's own
        memory, never from the fields Python holds."""
        if action < 0:
            return ACTION_OUT_OF_RANGE
        if self.over[g]:
            if self.mode == NEXT_STEP:
                self.actions[g] = -1        # reset instead: the action is ignored
                return ACTION_OK
            if self.mode == DISABLED:
                return ACTION_AFTER_END
        if not self._legal(g, action):
            if self.illegal_raises:
                return ACTION_ILLEGAL
            self.actions[g] = FORFEIT
            return ACTION_OK
        self.actions[g] = action
        return ACTION_OK

    cdef inline bint _legal(self, int32_t g, int64_t action) noexcept nogil:
        """Whether the action (in range) is legal in game g (not ended): an
        empty cell of the hexagon (the square's others are OFF_BOARD in
        the position), or the swap while it is offered."""
        cdef Game* game = &self.games[g]
        return (action == game.swap_action
                or game.position.cells[self.action_cell[action]] == EMPTY)

    def check_step(self, actions, int mode):
        """Check every action (an int32 or int64 array of shape (n,)) for
        ``mode``, the autoreset mode, before any game changes, and keep them
        for step_part; ValueError naming the first bad game."""
        if not 0 <= mode <= 2:
            raise ValueError(f"an autoreset mode from 0 to 2, got {mode}")
        self.mode = mode
        why, g = self.check_actions(actions)
        if why == ACTION_OUT_OF_RANGE:
            raise ValueError(f"game {g}: action {actions[g]} is out of range "
                             f"[0, {self.num_actions})")
        if why == ACTION_ILLEGAL:
            raise ValueError(f"game {g}: action {actions[g]} is not legal (off the hexagon, "
                             f"or on a stone)")
        if why == ACTION_AFTER_END:
            raise ValueError(f"game {g} has ended: reset it before stepping it again "
                             f"(autoreset=\"disabled\")")

    def step_part(self, int64_t lo, int64_t hi):
        """Step games lo to hi - 1 by the actions check_step took (all
        legal).  Parts run on threads side by side, each with a scratch of
        its own for the contest rule's search, claimed here."""
        cdef int k = 0
        if not 0 <= lo <= hi <= self.n:
            raise ValueError("step_part out of range")
        with nogil:
            while not compare_exchange(&self.search_busy[k], 0, 1):
                k = (k + 1) % self.n_threads
            self._step_range(<int32_t>lo, <int32_t>hi, &self.searches[k])
            store_release(&self.search_busy[k], 0)

    cdef inline void _prefetch(self, int32_t g) noexcept nogil:
        """Ask for the memory game g's step will touch: its Game, the rows
        of cells around its move, their masks and parents.  A batch's games
        do not fit the caches, and each step touches a few scattered lines
        of each: fetched ahead, their misses overlap.  (Its observation's
        lines are left to the step: its stones are everywhere, and asking
        for every line costs more than it saves.)"""
        cdef int64_t action = self.actions[g]
        cdef size_t slots = <size_t>self.n_slots
        cdef char* block = self.blocks + <size_t>g * block_stride(self.n_slots)
        cdef int32_t cell, width = self.n_slots // (2 * self.base + 1)
        prefetch_line(&self.games[g])
        prefetch_line(<char*>&self.games[g] + 64)
        prefetch_line(<char*>&self.games[g] + 128)
        if action >= 0:
            cell = self.action_cell[action]
            prefetch_line(block + slots * 6 + cell - width)
            prefetch_line(block + slots * 6 + cell)
            prefetch_line(block + slots * 6 + cell + width)
            prefetch_line(block + slots * 4 + 2 * <size_t>cell)
            prefetch_line(block + 4 * <size_t>cell)
            prefetch_line(self.mask + <size_t>g * self.num_actions + action)

    cdef void _step_range(self, int32_t lo, int32_t hi, Search* search) noexcept nogil:
        cdef int32_t g
        cdef int64_t action
        for g in range(lo, hi):
            if g + PREFETCH_AHEAD < hi:
                self._prefetch(g + PREFETCH_AHEAD)
            action = self.actions[g]
            if action == FORFEIT:
                self._clear_report(g)
                self._forfeit(g)
                if self.mode == SAME_STEP:
                    memcpy(self.final_obs + <size_t>g * self.num_actions,
                           self.obs + <size_t>g * self.num_actions,
                           <size_t>self.num_actions * sizeof(uint64_t))
                    self.final_mask[g] = 1
                    self._reset_game(g)
                continue
            if action < 0:
                # NEXT_STEP: the game ended in the last step; this step resets it.
                self._clear_report(g)
                self._reset_game(g)
                continue
            self._clear_report(g)
            if self.mode == SAME_STEP:
                self.final_mask[g] = 0
            if self._play(g, <int32_t>action, search) and self.mode == SAME_STEP:
                memcpy(self.final_obs + <size_t>g * self.num_actions,
                       self.obs + <size_t>g * self.num_actions, <size_t>self.num_actions * sizeof(uint64_t))
                self.final_mask[g] = 1
                self._reset_game(g)

    cdef void _forfeit(self, int32_t g) noexcept nogil:
        """Game g's player to move made an illegal action: that player loses
        (pgx's rule); the board, and so the observation and the player to
        move, stay as they were."""
        cdef Game* game = &self.games[g]
        cdef int32_t mover = (game.white_seat if game.position.to_move == WHITE
                              else 1 - game.white_seat)
        self.winner[g] = <int8_t>(1 - mover)
        self.rewards[2 * g + mover] = -1
        self.rewards[2 * g + 1 - mover] = 1
        self.terminated[g] = 1
        self.over[g] = 1
        memset(self.mask + <size_t>g * self.num_actions, 1, <size_t>self.num_actions)

    cdef bint _play(self, int32_t g, int32_t action, Search* search) noexcept nogil:
        """Play the legal ``action`` in game g; whether the game ended."""
        cdef Game* game = &self.games[g]
        cdef Position* p = &game.position
        cdef uint8_t colour = p.to_move
        cdef uint8_t mover = game.white_seat if colour == WHITE else 1 - game.white_seat
        cdef uint64_t* o = self.obs + <size_t>g * self.num_actions
        cdef uint8_t* m = self.mask + <size_t>g * self.num_actions
        cdef uint8_t kinds = 0
        cdef uint64_t swap_plane = 0, swap_bit = <uint64_t>1 << (8 * PLANE_SWAP)
        cdef uint64_t last_bit = <uint64_t>1 << (8 * PLANE_LAST)
        cdef bint swap_changes = False
        cdef const uint16_t* stones = game.stones
        cdef int32_t a, x, k
        if game.last_action >= 0:
            o[game.last_action] &= ~last_bit
        game.last_action = action
        if action == game.swap_action:
            # The pie rule (OpenSpiel's and the live board's): the first
            # stone becomes the second player's, and the first moves again.
            # It was the opponent's to the second player, and is the
            # opponent's to the first: its word keeps its stone bytes.
            p.cells[self.action_cell[action]] = BLACK
            o[action] |= last_bit
        else:
            kinds = place(p, self.action_cell[action], colour, NULL, search, True)
            # The new stone, the mover's, then every stone turned to the
            # next mover's view (the new one becomes the opponent's).
            o[action] = ((o[action] & ~((<uint64_t>0xFF << (8 * PLANE_EMPTY)) | 0xFFFF))
                         | 1 | last_bit)
            m[action] = 0
            game.stones[game.n_stones] = <uint16_t>action
            game.n_stones += 1
            for k in range(game.n_stones):
                o[stones[k]] ^= OWN_AND_OPPONENT
        game.n_moves += 1
        p.to_move = colour ^ 3
        if game.swap_action >= 0:
            m[game.swap_action] = 0
            game.swap_action = -1
            swap_changes = True
        elif game.n_moves == 1 and self.swap_option and colour == WHITE:
            game.swap_action = action
            m[action] = 1
            swap_plane = swap_bit
            swap_changes = True
        if swap_changes:
            # The second move only: the swap plane appears or goes.
            for x in range(self.width):
                for a in range(self.row_first[x], self.row_end[x]):
                    o[a] = (o[a] & ~swap_bit) | swap_plane
        self.current_player[g] = 1 - mover
        if kinds:
            self.winner[g] = mover
            self.structures[g] = kinds
            self.rewards[2 * g + mover] = 1
            self.rewards[2 * g + 1 - mover] = -1
        elif p.n_empty != 0:
            return False
        self.terminated[g] = 1
        self.over[g] = 1
        memset(m, 1, <size_t>self.num_actions)
        return True

    # ---- random legal actions ----------------------------------------------

    def check_sample(self, int32_t[::1] out):
        """The array the next sample_part calls write to."""
        if out.shape[0] != self.n:
            raise ValueError(f"an out array of shape ({self.n},) is wanted")
        self.call_inputs = out
        self.sample_out = &out[0]

    def sample_part(self, int64_t lo, int64_t hi):
        """A uniformly random legal action for games lo to hi - 1, from each
        game's own stream (a game over: a random cell of the square)."""
        cdef int32_t g
        if not 0 <= lo <= hi <= self.n or self.sample_out == NULL:
            raise ValueError("sample_part without check_sample, or out of range")
        with nogil:
            for g in range(lo, hi):
                self.sample_out[g] = self._sample_one(g)

    cdef int32_t _sample_one(self, int32_t g) noexcept nogil:
        cdef Game* game = &self.games[g]
        cdef const uint8_t* m = self.mask + <size_t>g * self.num_actions
        cdef int32_t legal, pick, a, k
        # A few draws over the square first (most of it is legal in a
        # random game), then the k-th legal action of a fair count.  The
        # mask is read here (the core's memory, read-only to Python), but
        # it only picks among actions in range: step checks what it draws.
        for k in range(4):
            a = <int32_t>random_below(&game.rng, <uint32_t>self.num_actions)
            if m[a]:
                return a
        if self.over[g]:
            legal = self.num_actions
        else:
            legal = game.position.n_empty + (1 if game.swap_action >= 0 else 0)
        pick = <int32_t>random_below(&game.rng, <uint32_t>legal)
        for a in range(self.num_actions):
            if m[a]:
                if pick == 0:
                    return a
                pick -= 1
        return 0

    # ---- start positions ---------------------------------------------------

    def set_position(self, int32_t g, const int8_t[:, ::1] cells, int to_move, bint apply=True):
        """Game g starts from ``cells`` (the (2S-1)-square: 0 empty, 1 the
        first colour's stone, 2 the second's; off the hexagon 0), the colour
        ``to_move`` (1 or 2; 0: by the counts) to move.  Returns START_OK,
        or why the position is refused (game g unchanged then);
        ``apply=False`` only checks."""
        cdef Game* game
        cdef Game saved
        cdef int32_t a, n_white = 0, n_black = 0, x, y, first = -1
        cdef int8_t v
        cdef uint8_t kinds = 0
        cdef uint64_t* o
        cdef uint8_t* m
        cdef char* scratch
        if not 0 <= g < self.n:
            raise IndexError(g)
        if cells.shape[0] != self.width or cells.shape[1] != self.width:
            raise ValueError(f"a ({self.width}, {self.width}) array of cells is wanted")
        for a in range(self.num_actions):
            v = cells[a // self.width, a % self.width]
            if v < 0 or v > 2:
                return START_BAD_CELL
            if v and not self.template_mask[a]:
                return START_OFF_BOARD
            if v == 1:
                n_white += 1
                first = a
            elif v == 2:
                n_black += 1
        if to_move == 0:
            # White at equal counts, and after the pie rule's swap (Black one
            # stone ahead); Black one behind.
            to_move = WHITE if n_white == n_black or n_black == n_white + 1 else BLACK
        elif to_move != WHITE and to_move != BLACK:
            return START_COUNTS
        if not (n_white == n_black or n_white == n_black + 1
                or (self.swap_option and n_black == n_white + 1)):
            return START_COUNTS
        if to_move == BLACK and n_white != n_black + 1 and not (self.swap_option and n_white == n_black and n_black):
            return START_COUNTS
        if to_move == WHITE and n_white != n_black and not (self.swap_option and n_black == n_white + 1):
            return START_COUNTS
        if n_white + n_black == 3 * self.base * (self.base - 1) + 1:
            return START_OVER
        # Built on a scratch copy with the official rule (any loop refuses
        # the position: a ring the contest rule does not count cannot be told
        # from one placed before its inside, whatever the order of stones).
        game = &self.games[g]
        saved = game[0]
        scratch = <char*>malloc(block_bytes(self.n_slots))
        if scratch == NULL:
            raise MemoryError("no memory for a start position")
        memcpy(scratch, self.template_block, block_bytes(self.n_slots))
        point_into(&saved.position, scratch)
        lay_out_counts(&saved.position, self.base)
        saved.position.official = 1
        for a in range(self.num_actions):
            v = cells[a // self.width, a % self.width]
            if v:
                kinds |= place(&saved.position, self.action_cell[a], <uint8_t>v, NULL,
                               &self.searches[0], True)
        if kinds or not apply:
            free(scratch)
            return START_OVER if kinds else START_OK
        memcpy(<char*>game.position.parent, scratch, block_bytes(self.n_slots))
        free(scratch)
        game.position.n_empty = saved.position.n_empty
        game.position.to_move = <uint8_t>to_move
        game.position.winner = 0
        game.n_moves = n_white + n_black
        game.n_stones = 0
        game.last_action = -1
        game.swap_action = -1
        self._clear_report(g)
        self.final_mask[g] = 0
        o = self.obs + <size_t>g * self.num_actions
        m = self.mask + <size_t>g * self.num_actions
        memcpy(m, self.template_mask, <size_t>self.num_actions)
        for a in range(self.num_actions):
            v = cells[a // self.width, a % self.width]
            o[a] = self.template_obs[a]
            if v:
                m[a] = 0
                o[a] &= ~(<uint64_t>0xFF << (8 * PLANE_EMPTY))
                o[a] |= <uint64_t>1 << (8 * (PLANE_OWN if v == to_move else PLANE_OPPONENT))
                game.stones[game.n_stones] = <uint16_t>a
                game.n_stones += 1
        if self.swap_option and n_white == 1 and n_black == 0 and to_move == BLACK:
            game.swap_action = first
            m[first] = 1
            for a in range(self.num_actions):
                if self.template_mask[a]:
                    o[a] |= <uint64_t>1 << (8 * PLANE_SWAP)
        self.current_player[g] = game.white_seat if to_move == WHITE else 1 - game.white_seat
        return START_OK

    def cells(self, int32_t g):
        """Game g's cells as bytes of the (2S-1)-square (0 empty, 1 the
        first colour, 2 the second), and the colour to move (tests)."""
        cdef Game* game
        if not 0 <= g < self.n:
            raise IndexError(g)
        game = &self.games[g]
        out = bytearray(self.num_actions)
        for a in range(self.num_actions):
            v = game.position.cells[self.action_cell[a]]
            out[a] = v if v != OFF_BOARD else 0
        return bytes(out), game.position.to_move

    def stones(self):
        """Every game's cells as bytes, (n, 2S-1, 2S-1) in the layout of
        ``havannah.Board.to_array``: 0 empty, 1 the first colour, 2 the
        second, and 0xFF (-1) off the hexagon (pictures and tests)."""
        cdef int32_t g, a
        cdef uint8_t v
        out = bytearray(<size_t>self.n * self.num_actions)
        cdef unsigned char[::1] view = out
        for g in range(self.n):
            for a in range(self.num_actions):
                v = self.games[g].position.cells[self.action_cell[a]]
                view[<size_t>g * self.num_actions + a] = 0xFF if v == OFF_BOARD else v
        return bytes(out)

    def seats(self):
        """The seat of the first colour in each game."""
        return bytes([self.games[g].white_seat for g in range(self.n)])


ctypedef fused action_t:
    int8_t
    int16_t
    int32_t
    int64_t
    uint8_t
    uint16_t
    uint32_t
    uint64_t


cdef tuple check_all(BatchCore core, const action_t[::1] actions):
    cdef int32_t g, n = core.n
    cdef int64_t n_actions = core.num_actions
    cdef int why = ACTION_OK
    cdef bint out_of_range
    with nogil:
        for g in range(n):
            # An unsigned action is never negative: testing it would be a
            # comparison that is always false (GCC's -Wtype-limits).
            if (action_t is uint8_t or action_t is uint16_t or action_t is uint32_t
                    or action_t is uint64_t):
                out_of_range = <uint64_t>actions[g] >= <uint64_t>n_actions
            else:
                out_of_range = actions[g] < 0 or <int64_t>actions[g] >= n_actions
            why = core._check_one(g, -1 if out_of_range else <int64_t>actions[g])
            if why != ACTION_OK:
                break
    if why != ACTION_OK:
        return (why, g)
    return (ACTION_OK, -1)


cdef uint64_t cell_word(uint16_t border) noexcept nogil:
    """An empty on-board cell's word, seen by the first player."""
    cdef uint64_t word = (<uint64_t>1 << (8 * PLANE_EMPTY)) | (<uint64_t>1 << (8 * PLANE_ON_BOARD))
    if border & 0x3F:
        word |= <uint64_t>1 << (8 * PLANE_CORNER)
    elif border:
        word |= <uint64_t>1 << (8 * PLANE_EDGE)
    return word


cdef uint8_t* _pointer(block, size_t size) except NULL:
    """The first byte of a field's memory (a havhex._batch_core.Block of
    ``size`` bytes).  Its buffer is read-only to Python; the core alone
    writes it, through this pointer."""
    cdef const uint8_t[::1] flat = block
    if <size_t>flat.shape[0] != size:
        raise ValueError(f"a field of {size} bytes is wanted, got {flat.shape[0]}")
    return <uint8_t*>&flat[0]
