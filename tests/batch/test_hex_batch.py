"""havhex.hex.Batch against the live havhex.hex.Board, and its bad calls.

Every game of a batch is shadowed by a live board that plays the same
actions: the stones, the observation, the mask, the end and the winner must
agree after every step, whatever the size, the swap, the seed, the threads
and the autoreset mode.
"""
import needs

np = needs.module("numpy")
hypothesis = needs.module("hypothesis")

import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from havhex.errors import InputError  # noqa: E402
from havhex.hex import Batch, Board  # noqa: E402
from havhex.hex.batch import augment  # noqa: E402

SWAP = "swap-pieces"


def _expected_observation(board, swap):
    """The planes pgx would show for the player to move on ``board``."""
    stones = board.to_array()
    steps = len(board.moves)
    colour = steps & 1
    planes = np.zeros(stones.shape + (4,), np.bool_)
    planes[..., 0] = stones == colour + 1
    planes[..., 1] = stones == 2 - colour
    planes[..., 2] = colour == 1
    planes[..., 3] = swap and steps == 1
    return planes


def _expected_mask(board, swap):
    cells = board.rows * board.cols
    if board.is_over:
        return np.ones(cells + 1, np.bool_)
    mask = np.zeros(cells + 1, np.bool_)
    for move in board.legal_moves():
        if move == SWAP:
            mask[cells] = True
        elif move != "swap-sides":
            mask[move[0] * board.cols + move[1]] = True
    return mask


def _move(action, cols, cells):
    return SWAP if action == cells else divmod(int(action), cols)


def _shadow(batch, steps, rows, cols, swap):
    """Step ``batch`` by its own random legal actions, a live board beside
    each game; returns the games that ended."""
    n = len(batch)
    cells = rows * cols
    mode = batch.autoreset
    boards = [Board(rows, cols, swap=swap) for _ in range(n)]
    first = batch.current_player.copy()
    ended = 0

    stones = batch.stones()

    def check(i, board, observation):
        assert np.array_equal(stones[i], board.to_array())
        assert np.array_equal(observation, _expected_observation(board, swap))

    for i in range(n):
        check(i, boards[i], batch.observation[i])
    for _ in range(steps):
        actions = batch.sample_actions()
        was_over = batch.terminated.copy()
        batch.step(actions)
        stones = batch.stones()
        for i in range(n):
            if mode == "next-step" and was_over[i]:
                boards[i] = Board(rows, cols, swap=swap)
                first[i] = batch.current_player[i]
                assert not batch.terminated[i] and batch.winner[i] == -1
                assert not batch.rewards[i].any()
                check(i, boards[i], batch.observation[i])
                continue
            board = boards[i]
            assert not board.is_over
            mover = first[i] ^ (len(board.moves) & 1)
            won = board.play(_move(actions[i], cols, cells))
            assert bool(won) == bool(batch.terminated[i])
            if won:
                ended += 1
                assert board.winner == ("red" if mover == first[i] else "blue")
                assert batch.winner[i] == mover
                assert batch.rewards[i, mover] == 1 and batch.rewards[i, 1 - mover] == -1
                if mode == "same-step":
                    assert batch.final_mask[i]
                    check_final = batch.final_observation[i]
                    assert np.array_equal(check_final, _expected_observation(board, swap))
                    boards[i] = Board(rows, cols, swap=swap)
                    first[i] = batch.current_player[i]
                    check(i, boards[i], batch.observation[i])
                    assert np.array_equal(batch.legal_action_mask[i],
                                          _expected_mask(boards[i], swap))
                    continue
                assert batch.legal_action_mask[i].all()
            else:
                assert batch.winner[i] == -1 and not batch.rewards[i].any()
                assert not batch.final_mask[i]
            assert batch.current_player[i] == first[i] ^ (len(board.moves) & 1)
            check(i, board, batch.observation[i])
            assert np.array_equal(batch.legal_action_mask[i], _expected_mask(board, swap))
        if mode == "disabled" and batch.terminated.any():
            over = batch.terminated.copy()
            batch.reset(over)
            stones = batch.stones()
            for i in np.flatnonzero(over):
                boards[i] = Board(rows, cols, swap=swap)
                first[i] = batch.current_player[i]
                check(i, boards[i], batch.observation[i])
    return ended


@st.composite
def _setups(draw):
    rows = draw(st.integers(1, 7))
    square = draw(st.booleans())
    cols = rows if square else draw(st.integers(1, 7))
    swap = rows == cols and draw(st.booleans())
    return dict(rows=rows, cols=cols, swap=swap, n=draw(st.integers(1, 12)),
                seed=draw(st.integers(0, 2**64 - 1)), threads=draw(st.integers(1, 3)),
                autoreset=draw(st.sampled_from(["next-step", "same-step", "disabled"])))


@settings(max_examples=60, deadline=None)
@given(_setups())
def test_every_game_agrees_with_the_live_board(setup):
    batch = Batch(setup["n"], setup["rows"], cols=setup["cols"], swap=setup["swap"],
                  seed=setup["seed"], threads=setup["threads"], autoreset=setup["autoreset"])
    _shadow(batch, 3 * setup["rows"] * setup["cols"] + 4, setup["rows"], setup["cols"],
            setup["swap"])


def test_many_games_on_eleven_by_eleven_agree_with_the_live_board():
    for autoreset in ("next-step", "same-step", "disabled"):
        batch = Batch(16, swap=True, seed=3, autoreset=autoreset)
        assert _shadow(batch, 250, 11, 11, True) >= 16


@pytest.mark.parametrize("autoreset", ["next-step", "same-step", "disabled"])
def test_games_split_over_threads_agree_with_the_live_board(autoreset, monkeypatch):
    # Three threads even on a machine of fewer cores (a batch uses no more
    # threads than the cores): the split is what is tested.
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    batch = Batch(780, 4, seed=12, threads=3, autoreset=autoreset)
    assert len(batch._parts) == 3               # three ranges of games, three threads
    assert _shadow(batch, 24, 4, 4, True) >= 780


def test_the_same_seed_plays_the_same_games_whatever_the_threads():
    runs = []
    for threads in (1, 2):
        batch = Batch(1024, 7, seed=42, threads=threads)
        seen = []
        for _ in range(60):
            batch.step(batch.sample_actions())
            seen.append((batch.observation.copy(), batch.current_player.copy(),
                         batch.rewards.copy()))
        runs.append(seen)
    for one, two in zip(*runs):
        for a, b in zip(one, two):
            assert np.array_equal(a, b)
    # And another seed plays other games.
    other = Batch(1024, 7, seed=43)
    other.step(other.sample_actions())
    assert not np.array_equal(other.observation, runs[0][0][0])


def test_reset_with_a_seed_replays_the_games():
    batch = Batch(64, 5, seed=1)
    first = []
    for _ in range(30):
        batch.step(batch.sample_actions())
        first.append(batch.observation.copy())
    batch.reset(seed=1)
    for expected in first:
        batch.step(batch.sample_actions())
        assert np.array_equal(batch.observation, expected)


def test_reset_with_a_mask_resets_those_games_alone():
    batch = Batch(8, 5, seed=2)
    for _ in range(3):
        batch.step(batch.sample_actions())
    before = batch.stones().copy()
    mask = np.array([True, False] * 4)
    batch.reset(mask)
    after = batch.stones()
    assert not after[mask].any()
    assert np.array_equal(after[~mask], before[~mask])
    assert (batch.observation[mask][..., :2] == 0).all()


def _snapshot(batch):
    return [np.array(getattr(batch, name)) for name in (
        "observation", "legal_action_mask", "current_player", "rewards", "terminated",
        "truncated", "final_observation", "final_mask", "winner")] + [batch.stones()]


def _unchanged(batch, before):
    return all(np.array_equal(a, b) for a, b in zip(before, _snapshot(batch)))


@pytest.mark.parametrize("actions, error", [
    (np.zeros(5, np.int64), ValueError),             # shape
    (np.zeros((4, 1), np.int64), ValueError),
    (np.zeros(4, np.float64), TypeError),            # dtype
    (np.zeros(4, np.bool_), TypeError),
    (["a", "b", "c", "d"], TypeError),
    ([0, 1, 2, 26], ValueError),                     # range: 26 actions on 5 x 5
    ([0, -1, 2, 3], ValueError),
    (np.array([0, 1, 2, 2**63 + 5], np.uint64), ValueError),
    (np.array([0, 1, 2, 2**40], np.int64), ValueError),
    (np.array([0, 1, 2, 2**32 + 3], np.int64), ValueError),  # not wrapped to 3
])
def test_bad_actions_raise_and_change_nothing(actions, error):
    batch = Batch(4, 5, seed=9)
    batch.step(batch.sample_actions())
    before = _snapshot(batch)
    with pytest.raises(error):
        batch.step(actions)
    assert _unchanged(batch, before)


def test_any_integer_dtype_and_layout_of_actions_is_taken():
    for dtype in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
                  np.uint64):
        one, two = Batch(4, 5, seed=9), Batch(4, 5, seed=9)
        actions = one.sample_actions()
        two.sample_actions()
        one.step(actions)
        two.step(np.repeat(actions.astype(dtype), 2)[::2])   # not contiguous
        assert np.array_equal(one.observation, two.observation)
    three = Batch(4, 5, seed=9)
    three.step([int(a) for a in actions])
    assert np.array_equal(three.observation, one.observation)


def test_a_step_after_the_end_under_disabled_raises_and_changes_nothing():
    batch = Batch(3, 2, seed=4, autoreset="disabled", swap=False)
    while not batch.terminated.any():
        batch.step(batch.sample_actions())
    before = _snapshot(batch)
    with pytest.raises(ValueError, match="has ended"):
        batch.step(batch.sample_actions())
    assert _unchanged(batch, before)
    batch.reset(batch.terminated.copy())
    batch.step(batch.sample_actions())


@pytest.mark.parametrize("kwargs, error", [
    (dict(n=0), InputError), (dict(n=-1), InputError), (dict(n=1 << 40), InputError),
    (dict(n=2.0), TypeError), (dict(n=True), TypeError),
    (dict(n=2, size=0), InputError), (dict(n=2, size=3, cols=0), InputError),
    (dict(n=2, size=3, cols=4, swap=True), InputError),
    (dict(n=2, size=1 << 15), InputError),
    (dict(n=2, autoreset="never"), InputError), (dict(n=2, threads=-1), InputError),
    (dict(n=2, swap=1), TypeError), (dict(n=2, seed="x"), TypeError),
])
def test_bad_arguments_raise(kwargs, error):
    with pytest.raises(error):
        Batch(**kwargs)


def test_bad_resets_and_samples_raise_and_change_nothing():
    batch = Batch(4, 5, seed=9)
    batch.step(batch.sample_actions())
    before = _snapshot(batch)
    for mask, error in ((np.ones(3, np.bool_), ValueError), (np.ones(4, np.int8), TypeError),
                        ([1, 0, 1, 0], TypeError)):
        with pytest.raises(error):
            batch.reset(mask)
    for out in (np.zeros(4, np.int64), np.zeros(5, np.int32), [0, 0, 0, 0],
                np.zeros(8, np.int32)[::2]):
        with pytest.raises(ValueError):
            batch.sample_actions(out)
    assert _unchanged(batch, before)


def test_fields_are_read_only_views_updated_in_place():
    batch = Batch(4, 5, seed=9)
    observation = batch.observation
    with pytest.raises(ValueError):
        observation[0, 0, 0, 0] = True
    batch.step(batch.sample_actions())
    assert observation is batch.observation or np.shares_memory(observation,
                                                                 batch.observation)
    assert observation[..., :2].sum() == 4


def test_sampled_actions_are_legal_and_cover_the_legal_ones():
    batch = Batch(2000, 2, seed=5)
    batch.step(np.zeros(2000, np.int32))       # a stone on (0, 0): swap legal next
    drawn = batch.sample_actions()
    assert batch.legal_action_mask[np.arange(2000), drawn].all()
    assert set(drawn.tolist()) == {1, 2, 3, 4}


@pytest.mark.not_under_sanitizers("a memory measurement")
def test_stepping_allocates_nothing():
    import tracemalloc

    batch = Batch(1024, seed=1)
    actions = np.zeros(1024, np.int32)
    for _ in range(20):
        batch.step(batch.sample_actions(actions))
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        for _ in range(1000):                   # a million game steps
            batch.sample_actions(actions)
            batch.step(actions)
        end, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert end - start < 4096


def test_the_turn_maps_observations_and_policies_and_is_its_own_inverse():
    batch = Batch(3, 4, cols=5, swap=False, seed=2)
    for _ in range(4):
        batch.step(batch.sample_actions())
    policy = np.arange(3 * 21, dtype=np.float32).reshape(3, 21)
    turned, turned_policy = augment(batch.observation, policy, 1)
    assert np.array_equal(turned[:, 0, 0], batch.observation[:, 3, 4])
    assert np.array_equal(turned_policy[:, 0], policy[:, 19])
    assert np.array_equal(turned_policy[:, 20], policy[:, 20])
    back, back_policy = augment(turned, turned_policy, 1)
    assert np.array_equal(back, batch.observation) and np.array_equal(back_policy, policy)
    same, no_policy = augment(batch.observation, None, 0)
    assert np.array_equal(same, batch.observation) and no_policy is None
    assert np.array_equal(augment(turned, inverse=True)[0], batch.observation)
    with pytest.raises(ValueError):
        augment(batch.observation, policy, 2)


def test_a_batch_s_threads_end_with_it():
    import _thread
    import gc
    import time

    before = _thread._count()
    batch = Batch(1024, 5, seed=1, threads=2)
    batch.step(batch.sample_actions())
    assert _thread._count() == before + 1
    del batch
    gc.collect()
    deadline = time.monotonic() + 5
    while _thread._count() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _thread._count() == before


def _random_positions(rng, count, size, low, high):
    """Positions of random games after ``low`` to ``high`` moves, none over."""
    positions = []
    while len(positions) < count:
        board = Board(size)
        for _ in range(rng.integers(low, high + 1)):
            moves = board.legal_moves()
            board.play(moves[rng.integers(len(moves))])
            if board.is_over:
                break
        if not board.is_over:
            positions.append(board.to_array())
    return np.array(positions)


def _board_of(stones):
    red, blue = int((stones == 1).sum()), int((stones == 2).sum())
    return Board.from_array(stones, to_move="red" if red == blue else "blue")


def test_games_from_given_starts_agree_with_the_live_board():
    rng = np.random.default_rng(5)
    positions = _random_positions(rng, 6, 5, 2, 12)
    batch = Batch(40, 5, swap=False, seed=8)
    batch.set_starts(positions)
    batch.reset()
    boards = []
    for i, stones in enumerate(batch.stones()):
        assert any(np.array_equal(stones, p) for p in positions)
        boards.append(_board_of(stones))
        assert np.array_equal(batch.observation[i],
                              _expected_observation_from(stones, int((stones != 0).sum())))
    assert len({tuple(s.reshape(-1)) for s in batch.stones()}) > 1  # drawn, not one for all
    ended = 0
    for _ in range(60):
        actions = batch.sample_actions()
        was_over = batch.terminated.copy()
        batch.step(actions)
        stones = batch.stones()
        for i in range(len(batch)):
            if was_over[i]:                     # restarted from a start
                assert any(np.array_equal(stones[i], p) for p in positions)
                boards[i] = _board_of(stones[i])
                continue
            won = boards[i].play(divmod(int(actions[i]), 5))
            assert bool(won) == bool(batch.terminated[i])
            ended += bool(won)
            assert np.array_equal(stones[i], boards[i].to_array())
    assert ended >= 40


def _expected_observation_from(stones, steps):
    colour = steps & 1
    planes = np.zeros(stones.shape + (4,), np.bool_)
    planes[..., 0] = stones == colour + 1
    planes[..., 1] = stones == 2 - colour
    planes[..., 2] = colour == 1
    return planes


def test_a_start_of_one_stone_lets_the_swap_come_next():
    position = np.zeros((1, 3, 3), np.int8)
    position[0, 0, 1] = 1
    batch = Batch(2, 3, seed=1)
    batch.set_starts(position)
    batch.reset()
    assert batch.legal_action_mask[:, 9].all() and batch.observation[..., 3].all()
    batch.step([9, 9])
    assert np.array_equal(batch.stones()[0], [[0, 0, 0], [2, 0, 0], [0, 0, 0]])
    batch.set_starts(None)
    batch.reset()
    assert not batch.stones().any()


@pytest.mark.parametrize("positions, error", [
    (np.zeros((1, 4, 4), np.int8), ValueError),                  # shape
    (np.zeros((5, 5), np.int8), ValueError),
    (np.full((1, 5, 5), 3, np.int8), ValueError),                # values
    (np.zeros((1, 5, 5), np.float32), TypeError),
    (np.array([[[1, 1, 0, 0, 0]] + [[0] * 5] * 4]), ValueError),  # counts: 2 red, 0 blue
    (np.array([[[2, 2, 2, 0, 0]] + [[1, 0, 0, 0, 0]] + [[0] * 5] * 3]), ValueError),
    (np.array([[[1] + [0] * 4] * 5 + []]) * 1 + np.array([[[0, 2, 2, 2, 2]] + [[0] * 5] * 4]),
     ValueError),                                                  # Red has won
])
def test_bad_starts_raise_and_keep_the_starts_before(positions, error):
    batch = Batch(8, 5, seed=3)
    good = np.zeros((1, 5, 5), np.int8)
    good[0, 2, 2], good[0, 0, 0] = 1, 2
    batch.set_starts(good)
    with pytest.raises(error):
        batch.set_starts(positions)
    batch.reset()
    assert all(np.array_equal(s, good[0]) for s in batch.stones())


def test_record_positions_are_prefixes_of_the_records_games():
    from havhex import records
    from havhex.hex.batch import record_positions

    rng = np.random.default_rng(3)
    text, lengths = [], []
    for _ in range(5):
        board = Board(4, swap=True)
        names = []
        while not board.is_over:
            moves = [m for m in board.legal_moves() if m != "swap-sides"]
            move = moves[rng.integers(len(moves))]
            names.append(("B", "W")[len(board.moves) & 1] + "["
                         + (board.cell_name(move) if move != SWAP else "swap-pieces") + "]")
            board.play(move)
        lengths.append(len(names))
        text.append("(;FF[4]GM[11]SZ[4];" + ";".join(names) + ")")
    games = list(records.read("".join(text).encode()))
    positions = record_positions(games, 200, seed=1)
    assert positions.shape == (200, 4, 4)
    counts = {int((p != 0).sum()) for p in positions}
    assert 0 in counts and max(counts) >= 3
    batch = Batch(16, 4, seed=2)
    batch.set_starts(positions)           # each one valid: reachable, not over
    batch.reset()
    assert np.array_equal(record_positions(games, 200, seed=1), positions)
    with pytest.raises(InputError):
        record_positions(games, 5, size=(5, 5))


def test_set_positions_starts_the_chosen_games_now_and_keeps_the_starts():
    rng = np.random.default_rng(11)
    pool = _random_positions(rng, 3, 5, 2, 8)
    chosen = _random_positions(rng, 2, 5, 2, 8)
    batch = Batch(6, 5, swap=False, seed=4)
    batch.set_starts(pool)
    batch.reset()
    for _ in range(3):
        batch.step(batch.sample_actions())
    before = batch.stones()
    mask = np.array([False, True, False, False, True, False])
    batch.set_positions(chosen, mask)
    after = batch.stones()
    assert np.array_equal(after[1], chosen[0]) and np.array_equal(after[4], chosen[1])
    assert np.array_equal(after[~mask], before[~mask])
    for i, position in ((1, chosen[0]), (4, chosen[1])):
        assert np.array_equal(batch.observation[i],
                              _expected_observation_from(position, int((position != 0).sum())))
        assert not batch.terminated[i] and batch.winner[i] == -1
    # The games go on from there as on a live board.
    boards = {i: _board_of(after[i]) for i in (1, 4)}
    actions = batch.sample_actions()
    batch.step(actions)
    for i, board in boards.items():
        board.play(divmod(int(actions[i]), 5))
        assert np.array_equal(batch.stones()[i], board.to_array())
    # The starts later resets draw from are the pool, not the chosen positions.
    batch.reset()
    assert all(any(np.array_equal(s, p) for p in pool) for s in batch.stones())


def test_set_positions_refused_changes_no_game():
    batch = Batch(3, 5, seed=6)
    batch.step(batch.sample_actions())
    before = _snapshot(batch)
    two_red = np.zeros((3, 5, 5), np.int8)
    two_red[1, 0, :2] = 1                          # the second position: unreachable
    with pytest.raises(ValueError):
        batch.set_positions(two_red)
    with pytest.raises(ValueError):
        batch.set_positions(np.zeros((2, 5, 5), np.int8))        # one a chosen game
    with pytest.raises(ValueError):
        batch.set_positions(np.zeros((3, 5, 5), np.int8), mask=np.ones(4, bool))
    assert _unchanged(batch, before)


def test_set_positions_from_records_starts_from_the_records_prefixes():
    from havhex import records
    from havhex.hex.batch import record_positions

    board = Board(4)
    for cell in [(0, 0), (1, 1), (0, 1), (2, 2), (1, 0)]:
        board.play(cell)
    names = ";".join(("B", "W")[k & 1] + f"[{board.cell_name(move)}]"
                     for k, move in enumerate(board.moves))
    games = list(records.read(f"(;FF[4]GM[11]SZ[4];{names})".encode()))
    batch = Batch(8, 4, seed=1)
    batch.set_positions_from_records(games, seed=5)
    assert np.array_equal(batch.stones(), record_positions(games, 8, seed=5, size=(4, 4)))
