"""The engine's review of a game: for every move, the win rate its player
had before it and kept after it, the move the search prefers, and the moves
that lose the most.

:func:`analyse_record` reviews a game record (a
:class:`~havhex.records.Record`), :func:`analyse_game` moves on any live
board with a search.  One :class:`havhex.search.Search` follows the game:
it searches each position for the same budget, then the move played moves
its root on, so that what it learnt below that move is kept and the next
position's search starts from it.

Both of a move's figures are win rates of the same kind, for its player:
``before`` the win rate of the search's most visited move in the position
the move was played in, ``after`` the win rate of the move played once its
subtree has been searched for the budget too (one less the mean, for the
opponent, of every simulation of the position it leaves; 1 when the move
wins), and its loss ``before - after``.  Proven results count as 1 and 0.
Comparing the best move's rate in one position with the best reply's in the
next would not do: a search favours the player to move, and such a loss
grows by a few hundredths for every move, good ones too (docs/engine.md,
"Reviewing a game").  A position's win rate on :attr:`GameReview.curve`
is the same mean of its simulations.

A move is flagged when its loss is at least ``threshold`` (default
:data:`DEFAULT_THRESHOLD`) and it is not the search's own move.  The
moves of a search as long as the review's, with another seed, lose a few
hundredths and now and then up to about 0.15 (docs/engine.md, "Reviewing
a game"): that is the search's noise, and a move that loses more is one a
player wants to know of.  When the search's own move loses more, the
search found the position worse than it thought as it looked deeper,
which is no fault of the move.  The text report names the flagged moves
that lose the most, largest first.
"""
from __future__ import annotations

import json

from .._frozen import Frozen
from ..errors import InputError
from ..search import DEFAULT_MAX_NODES, Search, game_of
from .game import SPECIAL, shown_name
from .replay import _NOT_COUNTED
from .units import size_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

    from ..search import Analysis
    from .game import Record

__all__ = ["MoveReview", "GameReview", "analyse_game", "analyse_record", "review_text",
           "review_json", "record_heading", "best_rate", "DEFAULT_SIMULATIONS",
           "DEFAULT_THRESHOLD", "SHOWN_LOSSES"]

# Simulations a position when no budget is given: the budget of the
# engine's move when no clock is given (havhex gtp), so that a review sees
# each position as the engine playing it would.
DEFAULT_SIMULATIONS = 10_000
DEFAULT_THRESHOLD = 0.15
# The flagged moves the text report names, those that lose the most.
SHOWN_LOSSES = 3
# A record's moves that put nothing on the board: the review skips them,
# as the replay does not count them.
_NOT_MOVES = frozenset(SPECIAL[kind] for kind in _NOT_COUNTED)


def best_rate(analysis: Analysis) -> float:
    """The win rate of the search's most visited move (1 or 0 when
    proven), for the player to move."""
    if analysis.moves:
        return analysis.moves[0][2]
    return analysis.win_rate


def _reversed_proof(proven: Optional[str]) -> Optional[str]:
    """A proof for the player to move, for the other player."""
    return {"win": "loss", "loss": "win"}.get(proven) if proven else None


def _json_move(move: Any) -> Any:
    """A move as JSON holds it: a cell as a list, a word as it is."""
    return list(move) if isinstance(move, tuple) else move


class MoveReview(Frozen):
    """One move of a reviewed game.

    ``number`` counts moves as :attr:`havhex.records.Replay.moves` does
    (swaps count; resignations, forfeits and passes do not); ``player``
    the record's letter of its player (``"B"``, ``"W"``; None for moves
    not from a record); ``colour`` the colour it was played with, as the
    board's ``to_move`` said; ``move`` and ``name`` the move as the board
    and its records name it.  ``before`` and ``after`` the player's win
    rate before and after it, ``proven_before`` and ``proven_after``
    ``"win"`` or ``"loss"`` when the search proved the result (for the
    player, None otherwise); :attr:`loss` ``before - after``; ``best_move`` and
    ``best_name`` the search's move in the position it was played in,
    whose whole :class:`~havhex.search.Analysis` is ``analysis``;
    ``flagged`` whether the loss reaches the review's threshold, the move
    not being the search's own.
    """

    __slots__ = ("number", "player", "colour", "move", "name", "before", "after",
                 "proven_before", "proven_after", "best_move", "best_name", "analysis",
                 "flagged")

    number: int
    player: Optional[str]
    colour: str
    move: Any
    name: str
    before: float
    after: float
    proven_before: Optional[str]
    proven_after: Optional[str]
    best_move: Any
    best_name: str
    analysis: Analysis
    flagged: bool

    @property
    def loss(self) -> float:
        """What the move cost its player: ``before - after`` (below 0
        when the move did better than the search expected)."""
        return self.before - self.after

    def __repr__(self) -> str:
        return (f"<MoveReview {self.number} {self.colour} {self.name}: {self.before:.3f} -> "
                f"{self.after:.3f}, best {self.best_name}{', flagged' if self.flagged else ''}>")

    def to_dict(self) -> Dict[str, Any]:
        """The move's keys of ``havhex analyse --format json``."""
        return {"move": self.number, "player": self.player, "colour": self.colour,
                "played": _json_move(self.move), "played_name": self.name,
                "before": round(self.before, 4), "after": round(self.after, 4),
                "loss": round(self.loss, 4), "proven_before": self.proven_before,
                "proven_after": self.proven_after, "best": _json_move(self.best_move),
                "best_name": self.best_name,
                "principal_variation": [_json_move(move)
                                        for move in self.analysis.principal_variation],
                "simulations": self.analysis.simulations, "flagged": self.flagged}


class GameReview(Frozen):
    """A reviewed game.

    ``game`` the game's name, ``players`` its colour words (the first
    player's first); ``moves`` a :class:`MoveReview` per move reviewed;
    ``final`` the :class:`~havhex.search.Analysis` of the position after
    the last of them (None when the game is over there); ``curve`` the
    first player's win rate (``players[0]``'s) in each position, from the
    start to after the last move reviewed (``len(moves) + 1`` of them);
    ``winner`` the colour that won on the board, or None; ``illegal``
    None or ``(move number, reason)`` of the move the review stopped at;
    ``unreviewed`` the moves after the winning one, which the board takes
    no more; ``threshold`` the loss from which a move is flagged.
    """

    __slots__ = ("game", "players", "moves", "final", "curve", "winner", "illegal",
                 "unreviewed", "threshold")

    game: str
    players: Tuple[str, ...]
    moves: Tuple[MoveReview, ...]
    final: Optional[Analysis]
    curve: Tuple[float, ...]
    winner: Optional[str]
    illegal: Optional[Tuple[int, str]]
    unreviewed: int
    threshold: float

    def __repr__(self) -> str:
        return (f"<GameReview {self.game}: {len(self.moves)} moves, "
                f"{len(self.flagged())} flagged>")

    def flagged(self) -> Tuple[MoveReview, ...]:
        """The moves whose loss reaches the threshold, in the game's order."""
        return tuple(move for move in self.moves if move.flagged)

    def biggest_losses(self, count: int = SHOWN_LOSSES) -> Tuple[MoveReview, ...]:
        """Up to ``count`` flagged moves, those that lose the most first."""
        return tuple(sorted(self.flagged(), key=lambda move: -move.loss)[:count])


def _check_threshold(threshold: float) -> None:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) \
            or not 0 < threshold <= 1:
        raise ValueError(f"threshold must be more than 0 and at most 1, not {threshold!r}")


def _first_chance(colour: str, chance: float, players: Tuple[str, ...]) -> float:
    """``colour``'s ``chance`` as the first player's."""
    return chance if colour == players[0] else 1.0 - chance


def _end_chance(board: Any, colour: str) -> Tuple[float, Optional[str]]:
    """The chance of ``colour`` on a finished board, and its proof."""
    if board.winner is None:
        return 0.5, None
    return (1.0, "win") if board.winner == colour else (0.0, "loss")


def _moves_played(moves: Iterable[Any]) -> List[Tuple[Optional[str], Any]]:
    """``(letter or None, move)`` of each move that puts something on the
    board: a record's ``(letter, move)`` pairs split, the moves it does
    not count left out."""
    played: List[Tuple[Optional[str], Any]] = []
    for move in moves:
        letter = None
        if isinstance(move, tuple) and len(move) == 2 and isinstance(move[0], str):
            letter, move = move
        if not (isinstance(move, str) and move in _NOT_MOVES):
            played.append((letter, move))
    return played


class _Follower:
    """The search following a game, position by position, and the win rates
    it found."""

    def __init__(self, board: Any, simulations: Optional[int], seconds: Optional[float],
                 seed: int, max_nodes: int) -> None:
        self.board = board
        self.players = game_of(board).players
        self.budget = (simulations, seconds)
        self.search = Search(board, max_nodes, seed)
        self.analysis: Optional[Analysis] = self.search.run(simulations, seconds)
        self.curve = [_first_chance(board.to_move, self.analysis.win_rate, self.players)]

    def review(self, number: int, letter: Optional[str], move: Any,
               threshold: float) -> MoveReview:
        """Play ``move`` (the board's ``play`` raises for an illegal one,
        changing nothing) and review it."""
        board, analysis = self.board, self.analysis
        if TYPE_CHECKING:
            # A position not over has been searched.
            assert analysis is not None
        colour = board.to_move
        best_name = board.cell_name(analysis.best_move)
        board.play(move)
        played = board.moves[-1]
        self.search.play(played)
        if board.is_over:
            self.analysis = None
            after, proven_after = _end_chance(board, colour)
            self.curve.append(_first_chance(colour, after, self.players))
        else:
            self.analysis = self.search.run(*self.budget)
            chance = self.analysis.win_rate
            after, proven_after = 1.0 - chance, _reversed_proof(self.analysis.proven)
            self.curve.append(_first_chance(board.to_move, chance, self.players))
        before = best_rate(analysis)
        return MoveReview._build(
            number=number, player=letter, colour=colour, move=played,
            name=board.cell_name(played), before=before, after=after,
            proven_before=analysis.proven, proven_after=proven_after,
            best_move=analysis.best_move, best_name=best_name, analysis=analysis,
            flagged=before - after >= threshold and played != analysis.best_move)


def analyse_game(board: Any, moves: Iterable[Any], *, simulations: Optional[int] = None,
                 seconds: Optional[float] = None, seed: int = 0,
                 max_nodes: int = DEFAULT_MAX_NODES, threshold: float = DEFAULT_THRESHOLD,
                 progress: Optional[Callable[[int], None]] = None) -> GameReview:
    """Review ``moves`` played from ``board`` (a live board of a game with a
    search, not over; left as it is).  ``moves`` as the board's ``play``
    takes them, or a record's ``(letter, move)`` pairs; ``"resign"``,
    ``"forfeit"`` and ``"pass"`` are skipped.  Each position is searched
    for ``simulations`` or ``seconds``, whichever ends first (default:
    :data:`DEFAULT_SIMULATIONS`), by one :class:`~havhex.search.Search` of
    ``max_nodes`` nodes and ``seed``, so that a review of simulations is
    the same each time.  The review stops at the first move the board
    refuses (:attr:`GameReview.illegal`) and at the end of the game.
    ``progress(n)`` is called after the n-th move is reviewed.  Ctrl-C
    stops it within a simulation (KeyboardInterrupt)."""
    _check_threshold(threshold)
    if simulations is None and seconds is None:
        simulations = DEFAULT_SIMULATIONS
    follower = _Follower(board.copy(), simulations, seconds, seed, max_nodes)
    played = _moves_played(moves)
    reviews: List[MoveReview] = []
    illegal: Optional[Tuple[int, str]] = None
    for number, (letter, move) in enumerate(played, 1):
        if follower.board.is_over:
            break
        try:
            reviews.append(follower.review(number, letter, move, threshold))
        except (InputError, TypeError, ValueError) as error:
            illegal = (number, str(error))
            break
        if progress is not None:
            progress(number)
    final_board = follower.board
    return GameReview._build(
        game=game_of(final_board).name, players=follower.players, moves=tuple(reviews),
        final=follower.analysis, curve=tuple(follower.curve), winner=final_board.winner,
        illegal=illegal,
        unreviewed=len(played) - len(reviews) if final_board.is_over else 0,
        threshold=threshold)


def analyse_record(record: Record, rule: str = "official", *,
                   simulations: Optional[int] = None, seconds: Optional[float] = None,
                   seed: int = 0, max_nodes: int = DEFAULT_MAX_NODES,
                   threshold: float = DEFAULT_THRESHOLD,
                   progress: Optional[Callable[[int], None]] = None) -> GameReview:
    """Review the game of ``record`` (a :class:`~havhex.records.Record`) on
    its board (``rule`` Havannah's ring rule), its setup stones on it, as
    :func:`analyse_game` does.  A board the record cannot set up, or one
    over before the first move, raises :class:`havhex.InputError` naming
    the record's file and line."""
    try:
        board = record.board(rule)
        if board.is_over:
            raise InputError("the game is over before its first move: there is nothing "
                             "to review")
        return analyse_game(board, record.moves, simulations=simulations, seconds=seconds,
                            seed=seed, max_nodes=max_nodes, threshold=threshold,
                            progress=progress)
    except InputError as error:
        if error.source is None:
            raise InputError(error.reason, record.source, record.line) from None
        raise


# ---------------------------------------------------------------------------
# The report: text and JSON Lines
# ---------------------------------------------------------------------------

def _shown_chance(chance: float, proven: Optional[str]) -> str:
    return proven if proven else f"{chance:.3f}"


def review_text(review: GameReview, heading: str) -> str:
    """The text report of ``review``: ``heading`` and what the game came to,
    a line per move (a flagged one ends with ``*``), then the flagged
    moves that lose the most."""
    count = len(review.moves)
    lines = [f"{heading}, {count} move{'s' * (count != 1)} reviewed" + _ending(review)]
    if review.moves:
        lines.append(f"{'move':>5}  {'player':<9} {'played':<12} {'before':>6} "
                     f"{'after':>6} {'loss':>6}  best")
    lines += [_move_line(move) for move in review.moves]
    lines.append(_losses_line(review))
    return "\n".join(lines) + "\n"


def _move_line(move: MoveReview) -> str:
    who = f"{move.player} {move.colour}" if move.player else move.colour
    return (f"{move.number:>5}  {who:<9} {move.name:<12} "
            f"{_shown_chance(move.before, move.proven_before):>6} "
            f"{_shown_chance(move.after, move.proven_after):>6} {move.loss:>6.3f}  "
            f"{move.best_name}{' *' if move.flagged else ''}")


def _losses_line(review: GameReview) -> str:
    """The report's last line: the flagged moves that lose the most."""
    losses = review.biggest_losses()
    if not losses:
        return f"no move loses {review.threshold:g} or more"
    named = ", ".join(f"move {move.number} {move.name} ({move.loss:.3f}, best "
                      f"{move.best_name})" for move in losses)
    return f"* loses at least {review.threshold:g}; the most: {named}"


def _ending(review: GameReview) -> str:
    """What stopped the review, as the heading's end."""
    if review.illegal is not None:
        number, reason = review.illegal
        return f"; move {number} is illegal ({reason}): the review stops before it"
    words = ""
    if review.winner is not None:
        words = f"; {review.winner.capitalize()} wins in move {len(review.moves)}"
    if review.unreviewed:
        words += f"; {review.unreviewed} moves played on after it are not reviewed"
    return words


def record_heading(record: Record) -> str:
    """The text report's heading of a record's game, as ``havhex replay``
    names it: ``FILE game N: hex 7x7``."""
    return f"{record.source} game {record.index}: {record.game} {size_text(record.size)}"


def review_json(review: GameReview, record: Record) -> str:
    """The JSON Lines of ``review``, the review of ``record``: one object
    per move, the record's keys (as ``havhex replay --format json`` names
    them; ``game`` the game's name) then the move's
    (:meth:`MoveReview.to_dict`)."""
    size = record.size
    lead = {"file": shown_name(record.source), "record": record.index, "game": review.game,
            "size": size if isinstance(size, int) else list(size)}
    return "".join(json.dumps({**lead, **move.to_dict()}, separators=(", ", ": ")) + "\n"
                   for move in review.moves)
