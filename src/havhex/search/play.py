"""Self-play: the games of a batch played to their ends by a
:class:`~havhex.search.BatchSearch`, every position kept as a training
record (its observation, the search's policy target, the game's outcome
for the player to move), and the games as SGF or ``.hgf`` records for
``havhex replay`` and the stepping page.

>>> from havhex.hex import Batch
>>> from havhex.search import BatchSearch, self_play
>>> batch = Batch(4, size=3, seed=1)
>>> played = self_play(BatchSearch(batch, simulations=8, seed=1))
>>> played.observations.shape[1:], played.policies.shape[1:]
((3, 3, 4), (10,))
>>> bool((played.outcomes != 0).all())         # Hex has no draw
True
"""
from __future__ import annotations

from .._batch import numpy
from .._checks import integer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, List, Optional

    from .batch import BatchSearch

__all__ = ["self_play", "SelfPlayGames"]


class SelfPlayGames:
    """What :func:`self_play` played: one row a position searched.

    ``observations`` (N, ...) bool, the batch's observation of the
    position (the player to move's view); ``legal_masks`` (N, A) bool, its
    legal actions; ``policies`` (N, A) float32, the
    search's policy target; ``outcomes`` (N,) float32, the game's result
    for the player to move there (1 won, -1 lost, 0 a draw or a game cut
    short by ``max_moves``); ``games`` (N,) int32, the game of the batch;
    ``plies`` (N,) int32, the moves played in the self-play before it.
    ``winners`` (B,) int8 per game: the seat that won, -1 a draw, -2 not
    finished; ``actions`` one list a game of the actions played;
    ``from_start`` (B,) bool, the games that began on the empty board;
    ``first_seats`` (B,) int8, the seat to move at each game's first
    position searched; ``board`` an empty live board of the batch's game
    (the records' rules).
    """

    __slots__ = ("observations", "legal_masks", "policies", "outcomes", "games", "plies",
                 "winners",
                 "actions", "from_start", "first_seats", "board")

    observations: Any
    legal_masks: Any
    policies: Any
    outcomes: Any
    games: Any
    plies: Any
    winners: Any
    actions: List[List[int]]
    from_start: Any
    first_seats: Any
    board: Any

    def __init__(self, observations: Any, legal_masks: Any, policies: Any, outcomes: Any,
                 games: Any, plies: Any, winners: Any, actions: List[List[int]],
                 from_start: Any, first_seats: Any, board: Any) -> None:
        self.observations = observations
        self.legal_masks = legal_masks
        self.policies = policies
        self.outcomes = outcomes
        self.games = games
        self.plies = plies
        self.winners = winners
        self.actions = actions
        self.from_start = from_start
        self.first_seats = first_seats
        self.board = board

    def __len__(self) -> int:
        return len(self.outcomes)

    def __repr__(self) -> str:
        return f"<SelfPlayGames: {len(self.actions)} games, {len(self)} positions>"

    def records_text(self) -> str:
        """The games that began on the empty board, as one SGF (Hex) or
        ``.hgf`` (Havannah) collection in the game's record format, each
        move replayed on a live board of the batch's rules."""
        from .. import games as registry
        from ._module import game_of

        descriptor = game_of(self.board)
        form = registry.get(descriptor.name).records
        if form is None:
            raise ValueError(f"{descriptor.name} has no record format")
        size = descriptor.board_size(self.board)
        texts = []
        for game, actions in enumerate(self.actions):
            if not self.from_start[game]:
                continue
            board = self.board.copy()
            parts = ["(;FF[4]", form.root(size)]
            winner = int(self.winners[game])
            if winner >= 0:
                # The record's letters are the colours in turn: the first
                # mover's seat is the first letter's.
                letter = form.letters[0 if winner == int(self.first_seats[game]) else 1]
                parts.append(f"RE[{letter}+]")
            elif winner == -1:
                parts.append("RE[0]")
            parts.append(f"GC[havhex self-play game {game}]")
            for number, action in enumerate(actions):
                move = board.move_of(action)
                board.play(move)
                name = move if isinstance(move, str) else form.cell_name(size, move)
                parts.append(f";{form.letters[number % 2]}[{name}]")
            parts.append(")")
            texts.append("".join(parts))
        return "\n".join(texts) + ("\n" if texts else "")


def self_play(search: BatchSearch, *, max_moves: Optional[int] = None) -> SelfPlayGames:
    """Play every game of ``search``'s batch that is not over from its
    current position to its end (or ``max_moves`` moves), each move the
    search's choice, and return the positions and games
    (:class:`SelfPlayGames`).  A game that ends is searched no more; its
    later steps, which the batch needs, take random legal actions, and
    its next position (a reset) is not recorded.  The batch is left
    stepped past the games' ends."""
    np = numpy()
    if max_moves is not None:
        max_moves = integer(max_moves, "max_moves")
        if max_moves < 0:
            raise ValueError(f"max_moves must be at least 0, not {max_moves}")
    batch = search.batch
    n = len(batch)
    active = ~np.asarray(batch.terminated, bool)
    own_and_opponent = np.asarray(batch.observation)[..., :2].reshape(n, -1)
    from_start = active & ~own_and_opponent.any(axis=1)
    winners = np.full(n, -2, np.int8)
    actions: List[List[int]] = [[] for _ in range(n)]
    observations, masks, policies, seats, game_rows, plies = [], [], [], [], [], []
    rewards = np.zeros((n, 2), np.float32)
    first_seats = np.asarray(batch.current_player).astype(np.int8)
    ply = 0
    while active.any() and (max_moves is None or ply < max_moves):
        result = search.search(games=active)
        rows = np.flatnonzero(active)
        observations.append(np.asarray(batch.observation)[rows].copy())
        masks.append(np.asarray(batch.legal_action_mask)[rows].copy())
        policies.append(result.policy[rows])
        seats.append(np.asarray(batch.current_player)[rows].copy())
        game_rows.append(rows.astype(np.int32))
        plies.append(np.full(len(rows), ply, np.int32))
        for game in rows.tolist():
            actions[game].append(int(result.actions[game]))
        step = np.where(active, result.actions, batch.sample_actions())
        batch.step(step.astype(np.int32))
        ended = active & np.asarray(batch.terminated, bool)
        if ended.any():
            rewards[ended] = np.asarray(batch.rewards)[ended]
            winners[ended] = np.asarray(batch.winner)[ended]
            active &= ~ended
        ply += 1
    if observations:
        all_games = np.concatenate(game_rows)
        all_seats = np.concatenate(seats)
        outcomes = rewards[all_games, all_seats].astype(np.float32)
        return SelfPlayGames(np.concatenate(observations), np.concatenate(masks),
                             np.concatenate(policies), outcomes,
                             all_games, np.concatenate(plies), winners, actions, from_start,
                             first_seats, batch.empty_board())
    shape = tuple(batch.observation_shape)
    return SelfPlayGames(np.zeros((0,) + shape, bool), np.zeros((0, batch.num_actions), bool),
                         np.zeros((0, batch.num_actions), np.float32),
                         np.zeros(0, np.float32), np.zeros(0, np.int32), np.zeros(0, np.int32),
                         winners, actions, from_start, first_seats, batch.empty_board())
