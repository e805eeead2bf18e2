"""The Glicko-2 rating system, as Mark Glickman defines it in "Example of the Glicko-2
system" (Boston University, 2013; http://www.glicko.net/glicko/glicko2.pdf): steps 1 to 8,
the volatility found by the Illinois algorithm of step 5.1 to 5.5. Ratings are on the
Glicko scale (1500, deviation 350 for a new player); the computation is on the Glicko-2
scale (divided by 173.7178).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import msgspec

SCALE = 173.7178
START = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5  # "Reasonable choices are between 0.3 and 1.2" (step 1)
EPSILON = 0.000001  # the convergence tolerance of step 5


class Rating(msgspec.Struct, frozen=True):
    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period of `results`: (the opponent's rating
    before the period, the score: 1 a win, 0.5 a draw, 0 a loss). No result: only the
    deviation grows (step 6), as for a period without games."""
    mu = (player.rating - START) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(phi_star * SCALE, START_DEVIATION), sigma)
    opponents = [((o.rating - START) / SCALE, o.deviation / SCALE, score) for o, score in results]
    v_inverse = 0.0
    gain = 0.0
    for mu_j, phi_j, score in opponents:
        expected = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inverse += g * g * expected * (1 - expected)
        gain += g * (score - expected)
    v = 1 / v_inverse
    delta = v * gain
    sigma_new = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Rating(START + SCALE * mu_new, min(SCALE * phi_new, START_DEVIATION), sigma_new)
