"""The Python alpha-beta: the slow, obvious reference the compiled search (policies/search/compiled.py, run by
``PolicySearch``) is pinned to, move for move (tests/search/test_alpha_beta.py).

Depth-limited alpha-beta over the game's own rules, one position object at a time, with the settings of
:class:`policies.search.alpha_beta.AlphaBetaSettings` (the exact solver aside: that step runs in front of either
search). The work it counts (each position built 1, each pass of the network ``NETWORK_PASS_WORK``) is what the
compiled search counts, so a capped search gives up at the same point.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from policies.numpy_policy import NumpyPolicy, masked_softmax
from policies.search.alpha_beta import AlphaBetaSettings
from policies.search.compiled import NETWORK_PASS_WORK
from policies.search.player import NetworkSearch


class _OverBudget(Exception):
    """The search did more work than ``max_work`` allows."""


class ReferenceSearch(NetworkSearch):
    """The Python search of ``depth`` plies with ``policy`` as prior and evaluator; ``settings``: the keywords of
    :class:`AlphaBetaSettings`."""

    def __init__(self, policy: NumpyPolicy, name: str, params: dict[str, Any] | None = None, **settings: Any) -> None:
        self.settings = s = AlphaBetaSettings(**settings)
        self._attach(policy, name, params)
        self.depth, self.width, self.leaf_wins = s.depth, s.width or 10**9, s.leaf_wins  # width 0: every legal move
        self.use_value = s.leaf_value == "network"
        self.root_width = s.root_width or 10**9  # 0: every legal move at the root
        self.quiescence, self.quiescence_width = s.quiescence, s.quiescence_width
        self.order_by_value = s.order_by == "value"
        self.max_work, self.total_work = s.max_work, s.total_work
        self.rng = np.random.default_rng(0)  # for rules that draw chance in apply
        self.nodes = 0  # positions searched for the last move
        self.work = 0  # work done for the last move
        self.searched_depth = 0  # plies the last move was searched to
        self._work_cap = np.inf

    def searched_move(self, observation: np.ndarray, action_mask: np.ndarray, state: Any) -> int:
        return self.best_move(state)[0]

    def best_move(self, state: Any) -> tuple[int, float]:
        """(action, value for the player to move) of the searched position (``PolicySearch.best_move`` without
        the solver)."""
        if self.total_work:
            return self._deepened_move(state)
        for depth in range(self.depth, 0, -1):
            result = self._capped_search(state, depth, self.max_work if self.max_work and depth > 1 else np.inf)
            if result is not None:
                self.searched_depth = depth
                return result
        raise AssertionError("a 1-ply search has no work cap")  # pragma: no cover

    def _deepened_move(self, state: Any) -> tuple[int, float]:
        """``best_move`` with ``total_work``: 1, 2, ... plies, until the next depth would pass the budget."""
        result, nodes, spent = None, 0, 0
        for depth in range(1, self.depth + 1):
            deeper = self._capped_search(state, depth, self.total_work - spent if depth > 1 else np.inf)
            spent += self.work
            if deeper is None:
                break
            result, nodes, self.searched_depth = deeper, self.nodes, depth
        self.nodes, self.work = nodes, spent
        return result

    def _capped_search(self, state: Any, depth: int, cap: float) -> tuple[int, float] | None:
        """``_search_root`` at ``depth`` counting its work from 0; None once that work passes ``cap``."""
        self.nodes = self.work = 0
        self._work_cap = cap
        try:
            return self._search_root(state, depth)
        except _OverBudget:
            return None
        finally:
            self._work_cap = np.inf  # the cap binds best_move only

    def _search_root(self, state: Any, depth: int) -> tuple[int, float]:
        me = self.game.to_move(state)
        best_action, best_value = -1, -np.inf
        alpha, beta = -np.inf, np.inf
        built: dict[int, Any] = {}
        for action in self.candidates(state, self.root_width, game_enders_first=False, built=built):
            value = self.value(self._child(state, action, built), depth - 1, me, alpha, beta)
            if value > best_value:
                best_action, best_value = action, value
            alpha = max(alpha, value - 1e-9)  # keep equal values exact, for the tie-break
        return best_action, float(best_value)

    def candidates(
        self,
        state: Any,
        width: int | None = None,
        game_enders_first: bool = True,
        ordered: bool = True,
        built: dict[int, Any] | None = None,
    ) -> list[int]:
        """The moves the search tries at ``state``: the network's ``width`` favourite legal moves
        (``order_by``), best first, and every game-ending move.

        With ``ordered=False`` and a width that takes every move, the legal moves
        come unordered, without asking the network. Positions the ordering had
        to play out go into ``built`` (action -> position), for the caller to reuse.
        """
        width = self.width if width is None else width
        mask = self.game.legal_mask(state)
        legal = np.flatnonzero(mask)
        if not ordered and legal.size <= width:
            return legal.tolist()
        if self.order_by_value:
            values, children = self._move_values(state, legal)
            chosen = legal[np.argsort(-values, kind="stable")[:width]]
            if built is not None:
                built.update(zip(legal.tolist(), children))
        else:
            self._spend(NETWORK_PASS_WORK)
            logits = self.policy.logits_of(self.observe(self.game, state, self.game.to_move(state)), legal)
            chosen = legal[np.argsort(-masked_softmax(logits, np.ones(legal.size, dtype=bool)), kind="stable")[:width]]
        moves = [int(a) for a in chosen]
        if legal.size > width:
            chosen_set = set(moves)
            rest = [int(a) for a in legal if int(a) not in chosen_set]
            for a in self.game.ending_moves(state, rest, self.rng):
                moves.insert(0 if game_enders_first else len(moves), a)
        return moves

    def _move_values(self, state: Any, legal: np.ndarray) -> tuple[np.ndarray, list[Any]]:
        """One ply deep, for the player to move: the value head on each move's result
        (one batched pass), a finished game scored beyond it (+2 won, 0 drawn, -2 lost);
        and those results."""
        mover = self.game.to_move(state)
        children = [self._child(state, int(a)) for a in legal]
        values = self._value_head(children, mover)
        for i, child in enumerate(children):
            if self.game.is_over(child):
                values[i] = 2.0 * self._outcome(child, mover)
        return values, children

    def _outcome(self, finished: Any, seat: int) -> float:
        """+1 / -1 / 0: a finished game won, lost or drawn for ``seat``."""
        winners = self.game.winners(finished)
        return 0.0 if not winners else (1.0 if seat in winners else -1.0)

    def _can_win_now(self, state: Any, seat: int) -> bool:
        """Whether ``seat``, to move, has a move that wins at once."""
        legal = [int(a) for a in np.flatnonzero(self.game.legal_mask(state))]
        return any(
            seat in self.game.winners(self._child(state, a)) for a in self.game.ending_moves(state, legal, self.rng)
        )

    def value(self, state: Any, depth: int, me: int, alpha: float = -np.inf, beta: float = np.inf) -> float:
        """The searched value of ``state`` for seat ``me``, ``depth`` plies deep (alpha-beta in the window
        ``alpha``, ``beta``: a value outside it is only a bound); 1 a proven win, -1 a proven loss."""
        if self.game.is_over(state) or depth == 0:
            return self._leaf_value(state, me, alpha=alpha, beta=beta)
        self.nodes += 1
        maximise = self.game.to_move(state) == me
        lost = -1.0 if maximise else 1.0  # the value of a proven loss for the player to move
        best = -np.inf if maximise else np.inf
        # one ply above the leaves the value head scores every child, so their order cannot matter
        built: dict[int, Any] = {}
        candidates = self.candidates(state, ordered=not (depth == 1 and self.use_value), built=built)
        tried: set[int] = set()
        while candidates:
            tried.update(candidates)
            children, head = None, None
            if depth == 1 and self.use_value:  # the value head scores all the leaves in one batched pass
                children = [self._child(state, a, built) for a in candidates]
                head = self._value_head(children, me)
            for i, action in enumerate(candidates):
                child = children[i] if children else self._child(state, action, built)
                if depth == 1:
                    value = self._leaf_value(child, me, None if head is None else float(head[i]), alpha, beta)
                else:
                    value = self.value(child, depth - 1, me, alpha, beta)
                if maximise:
                    best = max(best, value)
                    alpha = max(alpha, value)
                else:
                    best = min(best, value)
                    beta = min(beta, value)
                if alpha >= beta:
                    return best
            if best != lost:
                break
            # Every move searched so far loses: a loss is only proven once every
            # legal move has been refuted, so search the ones the width left out.
            candidates = [int(a) for a in np.flatnonzero(self.game.legal_mask(state)) if int(a) not in tried]
        return best

    def _child(self, state: Any, action: int, built: dict[int, Any] | None = None) -> Any:
        """A copy of ``state`` with ``action`` played (taken from ``built`` if it is there)."""
        if built and action in built:
            return built.pop(action)
        self._spend(1)
        child = self.game.copy_state(state)
        self.game.apply(child, action, self.rng)
        return child

    def _spend(self, work: int) -> None:
        """Count ``work``; past the cap the search at this depth is given up."""
        self.work += work
        if self.work > self._work_cap:
            raise _OverBudget

    def _leaf_value(
        self, state: Any, me: int, head: float | None = None, alpha: float = -np.inf, beta: float = np.inf
    ) -> float:
        """Static value for seat ``me``: exact for a finished game, otherwise a win at
        once (with ``leaf_wins``), else the value head (``head`` if already computed;
        0 with ``leaf_value="none"``), extended by the quiescence search (within
        the window ``alpha``, ``beta``: a value outside it is only a bound)."""
        self.nodes += 1
        if self.game.is_over(state):
            return self._outcome(state, me)
        to_move = self.game.to_move(state)
        if self.leaf_wins and self._can_win_now(state, to_move):
            return 1.0 if to_move == me else -1.0
        if not self.use_value:
            value = 0.0
        else:
            value = head if head is not None else float(self._value_head([state], me)[0])
        if self.quiescence:
            value = self._quiesce(state, me, value, self.quiescence, alpha, beta)
        return value

    def _quiesce(self, state: Any, me: int, stand: float, plies: int, alpha: float, beta: float) -> float:
        """Value for ``me`` of a leaf whose static value is ``stand``, the player to
        move free to stop or to play one of its biggest captures (alpha-beta)."""
        captures = self.game.capturing_moves(state)[: self.quiescence_width] if plies else []
        if not captures:
            return stand
        maximise = self.game.to_move(state) == me
        best = stand
        if maximise:
            alpha = max(alpha, best)
        else:
            beta = min(beta, best)
        if alpha >= beta:
            return best
        children = [self._child(state, a) for a in captures]
        heads = self._value_head(children, me) if self.use_value else np.zeros(len(children))
        for child, head in zip(children, heads):
            self.nodes += 1
            if self.game.is_over(child):
                value = self._outcome(child, me)
            else:
                value = self._quiesce(child, me, float(head), plies - 1, alpha, beta)
            if maximise:
                best, alpha = max(best, value), max(alpha, value)
            else:
                best, beta = min(best, value), min(beta, value)
            if alpha >= beta:
                break
        return best

    def _value_head(self, states: list[Any], me: int) -> np.ndarray:
        """The value head on ``states`` in one forward pass, for seat ``me`` (finished games: 0)."""
        live = [i for i, state in enumerate(states) if not self.game.is_over(state)]
        values = np.zeros(len(states))
        if live:
            self._spend(NETWORK_PASS_WORK)
            seats = [self.game.to_move(states[i]) for i in live]
            head = self.policy.values(
                np.stack([self.observe(self.game, states[i], seat) for i, seat in zip(live, seats)])
            )
            values[live] = np.clip(head, -1.0, 1.0) * np.where(np.array(seats) == me, 1.0, -1.0)
        return values
