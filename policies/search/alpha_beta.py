"""Play-time search guided by a learned network, for two-player perfect-information games.

Depth-limited alpha-beta over the game's own rules, compiled (:mod:`policies.search.compiled`, run inside the
game's batched engine): at each position only the ``width`` legal moves the network likes best are searched (plus
every move that ends the game at once; width 0 searches every legal move, in the network's order), and positions
at the depth limit are scored by the network's value head, seen from the player to move (with ``leaf_wins``, a
leaf whose player to move can win at once scores as that win). Finished games score exactly (+1 / -1 / 0).
Nothing here imports torch.

* ``order_by="policy"`` (default): "likes best" is the policy head's order.
  ``order_by="value"``: it is the value head's score of each move's result,
  one ply deep (for networks whose policy head is too weak to order with;
  a better order also lets alpha-beta cut more). It searches every legal
  move (``width=0``, ``root_width=0``).
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
many empty cells the move comes from the solver instead, a Python step in front
of the search: the network's favourite among the moves that keep the position's
solved value (a win that ends the game at once first; from a lost position, or
one whose root needs more than ``solve_nodes`` solver nodes, the search
decides). The root is solved once and then the moves in the network's order, on
the table the root left, each asked only whether it keeps the value (a null
window), until one does; when that runs out of the nodes, the favourite among
the moves the root's solve itself proved (a node each) is played, if there is
one. The oracle module gives ``empty_cells(state)``, ``state_value(state,
max_nodes, keep_table, window)`` (the value for the player to move, a bound
outside ``window``, or None past ``max_nodes``), ``nodes()`` (of its last
solve) and ``warm_up()`` (compiled when the search is made, not during a move).

With ``leaf_value="none"`` the value head is not used: a position the search
cannot settle scores 0, so the search only proves wins and losses within its
depth, and among the moves it cannot tell apart the network's favourite is
played (the policy with a tactical check; for networks whose value head is
too noisy to compare moves).

The search runs for games whose engine registered its functions with the
compiled search (:mod:`policies.search.compiled_games`: Swival, Swish, Squeeze),
with networks whose value towers have a hidden layer and one depth and, ordered
by the policy, a plain action head (no board convolution). Its towers round
differently from numpy's (its own float32 sums and tanh), so a move between two
nearly equal values may differ from what numpy's values would choose; its Python
reference, move for move, is ``tests/search/reference_alpha_beta.py``.
``compiled`` (older files' ``"compiled": true``) is accepted, true or false,
and changes nothing: there is one search.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

import policies.search.compiled_games  # noqa: F401  (registers the games the compiled search plays)
from envs.core.batched import BatchedGame
from envs.core.checks import as_int
from envs.registry import batched_engine, entry
from policies.compiled_network import layer_widths, policy_tower, value_towers
from policies.numpy_policy import NumpyPolicy, masked_softmax
from policies.search.compiled import (
    C_ABORTED,
    C_NODES,
    C_WORK,
    NETWORK_PASS_WORK,
    Settings,
    SpaceSizes,
    alpha_beta,
    compile_search,
    game_kernels,
    levels_needed,
    most_moves,
    new_space,
)
from policies.search.player import NetworkSearch

DEFAULT_SOLVE_NODES = 2_000_000  # solver nodes a move may spend (with solve_from_empty)


@dataclass(frozen=True)
class AlphaBetaSettings:
    """What a :class:`PolicySearch` searches (a policy file's ``search``, ``kind`` alphabeta), checked once.

    ``depth`` plies, ``width`` moves a node (0: every legal move; ``root_width`` at the root), ``leaf_wins``
    (a leaf whose mover can win at once scores the win), ``leaf_value`` ``"network"`` or ``"none"``,
    ``quiescence`` plies more of ``quiescence_width`` moves past the depth, ``order_by`` ``"policy"`` or
    ``"value"``, a move's counted work capped by ``max_work`` or a budget of ``total_work`` (one of them),
    ``solve_from_empty`` (the exact solver from that many empty cells, with ``solve_nodes`` nodes) and
    ``compiled`` (accepted from older files, true or false, and ignored: there is one search, compiled).
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
        self.root_width = s.root_width or 10**9  # 0: every legal move at the root
        self.order_by_value = s.order_by == "value"
        self.max_work, self.total_work = s.max_work, s.total_work
        self.rng = np.random.default_rng(0)  # for rules that draw chance in apply
        self.nodes = 0  # positions searched for the last move
        self.work = 0  # work done for the last move (see ``max_work`` and ``total_work``)
        self.searched_depth = 0  # plies the last move was searched to (below ``depth`` when capped)
        self.solve_from_empty, self.solve_nodes = s.solve_from_empty, s.solve_nodes
        self.oracle_module = entry(name).solver if s.solve_from_empty else ""  # by name: the search stays picklable
        if s.solve_from_empty:
            if not self.oracle_module:
                raise ValueError(f"search solve_from_empty needs an exact solver, and {name} has none")
            self.oracle.warm_up()
        self.solved = False  # whether the last move came from the solver
        self.solver_nodes = 0  # solver nodes spent on the last move
        self.compiled = _CompiledSearch(self, name)  # the search, run by the game's engine

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
        """(action, value) of ``state`` searched ``depth`` plies deep, counting its work from 0 (``nodes`` and
        ``work`` set); None once that work passes ``cap``."""
        result, self.nodes, self.work = self.compiled.search(state, depth, cap)
        return result

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
        order, children = self._network_order(state)  # every legal move, the network's favourite first
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

    def _network_order(self, state: Any) -> tuple[list[int], dict[int, Any]]:
        """Every legal move of ``state``, the network's favourite first (``order_by``: the policy's probabilities,
        or the value head's score of each move's result, a finished game beyond any value), ties in action order,
        as the search orders them; and the position each move leads to. Counts the work in ``work``."""
        legal = np.flatnonzero(self.game.legal_mask(state))
        mover = self.game.to_move(state)
        children = {int(a): self._played(state, int(a)) for a in legal}
        if self.order_by_value:
            states = list(children.values())
            keys = self._value_head(states, mover)
            for i, child in enumerate(states):
                if self.game.is_over(child):
                    keys[i] = 2.0 * self._outcome(child, mover)
        else:
            self.work += NETWORK_PASS_WORK
            logits = self.policy.logits_of(self.observe(self.game, state, mover), legal)
            keys = masked_softmax(logits, np.ones(legal.size, dtype=bool))
        return [int(a) for a in legal[np.argsort(-keys, kind="stable")]], children

    def _played(self, state: Any, action: int) -> Any:
        """A copy of ``state`` with ``action`` played (1 work)."""
        self.work += 1
        child = self.game.copy_state(state)
        self.game.apply(child, action, self.rng)
        return child

    def _outcome(self, finished: Any, seat: int) -> float:
        """+1 / -1 / 0: a finished game won, lost or drawn for ``seat``."""
        winners = self.game.winners(finished)
        return 0.0 if not winners else (1.0 if seat in winners else -1.0)

    def _value_head(self, states: list[Any], me: int) -> np.ndarray:
        """The value head on ``states`` in one forward pass, for seat ``me`` (finished games: 0)."""
        live = [i for i, state in enumerate(states) if not self.game.is_over(state)]
        values = np.zeros(len(states))
        if live:
            self.work += NETWORK_PASS_WORK
            seats = [self.game.to_move(states[i]) for i in live]
            head = self.policy.values(
                np.stack([self.observe(self.game, states[i], seat) for i, seat in zip(live, seats)])
            )
            values[live] = np.clip(head, -1.0, 1.0) * np.where(np.array(seats) == me, 1.0, -1.0)
        return values


def _check_served(search: PolicySearch) -> None:
    """A ``ValueError`` naming the settings of ``search`` that the compiled alpha-beta does not serve."""
    if search.order_by_value:
        unsupported = [
            f"{setting}={value} with order_by='value'"
            for setting, value in (("width", search.width), ("root_width", search.root_width))
            if value != 10**9
        ]
        if unsupported:
            raise ValueError(
                "search order_by='value' searches every legal move (width=0 and root_width=0); this search has "
                + ", ".join(unsupported)
            )


class _CompiledSearch:
    """A :class:`PolicySearch`'s search run by its game's engine (:func:`policies.search.compiled.alpha_beta`):
    the engine's board batch, the network's towers and the search's work arrays, made once."""

    def __init__(self, search: PolicySearch, name: str) -> None:
        _check_served(search)
        self._name = name
        engine = batched_engine(name, **search.game.params)
        moves = most_moves(engine)
        if moves is None:
            raise ValueError(f"alpha-beta search: {name}'s batched engine has no functions for the compiled search")
        policy, s = search.policy, search.settings
        self.towers = value_towers(policy)  # the compiled forward of the policy's spec
        self.policy_tower = None if search.order_by_value else policy_tower(policy)  # None: the towers order
        self._fixed = (s.quiescence, s.quiescence_width, search.width, search.root_width)
        self._leaves = (s.leaf_wins, s.leaf_value == "network")
        widest = max(*layer_widths(self.towers), *(w.shape[1] for w, _ in policy.pi_layers))
        self.engine = engine
        self._space_sizes = SpaceSizes(
            levels_needed(search.depth, s.quiescence),
            moves,
            engine.obs_size,
            engine.num_actions,
            engine.num_players,
            widest,
            len(policy.value_members),
        )
        self._warm_up(search.game)

    def _warm_up(self, game: Any) -> None:
        """Compile the kernel (or load it from numba's cache) as the search is made, not in its first move, whose
        think time would count it; the work arrays are then made afresh, so no move sees a trace of it. The boards
        are made once: a search writes every board it reads (board 0 from the position, each other one as a copy
        of its parent) before reading it."""
        self.space = new_space(self._space_sizes)
        self.batch = BatchedGame(self.engine, self.space.obs.shape[0], seed=0)
        arguments = self._arguments(game.new_state(np.random.default_rng(0)), 1, 1)
        compile_search(arguments, f"the alpha-beta search of {self._name}")
        alpha_beta(*arguments)
        self.space = new_space(self._space_sizes)

    def _arguments(self, state: Any, depth: int, cap: float) -> tuple:
        """:func:`alpha_beta`'s arguments for a search of ``state`` (on board 0 of the batch)."""
        batch = self.batch
        batch.set_board(0, state)
        settings = Settings(depth, -1 if cap == np.inf else int(cap), *self._fixed, *self._leaves)
        kernels = game_kernels(batch.state, batch.consts)
        return kernels, self.towers, self.policy_tower, settings, self.space, batch.state, batch.consts

    def search(self, state: Any, depth: int, cap: float) -> tuple[tuple[int, float] | None, int, int]:
        """((action, value) or None past ``cap``, nodes, work) of ``state`` searched ``depth`` plies deep."""
        action, value = alpha_beta(*self._arguments(state, depth, cap))
        counters = self.space.counters
        result = None if counters[C_ABORTED] else (int(action), float(value))
        return result, int(counters[C_NODES]), int(counters[C_WORK])
