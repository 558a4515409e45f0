"""havhex.hex.Batch against EnvPool's ``Hex-v1`` (optional extra ``envpool``).

EnvPool (the C++ port of pgx's ``hex``) steps its games on its own threads
and returns both seats' views, row ``2 * game + seat``; the batch returns the
view of the seat to move.  Both autoreset the next step.  Each side draws
who moves first at every reset, so the seats are mapped game by game: our
seat ``s`` is EnvPool's ``s ^ flip``, where ``flip`` says whether the two
first movers differ.  Both play the same random actions: legal ones, with
illegal ones mixed in (occupied cells, swaps out of turn), which end the
game against their player.

EnvPool has no option to turn the swap off (its swap is legal as the
second move, as pgx's): the batch with ``swap=False`` is compared on games
where nobody swaps, without the swap plane and the swap action's mask.
"""
import needs

np = needs.module("numpy")
envpool = needs.module("envpool", need="envpool")

from havhex.hex import Batch  # noqa: E402

GAMES = 1024


def _in_order(obs, *rest):
    """EnvPool's answer in game order (its threads may return the games in
    another order; ``info["env_id"]`` says which): (observation, ...,
    info) with each game's rows (two observation rows, two rewards) at its
    index."""
    info = rest[-1]
    if np.array_equal(info["env_id"], np.arange(len(info["env_id"]))):
        return (obs,) + rest            # in order already (one thread: always)
    order = np.argsort(info["env_id"])
    pairs = (2 * order[:, None] + np.arange(2)).reshape(-1)
    obs = obs[pairs]
    info = {key: value[order] for key, value in info.items()
            if isinstance(value, np.ndarray) and len(value) == len(order)}
    if len(rest) == 1:
        return obs, info
    rewards, terminated, truncated = rest[:3]
    return obs, rewards[pairs], terminated[order], truncated[order], info


def _play(swap, steps, seed, illegal_rate):
    ours = Batch(GAMES, 11, swap=swap, seed=seed)
    theirs = envpool.make("Hex-v1", env_type="gymnasium", num_envs=GAMES, seed=seed,
                          num_threads=1, batch_size=GAMES)
    obs, info = _in_order(*theirs.reset())
    rng = np.random.default_rng(seed)
    rows = np.arange(GAMES)
    flip = (ours.current_player != info["current_player"]).astype(np.int32)
    games = 0
    planes = 4 if swap else 3
    actions_n = 122 if swap else 121
    for _ in range(steps):
        # The view of the seat to move, mapped to EnvPool's seat.
        assert np.array_equal(ours.current_player ^ flip, info["current_player"])
        seen = obs[2 * rows + info["current_player"]]
        assert np.array_equal(ours.observation[..., :planes], seen[..., :planes])
        mask = info["legal_action_mask"]
        assert np.array_equal(ours.legal_action_mask[:, :actions_n], mask[:, :actions_n])
        actions = ours.sample_actions()
        if not swap:
            # Nobody swaps: EnvPool cannot turn it off.
            actions[actions == 121] = rng.integers(0, 121)
            keep = ~ours.terminated
            legal = ours.legal_action_mask[:, :121]
            redo = keep & ~legal[rows, actions]
            while redo.any():
                actions[redo] = rng.integers(0, 121, redo.sum())
                redo = keep & ~legal[rows, actions]
        if illegal_rate:
            wild = rng.random(GAMES) < illegal_rate
            actions[wild] = rng.integers(0, actions_n, wild.sum())
        ended = ours.terminated.copy()
        ours.step(actions)
        obs, rewards, terminated, truncated, info = _in_order(*theirs.step(actions))
        # Rewards by seat: EnvPool's (2 * game + seat).
        theirs_by_seat = rewards.reshape(GAMES, 2)
        mapped = np.where(flip[:, None] == 1, theirs_by_seat[:, ::-1], theirs_by_seat)
        assert np.array_equal(ours.rewards, mapped)
        assert np.array_equal(ours.terminated, terminated)
        assert not ours.truncated.any() and not truncated.any()
        # Games reset by this step drew their first movers again.
        flip = np.where(ended, (ours.current_player != info["current_player"]).astype(np.int32),
                        flip)
        games += int(ours.terminated.sum())
    return games


def test_random_games_with_swap_match_envpool():
    assert _play(True, 600, seed=5, illegal_rate=0) >= 5000


def test_random_games_without_swap_match_envpool():
    assert _play(False, 600, seed=6, illegal_rate=0) >= 5000


def test_illegal_actions_end_games_as_envpool_ends_them():
    assert _play(True, 100, seed=7, illegal_rate=0.05) >= 1000
