"""Many search trees at once, one for each game of a batch, their leaves
valued by the user's network in one call a step: self-play at the speed of
the batches.

>>> from havhex.hex import Batch
>>> from havhex.search import BatchSearch
>>> batch = Batch(8, size=5, seed=1)
>>> result = BatchSearch(batch, simulations=16, seed=1).search()
>>> result.actions.shape, result.policy.shape, result.values.shape
((8,), (8, 26), (8,))
>>> batch.step(result.actions)

Each step of a search walks every tree from its root (the batch's current
position of its game) down to a leaf, by the selection rule; the leaves'
observations, laid out as the batch lays its own (the planes the network
already reads), go to **one** call of the evaluator::

    evaluate(observations, legal_mask) -> (logits, values)

``observations`` is (L, ...) bool as ``batch.observation`` is, from the
view of the player to move at each leaf; ``legal_mask`` (L, A) bool; the
answer is NumPy arrays (or anything ``numpy.asarray`` takes): prior logits
(L, A), any real numbers (minus infinity for a move ruled out), and values
(L,) in [-1, 1] for the player to move.  PyTorch, JAX or ONNX Runtime
networks plug in through it; havhex depends on none of them.  Without an
evaluator each leaf is valued by one game played out at random by the
board's C playout (Hex's saves its bridges), with even priors.

A won position is a won position, not a guess: a move that ends the game,
a move that wins at once, the only reply to a threat of winning at once,
and the proofs those make are found by the boards' own kernels and backed
up the trees exactly (MCTS-solver), never asked of the evaluator.

The rules: ``"gumbel"`` (Gumbel MuZero: a few simulations suffice, the
policy targets are the improved policy) and ``"puct"`` (AlphaZero: the
policy targets are the root's visit counts, with optional Dirichlet noise
at the root and a temperature for the move played).
"""
from __future__ import annotations

import math
import os

from .._batch import numpy, parts_of
from .._batch_core import Runner
from .._checks import integer
from ._module import _search_module, game_of

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, List, NamedTuple, Optional, Tuple

    _Evaluator = Callable[[Any, Any], Tuple[Any, Any]]
else:
    from collections import namedtuple

__all__ = ["BatchSearch", "BatchResult", "RULES", "DEFAULT_BATCH_NODES"]

RULES = ("gumbel", "puct")

# The pool the trees share by default: 2**25 nodes, 29 bytes each (under a
# gigabyte), which holds 128 simulations of 1,024 Hex 11x11 trees whole.
DEFAULT_BATCH_NODES = 1 << 25

_SEED_MASK = (1 << 64) - 1

if TYPE_CHECKING:
    class BatchResult(NamedTuple):
        actions: Any
        policy: Any
        values: Any
        proven: Any
else:
    BatchResult = namedtuple("BatchResult", ["actions", "policy", "values", "proven"])
BatchResult.__doc__ = """What :meth:`BatchSearch.search` found, one row a game:
``actions`` (B,) int32 the move to play (0 for a game that is over, which
the batch's next step resets); ``policy`` (B, A) float32 the policy
targets, summing to one over the legal actions (zero for a game over);
``values`` (B,) float32 the root's value for the player to move;
``proven`` (B,) int8: 1 the player to move wins with best play, -1 loses,
0 not known."""


def considered_visits(considered: int, simulations: int) -> List[int]:
    """Sequential halving's schedule at the Gumbel rule's root: for each
    simulation, the visits the move it takes must already have.  The
    considered moves are visited in rounds, each round once each, as many
    rounds a phase as the phase's share of the simulations allows; each
    phase halves the moves (never below two)."""
    if considered <= 1:
        return list(range(simulations))
    phases = math.ceil(math.log2(considered))
    table: List[int] = []
    visits = 0
    remaining = considered
    while len(table) < simulations:
        rounds = max(1, simulations // (phases * remaining))
        for _ in range(rounds):
            table.extend([visits] * remaining)
            visits += 1
        # Past the first phase the visits a move holds differ by move; a
        # move kept holds the most of its phase.
        remaining = max(2, remaining // 2)
    return table[:simulations]


def _positive(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    number = float(value)
    if not (math.isfinite(number) and number >= 0):
        raise ValueError(f"{name} must be a finite number of at least 0, not {value!r}")
    return number


class BatchSearch:
    """Searches of every game of ``batch`` (a :class:`havhex.hex.Batch` or
    :class:`havhex.havannah.Batch`) at once, ``simulations`` a move.

    ``evaluator`` values the leaves (see the module's text; None: the C
    playouts); ``rule`` ``"gumbel"`` or ``"puct"``; ``threads`` split the
    trees (each tree searched by one thread: the results do not depend on
    the threads); ``seed`` makes the searches repeatable (None: a fresh
    one); ``max_nodes`` bounds the nodes of all the trees together (each
    tree gets an equal share; a tree whose share is full stops growing,
    not searching).

    The tuning: ``c_init`` and ``c_base`` PUCT's constants (AlphaZero's
    1.25 and 19,652); ``dirichlet_alpha`` (None: no noise) and
    ``dirichlet_fraction`` the root's noise under PUCT; ``temperature``
    the move played under PUCT, drawn in proportion to visits ** (1 / T)
    (0: the most visited); ``max_considered`` the Gumbel rule's moves
    considered at the root, ``gumbel_scale`` the Gumbel noise's scale
    there (0: none, the search then plays its best guess, for evaluation
    rather than self-play), and ``c_visit``, ``c_scale`` its sigma.

    ``symmetries=True`` shows the evaluator each step's leaves under one
    symmetry of the board drawn at random (the batch module's ``augment``:
    the observations and legal masks turned, the logits it answers turned
    back), which averages a network's bias over the board's symmetries.

    :meth:`search` searches the batch's current positions without
    stepping it.
    """

    def __init__(self, batch: Any, *, simulations: int, evaluator: Optional[_Evaluator] = None,
                 rule: str = "gumbel", threads: int = 1, seed: Optional[int] = None,
                 max_nodes: int = DEFAULT_BATCH_NODES, c_init: float = 1.25,
                 c_base: float = 19652.0, dirichlet_alpha: Optional[float] = None,
                 dirichlet_fraction: float = 0.25, temperature: float = 0.0,
                 max_considered: int = 16, gumbel_scale: float = 1.0, c_visit: float = 50.0,
                 c_scale: float = 0.1, symmetries: bool = False) -> None:
        empty_board = getattr(batch, "empty_board", None)
        if empty_board is None:
            raise TypeError(f"BatchSearch takes a havhex batch, not {type(batch).__name__}")
        np = numpy()
        self._np = np
        self._batch = batch
        board = empty_board()
        module = _search_module(board)
        simulations = integer(simulations, "simulations")
        # (The Gumbel rule's schedule holds a row of this length for each
        # number of moves considered.)
        if not 1 <= simulations <= 1 << 20:
            raise ValueError(f"simulations must be from 1 to {1 << 20}, not {simulations}")
        if evaluator is not None and not callable(evaluator):
            raise TypeError(f"evaluator must be callable, not {type(evaluator).__name__}")
        if not isinstance(rule, str) or rule not in RULES:
            raise ValueError(f"rule must be one of {RULES}, not {rule!r}")
        threads = integer(threads, "threads")
        if not 1 <= threads <= 256:
            raise ValueError(f"threads must be from 1 to 256, not {threads}")
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        seed = integer(seed, "seed")
        max_nodes = integer(max_nodes, "max_nodes")
        n = len(batch)
        capacity = min(max_nodes // n, 0x7FFFFFFF // n,
                       1 + (simulations + 1) * batch.num_actions)
        if capacity < 1 + batch.num_actions:
            raise ValueError(f"max_nodes must give each of the {n} trees room for its root and "
                             f"its moves: at least {n * (1 + batch.num_actions)}, not {max_nodes}")
        c_init = _positive(c_init, "c_init")
        c_base = _positive(c_base, "c_base")
        if c_base == 0:
            raise ValueError("c_base must be above 0")
        if dirichlet_alpha is not None:
            dirichlet_alpha = _positive(dirichlet_alpha, "dirichlet_alpha")
            if dirichlet_alpha == 0:
                raise ValueError("dirichlet_alpha must be above 0 (None: no noise)")
        dirichlet_fraction = _positive(dirichlet_fraction, "dirichlet_fraction")
        if dirichlet_fraction > 1:
            raise ValueError(f"dirichlet_fraction must be at most 1, not {dirichlet_fraction}")
        temperature = _positive(temperature, "temperature")
        max_considered = integer(max_considered, "max_considered")
        if max_considered < 1:
            raise ValueError(f"max_considered must be at least 1, not {max_considered}")
        gumbel_scale = _positive(gumbel_scale, "gumbel_scale")
        c_visit = _positive(c_visit, "c_visit")
        c_scale = _positive(c_scale, "c_scale")
        if not isinstance(symmetries, bool):
            raise TypeError(f"symmetries must be True or False, not {type(symmetries).__name__}")
        self._augment: Any = None
        self._symmetry_count = 1
        if symmetries:
            batch_module = game_of(board).batch_module()
            self._augment = batch_module.augment
            self._symmetry_count = int(batch_module.SYMMETRIES)
        self._simulations = simulations
        self._evaluator = evaluator
        self._rule = rule
        self._threads = threads
        self._temperature = temperature
        self._dirichlet_alpha = dirichlet_alpha
        self._dirichlet_fraction = dirichlet_fraction
        self._random = np.random.default_rng(seed & _SEED_MASK)
        max_considered = min(max_considered, batch.num_actions)
        table = [considered_visits(m, simulations) for m in range(max_considered + 1)]
        self._core = core = module.BatchSearchCore(
            board, n, capacity, 1 if rule == "gumbel" else 0, c_init, c_base, c_visit, c_scale,
            seed & _SEED_MASK, evaluator is None, table, max_considered, gumbel_scale)
        self._n = n
        self._actions = batch.num_actions
        self._observation_shape = tuple(batch.observation_shape)
        self._obs = np.zeros((n, core.observation_bytes), np.uint8)
        self._mask = np.zeros((n, self._actions), np.uint8)
        core.set_buffers(self._obs, self._mask)
        self._rows = np.zeros(n, np.int32)
        self._row_of = np.zeros(n, np.int32)
        self._identity = np.arange(n, dtype=np.int32)
        self._runner = runner = Runner(parts_of(n, threads))
        if runner.workers:
            import weakref

            weakref.finalize(self, runner.stop)
            runner.start()

    def __repr__(self) -> str:
        return (f"<BatchSearch of {self._n} games, {self._simulations} simulations, "
                f"rule {self._rule!r}>")

    @property
    def simulations(self) -> int:
        return self._simulations

    @property
    def batch(self) -> Any:
        """The batch whose games are searched."""
        return self._batch

    @property
    def rule(self) -> str:
        return self._rule

    @property
    def nodes_per_tree(self) -> int:
        """Each tree's share of the pool."""
        share: int = self._core.capacity_per_tree
        return share

    def search(self, games: Any = None) -> BatchResult:
        """Search every game of the batch that is not over (and, when
        ``games`` is given, (B,) bool, is one of those), from its current
        position, and return what the searches found (:class:`BatchResult`;
        a game not searched gets action 0 and no policy); the batch is left
        as it was.  Ctrl-C stops the search between two steps (a step is
        one leaf a tree)."""
        np = self._np
        batch = self._batch
        core = self._core
        call = self._runner.call
        n = self._n
        observations = np.ascontiguousarray(batch.observation).view(np.uint8).reshape(n, -1)
        wanted = ~np.asarray(batch.terminated, bool)
        if games is not None:
            chosen = np.asarray(games)
            if chosen.shape != (n,) or chosen.dtype != np.bool_:
                raise ValueError(f"games must be a ({n},) bool array, not {chosen.dtype} "
                                 f"{chosen.shape}")
            wanted &= chosen
        searched = np.ascontiguousarray(wanted).view(np.uint8)
        core.begin(observations, searched)
        call(None, (), core.begin_part)
        # The first step values the roots; each later one is a simulation.
        for step in range(self._simulations + 1):
            call(None, (), core.select_part)
            count = core.pending_rows(self._rows)
            if count:
                self._evaluate(count)
                call(None, (), core.finish_part)
            if step == 0 and self._dirichlet_alpha is not None and self._rule == "puct":
                self._add_noise()
            if core.idle_count == n:
                break
        return self._results(searched)

    def _evaluate(self, count: int) -> None:
        """The evaluator's answer for the ``count`` trees waiting, handed to
        the core."""
        np = self._np
        n = self._n
        if count == n:
            observations, masks, row_of = self._obs, self._mask, self._identity
        else:
            rows = self._rows[:count]
            observations = self._obs[rows]
            masks = self._mask[rows]
            row_of = self._row_of
            row_of[rows] = np.arange(count, dtype=np.int32)
        assert self._evaluator is not None      # the playouts leave no tree waiting
        shown = observations.view(np.bool_).reshape((count,) + self._observation_shape)
        legal = masks.view(np.bool_)
        turn = 0
        if self._augment is not None:
            turn = int(self._random.integers(self._symmetry_count))
            shown, legal = self._augment(shown, legal, k=turn)
        answer = self._evaluator(shown, legal)
        try:
            logits, values = answer
        except (TypeError, ValueError):
            raise TypeError("the evaluator must return (logits, values)") from None
        logits = np.ascontiguousarray(logits, np.float32)
        values = np.ascontiguousarray(values, np.float32).reshape(-1)
        if logits.shape != (count, self._actions):
            raise ValueError(f"the evaluator's logits must be ({count}, {self._actions}), "
                             f"not {logits.shape}")
        if values.shape != (count,):
            raise ValueError(f"the evaluator's values must be ({count},), not {values.shape}")
        if turn:
            _, logits = self._augment(shown, logits, k=turn, inverse=True)
            logits = np.ascontiguousarray(logits, np.float32)
        self._core.answer(logits, values, row_of)

    def _add_noise(self) -> None:
        """Dirichlet noise over each root's legal actions (the mask of the
        roots' evaluation), drawn by NumPy."""
        np = self._np
        assert self._dirichlet_alpha is not None
        legal = np.asarray(self._batch.legal_action_mask, bool)
        gamma = self._random.gamma(self._dirichlet_alpha, 1.0, size=legal.shape)
        gamma = np.where(legal, gamma, 0.0)
        total = gamma.sum(axis=1, keepdims=True)
        noise = np.divide(gamma, total, out=np.zeros_like(gamma), where=total > 0)
        self._core.add_noise(np.ascontiguousarray(noise, np.float32), self._dirichlet_fraction)

    def _results(self, searched: Any) -> BatchResult:
        np = self._np
        n, actions_count = self._n, self._actions
        visits = np.zeros((n, actions_count), np.float32)
        improved = np.zeros((n, actions_count), np.float32)
        values = np.zeros(n, np.float32)
        actions = np.zeros(n, np.int32)
        proven = np.zeros(n, np.int8)
        self._core.results(visits, improved, values, actions, proven)
        if self._rule == "gumbel":
            policy = improved
        else:
            total = visits.sum(axis=1, keepdims=True)
            policy = np.divide(visits, total, out=np.zeros_like(visits), where=total > 0)
            if self._temperature > 0:
                actions = self._sampled(visits, actions, proven)
        # A position lost whatever is played (every child proven lost before
        # any visit) has no target from the search: every legal move alike.
        empty = (policy.sum(axis=1) == 0) & searched.astype(bool)
        if empty.any():
            legal = np.asarray(self._batch.legal_action_mask, bool)[empty]
            policy[empty] = legal / np.maximum(legal.sum(axis=1, keepdims=True), 1)
        # A proven win's target is the winning move the search plays.
        won = proven == 1
        if won.any():
            policy[won] = 0
            policy[won, actions[won]] = 1
        actions[actions < 0] = 0
        return BatchResult(actions, policy, values, proven)

    def _sampled(self, visits: Any, chosen: Any, proven: Any) -> Any:
        """PUCT's moves drawn in proportion to visits ** (1 / temperature),
        but a proven win is played as found."""
        np = self._np
        weights = visits.astype(np.float64) ** (1.0 / self._temperature)
        total = weights.sum(axis=1, keepdims=True)
        actions = chosen.copy()
        for b in np.flatnonzero((total[:, 0] > 0) & (proven != 1)):
            actions[b] = self._random.choice(self._actions, p=weights[b] / total[b, 0])
        return actions
