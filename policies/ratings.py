"""Ratings fitted to whole games: a Plackett-Luce model of each game's finishing order, with 95% intervals from
a bootstrap that resamples whole deals (numpy only).

A game of n players is read as its finishing order: the first place is "chosen" among all players with
probability proportional to their strengths ``w = exp(theta)``, the next among the rest, and so on (Plackett
1975, Luce 1959; with two players this is Bradley-Terry, the model behind Elo). Players sharing a place (a draw,
two swimmers sinking at one showdown) are taken as Breslow ties: each of them is chosen against the same set of
players left, the k terms of a tie of k weighted (k - 1) / k, so that a two-player draw is Elo's half a win and
two-player ratings are exactly the Bradley-Terry / Elo fit of earlier ladders. A player who never wins but often
comes second is therefore told apart from one who comes last, and a game counts once, not as n - 1 pairwise
results.

Why a short fit of our own rather than a library: openskill's Plackett-Luce (``openskill.models.weng_lin.
plackett_luce``, after Weng and Lin 2011) is an online update whose result depends on the order games are fed to
it and whose sigma is an approximation, not an interval; choix (``choix.opt_rankings``) fits the same likelihood
by maximum likelihood but takes no ties and gives no intervals. Here the likelihood is the one openskill's
Plackett-Luce approximates, maximised exactly by Newton's method (a few entrants: the Hessian is tiny), and the
intervals come from resampling whole deals, so games played from one deal (or opening) stay together and their
shared luck is not counted as independent evidence, widened where the likelihood-ratio interval is wider (a
record of only wins or only losses, which resampling cannot widen).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ELO_PER_NAT = 400 / np.log(10)  # Elo points per unit of log-strength: 400 Elo is a factor 10 in odds


@dataclass(frozen=True)
class RatedGames:
    """Whole games to rate: ``players[g, k]`` the entrant (index) in game ``g``'s k-th place at the table (an
    entrant may fill several, e.g. one against three copies of another), ``ranks[g, k]`` that player's place
    (0 first, equal places tied), ``blocks[g]`` the deal or opening the game was played from (games of one
    block are resampled together) and ``strata[g]`` the series it belongs to (resampled within it)."""

    players: np.ndarray
    ranks: np.ndarray
    blocks: np.ndarray
    strata: np.ndarray

    @staticmethod
    def of(players, ranks, blocks=None, strata=None) -> RatedGames:
        players, ranks = np.asarray(players, dtype=np.int64), np.asarray(ranks, dtype=np.int64)
        games = len(players)
        blocks = np.arange(games) if blocks is None else np.asarray(blocks, dtype=np.int64)
        strata = np.zeros(games, dtype=np.int64) if strata is None else np.asarray(strata, dtype=np.int64)
        return RatedGames(players, ranks, blocks, strata)


@dataclass(frozen=True)
class Stages:
    """The likelihood's terms: per stage (a place being filled in one game), how many players of each entrant
    fill it (``chosen``, weighted for ties) and are still in the running (``left``), and the game it belongs to
    (-1: the prior)."""

    chosen: np.ndarray  # (S, E)
    left: np.ndarray  # (S, E)
    game: np.ndarray  # (S,)


def stages(games: RatedGames, entrants: int) -> Stages:
    """Every place of every game as a stage, plus one virtual draw between every two entrants (weighted by
    :func:`fit`'s ``prior``: it keeps a perfect record's rating finite, as one draw each did for the old pairwise
    fit)."""
    chosen, left, game = [], [], []
    for g, (seated, placed) in enumerate(zip(games.players, games.ranks)):
        for level in np.unique(placed):
            running = placed >= level
            if running.sum() < 2:
                continue
            tied = int((placed == level).sum())
            share = (tied - 1) / tied if tied > 1 else 1.0  # a tie of k counts k - 1 choices: a draw is half a win
            chosen.append(np.bincount(seated[placed == level], minlength=entrants) * share)
            left.append(np.bincount(seated[running], minlength=entrants))
            game.append(g)
    for i in range(entrants):
        for j in range(i + 1, entrants):
            pair = np.zeros(entrants)
            pair[[i, j]] = 1
            chosen.append(pair / 2)
            left.append(pair)
            game.append(-1)
    shape = (-1, entrants)
    chosen_a, left_a = np.array(chosen, dtype=float).reshape(shape), np.array(left, dtype=float).reshape(shape)
    return Stages(chosen_a, left_a, np.array(game))


def fit(st: Stages, weight: np.ndarray, anchor: int = 0, prior: float = 1.0, held=None) -> tuple[np.ndarray, float]:
    """(log-strengths, log-likelihood) maximising the weighted Plackett-Luce likelihood with ``anchor`` at 0 (and,
    for a profile, ``held = (entrant, value)`` held there): Newton's method on the concave log-likelihood, the
    step halved until it rises. ``weight[s]``: how many times stage ``s`` counts (the prior's ``prior``)."""
    weight = np.where(st.game < 0, prior, weight)
    entrants = st.left.shape[1]
    free = np.arange(entrants) != anchor
    theta = np.zeros(entrants)
    if held is not None:
        free[held[0]] = False
        theta[held[0]] = held[1]
    size = st.chosen.sum(axis=1) * weight  # players chosen at each stage, weighted
    wins = weight @ st.chosen

    present = st.left > 0

    def weighed(theta):
        """Per stage, each entrant's players' share of the strength left, and the log of that strength (each
        stage scaled by its strongest entrant, so that none underflows)."""
        top = np.where(present, theta, -np.inf).max(axis=1)
        parts = np.where(present, st.left * np.exp(np.minimum(theta - top[:, None], 0.0)), 0.0)
        total = parts.sum(axis=1)
        return parts / total[:, None], np.log(total) + top

    def loglik(theta):
        return wins @ theta - size @ weighed(theta)[1]

    current = loglik(theta)
    for _ in range(200):
        share = weighed(theta)[0]
        grad = wins - size @ share
        hess = share.T @ (size[:, None] * share) - np.diag(size @ share)
        step = np.zeros(entrants)
        if free.any():
            inner = -hess[np.ix_(free, free)] + 1e-12 * np.eye(int(free.sum()))  # a ridge: never singular
            step[free] = np.linalg.solve(inner, grad[free])
        scale = 1.0
        while not loglik(theta + scale * step) >= current - 1e-12 and scale > 1e-6:  # NaN: too far, halve
            scale /= 2
        theta = theta + scale * step
        current = loglik(theta)
        if np.max(np.abs(scale * step)) < 1e-9:
            break
    return theta, current


PROFILE_DROP = 1.920729  # half the 95% quantile of chi-squared with one degree of freedom
PROFILE_REACH = 12.0  # nats (about 2,100 Elo) from the fit at most: beyond, the bound is given as that far


def profile_bounds(st: Stages, weight: np.ndarray, entrant: int, anchor: int = 0, prior: float = 1.0):
    """(low, high) log-strength of ``entrant`` where the likelihood, maximised over the others, falls
    ``PROFILE_DROP`` below its best: the likelihood-ratio 95% interval, which stays honest for a record that is
    all wins or all losses (one side then reaches far, as the data cannot bound it; the prior alone does)."""
    best, top = fit(st, weight, anchor, prior)

    def below(value: float) -> bool:
        return fit(st, weight, anchor, prior, held=(entrant, value))[1] < top - PROFILE_DROP

    ends = []
    for direction in (-1.0, 1.0):
        inside, outside = best[entrant], best[entrant] + direction * PROFILE_REACH
        if not below(outside):
            ends.append(outside)
            continue
        for _ in range(30):
            middle = (inside + outside) / 2
            inside, outside = (inside, middle) if below(middle) else (middle, outside)
        ends.append((inside + outside) / 2)
    return ends[0], ends[1]


def resample_weights(games: RatedGames, rng: np.random.Generator) -> np.ndarray:
    """How many times each game counts in one bootstrap sample: within each series, its blocks (deals,
    openings) drawn with replacement as many times as it has blocks, every game of a drawn block counted."""
    counts = np.zeros(len(games.blocks))
    for stratum in np.unique(games.strata):
        inside = np.flatnonzero(games.strata == stratum)
        blocks, which = np.unique(games.blocks[inside], return_inverse=True)
        drawn = np.bincount(rng.integers(len(blocks), size=len(blocks)), minlength=len(blocks))
        counts[inside] = drawn[which]
    return counts


@dataclass(frozen=True)
class Rating:
    """An entrant's rating in Elo points (the anchor at 0) and its 95% interval (``low``, ``high``)."""

    rating: float
    low: float
    high: float


def rate(
    games: RatedGames, entrants: int, anchor: int = 0, samples: int = 200, seed: int = 0, prior: float = 1.0
) -> list[Rating]:
    """Each entrant's Plackett-Luce rating in Elo (``anchor`` = 0) and a 95% interval relative to the anchor
    (whose own is [0, 0]): the wider, on each side, of the 2.5 and 97.5 percentiles of ``samples`` refits on
    resampled deals (:func:`resample_weights`: the games' shared luck) and the likelihood-ratio interval
    (:func:`profile_bounds`: what the data cannot bound, such as a record of only wins, which every resample
    repeats)."""
    st = stages(games, entrants)
    per_stage = np.where(st.game >= 0, 1.0, 0.0)
    point = fit(st, per_stage, anchor, prior)[0] * ELO_PER_NAT
    rng = np.random.default_rng(seed)
    boots = np.empty((samples, entrants))
    for b in range(samples):
        counts = resample_weights(games, rng)
        boots[b] = fit(st, np.where(st.game >= 0, counts[st.game], 0.0), anchor, prior)[0] * ELO_PER_NAT
    low, high = np.percentile(boots, [2.5, 97.5], axis=0) if samples else (point, point)
    ratings = []
    for e in range(entrants):
        if e == anchor:
            ratings.append(Rating(0.0, 0.0, 0.0))
            continue
        lo, hi = (bound * ELO_PER_NAT for bound in profile_bounds(st, per_stage, e, anchor, prior))
        ratings.append(Rating(float(point[e]), float(min(low[e], lo)), float(max(high[e], hi))))
    return ratings


def sample_games(theta: np.ndarray, tables: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Finishing places drawn from the Plackett-Luce model with log-strengths ``theta`` for each table of
    ``tables[g]`` (entrant indices): the known answer the fit is tested against."""
    ranks = np.empty_like(tables)
    for g, seated in enumerate(tables):
        left = list(range(len(seated)))
        for place in range(len(seated)):
            w = np.exp(theta[seated[left]])
            k = left.pop(int(rng.choice(len(left), p=w / w.sum())))
            ranks[g, k] = place
    return ranks
