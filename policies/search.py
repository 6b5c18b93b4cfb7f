"""Play-time search guided by a learned network, for two-player perfect-information games.

Depth-limited alpha-beta over the game's own rules: at each position only the
``width`` legal moves the network's policy head likes best are searched (plus
every move that ends the game at once), and positions at the depth limit are
scored by the network's value head, seen from the player to move (with
``leaf_wins``, a leaf whose player to move can win at once scores as that
win). Finished games score exactly (+1 / -1 / 0). Nothing here imports torch.

With ``leaf_value="none"`` the value head is not used: a position the search
cannot settle scores 0, so the search only proves wins and losses within its
depth, and among the moves it cannot tell apart the network's favourite is
played (the policy with a tactical check; for networks whose value head is
too noisy to compare moves).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.registry import game_module
from policies.numpy_policy import NumpyPolicy, masked_softmax


class PolicySearch:
    """An opponent that searches ``depth`` plies with ``policy`` as prior and evaluator."""

    def __init__(self, policy: NumpyPolicy, game: str, params: dict[str, Any] | None = None,
                 depth: int = 2, width: int = 8, leaf_wins: bool = False, root_width: int = 0,
                 leaf_value: str = "network") -> None:
        if depth < 1 or width < 1:
            raise ValueError(f"search depth and width must be >= 1, got depth={depth}, width={width}")
        if leaf_value not in ("network", "none"):
            raise ValueError(f"search leaf_value must be 'network' or 'none', got {leaf_value!r}")
        raw = game_module(game).raw_env
        self.policy = policy
        self.meta = policy.meta
        self.rules = raw.game_cls(**(params or {}))
        if self.rules.num_players != 2:
            raise ValueError(f"{game}: play-time search is for two-player games, not {self.rules.num_players}")
        self.observe = raw.observe_state
        self.depth, self.width, self.leaf_wins = depth, width, leaf_wins
        self.use_value = leaf_value == "network"
        self.root_width = root_width or 10**9  # 0: every legal move at the root
        self.rng = np.random.default_rng(0)  # for rules that draw chance in apply
        self.nodes = 0

    def reset(self, seed: int | None = None) -> None:
        self.policy.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        if state is None:  # no rules state: the bare network
            return self.policy.act(observation, action_mask)
        return self.best_move(state)[0]

    def explain(self, observation: np.ndarray, action_mask: np.ndarray, top: int = 5) -> dict[str, Any]:
        return self.policy.explain(observation, action_mask, top)

    # -- search ------------------------------------------------------------------
    def best_move(self, state: Any) -> tuple[int, float]:
        """(action, value for the player to move) of the searched position.

        Moves are tried in the network's order and only a strictly better value
        replaces the best, so ties go to the network's favourite.
        """
        self.nodes = 0
        me = self.rules.to_move(state)
        best_action, best_value = -1, -np.inf
        alpha, beta = -np.inf, np.inf
        for action in self._candidates(state, self.root_width, game_enders_first=False):
            child = self.rules.copy_state(state)
            self.rules.apply(child, action, self.rng)
            value = self._value(child, self.depth - 1, alpha, beta, me)
            if value > best_value:
                best_action, best_value = action, value
            alpha = max(alpha, value - 1e-9)  # keep equal values exact, for the tie-break
        return best_action, float(best_value)

    def _candidates(self, state: Any, width: int | None = None, game_enders_first: bool = True) -> list[int]:
        """The network's ``width`` favourite legal moves, best first, and every game-ending move."""
        width = self.width if width is None else width
        mask = self.rules.legal_mask(state)
        legal = np.flatnonzero(mask)
        logits, _ = self.policy.forward(self.observe(self.rules, state, self.rules.to_move(state)))
        probs = masked_softmax(logits[0], mask)
        chosen = legal[np.argsort(-probs[legal], kind="stable")[:width]]
        moves = [int(a) for a in chosen]
        if legal.size > width:
            for a in legal:
                if int(a) in moves:
                    continue
                child = self.rules.copy_state(state)
                self.rules.apply(child, int(a), self.rng)
                if self.rules.is_over(child):
                    moves.insert(0 if game_enders_first else len(moves), int(a))
        return moves

    def _can_win_now(self, state: Any, seat: int) -> bool:
        """Whether ``seat``, to move, has a move that wins at once."""
        for a in np.flatnonzero(self.rules.legal_mask(state)):
            child = self.rules.copy_state(state)
            self.rules.apply(child, int(a), self.rng)
            if self.rules.is_over(child) and seat in self.rules.winners(child):
                return True
        return False

    def _value(self, state: Any, depth: int, alpha: float, beta: float, me: int) -> float:
        """Minimax value for seat ``me`` (alpha-beta)."""
        self.nodes += 1
        if self.rules.is_over(state):
            winners = self.rules.winners(state)
            return 0.0 if not winners else (1.0 if me in winners else -1.0)
        to_move = self.rules.to_move(state)
        if depth == 0:
            if self.leaf_wins and self._can_win_now(state, to_move):
                return 1.0 if to_move == me else -1.0
            if not self.use_value:
                return 0.0
            _, values = self.policy.forward(self.observe(self.rules, state, to_move))
            v = float(np.clip(values[0], -1.0, 1.0))
            return v if to_move == me else -v
        maximise = to_move == me
        best = -np.inf if maximise else np.inf
        for action in self._candidates(state):
            child = self.rules.copy_state(state)
            self.rules.apply(child, action, self.rng)
            value = self._value(child, depth - 1, alpha, beta, me)
            if maximise:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best
