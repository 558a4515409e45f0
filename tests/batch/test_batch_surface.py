"""What both games' batches share, written once and run on each: the same
names for the same ideas (fields, start positions, symmetries), as the
environment contract in docs/environments.md states them."""
import needs

np = needs.module("numpy")

import pytest  # noqa: E402

from havhex.havannah import batch as havannah_batch  # noqa: E402
from havhex.hex import batch as hex_batch  # noqa: E402

GAMES = {
    "hex": (hex_batch, lambda n: hex_batch.Batch(n, 5, seed=1)),
    "havannah": (havannah_batch, lambda n: havannah_batch.Batch(n, 4, seed=1)),
}

SHARED = ("observation", "legal_action_mask", "current_player", "rewards", "terminated",
          "truncated", "final_observation", "final_mask", "winner", "num_envs", "num_actions",
          "observation_shape", "threads", "autoreset", "step", "reset", "sample_actions",
          "set_positions", "set_positions_from_records", "swap", "stones", "render")


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return GAMES[request.param]


def test_the_same_names_on_both(game):
    module, make = game
    batch = make(3)
    missing = [name for name in SHARED if not hasattr(batch, name)]
    assert not missing, missing
    assert module.SYMMETRIES in (2, 12) and len(module.PLANES) == batch.observation_shape[-1]


def test_render_draws_the_stones_of_a_game(game):
    _module, make = game
    batch = make(3)
    for _ in range(3):
        batch.step(batch.sample_actions())
    stones = batch.stones()
    for index in range(3):
        text = batch.render(index)
        board = text.splitlines()[:-1]
        for code, letter in zip((1, 2), batch._LETTERS):
            assert sum(line.count(letter) for line in board) == (stones[index] == code).sum()
        image = batch.render(index, "rgb_array")
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
        for code, colour in zip((1, 2), batch._STONE_RGB):
            painted = (image == colour).all(axis=2).sum()
            # A disc of pixels a stone of the colour, none without one.
            assert (painted > 0) == bool((stones[index] == code).any())
    with pytest.raises(ValueError):
        batch.render(3)
    with pytest.raises(ValueError):
        batch.render(0, "svg")


def test_set_positions_of_empty_boards_is_a_reset_of_those_games(game):
    _module, make = game
    batch = make(3)
    for _ in range(2):
        batch.step(batch.sample_actions())
    mask = np.array([True, False, True])
    kept = batch.observation[1].copy()
    batch.set_positions(np.zeros((2,) + batch.observation_shape[:2], np.int8), mask)
    assert not batch.observation[mask][..., :2].any()         # no stone of either player
    assert np.array_equal(batch.observation[1], kept)
    assert not batch.terminated[mask].any()


def test_every_symmetry_and_its_inverse(game):
    module, make = game
    batch = make(4)
    for _ in range(3):
        batch.step(batch.sample_actions())
    policy = np.random.default_rng(0).random((4, batch.num_actions)).astype(np.float32)
    for k in range(module.SYMMETRIES):
        observation, turned = module.augment(batch.observation, policy, k)
        assert observation.shape == batch.observation.shape and turned.shape == policy.shape
        # The stones move, none is made or lost; the policy is permuted.
        assert observation[..., :2].sum() == batch.observation[..., :2].sum()
        assert np.allclose(np.sort(turned, axis=1), np.sort(policy, axis=1))
        back, back_policy = module.augment(observation, turned, k, inverse=True)
        assert np.array_equal(back, batch.observation) and np.array_equal(back_policy, policy)
    assert module.augment(batch.observation, None, 0)[1] is None
    assert np.array_equal(module.augment(batch.observation, None, 0)[0], batch.observation)
    with pytest.raises(ValueError):
        module.augment(batch.observation, policy, module.SYMMETRIES)


@pytest.mark.parametrize("autoreset", ["next-step", "same-step", "disabled"])
def test_an_illegal_action_loses_by_default_and_raises_on_request(game, autoreset):
    module, _make = game
    make = (lambda **kw: module.Batch(2, 5, seed=3, **kw)) if module is hex_batch \
        else (lambda **kw: module.Batch(2, 4, seed=3, **kw))
    batch = make(autoreset=autoreset)
    assert batch.illegal == "lose"
    first = batch.sample_actions()
    batch.step(first)
    mover = batch.current_player.copy()
    # Game 0 plays on its own first stone: taken, so illegal (Havannah's
    # pie rule is off, Hex's swap is another action).  Game 1 plays legally.
    actions = np.array([first[0], batch.sample_actions()[1]])
    batch.step(actions)
    assert batch.terminated[0] and batch.winner[0] == 1 - mover[0]
    assert batch.rewards[0, mover[0]] == -1 and batch.rewards[0, 1 - mover[0]] == 1
    assert not batch.terminated[1] and not batch.rewards[1].any()
    if autoreset == "same-step":
        assert batch.final_mask[0] and not batch.observation[0][..., :2].any()
    else:
        assert batch.legal_action_mask[0].all()            # all True at the end, as pgx

    strict = make(autoreset=autoreset, illegal="raise")
    strict.step(first)
    before = [np.array(getattr(strict, name)) for name in
              ("observation", "legal_action_mask", "current_player", "rewards", "terminated")]
    with pytest.raises(ValueError, match="game 0"):
        strict.step(actions)
    after = [np.array(getattr(strict, name)) for name in
             ("observation", "legal_action_mask", "current_player", "rewards", "terminated")]
    assert all(np.array_equal(a, b) for a, b in zip(before, after))
    with pytest.raises(ValueError):
        module.Batch(2, illegal="forfeit")
