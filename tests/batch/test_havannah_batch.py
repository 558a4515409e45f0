"""havhex.havannah.Batch: every game replayed move by move on the live
board ends at the same move with the same winner and structures; the
observation, the mask and the seats follow the board; OpenSpiel's Havannah
agrees on legal actions, the terminal step and the winner; bad calls
change nothing; the thread count changes no game; a step allocates
nothing."""
import tracemalloc

import pytest

import needs

np = needs.module("numpy")
hypothesis = needs.module("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from havhex.havannah import Board  # noqa: E402
from havhex.havannah.batch import (  # noqa: E402
    AUTORESET_MODES, PLANES, STRUCTURES, Batch, augment, inverse_symmetry, symmetry,
)
from havhex.errors import InputError  # noqa: E402


def cell_of(base, action):
    width = 2 * base - 1
    return action // width + 1, action % width + 1


def action_of(base, cell):
    x, y = cell
    return (x - 1) * (2 * base - 1) + (y - 1)


def expected_observation(board, base, last_known=True):
    """The planes of the board from the mover's view, built cell by cell
    from the board's own answers."""
    width = 2 * base - 1
    padded = board._cells_bytes()
    mover = 1 if board.to_move == "white" else 2
    swap_legal = "swap" in board.legal_moves()
    obs = np.zeros((width, width, len(PLANES)), bool)
    for x in range(1, width + 1):
        for y in range(1, width + 1):
            held = padded[x * (2 * base + 1) + y]
            if held == 3:
                continue
            plane = obs[x - 1, y - 1]
            plane[PLANES.index("on_board")] = True
            plane[PLANES.index("own")] = held == mover
            plane[PLANES.index("opponent")] = held == 3 - mover
            plane[PLANES.index("empty")] = held == 0
            corner = (x, y) in {(1, 1), (1, base), (base, 1), (base, width), (width, base),
                                (width, width)}
            edge = not corner and (x in (1, width) or y in (1, width) or abs(x - y) == base - 1)
            plane[PLANES.index("corner")] = corner
            plane[PLANES.index("edge")] = edge
            plane[PLANES.index("swap")] = swap_legal
    if board.moves and last_known:
        last = board.moves[-1] if board.moves[-1] != "swap" else board.moves[0]
        obs[last[0] - 1, last[1] - 1, PLANES.index("last")] = True
    return obs


def legal_actions(board, base):
    if board.is_over:
        return set(range((2 * base - 1) ** 2))
    return {action_of(base, board.moves[0]) if move == "swap" else action_of(base, move)
            for move in board.legal_moves()}


def structure_bits(kinds):
    return sum(1 << STRUCTURES.index(kind) for kind in kinds)


class Shadow:
    """A live board per game of a batch, played along: checks each step."""

    def __init__(self, batch, check_observation=True):
        self.batch = batch
        self.base = batch.base
        self.check_observation = check_observation
        self.boards = [self.new_board() for _ in range(batch.num_envs)]
        # The seat of the first colour, seen as the player to move at a reset.
        self.first_seat = batch.current_player.copy()
        self.finished = []      # (moves, winner colour or None, structures)
        self.check_all()

    def new_board(self):
        return Board(self.base, self.batch.rule, self.batch.swap)

    def colour_of_seat(self, g, seat):
        return "white" if seat == self.first_seat[g] else "black"

    def play(self, actions):
        batch = self.batch
        mode = batch.autoreset
        resetting = batch.terminated.copy() if mode == "next-step" else np.zeros(batch.num_envs, bool)
        batch.step(actions)
        for g, board in enumerate(self.boards):
            if resetting[g]:
                assert not batch.terminated[g] and batch.winner[g] == -1
                assert (batch.rewards[g] == 0).all()
                self.boards[g] = self.new_board()
                self.first_seat[g] = batch.current_player[g]
                continue
            action = int(actions[g])
            move = cell_of(self.base, action)
            if len(board.moves) == 1 and board.moves[0] == move:
                move = "swap"
            kinds = board.play(move)
            assert bool(batch.terminated[g]) == board.is_over, (g, board.moves)
            assert not batch.truncated[g]
            if board.is_over:
                winner = board.winner
                if winner is None:
                    assert batch.winner[g] == -1 and (batch.rewards[g] == 0).all()
                else:
                    seat = int(batch.winner[g])
                    assert seat in (0, 1) and self.colour_of_seat(g, seat) == winner
                    assert batch.rewards[g, seat] == 1 and batch.rewards[g, 1 - seat] == -1
                assert batch.structures[g] == structure_bits(kinds)
                self.finished.append((board.moves, winner, kinds))
                if mode == "same-step":
                    assert batch.final_mask[g]
                    if self.check_observation:
                        assert (batch.final_observation[g]
                                == expected_observation(board, self.base)).all()
                    self.boards[g] = self.new_board()
                    self.first_seat[g] = batch.current_player[g]
            else:
                assert batch.winner[g] == -1 and batch.structures[g] == 0
                assert (batch.rewards[g] == 0).all()
                if mode == "same-step":
                    assert not batch.final_mask[g]
        if mode == "disabled" and batch.terminated.any():
            ended = batch.terminated.copy()
            batch.reset(ended)
            for g in np.nonzero(ended)[0]:
                self.boards[g] = self.new_board()
                self.first_seat[g] = batch.current_player[g]
        self.check_all()

    def check_all(self):
        batch = self.batch
        for g, board in enumerate(self.boards):
            mover = board.to_move
            seat = int(batch.current_player[g])
            assert self.colour_of_seat(g, seat) == mover
            assert set(np.nonzero(batch.legal_action_mask[g])[0]) == legal_actions(board, self.base)
            if self.check_observation:
                assert (batch.observation[g] == expected_observation(board, self.base)).all(), (
                    g, board.moves)


@settings(max_examples=25, deadline=None)
@given(base=st.integers(2, 7), rule=st.sampled_from(["official", "contest"]),
       swap=st.booleans(), seed=st.integers(0, 2**64 - 1), threads=st.integers(1, 3),
       autoreset=st.sampled_from(AUTORESET_MODES), n=st.integers(1, 9))
def test_every_game_is_the_live_boards(base, rule, swap, seed, threads, autoreset, n):
    batch = Batch(n, base, rule=rule, swap=swap, seed=seed, threads=threads, autoreset=autoreset)
    shadow = Shadow(batch)
    for _ in range(3 * base * base + 20):
        shadow.play(batch.sample_actions())
    assert shadow.finished


@pytest.mark.parametrize("rule", ["official", "contest"])
def test_many_games_end_as_on_the_live_board(rule):
    """Larger boards, many games, the observation left to the test above:
    every game's end, winner and structures."""
    batch = Batch(24, 8, rule=rule, swap=True, seed=24)
    shadow = Shadow(batch, check_observation=False)
    for _ in range(800):
        shadow.play(batch.sample_actions())
    kinds = {kind for _, _, found in shadow.finished for kind in found}
    assert len(shadow.finished) > 100 and kinds == set(STRUCTURES)


@pytest.mark.parametrize("autoreset", AUTORESET_MODES)
def test_threaded_games_are_the_live_boards(autoreset):
    """Two threads step parts of at least 256 games each: every game of
    both parts against its live board."""
    batch = Batch(600, 4, rule="contest", swap=True, seed=6, threads=2, autoreset=autoreset)
    shadow = Shadow(batch, check_observation=False)
    for _ in range(40):
        shadow.play(batch.sample_actions())
    assert len(shadow.finished) > 300


@pytest.mark.parametrize("base", range(4, 11))
def test_openspiel_agrees(base):
    pyspiel = needs.module("pyspiel", need="openspiel")
    for swap in (False, True):
        game = pyspiel.load_game("havannah", {"board_size": base, "swap": swap})
        n = 8
        batch = Batch(n, base, swap=swap, seed=base, autoreset="next-step")
        states = [game.new_initial_state() for _ in range(n)]
        first_seat = batch.current_player.copy()
        games = 0
        while games < 40:
            for g, state in enumerate(states):
                if not state.is_terminal():
                    assert list(np.nonzero(batch.legal_action_mask[g])[0]) == state.legal_actions()
                    assert state.current_player() == (0 if batch.current_player[g] == first_seat[g]
                                                      else 1)
            actions = batch.sample_actions()
            ended = batch.terminated.copy()
            batch.step(actions)
            for g in range(n):
                if ended[g]:
                    states[g] = game.new_initial_state()
                    first_seat[g] = batch.current_player[g]
                    continue
                states[g].apply_action(int(actions[g]))
                assert states[g].is_terminal() == bool(batch.terminated[g])
                if batch.terminated[g]:
                    games += 1
                    returns = states[g].returns()
                    if returns[0] == returns[1]:
                        assert batch.winner[g] == -1
                    else:
                        winner_colour = 0 if returns[0] > 0 else 1
                        assert (batch.winner[g] == first_seat[g]) == (winner_colour == 0)


def test_draws():
    """Random games of base 3 end full now and then: a draw, rewards 0."""
    batch = Batch(64, 3, seed=11, autoreset="same-step")
    shadow = Shadow(batch, check_observation=False)
    for _ in range(300):
        shadow.play(batch.sample_actions())
    assert any(winner is None for _, winner, _ in shadow.finished)


def test_threads_do_not_change_the_games():
    """Threads step parts of at least 256 games: 800 games make three."""
    import hashlib

    runs = []
    for threads in (1, 2, 3):
        batch = Batch(800, 6, seed=99, threads=threads, rule="contest", swap=True)
        digest = hashlib.sha256()
        for _ in range(200):
            batch.step(batch.sample_actions())
            for field in (batch.observation, batch.legal_action_mask, batch.rewards,
                          batch.winner, batch.structures, batch.current_player):
                digest.update(field.tobytes())
        runs.append(digest.hexdigest())
    assert runs[0] == runs[1] == runs[2]


def test_the_same_seed_gives_the_same_games_and_reset_reseeds():
    a = Batch(16, 5, seed=7)
    b = Batch(16, 5, seed=7)
    c = Batch(16, 5, seed=8)
    differs = False
    for _ in range(40):
        actions = a.sample_actions()
        assert (actions == b.sample_actions()).all()
        differs |= bool((actions != c.sample_actions()).any())
        a.step(actions)
        b.step(actions)
        c.step(c.sample_actions())
    assert differs
    a.reset(seed=3)
    b.reset(seed=3)
    assert (a.sample_actions() == b.sample_actions()).all()


def test_fields_and_properties():
    batch = Batch(5, 4, rule="contest", swap=True, threads=2, autoreset="same-step")
    assert batch.num_envs == 5 and batch.num_actions == 49
    assert batch.observation_shape == (7, 7, 8) and batch.observation.dtype == bool
    assert batch.legal_action_mask.shape == (5, 49) and batch.current_player.dtype == np.int32
    assert batch.rewards.shape == (5, 2) and batch.rewards.dtype == np.float32
    assert batch.winner.dtype == np.int8 and batch.structures.dtype == np.uint8
    assert batch.threads == 2 and batch.autoreset == "same-step"
    for field in (batch.observation, batch.legal_action_mask, batch.rewards, batch.terminated):
        with pytest.raises(ValueError):
            field[...] = 0
    # Corners are never legal? They are cells of the hexagon: legal.  The
    # square's cells off the hexagon are never legal.
    off = [action_of(4, (x, y)) for x in range(1, 8) for y in range(1, 8) if abs(x - y) > 3]
    assert not batch.legal_action_mask[:, off].any()
    assert batch.legal_action_mask.sum(axis=1).tolist() == [37] * 5


def test_bad_calls_change_nothing():
    batch = Batch(4, 3, seed=1, autoreset="disabled", illegal="raise")
    batch.step(np.array([0, 1, 2, 5]))
    before = (batch.observation.copy(), batch.legal_action_mask.copy(),
              batch.current_player.copy())

    def unchanged():
        assert (batch.observation == before[0]).all()
        assert (batch.legal_action_mask == before[1]).all()
        assert (batch.current_player == before[2]).all()

    bad = [
        (np.array([6, 7, 8]), ValueError),                  # wrong shape
        (np.array([[6, 7, 8, 9]]), ValueError),
        (np.array([6.0, 7.0, 8.0, 9.0]), TypeError),        # wrong dtype
        (np.array(["a", "b", "c", "d"]), TypeError),
        (np.array([6, 7, 8, 25]), ValueError),              # out of range
        (np.array([6, 7, 8, -1]), ValueError),
        (np.array([6, 7, 8, 2**63], dtype=np.uint64), ValueError),
        (np.array([6, 7, 8, 4]), ValueError),               # off the hexagon: (1, 5)
        (np.array([6, 7, 8, 5]), ValueError),               # taken in game 3
        (np.array([6, 1, 8, 9]), ValueError),               # taken in game 1
    ]
    for actions, error in bad:
        with pytest.raises(error):
            batch.step(actions)
        unchanged()
    # With the pie rule, a game's first stone is its swap, legal once.
    swapping = Batch(2, 3, seed=1, swap=True, illegal="raise")
    swapping.step(np.array([0, 1]))
    assert swapping.legal_action_mask[0, 0] and swapping.legal_action_mask[1, 1]
    swapping.step(np.array([0, 1]))
    assert not swapping.legal_action_mask[0, 0] and not swapping.legal_action_mask[1, 1]
    assert swapping._core.cells(0) == (b"\x02" + bytes(24), 1)
    with pytest.raises(ValueError):
        swapping.step(np.array([2, 1]))
    # A step after the end under "disabled".
    small = Batch(1, 2, seed=0, autoreset="disabled")
    while not small.terminated[0]:
        small.step(small.sample_actions())
    with pytest.raises(ValueError, match="has ended"):
        small.step(np.array([0]))
    for args, error in [((0,), ValueError), ((-1,), InputError), ((1.5,), TypeError),
                        ((2**23,), ValueError), ((1, 1), InputError), ((1, 65), InputError),
                        ((2**22, 64), ValueError)]:
        with pytest.raises(error):
            Batch(*args)
    with pytest.raises(InputError):
        Batch(1, rule="ring")
    with pytest.raises(ValueError):
        Batch(1, autoreset="never")
    with pytest.raises(TypeError):
        Batch(1, swap=1)
    with pytest.raises(ValueError):
        batch.reset(np.ones(3, bool))
    with pytest.raises(ValueError):
        batch.sample_actions(np.empty(4, np.int64))


def test_any_integer_dtype_plays():
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                  np.uint64, np.dtype(">i4")):
        batch = Batch(3, 3, seed=4)
        reference = Batch(3, 3, seed=4)
        actions = reference.sample_actions()
        batch.step(actions.astype(dtype))
        reference.step(actions)
        assert (batch.observation == reference.observation).all()


def test_the_core_reads_every_integer_dtype_and_refuses_out_of_range():
    # The core reads any integer dtype in place (check_all, one form per
    # dtype): an unsigned action is out of range only above, a signed one on
    # either side.  Batch.step hands it int32 or int64; the other forms are
    # reached here.
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                  np.uint64):
        limits = np.iinfo(dtype)
        core = Batch(2, 3, seed=4)._core
        core.check_step(np.array([12, 24], dtype), 0)
        for bad in {25, limits.max, limits.min} - {0}:
            with pytest.raises(ValueError, match=f"game 1: action {bad} is out of range"):
                core.check_step(np.array([12, bad], dtype), 0)


@pytest.mark.not_under_sanitizers("a memory measurement")
def test_a_step_allocates_nothing():
    batch = Batch(64, 5, seed=5, threads=1, swap=True, rule="contest")
    actions = np.zeros(64, np.int32)
    for _ in range(50):
        batch.sample_actions(actions)
        batch.step(actions)
    tracemalloc.start()
    try:
        first, _ = tracemalloc.get_traced_memory()
        for _ in range(16000):          # a million steps
            batch.sample_actions(actions)
            batch.step(actions)
        last, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert last - first < 4096


# ---- start positions ---------------------------------------------------------

def test_start_positions_from_arrays():
    base = 4
    width = 2 * base - 1
    board = Board(base)
    for cell in [(4, 4), (3, 3), (5, 4), (2, 2), (4, 5)]:
        board.play(cell)
    cells = np.zeros((width, width), np.int8)
    for index, move in enumerate(board.moves):
        cells[move[0] - 1, move[1] - 1] = 1 + index % 2
    batch = Batch(3, base, seed=2)
    batch.set_positions(cells[None].repeat(2, axis=0), mask=np.array([True, False, True]))
    shadow_cells = batch._core.cells(0)[0]
    assert shadow_cells == bytes(cells.ravel().astype(np.uint8))
    assert (batch.observation[0] == expected_observation(board, base, last_known=False)).all()
    assert set(np.nonzero(batch.legal_action_mask[0])[0]) == legal_actions(board, base)
    assert batch.legal_action_mask[1].sum() == 37
    # Play on from there: the live board agrees.
    while not batch.terminated[0]:
        actions = batch.sample_actions()
        batch.step(actions)
        board.play(cell_of(base, int(actions[0])))
        assert bool(batch.terminated[0]) == board.is_over


def test_refused_start_positions():
    base = 3
    width = 5
    batch = Batch(2, base, seed=2)
    before = batch.observation.copy()
    bad = []
    cells = np.zeros((width, width), np.int8)
    cells[0, 0] = 3
    bad.append(cells)                                   # not a stone
    cells = np.zeros((width, width), np.int8)
    cells[0, 4] = 1
    bad.append(cells)                                   # off the hexagon
    cells = np.zeros((width, width), np.int8)
    cells[0, 0] = cells[0, 1] = 1
    bad.append(cells)                                   # two white, no black
    cells = np.zeros((width, width), np.int8)
    for y in range(3):                                  # a bridge (1,1)-(1,3)
        cells[0, y] = 1
    cells[4, 4] = cells[4, 3] = 2
    bad.append(cells)
    for cells in bad:
        with pytest.raises(InputError):
            batch.set_positions(cells[None].repeat(2, axis=0))
        assert (batch.observation == before).all()
    with pytest.raises(ValueError):
        batch.set_positions(np.zeros((2, 4, 4), np.int8))


def test_swap_from_a_start_position():
    batch = Batch(1, 3, swap=True, seed=1)
    cells = np.zeros((1, 5, 5), np.int8)
    cells[0, 2, 2] = 1
    batch.set_positions(cells)
    assert batch.legal_action_mask[0, 12] and batch.observation[0, 0, 0, PLANES.index("swap")]
    batch.step(np.array([12]))
    assert batch._core.cells(0) == (bytes(12) + b"\x02" + bytes(12), 1)


def test_start_positions_from_records():
    folder = needs.shared("records", "littlegolem-havannah", need="records")
    from havhex import records

    games = []
    for path in sorted(folder.glob("*.hgf"))[:200]:
        games.extend(game for game in records.read(path) if game.size == 8)
    assert len(games) >= 20
    batch = Batch(16, 8, seed=4, swap=True)
    batch.set_positions_from_records(games, seed=5)
    stones = [sum(1 for v in batch._core.cells(g)[0] if v) for g in range(16)]
    assert max(stones) > 0
    for g in range(16):
        cells, to_move = batch._core.cells(g)
        assert (batch.observation[g, :, :, PLANES.index("own")].ravel()
                == np.frombuffer(cells, np.uint8).__eq__(to_move)).all()
    for _ in range(50):
        batch.step(batch.sample_actions())


# ---- symmetries --------------------------------------------------------------

@pytest.mark.parametrize("base", [2, 3, 5, 8])
def test_the_twelve_symmetries(base):
    width = 2 * base - 1
    maps = [symmetry(base, k) for k in range(12)]
    assert len({tuple(m) for m in maps}) == 12
    on_board = [action_of(base, (x, y)) for x in range(1, width + 1)
                for y in range(1, width + 1) if abs(x - y) < base]
    for k, m in enumerate(maps):
        assert sorted(m[on_board]) == sorted(on_board)          # the hexagon onto itself
        inverse = inverse_symmetry(base, k)
        assert (m[inverse] == np.arange(width * width)).all()
        for a in on_board:                                        # neighbours stay neighbours
            for b in on_board:
                x1, y1 = cell_of(base, a)
                x2, y2 = cell_of(base, b)
                u1, v1 = cell_of(base, m[a])
                u2, v2 = cell_of(base, m[b])
                near = (x2 - x1, y2 - y1) in {(1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0)}
                near2 = (u2 - u1, v2 - v1) in {(1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0)}
                assert near == near2
            if base > 3:
                break


def test_augment_keeps_games_equivalent():
    """A game played through a symmetry is the same game: the transformed
    observation is the observation of the transformed moves."""
    base = 5
    for k in range(12):
        a = Batch(1, base, seed=k, autoreset="disabled")
        b = Batch(1, base, seed=k, autoreset="disabled")
        m = symmetry(base, k)
        while not a.terminated[0]:
            action = a.sample_actions()
            a.step(action)
            b.step(m[action])
            obs, policy = augment(a.observation, a.legal_action_mask.astype(np.float32), k)
            assert (obs == b.observation).all()
            assert (policy.astype(bool) == b.legal_action_mask).all()
            back = augment(obs, policy, k, inverse=True)
            assert (back[0] == a.observation).all()
        assert a.winner[0] == b.winner[0] and a.structures[0] == b.structures[0]
