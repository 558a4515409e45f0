"""A match's statistics: W/D/L, the Elo difference with 95% bounds, LOS, SPRT.

Everything is from one engine's point of view (its wins, draws and losses
against the other) under the logistic Elo model: a score ``s`` (wins plus
half the draws, over the games) is the Elo difference
``-400 * log10(1 / s - 1)``.  The 95% bounds map ``s +- 1.96 * se`` through
the same curve, ``se`` being the standard error of the mean score of the
games (the per-game variance of the trinomial outcome over the games).

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
    from typing import Literal, Optional, Tuple

__all__ = ["Score", "score", "elo_of_score", "score_of_elo", "Sprt", "Z95"]

# The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054


def score_of_elo(elo: float) -> float:
    """The expected score of an Elo difference (logistic model)."""
    # A float to a float's power is typed Any (it may be complex); here the
    # base is positive, so it is a float.
    power: float = 10.0 ** (-elo / 400.0)
    return 1.0 / (1.0 + power)


def elo_of_score(s: float) -> float:
    """The Elo difference of a score in [0, 1] (infinite at 0 and 1)."""
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


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
        bounds; None before the first game."""
        if not self.games:
            return None
        games, s, variance = _moments(self.wins, self.draws, self.losses)
        margin = Z95 * math.sqrt(variance / games)
        return elo_of_score(s), elo_of_score(s - margin), elo_of_score(s + margin)

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
