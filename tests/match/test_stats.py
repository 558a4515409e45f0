"""Elo, its bounds, LOS and the SPRT against values worked out by hand
from their formulas (each test writes the formula it checks)."""
import math

import pytest

from havhex.match.stats import Score, Sprt, elo_of_score, score_of_elo


def test_elo_of_a_score_is_the_logistic_curve():
    # s = 0.75: -400 * log10(1 / 0.75 - 1) = 400 * log10(3)
    assert elo_of_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_of_score(0.5) == pytest.approx(0.0)
    assert elo_of_score(1.0) == math.inf and elo_of_score(0.0) == -math.inf
    for elo in (-300.0, -12.5, 0.0, 40.0, 250.0):
        assert elo_of_score(score_of_elo(elo)) == pytest.approx(elo)


def test_elo_bounds_from_the_standard_error_of_the_score():
    # 60 wins, 20 draws, 20 losses: s = 0.7; per-game variance
    # (60 * 0.3^2 + 20 * 0.2^2 + 20 * 0.7^2) / 100 = (5.4 + 0.8 + 9.8) / 100 = 0.16,
    # standard error sqrt(0.16 / 100) = 0.04; bounds s -+ 1.96 * 0.04.
    elo, low, high = Score(60, 20, 20).elo()
    assert elo == pytest.approx(-400 * math.log10(1 / 0.7 - 1))
    margin = 1.959963984540054 * 0.04
    assert low == pytest.approx(-400 * math.log10(1 / (0.7 - margin) - 1))
    assert high == pytest.approx(-400 * math.log10(1 / (0.7 + margin) - 1))
    assert low < elo < high


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
