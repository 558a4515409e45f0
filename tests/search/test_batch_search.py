"""The batched search (havhex.search.BatchSearch) on both games' batches:
what the evaluator is shown is the batch's own layout, the policy targets
are distributions over the legal actions, the moves and proofs agree with
brute force given a perfect evaluator, and the results do not depend on
the threads."""
import doctest
import importlib
import sys
import textwrap

import numpy as np
import pytest

import solver
from interrupt import seconds_to_stop
from havhex import records
from havhex.havannah import Batch as HavannahBatch
from havhex.havannah import Board as HavannahBoard
from havhex.hex import Batch as HexBatch
from havhex.hex import Board as HexBoard
from havhex.search import BatchSearch, self_play

RULES = ["gumbel", "puct"]


def hex_batch(n, size=4, seed=1, plies=3, swap=False):
    batch = HexBatch(n, size=size, seed=seed, swap=swap)
    for _ in range(plies):
        batch.step(batch.sample_actions())
    return batch


def havannah_batch(n, base=3, seed=1, plies=3, swap=False, rule="official"):
    batch = HavannahBatch(n, base=base, seed=seed, swap=swap, rule=rule)
    for _ in range(plies):
        batch.step(batch.sample_actions())
    return batch


BATCHES = {
    "hex 4": lambda n, **k: hex_batch(n, size=4, **k),
    "hex 5 swap": lambda n, **k: hex_batch(n, size=5, swap=True, **k),
    "havannah 3": lambda n, **k: havannah_batch(n, base=3, **k),
    "havannah 4 contest swap": lambda n, **k: havannah_batch(n, base=4, swap=True, rule="contest",
                                                             **k),
}


def zero_evaluator(observations, masks):
    return np.zeros(masks.shape, np.float32), np.zeros(len(masks), np.float32)


# ---- a perfect evaluator on boards small enough to solve -----------------

def board_of(batch, observation):
    """The live board of one observation (the colours as the counts tell:
    the games' values do not depend on them)."""
    own = observation[..., 0].astype(np.int8)
    opponent = observation[..., 1].astype(np.int8)
    if isinstance(batch, HexBatch):
        mover = 2 if observation[..., 2].any() else 1
        cells = own * mover + opponent * (3 - mover)
        return HexBoard.from_array(cells, to_move="red" if mover == 1 else "blue")
    mover = 1 if own.sum() == opponent.sum() else 2
    cells = own * mover + opponent * (3 - mover)
    return HavannahBoard.from_array(cells, rule=batch.empty_board().rule)


def move_of(batch, action):
    if isinstance(batch, HexBatch):
        return divmod(int(action), batch.cols)
    side = 2 * batch.empty_board().size - 1
    x, y = divmod(int(action), side)
    return (x + 1, y + 1)


class PerfectEvaluator:
    """Values by brute force (solver.value), priors even."""

    def __init__(self, batch):
        self.batch = batch
        self.table = {}
        self.calls = 0

    def __call__(self, observations, masks):
        self.calls += 1
        values = np.array([solver.value(board_of(self.batch, o), self.table)
                           for o in observations], np.float32)
        return np.zeros(masks.shape, np.float32), values


SMALL = {
    "hex 3": lambda: hex_batch(24, size=3, seed=5, plies=2),
    "hex 4": lambda: hex_batch(24, size=4, seed=6, plies=5),
    "havannah 2": lambda: havannah_batch(24, base=2, seed=7, plies=2),
    "havannah 2 contest": lambda: havannah_batch(24, base=2, seed=8, plies=3, rule="contest"),
}


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name", sorted(SMALL))
def test_a_perfect_evaluator_finds_every_win(name, rule):
    batch = SMALL[name]()
    evaluator = PerfectEvaluator(batch)
    # No noise at the root: the rules' own choice, as in evaluation.
    result = BatchSearch(batch, simulations=48, evaluator=evaluator, rule=rule, seed=3,
                         gumbel_scale=0).search()
    checked = won = 0
    for b in np.flatnonzero(~batch.terminated):
        board = board_of(batch, batch.observation[b])
        table = {}
        exact = solver.value(board, table)
        winning = solver.winning_moves(board, table)
        if exact == solver.WIN:
            assert move_of(batch, result.actions[b]) in winning, (name, b)
            won += 1
        # A proof is the exact value.
        if result.proven[b] == 1:
            assert exact == solver.WIN
        elif result.proven[b] == -1:
            assert exact == solver.LOSS
        checked += 1
    assert checked >= 10 and won >= 3


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name", sorted(SMALL))
def test_without_an_evaluator_the_proofs_are_exact(name, rule):
    batch = SMALL[name]()
    result = BatchSearch(batch, simulations=200, rule=rule, seed=4).search()
    proven = 0
    for b in np.flatnonzero(~batch.terminated):
        if result.proven[b]:
            board = board_of(batch, batch.observation[b])
            exact = solver.value(board)
            assert exact == (solver.WIN if result.proven[b] == 1 else solver.LOSS)
            if result.proven[b] == 1:
                assert move_of(batch, result.actions[b]) in solver.winning_moves(board)
            proven += 1
    assert proven >= 3


# ---- the surface on every batch ---------------------------------------------

@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name", sorted(BATCHES))
def test_policy_targets_are_distributions_over_legal_actions(name, rule):
    batch = BATCHES[name](40)
    before = batch.observation.copy()
    for evaluator in (None, zero_evaluator):
        result = BatchSearch(batch, simulations=24, evaluator=evaluator, rule=rule,
                             seed=2).search()
        live = ~batch.terminated
        assert result.actions.shape == (40,) and result.policy.shape == (40, batch.num_actions)
        assert np.allclose(result.policy[live].sum(axis=1), 1, atol=1e-5)
        assert (result.policy[~live] == 0).all()
        assert (result.policy[live][~batch.legal_action_mask[live]] == 0).all()
        assert batch.legal_action_mask[live, result.actions[live]].all()
        assert ((result.values >= -1) & (result.values <= 1)).all()
    # The search leaves the batch as it was, and the batch steps on.
    assert (batch.observation == before).all()
    batch.step(result.actions)


@pytest.mark.parametrize("name", sorted(BATCHES))
def test_the_evaluator_sees_the_batch_layout(name):
    """The roots are shown as the batch shows them; the first simulation,
    steered to one action by the priors, shows the position a step of
    that action gives (a twin batch, stepped)."""
    batch = BATCHES[name](30, seed=9)
    twin = BATCHES[name](30, seed=9)
    live = ~batch.terminated
    # The first legal action of each game.
    chosen = np.argmax(batch.legal_action_mask, axis=1).astype(np.int32)
    seen = []

    def evaluator(observations, masks):
        seen.append((observations.copy(), masks.copy()))
        logits = np.zeros(masks.shape, np.float32)
        if len(seen) == 1:
            logits[np.arange(len(masks)), chosen[live]] = 50
        return logits, np.zeros(len(masks), np.float32)

    result = BatchSearch(batch, simulations=1, evaluator=evaluator, rule="puct", seed=1).search()
    assert (seen[0][0] == batch.observation[live]).all()
    assert (seen[0][1] == batch.legal_action_mask[live]).all()
    # The one simulation took the steered action, or the only reply to a
    # threat of winning at once (the boards' pruning, before any prior).
    taken = np.argmax(result.policy, axis=1).astype(np.int32)
    assert (taken[live] == chosen[live]).mean() > 0.5
    twin.step(taken)
    going_on = live & ~twin.terminated
    assert going_on.sum() >= 10
    assert (seen[1][0] == twin.observation[going_on]).all()
    assert (seen[1][1] == twin.legal_action_mask[going_on]).all()


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name", ["hex 5 swap", "havannah 4 contest swap"])
def test_threads_give_the_same_results(name, rule):
    batch = BATCHES[name](600, seed=4)
    results = [BatchSearch(batch, simulations=12, rule=rule, threads=threads, seed=11,
                           dirichlet_alpha=0.3 if rule == "puct" else None).search()
               for threads in (1, 2)]
    for field in ("actions", "policy", "values", "proven"):
        assert (getattr(results[0], field) == getattr(results[1], field)).all(), field


def test_a_seed_repeats_a_search_and_another_seed_changes_it():
    batch = hex_batch(64, size=5, seed=3)
    first, again, other = (BatchSearch(batch, simulations=16, seed=seed).search()
                           for seed in (5, 5, 6))
    assert (first.actions == again.actions).all() and (first.policy == again.policy).all()
    assert (first.actions != other.actions).any()


def test_the_pool_bounds_each_tree():
    batch = hex_batch(16, size=5, seed=2)
    least = 16 * (1 + batch.num_actions)
    search = BatchSearch(batch, simulations=64, seed=1, max_nodes=least)
    assert search.nodes_per_tree == 1 + batch.num_actions
    result = search.search()
    assert max(search._core.nodes_used()) <= search.nodes_per_tree
    live = ~batch.terminated
    assert np.allclose(result.policy[live].sum(axis=1), 1, atol=1e-5)
    with pytest.raises(ValueError, match="max_nodes"):
        BatchSearch(batch, simulations=8, max_nodes=least - 1)


def test_a_games_over_gets_action_zero_and_no_target():
    batch = hex_batch(200, size=3, seed=1, plies=5)
    assert batch.terminated.any()
    result = BatchSearch(batch, simulations=8, seed=1).search()
    assert (result.actions[batch.terminated] == 0).all()
    assert (result.policy[batch.terminated] == 0).all()


@pytest.mark.parametrize("answer, error", [
    (lambda o, m: None, TypeError),
    (lambda o, m: (np.zeros((len(m), 3)), np.zeros(len(m))), ValueError),
    (lambda o, m: (np.zeros(m.shape), np.zeros(len(m) + 1)), ValueError),
])
def test_a_wrong_answer_is_refused(answer, error):
    batch = hex_batch(8, size=4)
    with pytest.raises(error, match="evaluator"):
        BatchSearch(batch, simulations=4, evaluator=answer).search()


def test_answers_that_are_not_numbers_leave_a_valid_search():
    batch = hex_batch(32, size=4)

    def evaluator(observations, masks):
        logits = np.full(masks.shape, np.nan, np.float32)
        logits[::2, ::3] = np.inf
        return logits, np.full(len(masks), np.nan, np.float32)

    for rule in RULES:
        result = BatchSearch(batch, simulations=16, evaluator=evaluator, rule=rule).search()
        live = ~batch.terminated
        assert np.allclose(result.policy[live].sum(axis=1), 1, atol=1e-5)
        assert batch.legal_action_mask[live, result.actions[live]].all()


@pytest.mark.parametrize("options, error", [
    ({"simulations": 0}, ValueError),
    ({"simulations": 4, "rule": "ucb"}, ValueError),
    ({"simulations": 4, "threads": 0}, ValueError),
    ({"simulations": 4, "evaluator": 3}, TypeError),
    ({"simulations": 4, "dirichlet_alpha": 0}, ValueError),
    ({"simulations": 4, "temperature": -1}, ValueError),
    ({"simulations": 2 ** 21}, ValueError),
    ({"simulations": 4, "c_scale": -1.0}, ValueError),
])
def test_bad_options_are_refused(options, error):
    with pytest.raises(error):
        BatchSearch(hex_batch(4), **options)
    with pytest.raises(TypeError):
        BatchSearch(HexBoard(3), simulations=4)


def test_temperature_draws_moves_in_proportion_to_visits():
    batch = HexBatch(400, size=5, seed=1)
    cold = BatchSearch(batch, simulations=16, rule="puct", seed=1).search()
    warm = BatchSearch(batch, simulations=16, rule="puct", seed=1, temperature=1.0).search()
    # The same trees (same seed, no noise): the cold moves are the most
    # visited; the warm ones spread over the visited moves.
    assert (cold.policy == warm.policy).all()
    assert (cold.policy[np.arange(400), cold.actions] == cold.policy.max(axis=1)).all()
    assert (warm.policy[np.arange(400), warm.actions] > 0).all()
    assert (warm.actions != cold.actions).mean() > 0.2


# ---- self-play ----------------------------------------------------------------

SELF_PLAY = {
    "hex 5 swap": lambda: HexBatch(12, size=5, seed=3, swap=True),
    "havannah 3": lambda: HavannahBatch(12, base=3, seed=3),
    "havannah 3 contest swap": lambda: HavannahBatch(12, base=3, seed=4, swap=True,
                                                     rule="contest"),
}


@pytest.mark.parametrize("name", sorted(SELF_PLAY))
def test_self_play_keeps_every_position_with_its_outcome(name):
    batch = SELF_PLAY[name]()
    played = self_play(BatchSearch(batch, simulations=8, seed=5))
    assert (played.winners != -2).all()               # every game finished
    n = len(played)
    assert played.observations.shape == (n,) + batch.observation_shape
    assert np.allclose(played.policies.sum(axis=1), 1, atol=1e-5)
    assert sum(len(moves) for moves in played.actions) == n
    for game in range(12):
        rows = np.flatnonzero(played.games == game)
        assert (played.plies[rows] == np.arange(len(rows))).all()
        winner = played.winners[game]
        # The players alternate: the outcome turns sign each ply, and the
        # last mover's is 1 (a win) or 0 (a draw, Havannah's full board).
        outcomes = played.outcomes[rows]
        if winner == -1:
            assert (outcomes == 0).all()
        else:
            assert outcomes[-1] == 1
            assert (outcomes[:-1] == -outcomes[1:]).all()
        # The first position's observation has no stone (the batch's reset).
        assert not played.observations[rows[0]][..., :2].any()


@pytest.mark.parametrize("name", sorted(SELF_PLAY))
def test_self_play_records_replay_to_the_same_winners(name):
    batch = SELF_PLAY[name]()
    played = self_play(BatchSearch(batch, simulations=8, seed=6))
    text = played.records_text()
    rule = batch.empty_board().rule if hasattr(batch.empty_board(), "rule") else "official"
    game_name = "hex" if isinstance(batch, HexBatch) else "havannah"
    replays = list(records.replay(text.encode(), rule=rule, game=game_name))
    assert len(replays) == 12
    for game, replayed in enumerate(replays):
        assert replayed.illegal is None
        assert replayed.moves == len(played.actions[game])
        assert replayed.win is not None or played.winners[game] == -1
        assert "result-disagrees" not in replayed.flags


def test_self_play_stops_at_max_moves():
    batch = HexBatch(6, size=7, seed=2)
    played = self_play(BatchSearch(batch, simulations=4, seed=1), max_moves=5)
    assert (played.winners == -2).all() and (played.outcomes == 0).all()
    assert len(played) == 30 and played.plies.max() == 4
    with pytest.raises(ValueError):
        self_play(BatchSearch(batch, simulations=4), max_moves=-1)


@pytest.mark.parametrize("module", ["havhex.search.batch", "havhex.search.play"])
def test_the_modules_examples_run(module):
    failed, attempted = doctest.testmod(importlib.import_module(module))
    assert attempted and not failed


@pytest.mark.parametrize("name", ["hex 5 swap", "havannah 4 contest swap"])
def test_symmetries_turn_the_leaves_and_turn_the_logits_back(name):
    """Each call shows the leaves under one symmetry; a logit the evaluator
    puts on the first legal action it sees comes back on that cell's image
    in the game's own actions."""
    batch = BATCHES[name](40, seed=12)
    module = importlib.import_module(type(batch).__module__)
    live = ~batch.terminated
    seen = []

    def evaluator(observations, masks):
        first = np.argmax(masks, axis=1)
        logits = np.where(masks, 0.0, -np.inf).astype(np.float32)
        logits[np.arange(len(masks)), first] = 50
        seen.append((observations.copy(), masks.copy(), first))
        return logits, np.zeros(len(masks), np.float32)

    turns = set()
    for seed in range(6):
        seen.clear()
        result = BatchSearch(batch, simulations=1, evaluator=evaluator, rule="puct", seed=seed,
                             symmetries=True).search()
        shown, masks, first = seen[0]
        turn = [k for k in range(module.SYMMETRIES)
                if (module.augment(batch.observation[live], k=k)[0] == shown).all()
                and (module.augment(batch.observation[live], batch.legal_action_mask[live],
                                    k=k)[1] == masks).all()]
        assert turn, "the roots are shown under no symmetry"
        turns.add(turn[0])
        onehot = np.zeros(masks.shape, np.float32)
        onehot[np.arange(len(first)), first] = 1
        _, back = module.augment(shown, onehot, k=turn[0], inverse=True)
        expected = np.argmax(back, axis=1)
        taken = np.argmax(result.policy[live], axis=1)
        # The one simulation took the steered action, unless the boards
        # forced another (a threat of winning at once).
        assert (taken == expected).mean() > 0.8
        assert batch.legal_action_mask[live, taken].all()
    assert len(turns) > 1


BATCH_CHILD = textwrap.dedent("""
    import sys
    import numpy as np
    from havhex.{game} import Batch
    from havhex.search import BatchSearch
    batch = Batch(1024, {size}, seed=1)
    for _ in range(4):
        batch.step(batch.sample_actions())
    before = batch.observation.copy()
    evaluator = {evaluator}
    search = BatchSearch(batch, simulations=1_000_000, evaluator=evaluator, seed=1,
                         threads={threads})
    print("ready", flush=True)
    try:
        search.search()
    except KeyboardInterrupt:
        intact = (batch.observation == before).all()
        batch.step(batch.sample_actions())
        print("interrupted" if intact else "changed", flush=True)
        sys.exit(3)
    print("finished", flush=True)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
@pytest.mark.parametrize("game, size, threads, evaluator", [
    ("hex", 11, 1, "None"),
    ("havannah", 8, 2, "None"),
    ("hex", 11, 2, "lambda o, m: (np.zeros(m.shape, np.float32), np.zeros(len(m), np.float32))"),
])
def test_ctrl_c_stops_a_batched_search_and_leaves_the_batch(game, size, threads, evaluator):
    code = BATCH_CHILD.format(game=game, size=size, threads=threads, evaluator=evaluator)
    stopped = seconds_to_stop(code, settle=1.0, timeout=60)
    assert stopped < 0.2, f"the search took {stopped:.3f} s to stop"
