"""Elo, its bounds, LOS and the SPRT against values worked out by hand
from their formulas (each test writes the formula it checks)."""
import math

import pytest

from havhex.match.stats import (Pentanomial, Score, Sprt, elo_of_score, pentanomial,
                                score_of_elo, wilson)


def test_elo_of_a_score_is_the_logistic_curve():
    # s = 0.75: -400 * log10(1 / 0.75 - 1) = 400 * log10(3)
    assert elo_of_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_of_score(0.5) == pytest.approx(0.0)
    assert elo_of_score(1.0) == math.inf and elo_of_score(0.0) == -math.inf
    for elo in (-300.0, -12.5, 0.0, 40.0, 250.0):
        assert elo_of_score(score_of_elo(elo)) == pytest.approx(elo)


def test_elo_bounds_are_wilsons_over_the_effective_number_of_games():
    # 60 wins, 20 draws, 20 losses: s = 0.7; per-game variance
    # (60 * 0.3^2 + 20 * 0.2^2 + 20 * 0.7^2) / 100 = 0.16, against a coin's
    # 0.7 * 0.3 = 0.21: n' = 100 * 0.21 / 0.16 = 131.25 games.  Wilson:
    # centre (s + z^2 / 2n') / (1 + z^2 / n'), half-width
    # z sqrt(s (1 - s) / n' + z^2 / 4n'^2) / (1 + z^2 / n').
    z = 1.959963984540054
    n = 131.25
    centre = (0.7 + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(0.21 / n + z * z / (4 * n * n)) / (1 + z * z / n)
    elo, low, high = Score(60, 20, 20).elo()
    assert elo == pytest.approx(-400 * math.log10(1 / 0.7 - 1))
    assert low == pytest.approx(elo_of_score(centre - half))
    assert high == pytest.approx(elo_of_score(centre + half))
    assert low < elo < high
    # With no draws n' = n: Wilson's interval of a proportion.
    assert wilson(0.7, 100) == pytest.approx((0.6041, 0.7810), abs=1e-4)


@pytest.mark.parametrize("wins, draws, losses", [(10, 0, 0), (1, 0, 5), (1, 0, 1), (0, 5, 0),
                                                 (1, 5, 0), (0, 0, 30), (3, 0, 0)])
def test_elo_bounds_behave_at_the_extremes(wins, draws, losses):
    elo, low, high = Score(wins, draws, losses).elo()
    assert low <= elo <= high
    if losses == 0 and draws == 0:
        # Every game won: the lower bound is finite, the rest +inf.
        assert elo == high == math.inf and math.isfinite(low)
    elif wins == 0 and draws == 0:
        assert elo == low == -math.inf and math.isfinite(high)
    else:
        assert math.isfinite(low) and math.isfinite(high)
    # 10-0 is at least +166 Elo at 95%: Wilson's n / (n + z^2) = 0.7224.
    if (wins, draws, losses) == (10, 0, 0):
        assert low == pytest.approx(elo_of_score(10 / (10 + 1.959963984540054 ** 2)))
    assert str(elo) != "-0.0" and str(Score(1, 0, 1).elo()[0]) == "0.0"


def test_pentanomial_counts_pairs_of_an_opening():
    # Openings 0..4, each played twice: points of the first engine.
    games = [(0, 1.0), (0, 1.0), (1, 0.0), (1, 1.0), (2, 0.5), (2, 0.5), (3, 0.5), (3, 0.0),
             (4, 1.0), (4, 0.5), (5, 1.0)]
    paired = pentanomial(games)
    assert paired.counts == [0, 1, 1, 1, 1, 1]       # LL LD DD WL WD WW; opening 5 is alone
    assert paired.ptnml == (0, 1, 2, 1, 1) and paired.pairs == 5
    assert paired.score() == pytest.approx((0.5 + 1 + 1 + 1.5 + 2) / 10)
    # Five WL pairs: every pair even, no variance between them; the bounds
    # stay those of ten coin flips' pairs, not a point.
    even = Pentanomial([0, 0, 0, 5, 0, 0])
    elo, low, high = even.elo()
    assert elo == 0.0 and low < 0 < high and math.isfinite(low)
    # All pairs WW: a one-sided bound, as for the games.
    elo, low, high = Pentanomial([0, 0, 0, 0, 0, 5]).elo()
    assert elo == high == math.inf and math.isfinite(low)
    # Five pairs won are ten games won: the same bound.
    assert low == pytest.approx(Score(10, 0, 0).elo()[1])
    with pytest.raises(ValueError):
        Pentanomial([1, 2, 3])


def test_los_from_wins_and_losses():
    # LOS = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2; draws do not count.
    assert Score(60, 20, 20).los() == pytest.approx(0.5 * (1 + math.erf(40 / math.sqrt(160))))
    assert Score(10, 5, 10).los() == pytest.approx(0.5)
    assert Score(0, 7, 0).los() is None
    assert Score().elo() is None and Score().score is None


def test_sprt_bounds_and_log_likelihood_ratio():
    sprt = Sprt(elo0=0, elo1=10, alpha=0.05, beta=0.05)
    assert sprt.lower == pytest.approx(math.log(0.05 / 0.95))
    assert sprt.upper == pytest.approx(math.log(0.95 / 0.05))
    # 600 W, 200 D, 400 L: N = 1200, s = 700 / 1200; per-game variance
    # (600 (1-s)^2 + 200 (0.5-s)^2 + 400 s^2) / 1200;
    # LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var), s0 = 0.5, s1 = 1 / (1 + 10^(-10/400)).
    n, s = 1200, 700 / 1200
    variance = (600 * (1 - s) ** 2 + 200 * (0.5 - s) ** 2 + 400 * s ** 2) / n
    s0, s1 = 0.5, 1 / (1 + 10 ** (-10 / 400))
    expected = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * variance)
    assert sprt.llr(600, 200, 400) == pytest.approx(expected)
    assert expected > sprt.upper
    assert sprt.verdict(600, 200, 400) == "H1"
    assert sprt.verdict(400, 200, 600) == "H0"
    assert sprt.verdict(5, 2, 5) is None


def test_sprt_regularises_a_one_sided_start():
    # Two counts zero: half a game each is added, so the variance is not 0
    # and a run of wins moves the ratio up.
    sprt = Sprt(0, 50, 0.05, 0.05)
    wins, draws, losses = 20.5, 0.5, 0.5
    n = wins + draws + losses
    s = (wins + draws / 2) / n
    variance = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    s0, s1 = 0.5, score_of_elo(50)
    assert sprt.llr(20, 0, 0) == pytest.approx(n * (s1 - s0) * (2 * s - s0 - s1) / (2 * variance))
    assert sprt.llr(20, 0, 0) > 0 > sprt.llr(0, 0, 20)


@pytest.mark.parametrize("options", [dict(elo0=5, elo1=5), dict(alpha=0), dict(beta=1),
                                     dict(alpha=0.6, beta=0.5)])
def test_sprt_refuses_bad_parameters(options):
    with pytest.raises(ValueError):
        Sprt(**options)
