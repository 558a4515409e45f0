"""A match's statistics: W/D/L, the Elo difference with 95% bounds, LOS, SPRT,
and the pentanomial counts of paired games.

Everything is from one engine's point of view (its wins, draws and losses
against the other) under the logistic Elo model: a score ``s`` (wins plus
half the draws, over the games) is the Elo difference
``-400 * log10(1 / s - 1)``.

The 95% bounds are a Wilson score interval of the score, mapped through
the same curve: the scores ``p`` with ``(s - p)^2 <= z^2 p (1 - p) / n'``,
``n'`` the effective number of games ``n s (1 - s) / var`` (``var`` the
observed per-game variance of the outcome, which draws make smaller than a
coin's ``s (1 - s)``; ``n'`` is ``n`` when every game had the same result).
Unlike the normal interval ``s +- z se`` it never leaves [0, 1] and never
collapses: 10-0 has a finite lower bound and an upper bound of +inf (a
one-sided bound, said so in the summary), 1-0-5 finite bounds both.

Games played in pairs (one opening twice, the seats reversed) give the
pentanomial counts fastchess reports: the pairs scoring 0 (LL), 1/2 (LD),
1 (DD or WL), 3/2 (WD) and 2 (WW).  The pair's two games share the
opening's bias, which the pair's score cancels: the Elo bounds of the pairs
take the variance of the pairs' scores (the same Wilson interval, ``n'``
the pairs' effective number ``N s (1 - s) / var_pair``).

The SPRT is the generalised SPRT of fastchess and cutechess on the trinomial
outcome: with ``s0``, ``s1`` the scores of ``elo0`` and ``elo1``, the
log-likelihood ratio is ``N * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)``
(``var`` the per-game variance); the match stops once it leaves
``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``.  While two of the
three counts are zero the variance says nothing, so half a game is added to
each count (fastchess's regularisation) before the ratio is taken.
"""
from __future__ import annotations

import math

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable, List, Literal, Optional, Sequence, Tuple

__all__ = ["Score", "score", "elo_of_score", "score_of_elo", "Sprt", "Z95", "wilson",
           "Pentanomial", "pentanomial"]

# The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054


def score_of_elo(elo: float) -> float:
    """The expected score of an Elo difference (logistic model)."""
    # A float to a float's power is typed Any (it may be complex); here the
    # base is positive, so it is a float.
    power: float = 10.0 ** (-elo / 400.0)
    return 1.0 / (1.0 + power)


def elo_of_score(s: float) -> float:
    """The Elo difference of a score in [0, 1] (infinite at 0 and 1; an
    even score is 0.0, never -0.0)."""
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0) + 0.0


def wilson(s: float, n: float, z: float = Z95) -> Tuple[float, float]:
    """The Wilson score interval of a proportion ``s`` over ``n`` trials
    (``n`` > 0): the ``p`` with ``(s - p)^2 <= z^2 p (1 - p) / n``."""
    k = z * z / n
    centre = (s + k / 2.0) / (1.0 + k)
    half = math.sqrt(max(0.0, s * (1.0 - s) * k + k * k / 4.0)) / (1.0 + k)
    # At s = 0 or 1 the interval reaches the end exactly (rounding would
    # leave it a hair short: a finite Elo where none is).
    low = 0.0 if s <= 0.0 else max(0.0, centre - half)
    high = 1.0 if s >= 1.0 else min(1.0, centre + half)
    return low, high


def _bounds(s: float, units: float, variance: float, games: int) -> Tuple[float, float]:
    """The Elo bounds of a mean score ``s`` over ``units`` units of
    ``games`` games each (1: games, 2: pairs) whose scores' observed
    variance is ``variance``: Wilson's interval over the effective number of
    games, ``units s (1 - s) / variance`` (a unit of ``games`` coins of
    ``s`` has the variance ``s (1 - s) / games``)."""
    spread = s * (1.0 - s)
    if variance > 0.0 and spread > 0.0:
        effective = units * spread / variance
    else:
        # Every unit the same result: nothing to weigh a coin's variance by.
        effective = units * games
    low, high = wilson(s, effective)
    return elo_of_score(low), elo_of_score(high)


def _moments(wins: float, draws: float, losses: float) -> Tuple[float, float, float]:
    games = wins + draws + losses
    s = (wins + 0.5 * draws) / games
    variance = (wins * (1.0 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / games
    return games, s, variance


class Score:
    """W/D/L of one engine against another, and what follows from them."""

    __slots__ = ("wins", "draws", "losses")

    wins: float
    draws: float
    losses: float

    def __init__(self, wins: float = 0, draws: float = 0, losses: float = 0) -> None:
        self.wins, self.draws, self.losses = wins, draws, losses

    @property
    def games(self) -> float:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> Optional[float]:
        """Points over games (None before the first game)."""
        if not self.games:
            return None
        return (self.wins + 0.5 * self.draws) / self.games

    def elo(self) -> Optional[Tuple[float, float, float]]:
        """``(difference, low, high)``: the Elo difference and its 95%
        bounds (the module's text); None before the first game.  After
        every game won the difference and the upper bound are +inf and the
        lower bound finite; after every game lost, the other way round."""
        if not self.games:
            return None
        games, s, variance = _moments(self.wins, self.draws, self.losses)
        low, high = _bounds(s, games, variance, 1)
        return elo_of_score(s), low, high

    def los(self) -> Optional[float]:
        """The likelihood of superiority: the probability that this engine
        is the stronger, from wins and losses (draws say nothing); None when
        there are neither."""
        decisive = self.wins + self.losses
        if not decisive:
            return None
        return 0.5 * (1.0 + math.erf((self.wins - self.losses) / math.sqrt(2.0 * decisive)))

    def __repr__(self) -> str:
        return f"Score(wins={self.wins}, draws={self.draws}, losses={self.losses})"


def score(wins: float, draws: float, losses: float) -> Score:
    return Score(wins, draws, losses)


class Pentanomial:
    """The pairs of games of one engine against another, each pair one
    opening played twice with the seats reversed, counted by the engine's
    points in the pair: ``counts`` ``[LL, LD, DD, WL, WD, WW]`` (DD and WL
    both score 1; fastchess's ``Ptnml(0-2)`` adds them)."""

    __slots__ = ("counts",)

    counts: List[int]

    _KEYS = ("LL", "LD", "DD", "WL", "WD", "WW")

    def __init__(self, counts: Sequence[int] = (0, 0, 0, 0, 0, 0)) -> None:
        if len(counts) != 6:
            raise ValueError("a pentanomial has six counts: LL, LD, DD, WL, WD, WW")
        self.counts = [int(count) for count in counts]

    def add(self, first: float, second: float) -> None:
        """Count a pair of the engine's points, each 0, 0.5 or 1."""
        total = int(2 * (first + second))       # half points: 0 to 4
        index = (0, 1, 2, 4, 5)[total] if total != 2 else (2 if first == 0.5 else 3)
        self.counts[index] += 1

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def ptnml(self) -> Tuple[int, int, int, int, int]:
        """fastchess's ``Ptnml(0-2)``: the pairs scoring 0, 1/2, 1, 3/2, 2."""
        ll, ld, dd, wl, wd, ww = self.counts
        return (ll, ld, dd + wl, wd, ww)

    def score(self) -> Optional[float]:
        """The mean score of the pairs' games (None before the first pair)."""
        if not self.pairs:
            return None
        return sum(count * points / 2.0 for count, points in
                   zip(self.ptnml, (0.0, 0.5, 1.0, 1.5, 2.0))) / self.pairs

    def elo(self) -> Optional[Tuple[float, float, float]]:
        """``(difference, low, high)`` from the pairs (the module's text);
        None before the first pair."""
        s = self.score()
        if s is None:
            return None
        pairs = self.pairs
        variance = sum(count * (points / 2.0 - s) ** 2 for count, points in
                       zip(self.ptnml, (0.0, 0.5, 1.0, 1.5, 2.0))) / pairs
        low, high = _bounds(s, pairs, variance, 2)
        return elo_of_score(s), low, high

    def __repr__(self) -> str:
        return "Pentanomial(" + ", ".join(
            f"{key}={count}" for key, count in zip(self._KEYS, self.counts)) + ")"


def pentanomial(points: Iterable[Tuple[int, float]]) -> Pentanomial:
    """The pentanomial of ``(opening, points)`` pairs: the games of one
    opening counted in twos, in order (a game whose other half is missing
    counts in none)."""
    waiting: dict[int, float] = {}
    found = Pentanomial()
    for opening, score in points:
        if opening in waiting:
            found.add(waiting.pop(opening), score)
        else:
            waiting[opening] = score
    return found


class Sprt:
    """A sequential probability ratio test of ``elo0`` (H0) against
    ``elo1`` (H1), with the error rates ``alpha`` and ``beta``."""

    __slots__ = ("elo0", "elo1", "alpha", "beta", "lower", "upper")

    elo0: float
    elo1: float
    alpha: float
    beta: float
    lower: float
    upper: float

    def __init__(self, elo0: float = 0.0, elo1: float = 5.0, alpha: float = 0.05,
                 beta: float = 0.05) -> None:
        if not elo0 < elo1:
            raise ValueError(f"sprt: elo0 ({elo0}) must be below elo1 ({elo1})")
        if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
            raise ValueError(f"sprt: alpha ({alpha}) and beta ({beta}) must be in (0, 1) "
                             f"with alpha + beta < 1")
        self.elo0, self.elo1, self.alpha, self.beta = float(elo0), float(elo1), alpha, beta
        self.lower = math.log(beta / (1.0 - alpha))
        self.upper = math.log((1.0 - beta) / alpha)

    def llr(self, wins: float, draws: float, losses: float) -> float:
        """The log-likelihood ratio of H1 over H0 after these games."""
        if wins + draws + losses == 0:
            return 0.0
        if (wins == 0) + (draws == 0) + (losses == 0) >= 2:
            wins, draws, losses = wins + 0.5, draws + 0.5, losses + 0.5
        games, s, variance = _moments(wins, draws, losses)
        if variance <= 0.0:
            return 0.0
        s0, s1 = score_of_elo(self.elo0), score_of_elo(self.elo1)
        return games * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * variance)

    def verdict(self, wins: float, draws: float,
                losses: float) -> Optional[Literal["H0", "H1"]]:
        """``"H1"`` (accepted: elo1 or better), ``"H0"``, or None (go on)."""
        llr = self.llr(wins, draws, losses)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def __repr__(self) -> str:
        return (f"Sprt(elo0={self.elo0}, elo1={self.elo1}, alpha={self.alpha}, "
                f"beta={self.beta})")
