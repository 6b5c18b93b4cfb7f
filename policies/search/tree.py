"""One batched tree search over an engine's boards: N trees grown at once, mctx's loop with pluggable parts.

Each simulation walks every tree from its root to a leaf (a numba kernel over
plain arrays, knowing no game), copies the leaves' parent positions into a
scratch batch, plays each leaf's action there with the engine's own kernel,
and evaluates every new position with one call of the evaluator for the whole
batch. Values are per seat, so that a 3-4 player game backs up each player's
own value; rewards and game ends come from the engine.

The parts, as mctx's ``search`` takes them:

* **selection** (:class:`TreeSettings` ``root`` and ``interior``): ``"gumbel"``
  at the root considers the top ``considered`` actions of Gumbel-perturbed
  logits and halves them sequentially over the simulations, and below the
  root follows the improved policy minus the visit share (Danihelka et al.
  2022; mctx's ``gumbel_muzero_policy``); ``"puct"`` is AlphaZero's rule, the
  normalised completed Q plus ``exploration * prior * sqrt(visits) / (1 +
  child visits)``, its root playing the most visited action (mctx's
  ``muzero_policy``).
* **the evaluator** (:data:`Evaluate`): priors and values of new positions; a
  network (:func:`observed`, :mod:`policies.search.evaluators`) or random
  play-outs.
* **the Q-transform** (:data:`CompletedQ`): completed Q-values mixed with the
  network's value (mctx's ``qtransform_completed_by_mix_value``), computed once
  a node visited (:func:`_completed_scores`) and read by both rules and by the
  root's results.

With ``leaf_wins``, each new position is also played one ply ahead with every
legal move (the engine's own step, in a probe batch): a position whose player
to move can win at once is scored as that win, and walks stop there, as
``policies/search/alpha_beta.py``'s ``leaf_wins`` scores its leaves; a root with such a
move plays it. It costs one engine step per legal move of each new node.

A node keeps its evaluator's ``candidates`` best legal actions (the root: the
``considered`` best); the improved policy of the root, the training
target, covers every legal action. The evaluator is any
``evaluate(batch, rows, moves) -> (logits (k, L), values (k, P))`` of the
boards ``rows`` of ``batch``: ``moves`` holds each position's legal actions (-1
padding, whose logits are not read), ``logits[r, j]`` is the logit of
``moves[r, j]``, and the values are in seat order from the mover's (column 0:
the mover). A network of observations is made one by :func:`observed`, and a
network that gives every action's logit by :func:`every_action`; asking for the
legal moves' alone lets a network with thousands of actions compute a few
dozen columns of its action head.
"""

from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.core.batched import BatchedGame
from envs.core.checks import as_int, as_number
from envs.core.jit import njit

#: A network: ``network(observations (k, obs), moves (k, L)) -> (logits (k, L), values (k, P))``.
Network = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
#: The search's evaluator: ``evaluate(batch, rows, moves)``, the same of the boards ``rows`` of ``batch``.
Evaluate = Callable[[BatchedGame, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
NO_NODE = -1
GUMBEL, PUCT, UCT = 0, 1, 2  # the selection rules, as the kernels take them
RULES = {"gumbel": GUMBEL, "puct": PUCT, "uct": UCT}


@njit(cache=True)
def _read_moves(logits, moves, out):
    for r in range(moves.shape[0]):
        for j in range(moves.shape[1]):
            a = moves[r, j]
            out[r, j] = logits[r, a] if a >= 0 else -np.inf


def logits_of_moves(logits: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """(k, L) float32: each row's ``logits`` (k, A) over every action read at its ``moves`` (k, L), -inf where a
    move is -1 (padding). Compiled: numpy's ``take_along_axis`` costs most of a millisecond on 1024 rows."""
    out = np.empty(np.shape(moves), dtype=np.float32)
    _read_moves(np.ascontiguousarray(logits, np.float32), np.ascontiguousarray(moves, np.int64), out)
    return out


def observed(network: Network) -> Evaluate:
    """The search's ``evaluate`` of a ``network`` of observations: each board seen by its player to move."""

    def evaluate(batch: BatchedGame, rows: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return network(batch.observe(batch.to_move)[rows], moves)

    return evaluate


def every_action(network: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]) -> Evaluate:
    """The search's ``evaluate`` of a ``network(observations) -> (logits (k, A) over every action, values)``."""

    def legal_logits(observations: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, values = network(observations)
        return logits_of_moves(logits, moves), values

    return observed(legal_logits)


def seats_from_mover(movers: np.ndarray, players: int) -> np.ndarray:
    """(k, players): column ``j`` is the seat ``j`` places after each mover's (column 0 the mover), the order
    in which the network gives its values."""
    return (np.asarray(movers, dtype=np.int64)[:, None] + np.arange(players)[None, :]) % players


def considered_visits(considered: int, simulations: int) -> np.ndarray:
    """The visit count the root's chosen action has before simulation ``k`` (sequential halving, as mctx's
    ``get_sequence_of_considered_visits``): each phase gives every remaining action the same visits."""
    if considered <= 1:
        return np.arange(simulations, dtype=np.int32)
    phases = math.ceil(math.log2(considered))
    out: list[int] = []
    visits = [0] * considered
    remaining = considered
    while len(out) < simulations:
        extra = max(1, simulations // (phases * remaining))
        for _ in range(extra):
            out.extend(visits[:remaining])
            for i in range(remaining):
                visits[i] += 1
        remaining = max(2, remaining // 2)
    return np.array(out[:simulations], dtype=np.int32)


@dataclass
class SearchResult:
    """What a search says of each root: its ``action`` (-1 where the game is over), the improved ``policy``
    (N, A) over the legal actions (the training target), the root's ``value`` (N, P) by seat, and the
    candidates' ``visits``."""

    action: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    visits: np.ndarray


TREE_ARRAYS = (
    "action", "logit", "child", "visits", "value_sum", "raw_value", "reward", "mover", "terminal", "won", "gumbel",
)  # fmt: skip
Trees = namedtuple("Trees", TREE_ARRAYS)  # the kernels' one tree argument (numba takes a named tuple of arrays)


def new_trees(trees: int, nodes: int, width: int, players: int) -> Trees:
    """N trees of at most ``nodes`` nodes with ``width`` candidate actions each (see the module docstring):
    per candidate its action (-1: none), prior logit and child node (-1: not expanded); per node its visits,
    value sum and network value by seat, the reward by seat on entering it, its mover, whether the game
    is over there and whether its mover wins at once (``leaf_wins``: its value is then that win's rewards);
    per root candidate its Gumbel noise."""
    return Trees(
        action=np.full((trees, nodes, width), -1, dtype=np.int32),
        logit=np.full((trees, nodes, width), -np.inf, dtype=np.float32),
        child=np.full((trees, nodes, width), NO_NODE, dtype=np.int32),
        visits=np.zeros((trees, nodes), dtype=np.int32),
        value_sum=np.zeros((trees, nodes, players), dtype=np.float64),
        raw_value=np.zeros((trees, nodes, players), dtype=np.float32),
        reward=np.zeros((trees, nodes, players), dtype=np.float32),
        mover=np.zeros((trees, nodes), dtype=np.int8),
        terminal=np.zeros((trees, nodes), dtype=np.bool_),
        won=np.zeros((trees, nodes), dtype=np.bool_),
        gumbel=np.zeros((trees, width), dtype=np.float32),
    )


def clear_trees(t: Trees) -> None:
    for name, fill in (("action", -1), ("logit", -np.inf), ("child", NO_NODE), ("visits", 0), ("value_sum", 0.0)):
        getattr(t, name)[:] = fill
    for name in ("raw_value", "reward", "mover", "terminal", "won", "gumbel"):
        getattr(t, name)[:] = 0


# -- the tree kernels (numba; they know no game) ---------------------------------------------------------------
Rows = namedtuple("Rows", ("logits", "sigma", "visits", "q"))  # one node's candidates' scores (scratch, width long)


@njit(cache=True)
def _rows(width):
    return Rows(np.empty(width), np.empty(width), np.empty(width), np.empty(width))


@njit(cache=True)
def _completed_scores(t, i, n, scale, init, rows):
    """At node ``n`` of tree ``i``, from its mover's side, written into the caller's :data:`Rows` (kernels
    call this once a node walked, so it allocates nothing): the candidates' prior ``logits`` (-inf: none),
    their completed ``q`` (unvisited ones: the mixed value), its ``sigma`` and their ``visits``; returns the
    visits' total and the mixed value."""
    logits, sigma, visits, q = rows
    width = t.action.shape[2]
    p = t.mover[i, n]
    top = -np.inf
    for k in range(width):
        q[k], visits[k], logits[k], sigma[k] = 0.0, 0.0, -np.inf, -np.inf
        if t.action[i, n, k] >= 0:
            logits[k] = t.logit[i, n, k]
            top = max(top, logits[k])
    norm = 0.0
    for k in range(width):
        if logits[k] > -np.inf:
            norm += math.exp(logits[k] - top)
    total, probs_visited, weighted, most = 0.0, 0.0, 0.0, 0.0
    for k in range(width):
        c = t.child[i, n, k]
        if c >= 0 and t.visits[i, c] > 0:
            visits[k] = t.visits[i, c]
            q[k] = t.reward[i, c, p] + t.value_sum[i, c, p] / t.visits[i, c]
            prob = max(math.exp(logits[k] - top) / norm, 1e-30)
            probs_visited += prob
            weighted += prob * q[k]
            total += visits[k]
            most = max(most, visits[k])
    mixed = t.raw_value[i, n, p]
    if total > 0:
        mixed = (t.raw_value[i, n, p] + total * weighted / probs_visited) / (total + 1)
    low, high = np.inf, -np.inf
    for k in range(width):
        if logits[k] > -np.inf:
            if visits[k] == 0:
                q[k] = mixed
            low, high = min(low, q[k]), max(high, q[k])
    for k in range(width):
        if logits[k] > -np.inf:
            sigma[k] = (init + most) * scale * (q[k] - low) / max(high - low, 1e-8)
    return total, mixed


@njit(cache=True)
def _gumbel_root(t, i, target, rows):
    """The root's candidate with the best Gumbel score among those with the visits sequential halving asks for
    (``target``); when every one is past it, the least visited."""
    logits, sigma, visits = rows.logits, rows.sigma, rows.visits
    best, pick = -np.inf, -1
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf and visits[k] == target:
            score = t.gumbel[i, k] + logits[k] + sigma[k]
            if score > best:
                best, pick = score, k
    if pick < 0:  # every candidate is past the target (fewer candidates than halving planned): least visited
        for k in range(logits.shape[0]):
            if logits[k] > -np.inf and -visits[k] > best:
                best, pick = -visits[k], k
    return pick


@njit(cache=True)
def _gumbel_interior(total, rows):
    """The candidate whose improved-policy probability most exceeds its share of the node's ``total`` visits."""
    logits, sigma, visits = rows.logits, rows.sigma, rows.visits
    best, pick = -np.inf, -1
    top = -np.inf
    for k in range(logits.shape[0]):
        top = max(top, logits[k] + sigma[k])
    norm = 0.0
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf:
            norm += math.exp(logits[k] + sigma[k] - top)
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf:
            score = math.exp(logits[k] + sigma[k] - top) / norm - visits[k] / (1.0 + total)
            if score > best:
                best, pick = score, k
    return pick


@njit(cache=True)
def _puct(first_play, node_visits, exploration, rows):
    """AlphaZero's rule: the candidate with the best Q, scaled to [0, 1] over the candidates, plus
    ``exploration * prior * sqrt(node_visits) / (1 + its visits)``; a candidate not visited yet counts
    ``first_play`` (the node's own mean value for its mover) as its Q."""
    logits, visits, q = rows.logits, rows.visits, rows.q
    top, low, high = -np.inf, np.inf, -np.inf
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf:
            if visits[k] == 0:
                q[k] = first_play
            top = max(top, logits[k])
            low, high = min(low, q[k]), max(high, q[k])
    norm = 0.0
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf:
            norm += math.exp(logits[k] - top)
    root = math.sqrt(max(node_visits, 1.0))
    best, pick = -np.inf, -1
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf:
            prior = math.exp(logits[k] - top) / norm
            score = (q[k] - low) / max(high - low, 1e-8) + exploration * prior * root / (1.0 + visits[k])
            if score > best:
                best, pick = score, k
    return pick


@njit(cache=True)
def _uct(node_visits, exploration, rows):
    """UCB1: a candidate not visited yet first (the earliest), else the best Q, scaled to [0, 1] over the visited
    candidates, plus ``exploration * sqrt(log(node_visits) / its visits)``."""
    logits, visits, q = rows.logits, rows.visits, rows.q
    low, high = np.inf, -np.inf
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf:
            if visits[k] == 0:
                return k
            low, high = min(low, q[k]), max(high, q[k])
    log_n = math.log(max(node_visits, 1.0))
    best, pick = -np.inf, -1
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf:
            score = (q[k] - low) / max(high - low, 1e-8) + exploration * math.sqrt(log_n / visits[k])
            if score > best:
                best, pick = score, k
    return pick


@njit(cache=True)
def _pick(t, i, n, target, select, rows):
    """The candidate to follow at node ``n`` of tree ``i`` (-1: none), by the rule ``select`` names for the root
    or for the nodes below it (:data:`Selection`). ``rows``: scratch (:func:`_completed_scores`)."""
    total, _ = _completed_scores(t, i, np.int64(n), select.value_scale, select.visit_init, rows)
    rule = select.root if n == 0 else select.interior
    if rule == UCT:
        return _uct(float(t.visits[i, n]), select.exploration, rows)
    if rule == PUCT:
        p, visits = t.mover[i, n], t.visits[i, n]
        mean = t.value_sum[i, n, p] / visits if visits > 0 else np.float64(t.raw_value[i, n, p])
        return _puct(mean, float(visits), select.exploration, rows)
    if n == 0:
        return _gumbel_root(t, i, target, rows)
    return _gumbel_interior(total, rows)


@njit(cache=True)
def _select(t, trees, target, select, walk):
    """Walk trees ``0..trees-1`` from their roots: ``walk.path[i, :walk.depth[i]]`` the nodes passed, ending on
    an unexpanded candidate (``walk.parent[i]``, ``walk.slot[i]``), a finished game or a position its mover wins
    at once (``slot`` -1)."""
    rows = _rows(t.action.shape[2])
    for i in range(trees):
        n, d = 0, 0
        walk.parent[i], walk.slot[i] = -1, -1
        while True:
            walk.path[i, d] = n
            d += 1
            if t.terminal[i, n] or t.won[i, n]:
                break
            pick = _pick(t, i, np.int64(n), target[i], select, rows)  # int64: one compile, not one for 0
            if pick < 0:  # no candidate (no legal move): treated as the end
                break
            c = t.child[i, n, pick]
            if c < 0:
                walk.parent[i], walk.slot[i] = n, pick
                break
            n = c
        walk.depth[i] = d


@njit(cache=True)
def _backup(t, trees, walk):
    """Back each walk's leaf value (the network's; 0 where the game is over) up its path, each node's reward
    added on the way to its parent."""
    players = t.value_sum.shape[2]
    g = np.zeros(players)
    for i in range(trees):
        d = walk.depth[i]
        leaf = walk.path[i, d - 1]
        for p in range(players):
            g[p] = 0.0 if t.terminal[i, leaf] else t.raw_value[i, leaf, p]
        for j in range(d - 1, -1, -1):
            node = walk.path[i, j]
            t.visits[i, node] += 1
            for p in range(players):
                t.value_sum[i, node, p] += g[p]
                g[p] += t.reward[i, node, p]


@njit(cache=True)
def _keep_candidates(t, trees, nodes, moves, logits, noise, width):
    """Row ``r``'s ``width`` best legal actions by logit (plus ``noise[r]``, one per column of ``moves``, when
    ``noise`` has rows) become the candidates of node ``nodes[r]`` of tree ``trees[r]``, best first, ties to the
    earlier column; with noise, a kept action's noise goes to its root's Gumbel row. ``moves`` (rows, L): each
    row's legal actions (-1 padding); ``logits`` (rows, L): the network's logit of each."""
    best = np.empty(width, dtype=np.int64)
    score = np.empty(width, dtype=np.float64)
    noisy = noise.shape[0] > 0
    for r in range(moves.shape[0]):
        filled = 0
        for j in range(moves.shape[1]):
            a = moves[r, j]
            if a < 0 or logits[r, j] == -np.inf:
                continue
            s = logits[r, j] + noise[r, j] if noisy else logits[r, j]
            if filled < width:
                pos = filled
                filled += 1
            elif s > score[width - 1]:
                pos = width - 1
            else:
                continue
            while pos > 0 and score[pos - 1] < s:
                score[pos], best[pos] = score[pos - 1], best[pos - 1]
                pos -= 1
            score[pos], best[pos] = s, j
        i, n = trees[r], nodes[r]
        for k in range(width):
            if k < filled:
                t.action[i, n, k], t.logit[i, n, k] = moves[r, best[k]], logits[r, best[k]]
                if noisy:
                    t.gumbel[i, k] = noise[r, best[k]]
            else:
                t.action[i, n, k], t.logit[i, n, k] = -1, -np.inf
                if noisy:
                    t.gumbel[i, k] = 0.0


Walk = namedtuple("Walk", ("path", "depth", "parent", "slot"))  # one simulation's walks, for the kernels
Roots = namedtuple("Roots", ("action", "policy", "value", "visits"))  # what a search says of each root
#: The scale of completed Q-values (mctx's ``qtransform_completed_by_mix_value``, its defaults):
#: sigma(q) = (visit_init + max visits) * value_scale * q.
CompletedQ = namedtuple("CompletedQ", ("value_scale", "visit_init"), defaults=(0.1, 50.0))
MCTX_Q = CompletedQ()
#: The selection rules and the Q-transform as the kernels read them: the Q-transform's scale, the rule at the
#: root and below it (:data:`GUMBEL`, :data:`PUCT`) and PUCT's exploration constant.
Selection = namedtuple("Selection", ("value_scale", "visit_init", "root", "interior", "exploration"))


@njit(cache=True)
def _root_action(t, i, select, rows):
    """The root's action: with the Gumbel rule the best Gumbel score among the most visited, with PUCT or UCT the
    most visited (ties: the better completed Q, then a finished game, whose value is exact, then the earlier
    candidate); and the most visits."""
    logits, sigma, visits, q = rows
    most = -1.0
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf:
            most = max(most, visits[k])
    best, action, exact = -np.inf, -1, False
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf and visits[k] == most:
            score = t.gumbel[i, k] + logits[k] + sigma[k] if select.root == GUMBEL else q[k]
            ends = select.root != GUMBEL and t.child[i, 0, k] >= 0 and t.terminal[i, t.child[i, 0, k]]
            if score > best or (score == best and ends and not exact):
                best, action, exact = score, t.action[i, 0, k], ends
    return action, most


@njit(cache=True)
def _improved_policy(select, mixed, most, actions, moves, move_logits, rows, row):
    """A root's improved policy into ``row`` (by action; the legal ones written): with the Gumbel rule
    softmax(logits + sigma(completed Q)) over every legal action, those not among its candidates completed by
    the mixed value as unvisited candidates are; with PUCT or UCT the candidates' visit shares. ``actions``: its
    candidates' actions; ``moves``, ``move_logits``: its legal actions (-1 padding) and the evaluator's logits."""
    logits, sigma, visits, q = rows
    if select.root != GUMBEL:
        total = 0.0
        for k in range(logits.shape[0]):
            total += visits[k] if logits[k] > -np.inf else 0.0
        for j in range(moves.shape[0]):
            if moves[j] >= 0:
                row[moves[j]] = 0.0
        for k in range(logits.shape[0]):
            if logits[k] > -np.inf:
                row[actions[k]] = visits[k] / max(total, 1.0)
        return
    low, high = mixed, mixed
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf and visits[k] > 0:
            low, high = min(low, q[k]), max(high, q[k])
    unvisited = (select.visit_init + most) * select.value_scale * (mixed - low) / max(high - low, 1e-8)
    for j in range(moves.shape[0]):
        a = moves[j]
        if a >= 0:
            row[a] = move_logits[j] + unvisited
    for k in range(logits.shape[0]):
        if logits[k] > -np.inf:
            row[actions[k]] = logits[k] + sigma[k]
    top, total = -np.inf, 0.0
    for j in range(moves.shape[0]):
        a = moves[j]
        if a >= 0 and move_logits[j] > -np.inf:
            top = max(top, row[a])
    for j in range(moves.shape[0]):
        a = moves[j]
        if a >= 0 and move_logits[j] > -np.inf:
            row[a] = math.exp(row[a] - top)
            total += row[a]
    for j in range(moves.shape[0]):
        a = moves[j]
        if a >= 0 and move_logits[j] > -np.inf:
            row[a] /= total


@njit(cache=True)
def _root_results(t, root_moves, root_logits, select, out):
    """Each root's action (:func:`_root_action`), improved policy (:func:`_improved_policy`; ``out.policy``
    starts at 0), candidates' visits and mean value by seat. ``root_moves`` (N, L): each root's legal actions
    (-1 padding); ``root_logits`` (N, L): the evaluator's logit of each."""
    rows = _rows(t.action.shape[2])
    row = np.empty(out.policy.shape[1])  # one root's policy, by action
    for i in range(out.action.shape[0]):
        out.action[i] = -1
        if t.terminal[i, 0] or t.action[i, 0, 0] < 0:
            continue
        _, mixed = _completed_scores(t, i, np.int64(0), select.value_scale, select.visit_init, rows)
        out.action[i], most = _root_action(t, i, select, rows)
        for k in range(rows.logits.shape[0]):
            if rows.logits[k] > -np.inf:
                out.visits[i, k] = rows.visits[k]
        _improved_policy(select, mixed, most, t.action[i, 0], root_moves[i], root_logits[i], rows, row)
        for j in range(root_moves.shape[1]):
            a = root_moves[i, j]
            if a >= 0 and (select.root != GUMBEL or root_logits[i, j] > -np.inf):
                out.policy[i, a] = row[a]
        for p in range(t.value_sum.shape[2]):
            out.value[i, p] = t.value_sum[i, 0, p] / max(t.visits[i, 0], 1)


def winning_moves(
    batch: BatchedGame, rows: np.ndarray, moves: np.ndarray, movers: np.ndarray, probe: BatchedGame
) -> tuple[np.ndarray, np.ndarray]:
    """For each board ``rows[r]`` of ``batch``: the first of its legal actions ``moves[r]`` (-1 padding) that
    ends the game with a positive reward for its mover ``movers[r]`` (-1: none), and the rewards by seat of that
    move (zeros: none). Every (board, action) pair is played on a copy in ``probe`` (a batch of the same engine),
    as many at once as it has boards."""
    win = np.full(rows.size, -1, dtype=np.int64)
    won_rewards = np.zeros((rows.size, batch.num_players), dtype=np.float32)
    pair_row, pair_col = np.nonzero(moves >= 0)  # row-major: each row's actions in their order
    size = probe.num_envs
    actions = np.full(size, -1, dtype=np.int64)
    for start in range(0, pair_row.size, size):
        r, j = pair_row[start : start + size], pair_col[start : start + size]
        n = r.size
        probe.copy_boards(batch, rows[r], np.arange(n))
        actions[:n], actions[n:] = moves[r, j], -1
        rewards, over = probe.step(actions, checked=True)
        hit = np.flatnonzero(over[:n] & (rewards[np.arange(n), movers[r]] > 0))
        first, at = np.unique(r[hit], return_index=True)  # each row's first winning action of this chunk
        fresh = win[first] < 0
        win[first[fresh]] = moves[first[fresh], j[hit[at[fresh]]]]
        won_rewards[first[fresh]] = rewards[hit[at[fresh]]]
    return win, won_rewards


@dataclass(frozen=True)
class TreeSettings:
    """What one tree search does at each run, checked once (the board-independent half of :class:`TreeSearch`).

    Args:
        simulations: simulations a search (>= 1).
        considered: root actions considered (Gumbel top-k, then halved).
        candidates: legal actions a node below the root keeps (its network's best).
        q_transform: the scale of completed Q-values (:data:`CompletedQ`; mctx's defaults).
        leaf_wins: score a new position whose mover can win at once as that win (see the module docstring).
        root, interior: the selection rule at the root and below it, ``"gumbel"``, ``"puct"`` or ``"uct"``.
        exploration: PUCT's or UCT's constant (its exploration term's weight against Q scaled to [0, 1]).
    """

    simulations: int = 16
    considered: int = 16
    candidates: int = 16
    q_transform: CompletedQ = MCTX_Q
    leaf_wins: bool = False
    root: str = "gumbel"
    interior: str = "gumbel"
    exploration: float = 1.25

    def __post_init__(self) -> None:
        for label in ("simulations", "considered", "candidates"):
            value = getattr(self, label)
            if (plain := as_int(value)) is None or plain < 1:
                raise ValueError(f"tree search: {label} must be an int >= 1, got {value!r}")
            object.__setattr__(self, label, plain)
        if not isinstance(self.leaf_wins, (bool, np.bool_)):
            raise ValueError(f"tree search: leaf_wins must be True or False, got {self.leaf_wins!r}")
        object.__setattr__(self, "leaf_wins", bool(self.leaf_wins))
        q = self.q_transform
        object.__setattr__(self, "q_transform", CompletedQ(float(q.value_scale), float(q.visit_init)))
        for label in ("root", "interior"):
            if getattr(self, label) not in RULES:
                raise ValueError(
                    f"tree search: {label} must be one of {', '.join(RULES)}, got {getattr(self, label)!r}"
                )
        if (exploration := as_number(self.exploration)) is None or not exploration >= 0:
            raise ValueError(f"tree search: exploration must be a number >= 0, got {self.exploration!r}")
        object.__setattr__(self, "exploration", exploration)

    def selection(self) -> Selection:
        """The rules and the Q-transform, as the kernels take them."""
        q = self.q_transform
        return Selection(q.value_scale, q.visit_init, RULES[self.root], RULES[self.interior], self.exploration)


class TreeSearch:
    """The tree search for the boards of one engine: Gumbel or PUCT selection, any evaluator (module docstring).

    Args:
        batch: any batch of the engine; searches start from boards of batches like it.
        evaluate: the evaluator (:data:`Evaluate`).
        trees: how many roots one :meth:`run` searches at most.
        simulations, considered: as :class:`TreeSettings`.
        seed: the Gumbel noise's generator.
        **settings: the other fields of :class:`TreeSettings` (``candidates``, ``q_transform``, ``leaf_wins``,
            ``root``, ``interior``, ``exploration``).
    """

    #: boards the ``leaf_wins`` probe steps at once at least (one per legal move of the positions it checks)
    PROBE_BOARDS = 1024

    def __init__(
        self,
        batch: BatchedGame,
        evaluate: Evaluate,
        trees: int,
        simulations: int = 16,
        considered: int = 16,
        *,
        seed: int | None = None,
        **settings: Any,
    ) -> None:
        if (plain := as_int(trees)) is None or plain < 1:
            raise ValueError(f"tree search: trees must be an int >= 1, got {trees!r}")
        unknown = sorted(set(settings) - set(TreeSettings.__dataclass_fields__))
        if unknown:
            raise TypeError(
                f"tree search: unknown keyword(s) {', '.join(unknown)}; it takes trees, seed and "
                f"{', '.join(TreeSettings.__dataclass_fields__)}"
            )
        self.settings = given = TreeSettings(simulations, considered, **settings)
        self.simulations, self.considered, self.candidates = given.simulations, given.considered, given.candidates
        self.leaf_wins, self.q_transform = given.leaf_wins, given.q_transform
        self.select = given.selection()
        self.engine, self.evaluate = batch.engine, evaluate
        self.rng = np.random.default_rng(seed)
        self.num_trees, self.nodes, self.players = plain, self.simulations + 1, batch.num_players
        self.store = BatchedGame(self.engine, self.num_trees * self.nodes, seed=0)  # tree i's node n: i*nodes+n
        self.scratch = BatchedGame(self.engine, self.num_trees, seed=0)
        probe_boards = max(self.PROBE_BOARDS, 8 * self.num_trees)
        self.probe = BatchedGame(self.engine, probe_boards, seed=0) if self.leaf_wins else None
        self.trees = new_trees(self.num_trees, self.nodes, max(self.considered, self.candidates), self.players)
        #: row m: the visits sequential halving asks of the root's chosen action at each simulation, m considered
        self.halving = np.array([considered_visits(m, self.simulations) for m in range(self.considered + 1)])
        self.used = np.zeros(self.num_trees, dtype=np.int32)  # nodes each tree has below its root
        self.wins = np.full(self.num_trees, -1, dtype=np.int64)  # each root's winning action (leaf_wins; -1: none)
        self._no_noise = np.zeros((0, 0), dtype=np.float32)

    def run(self, batch: BatchedGame, boards: np.ndarray, gumbel: bool = True) -> SearchResult:
        """Search from ``batch``'s ``boards`` (at most ``trees`` of them); ``gumbel=False``: no noise (to play)."""
        boards = np.asarray(boards, dtype=np.int64)
        if boards.ndim != 1 or boards.size > self.num_trees:
            raise ValueError(f"tree search: at most {self.num_trees} boards a run, got {boards.shape}")
        k = boards.size
        clear_trees(self.trees)
        self.used[:] = 0
        self.wins[:] = -1
        self.store.copy_boards(batch, boards, np.arange(k) * self.nodes)
        self.scratch.copy_boards(batch, boards, np.arange(k))
        root_moves, root_logits = self._expand_roots(k, gumbel)
        considered = (self.trees.action[:k, 0] >= 0).sum(axis=1)
        walk = Walk(
            np.zeros((k, self.nodes + 1), dtype=np.int32), np.zeros(k, dtype=np.int32),
            np.zeros(k, dtype=np.int32), np.zeros(k, dtype=np.int32),
        )  # fmt: skip
        for sim in range(self.simulations):
            target = self.halving[considered, sim]
            _select(self.trees, k, target, self.select, walk)
            self._expand(k, walk)
            _backup(self.trees, k, walk)
        return self._result(k, root_moves, root_logits)

    # -- steps ---------------------------------------------------------------------------------------------
    def _evaluate(self, batch: BatchedGame, rows: np.ndarray):
        """``batch``'s boards ``rows`` through the network: their legal actions (k, L) (-1 padding), the logit of
        each (k, L), values (k, P) by absolute seat and movers (k,)."""
        movers = batch.to_move[rows].astype(np.int64)
        moves = self._legal_moves(batch, rows)
        logits, values = self.evaluate(batch, rows, moves)
        logits = np.asarray(logits, dtype=np.float32)
        if logits.shape != moves.shape:
            raise ValueError(
                f"tree search: the network gave logits of shape {logits.shape} for legal moves of shape "
                f"{moves.shape}: it must give the logit of each row's legal moves (a network over every action: "
                "wrap it in every_action)"
            )
        absolute = np.zeros((rows.size, self.players), dtype=np.float32)
        np.put_along_axis(absolute, seats_from_mover(movers, self.players), np.asarray(values, np.float32), axis=1)
        return moves, logits, absolute, movers

    def _legal_moves(self, batch: BatchedGame, rows: np.ndarray) -> np.ndarray:
        """The legal actions of boards ``rows`` (k, L), -1 padding: the engine's list of legal moves where it
        keeps one (thousands of actions, a few dozen legal), else from the legal mask."""
        if self.engine.legal_list is None:
            masks = batch.legal_mask(rows)
            return np.where(masks, np.arange(masks.shape[1]), -1)
        batch.ensure_legal()
        moves, count = (batch.arrays[name][rows] for name in self.engine.legal_list)
        valid = np.arange(moves.shape[1]) < np.asarray(count).reshape(-1, 1)
        return np.where(valid, moves.astype(np.int64), -1)

    def _expand_roots(self, k: int, gumbel: bool) -> tuple[np.ndarray, np.ndarray]:
        """The roots' network outputs and candidates (the Gumbel-top ``considered``); their legal actions (k, L)
        (-1 padding; none where the game is over) and their network's logit of each (k, L)."""
        t = self.trees
        t.terminal[:k, 0] = self.scratch.over[:k]
        live = np.flatnonzero(~t.terminal[:k, 0])
        root_moves = np.full((k, 0), -1, dtype=np.int64)
        root_logits = np.zeros((k, 0), dtype=np.float32)
        if live.size:
            moves, logits, t.raw_value[live, 0], t.mover[live, 0] = self._evaluate(self.scratch, live)
            root_moves = np.full((k, moves.shape[1]), -1, dtype=np.int64)
            root_logits = np.zeros((k, moves.shape[1]), dtype=np.float32)
            root_moves[live], root_logits[live] = moves, logits
            noise = self.rng.gumbel(size=moves.shape).astype(np.float32) if gumbel else np.zeros_like(moves, np.float32)
            _keep_candidates(t, live, np.zeros(live.size, dtype=np.int64), moves, logits, noise, self.considered)
            self._mark_wins(live, np.zeros(live.size, dtype=np.int64), moves)
        return root_moves, root_logits

    def _expand(self, k: int, walk: Walk) -> None:
        """A new node where a walk ended on an unexpanded candidate: its parent's position stepped by the
        candidate's action (in the scratch batch), stored and evaluated; the walk then ends on it."""
        t = self.trees
        grow = np.flatnonzero(walk.slot[:k] >= 0)
        if grow.size == 0:
            return
        parent, slot = walk.parent[grow], walk.slot[grow]
        self.used[grow] += 1
        new = self.used[grow]
        self.scratch.copy_boards(self.store, grow * self.nodes + parent, grow)
        actions = np.full(self.num_trees, -1, dtype=np.int64)
        actions[grow] = t.action[grow, parent, slot]
        rewards, over = self.scratch.step(actions, checked=True)  # candidates come from the legal moves
        self.store.copy_boards(self.scratch, grow, grow * self.nodes + new)
        t.child[grow, parent, slot] = new
        t.reward[grow, new] = rewards[grow]
        t.terminal[grow, new] = over[grow]
        live = ~over[grow]
        if live.any():
            rows, nodes = grow[live], new[live]
            moves, logits, t.raw_value[rows, nodes], t.mover[rows, nodes] = self._evaluate(self.scratch, rows)
            _keep_candidates(t, rows, nodes.astype(np.int64), moves, logits, self._no_noise, self.candidates)
            self._mark_wins(rows, nodes, moves)
        walk.path[grow, walk.depth[grow]] = new
        walk.depth[grow] += 1

    def _mark_wins(self, rows: np.ndarray, nodes: np.ndarray, moves: np.ndarray) -> None:
        """With ``leaf_wins``: the new nodes ``nodes`` of trees ``rows`` (their positions on the scratch batch's
        boards ``rows``, their legal actions ``moves``) whose mover wins at once are marked ``won``, valued by
        that win's rewards; the win (the first such action in ``moves``) is kept in ``self.wins``."""
        if not self.leaf_wins:
            return
        t = self.trees
        win, rewards = winning_moves(self.scratch, rows, moves, t.mover[rows, nodes].astype(np.int64), self.probe)
        hit = win >= 0
        t.won[rows[hit], nodes[hit]] = True
        t.raw_value[rows[hit], nodes[hit]] = rewards[hit]
        root = hit & (nodes == 0)
        self.wins[rows[root]] = win[root]

    def _result(self, k: int, root_moves: np.ndarray, root_logits: np.ndarray) -> SearchResult:
        """Each root's action, improved policy over all legal actions and value (:func:`_root_results`)."""
        out = Roots(
            np.full(k, -1, dtype=np.int64),
            np.zeros((k, self.engine.num_actions), dtype=np.float32),
            np.zeros((k, self.players), dtype=np.float64),
            np.zeros((k, self.trees.action.shape[2]), dtype=np.int32),
        )
        _root_results(self.trees, root_moves, root_logits, self.select, out)
        won = np.flatnonzero(self.wins[:k] >= 0)  # a root its mover wins at once: that win, all the policy on it
        out.action[won] = self.wins[won]
        out.policy[won] = 0.0
        out.policy[won, self.wins[won]] = 1.0
        return SearchResult(out.action, out.policy, out.value.astype(np.float32), out.visits)


__all__ = [
    "MCTX_Q",
    "PUCT",
    "GUMBEL",
    "UCT",
    "CompletedQ",
    "Network",
    "Selection",
    "SearchResult",
    "TreeSettings",
    "TreeSearch",
    "Trees",
    "considered_visits",
    "every_action",
    "logits_of_moves",
    "new_trees",
    "observed",
    "seats_from_mover",
    "winning_moves",
]
