"""Play-time search guided by a learned network, for two-player perfect-information games.

Depth-limited alpha-beta over the game's own rules: at each position only the
``width`` legal moves the network likes best are searched (plus every move
that ends the game at once; width 0 searches every legal move, in the
network's order), and positions at the depth limit are scored by the
network's value head, seen from the player to move (with ``leaf_wins``, a
leaf whose player to move can win at once scores as that win). Finished
games score exactly (+1 / -1 / 0). Nothing here imports torch.

* ``order_by="policy"`` (default): "likes best" is the policy head's order.
  ``order_by="value"``: it is the value head's score of each move's result,
  one ply deep (for networks whose policy head is too weak to order with;
  a better order also lets alpha-beta cut more).
* ``quiescence`` > 0: a leaf is not scored in the middle of an exchange. The
  player to move may instead play one of its ``quiescence_width`` biggest
  captures (the rules' ``capturing_moves``), and so on for up to
  ``quiescence`` more plies, each side free to stop capturing (the value
  head scores the position where it stops).

``max_work`` > 0 caps the work of one move: a search that would do more is
dropped for one a ply shallower (down to 1 ply, which always finishes). Work
is counted, not timed, so the same position always gets the same move: each
position built counts 1 and each pass of the network ``NETWORK_PASS_WORK``
(in the Squeeze search a pass costs about as much as building 4 positions:
results/2026-11-squeeze-search.md).

``total_work`` > 0 (instead of ``max_work``) deepens from the other end: a
move is searched 1, 2, 3, ... plies deep, up to ``depth``, and the deepest
search that finished before the work of all of them together passed
``total_work`` decides. A move then costs at most about ``total_work``
(``max_work`` may spend it once for each depth it gives up), and easy
positions are searched deeper than hard ones.

Proofs are sound within the depth: when every move of the width loses for the
player to move, the moves the width left out are searched too, so a win is
never claimed while the loser has an untried escape.

``solve_from_empty`` > 0 (for games whose registry entry names an exact
solver: ``envs.registry.GameEntry.solver``): from positions with at most that
many empty cells the move comes from the solver instead, the network's
favourite among the moves that keep the position's solved value (a win that
ends the game at once first; from a lost position, or one whose root needs
more than ``solve_nodes`` solver nodes, the search decides). The root is
solved once and then the moves in the network's order, on the table the root
left, each asked only whether it keeps the value (a null window), until one
does; when that runs out of the nodes, the favourite among the moves the
root's solve itself proved (a node each) is played, if there is one. The oracle module gives ``empty_cells(state)``,
``state_value(state, max_nodes, keep_table, window)`` (the value for the
player to move, a bound outside ``window``, or None past ``max_nodes``), ``nodes()``
(of its last solve) and ``warm_up()`` (compiled when the search is made, not
during a move).

``compiled=True`` runs the same search inside the game's batched engine
(:mod:`envs.core.alpha_beta`, numba): the same moves searched in the same
order and the same work counted, many times faster. It serves both orders
(``order_by="value"`` with every legal move searched, ``width=0`` and
``root_width=0``; ``order_by="policy"`` with any width, for a plain action
head), quiescence and the work caps, for games whose engine has the kernel
and networks without a board convolution. Its towers round differently from
numpy's, so a move between two nearly equal values may differ from the
Python search's.

With ``leaf_value="none"`` the value head is not used: a position the search
cannot settle scores 0, so the search only proves wins and losses within its
depth, and among the moves it cannot tell apart the network's favourite is
played (the policy with a tactical check; for networks whose value head is
too noisy to compare moves).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.core.alpha_beta import NETWORK_PASS_WORK
from envs.core.checks import as_int
from envs.registry import entry
from policies.numpy_policy import NumpyPolicy, PlainHead, masked_softmax
from policies.search.player import NetworkSearch

DEFAULT_SOLVE_NODES = 2_000_000  # solver nodes a move may spend (with solve_from_empty)


class _OverBudget(Exception):
    """The search did more work than ``max_work`` allows."""


@dataclass(frozen=True)
class AlphaBetaSettings:
    """What a :class:`PolicySearch` searches (a policy file's ``search``, ``kind`` alphabeta), checked once.

    ``depth`` plies, ``width`` moves a node (0: every legal move; ``root_width`` at the root), ``leaf_wins``
    (a leaf whose mover can win at once scores the win), ``leaf_value`` ``"network"`` or ``"none"``,
    ``quiescence`` plies more of ``quiescence_width`` moves past the depth, ``order_by`` ``"policy"`` or
    ``"value"``, a move's counted work capped by ``max_work`` or a budget of ``total_work`` (one of them),
    ``solve_from_empty`` (the exact solver from that many empty cells, with ``solve_nodes`` nodes) and
    ``compiled`` (the game's engine runs the search).
    """

    depth: int = 2
    width: int = 8
    leaf_wins: bool = False
    root_width: int = 0
    leaf_value: str = "network"
    quiescence: int = 0
    quiescence_width: int = 3
    order_by: str = "policy"
    max_work: int = 0
    total_work: int = 0
    solve_from_empty: int = 0
    solve_nodes: int = DEFAULT_SOLVE_NODES
    compiled: bool = False

    def __post_init__(self) -> None:
        depth, width, quiescence, quiescence_width = self.depth, self.width, self.quiescence, self.quiescence_width
        if depth < 1 or width < 0:
            raise ValueError(f"search depth must be >= 1 and width >= 0, got depth={depth}, width={width}")
        if quiescence < 0 or quiescence_width < 1:
            raise ValueError(
                f"search quiescence must be >= 0 and quiescence_width >= 1, "
                f"got quiescence={quiescence}, quiescence_width={quiescence_width}"
            )
        if self.order_by not in ("policy", "value"):
            raise ValueError(f"search order_by must be 'policy' or 'value', got {self.order_by!r}")
        if self.leaf_value not in ("network", "none"):
            raise ValueError(f"search leaf_value must be 'network' or 'none', got {self.leaf_value!r}")
        for setting, least in (("max_work", 0), ("total_work", 0), ("solve_from_empty", 0), ("solve_nodes", 1)):
            value = getattr(self, setting)
            if (plain := as_int(value)) is None or plain < least:
                raise ValueError(f"search {setting} must be an int >= {least}, got {value!r}")
            object.__setattr__(self, setting, plain)
        if self.max_work and self.total_work:
            raise ValueError(
                f"search max_work ({self.max_work}) and total_work ({self.total_work}) are two ways to cap a move's "
                "work: give one"
            )
        if not isinstance(self.compiled, bool):
            raise ValueError(f"search compiled must be true or false, got {self.compiled!r}")


class PolicySearch(NetworkSearch):
    """An opponent that searches ``depth`` plies with ``policy`` as prior and evaluator.

    ``settings``: the keywords of :class:`AlphaBetaSettings` (``depth``, ``width``, ...).
    """

    def __init__(self, policy: NumpyPolicy, name: str, params: dict[str, Any] | None = None, **settings: Any) -> None:
        self.settings = s = AlphaBetaSettings(**settings)
        self._attach(policy, name, params)
        if self.game.num_players != 2:
            raise ValueError(f"{name}: play-time search is for two-player games, not {self.game.num_players}")
        self.depth, self.width, self.leaf_wins = s.depth, s.width or 10**9, s.leaf_wins  # width 0: every legal move
        self.use_value = s.leaf_value == "network"
        self.root_width = s.root_width or 10**9  # 0: every legal move at the root
        self.quiescence, self.quiescence_width = s.quiescence, s.quiescence_width
        self.order_by_value = s.order_by == "value"
        self.max_work, self.total_work = s.max_work, s.total_work
        self.rng = np.random.default_rng(0)  # for rules that draw chance in apply
        self.nodes = 0  # positions searched for the last move
        self.work = 0  # work done for the last move (see ``max_work`` and ``total_work``)
        self.searched_depth = 0  # plies the last move was searched to (below ``depth`` when capped)
        self._work_cap = np.inf
        self.solve_from_empty, self.solve_nodes = s.solve_from_empty, s.solve_nodes
        self.oracle_module = entry(name).solver if s.solve_from_empty else ""  # by name: the search stays picklable
        if s.solve_from_empty:
            if not self.oracle_module:
                raise ValueError(f"search solve_from_empty needs an exact solver, and {name} has none")
            self.oracle.warm_up()
        self.solved = False  # whether the last move came from the solver
        self.solver_nodes = 0  # solver nodes spent on the last move
        self.compiled = _CompiledSearch(self, name, params) if s.compiled else None

    @property
    def oracle(self) -> Any:
        """The game's exact endgame solver module (with ``solve_from_empty``), else None."""
        return importlib.import_module(self.oracle_module) if self.oracle_module else None

    def searched_move(self, observation: np.ndarray, action_mask: np.ndarray, state: Any) -> int:
        return self.best_move(state)[0]

    # -- search ------------------------------------------------------------------
    def best_move(self, state: Any) -> tuple[int, float]:
        """(action, value for the player to move) of the searched position.

        Moves are tried in the network's order (``order_by``) and only a strictly
        better value replaces the best, so ties go to the network's favourite.
        A search over ``max_work`` is replaced by one a ply shallower; with ``total_work``
        the deepest search that fits the budget decides. Near the end of the game
        (``solve_from_empty``) the solver may decide instead.
        """
        solved = self._solved_move(state)
        if solved is not None:
            return solved
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
        if self.compiled is not None:
            result, self.nodes, self.work = self.compiled.search(state, depth, cap)
            return result
        self.nodes = self.work = 0
        self._work_cap = cap
        try:
            return self._search_root(state, depth)
        except _OverBudget:
            return None
        finally:
            self._work_cap = np.inf  # the cap binds best_move only

    def _solved_move(self, state: Any) -> tuple[int, float] | None:
        """(action, value) from the exact solver (see ``solve_from_empty``), or None for the search to decide:
        too many empty cells, a lost position, or more than ``solve_nodes`` solver nodes needed."""
        self.solved, self.solver_nodes = False, 0
        oracle = self.oracle
        if oracle is None or oracle.empty_cells(state) > self.solve_from_empty:
            return None
        self.nodes = self.work = self.searched_depth = 0
        me = self.game.to_move(state)

        def solve(position: Any, keep_table: bool, window: tuple[int, int] = (-1, 1), most: int = 0) -> int | None:
            left = most or self.solve_nodes - self.solver_nodes
            if left <= 0:  # 0 would be no limit at all
                return None
            value = oracle.state_value(position, left, keep_table=keep_table, window=window)
            self.solver_nodes += oracle.nodes()
            return value

        def keeps(child: Any, most: int = 0) -> bool | None:
            """Whether the move to ``child`` keeps the target value (None: not known within the nodes left)."""
            if self.game.is_over(child):
                return self._outcome(child, me) == target
            if self.game.to_move(child) == me:  # is it worth at least the target? (a narrow window asks less)
                bound = solve(child, keep_table=True, window=(target - 1, target), most=most)
                return None if bound is None else bound >= target
            bound = solve(child, keep_table=True, window=(-target, 1 - target), most=most)  # at most -target?
            return None if bound is None else bound <= -target

        target = solve(state, keep_table=False)
        if target is None or target < 0:
            return None
        order = self.candidates(state, width=10**9)  # every legal move, the network's favourite first
        children = {a: self._child(state, a) for a in order}
        if target == 1:  # a move that wins at once
            for action in order:
                if self.game.is_over(children[action]) and self._outcome(children[action], me) == 1:
                    self.solved = True
                    return action, 1.0
        for action in order:
            keep = keeps(children[action])
            if keep is None:
                break
            if keep:
                self.solved = True
                return action, float(target)
        else:
            raise RuntimeError(f"{self.game.name}: no move keeps the solved value {target} of the position {state}")
        # Out of nodes: the network's favourite among the moves the root's own solve proved (the table
        # answers for them in one node each), if it proved any.
        for action in order:
            if keeps(children[action], most=1):
                self.solved = True
                return action, float(target)
        return None

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


def _check_compilable(search: PolicySearch) -> None:
    """A ``ValueError`` naming every setting of ``search`` that the compiled alpha-beta does not serve."""
    unsupported = [
        f"{setting}={value!r}"
        for setting, value, wanted in (
            ("leaf_wins", search.leaf_wins, False),
            ("leaf_value", "network" if search.use_value else "none", "network"),
            ("solve_from_empty", search.solve_from_empty, 0),
        )
        if value != wanted
    ]
    if search.order_by_value:
        unsupported += [
            f"{setting}={value} with order_by='value'"
            for setting, value in (("width", search.width), ("root_width", search.root_width))
            if value != 10**9
        ]
    if unsupported:
        raise ValueError(
            "search compiled=True serves no leaf_wins, leaf_value='network', no solve_from_empty, and with "
            f"order_by='value' only width=0 and root_width=0; this search has {', '.join(unsupported)}"
        )


def _float32(a: np.ndarray) -> np.ndarray:
    """A writeable C-ordered float32 copy (one array type for numba), on a cache line."""
    from envs.core.jit import aligned

    return aligned(a, np.float32)


def _value_towers(policy: NumpyPolicy) -> Any:
    """The network's value towers as the compiled search reads them (``envs.core.alpha_beta.Towers``)."""
    from envs.core.alpha_beta import RELU, TANH, Towers

    if policy.conv is not None:
        raise ValueError("search compiled=True: the network has a board convolution, which it does not compute")
    layers = {len(tower) + 1 for tower, _ in policy.value_members}
    activation = policy.meta.get("activation", "tanh")
    if len(layers) != 1 or min(layers) < 2 or activation not in ("tanh", "relu"):
        raise ValueError(
            "search compiled=True: value towers of one depth with a hidden layer and a tanh or relu activation "
            "only, got "
            f"depths {sorted(layers)} and {activation!r}"
        )
    first_w, first_b, rest_w, rest_b = [], [], [], []
    for tower, head in policy.value_members:
        (w0, b0), *later = [*tower, head]
        first_w.append(_float32(w0))
        first_b.append(_float32(b0))
        rest_w += [_float32(w.T) for w, _ in later]  # stored (out, in): the kernel's dot products
        rest_b += [_float32(b) for _, b in later]
    return Towers(tuple(first_w), tuple(first_b), tuple(rest_w), tuple(rest_b), TANH if activation == "tanh" else RELU)


def _policy_tower(policy: NumpyPolicy, order_by_value: bool, activation: int) -> Any:
    """The network's policy tower and plain head as the compiled search reads them (``PolicyTower``); a stand-in
    of the same types when the search orders by value and never reads it."""
    from envs.core.alpha_beta import PolicyTower

    if isinstance(policy.head, PlainHead) and len(policy.pi_layers) >= 2:
        (pi_w0, pi_b0), *pi_later = policy.pi_layers
        head_w, head_b = policy.head.w.T, policy.head.b
    elif order_by_value:
        pi_w0, pi_b0, pi_later = np.zeros((1, 1)), np.zeros(1), [(np.zeros((1, 1)), np.zeros(1))]
        head_w, head_b = np.zeros((1, 1)), np.zeros(1)
    else:
        raise ValueError(
            "search compiled=True orders by the policy only with a plain action head after a policy tower of "
            f"two layers or more, got a {type(policy.head).__name__} after {len(policy.pi_layers)} layers"
        )
    return PolicyTower(
        _float32(pi_w0),
        _float32(pi_b0),
        tuple(_float32(w.T) for w, _ in pi_later),
        tuple(_float32(b) for _, b in pi_later),
        _float32(head_w),
        _float32(head_b),
        activation,
    )


class _CompiledSearch:
    """A :class:`PolicySearch`'s search run by its game's engine (``compiled=True``): the engine's board batch,
    the network's value towers and the search's work arrays, made once."""

    def __init__(self, search: PolicySearch, name: str, params: dict[str, Any] | None) -> None:
        _check_compilable(search)
        from envs.core.alpha_beta import levels_needed
        from envs.registry import batched_engine

        engine = batched_engine(name, **search.game.params)
        if engine.alpha_beta is None or engine.legal_list is None:
            raise ValueError(f"search compiled=True: {name}'s batched engine has no compiled alpha-beta")
        policy = search.policy
        self.towers = _value_towers(policy)
        self.policy_tower = _policy_tower(policy, search.order_by_value, self.towers.activation)
        self.by_policy, self.width, self.root_width = not search.order_by_value, search.width, search.root_width
        self.quiescence, self.quiescence_width = search.quiescence, search.quiescence_width
        moves = engine.arrays[engine.legal_list[0]][0][0]
        levels = levels_needed(search.depth, search.quiescence)
        widest = max(
            *(w.shape[1] for w in self.towers.first_w),
            *(w.shape[0] for w in self.towers.rest_w),
            *(w.shape[1] for w, _ in policy.pi_layers),
        )
        self.engine = engine
        from envs.core.alpha_beta import SpaceSizes

        self._space_sizes = SpaceSizes(
            levels, moves, engine.obs_size, engine.num_actions, engine.num_players, widest, len(policy.value_members)
        )
        self._warm_up(search.game)

    def _new_work_arrays(self) -> None:
        from envs.core.alpha_beta import new_space
        from envs.core.batched import BatchedGame

        self.space = new_space(self._space_sizes)
        self.batch = BatchedGame(self.engine, self.space.obs.shape[0], seed=0)

    def _warm_up(self, game: Any) -> None:
        """Compile the kernel (or load it from numba's cache) as the search is made, not in its first move, whose
        think time would count it; the work arrays are then made afresh, so no move sees a trace of it."""
        self._new_work_arrays()
        self.search(game.new_state(np.random.default_rng(0)), 1, 1)
        self._new_work_arrays()

    def search(self, state: Any, depth: int, cap: float) -> tuple[tuple[int, float] | None, int, int]:
        """((action, value) or None past ``cap``, nodes, work) of ``state`` searched ``depth`` plies deep."""
        from envs.core.alpha_beta import C_ABORTED, C_NODES, C_WORK, Settings

        batch = self.batch
        batch.set_board(0, state)
        settings = Settings(
            depth,
            -1 if cap == np.inf else int(cap),
            self.quiescence,
            self.quiescence_width,
            self.by_policy,
            self.width,
            self.root_width,
        )
        action, value = self.engine.alpha_beta(
            self.towers, self.policy_tower, settings, self.space, batch.state, batch.consts
        )
        counters = self.space.counters
        result = None if counters[C_ABORTED] else (int(action), float(value))
        return result, int(counters[C_NODES]), int(counters[C_WORK])
