"""The contract every game's pure rules module fulfils.

A :class:`Game` holds the rule parameters of one variant (validated once, at
construction) and works on a plain, cheap-to-copy state object. It knows
nothing of PettingZoo, rendering or agents' names: seats are integers
``0..num_players-1`` and randomness only ever comes from the
``numpy.random.Generator`` handed in.

Words, one meaning each, everywhere in the project:

* ``game``: the rules object, a :class:`Game` (``env.game``, ``engine.game``);
* ``name``: a game's registry name, e.g. ``"swish"`` (``envs.make(name)``);
* ``params``: the dict of rule values, e.g. ``{"num_players": 4}``
  (``envs.make(name, **params)``, ``game.params``);
* ``state``: one position (the rules' state object); ``batch``: N boards of
  one game in a batched engine;
* ``s``: a batch's per-board arrays inside a kernel (one named tuple); ``c``:
  the variant's constants beside it (another);
* ``opponent``: one board's player (``act(observation, mask, state)``,
  ``reset(seed)``); a batch opponent plays many boards in one call (both
  declared in :mod:`envs.core.opponents`).
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import numpy as np

from envs.core.checks import RuleError, as_action
from envs.core.params import Param, normalise_params

__all__ = ["Game", "RuleError"]  # RuleError is defined beside the checks, which params raise it from too


class Game:
    """Base class of a game's rules; subclasses fill in the abstract methods.

    Class attributes a subclass sets:

    * ``name``: registry name, e.g. ``"swival"``.
    * ``RULE_PARAMS``: every rule parameter, declared once (:mod:`envs.core.params`):
      name, default and accepted values. ``PARAMS``, the dict of defaults, is derived from it.
    """

    name: ClassVar[str] = ""
    RULE_PARAMS: ClassVar[tuple[Param, ...]] = ()
    PARAMS: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.PARAMS = {p.name: p.default for p in cls.RULE_PARAMS}

    def __init__(self, **params: Any) -> None:
        self.params = self.normalise_params(params)
        self.validate_params()

    @classmethod
    def normalise_params(cls, params: dict[str, Any]) -> dict[str, Any]:
        """The complete rule parameters for ``params``: defaults filled in, values normalised.

        Two sets of rules are the same variant exactly when these are equal
        (policy files are checked against an env's rules this way). Raises
        ``RuleError`` for a bad value, ``TypeError`` for an unknown keyword.
        """
        return normalise_params(cls.name, cls.RULE_PARAMS, params)

    # -- to be provided by each game -------------------------------------
    num_players: int = 2
    num_actions: int = 0
    #: Whether a fair series replays each deal with the seats rotated (duplicate deals, as in bridge): set by
    #: card games, where the deal decides much of a game and fresh deals would need many more games.
    duplicate_deals: ClassVar[bool] = False

    def validate_params(self) -> None:
        """Checks between parameters, after each was checked alone (none by default): raise :class:`RuleError`."""

    def new_state(self, rng: np.random.Generator) -> Any:
        """The position at the start of a game (chance drawn from ``rng``)."""
        raise NotImplementedError

    def to_move(self, state: Any) -> int:
        """Seat whose turn it is (meaningless once the game is over)."""
        raise NotImplementedError

    def legal_mask(self, state: Any) -> np.ndarray:
        """A new boolean array of length ``num_actions``: True where legal (the env makes it read-only)."""
        raise NotImplementedError

    def apply(self, state: Any, action: int, rng: np.random.Generator) -> list[float]:
        """Play ``action`` for the seat to move, changing ``state`` in place.

        Returns the reward of every seat for this action (zero-sum).
        The action is assumed legal: callers check with :meth:`check_action`.
        """
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def seat_active(self, state: Any, seat: int) -> bool:
        """False once a seat has left the game (for games that eliminate)."""
        return True

    def action_name(self, state: Any, action: int) -> str:
        """A short readable name of ``action`` in ``state``."""
        return str(action)

    def winners(self, state: Any) -> list[int]:
        """Seats that won a finished game ([] for a draw)."""
        raise NotImplementedError

    def standings(self, state: Any) -> list[float] | None:
        """Every seat's score in a finished game (higher better), for games that score more than who won
        (ratings of many players read the whole finishing order); None where winning is all there is."""
        return None

    # -- shared helpers --------------------------------------------------
    def copy_state(self, state: Any) -> Any:
        """An independent copy of ``state`` (override where a faster one exists)."""
        return copy.deepcopy(state)

    def legal_actions(self, state: Any) -> list[int]:
        return np.flatnonzero(self.legal_mask(state)).tolist()

    def ending_moves(self, state: Any, actions: list[int], rng: np.random.Generator) -> list[int]:
        """Those of the legal ``actions`` after which the game is over (each played on a copy).

        Searches use it to look at game-ending moves beyond their width; rules
        with a cheaper exact test override it.
        """
        ending = []
        for action in actions:
            child = self.copy_state(state)
            self.apply(child, action, rng)
            if self.is_over(child):
                ending.append(action)
        return ending

    def determinize(self, state: Any, seat: int, rng: np.random.Generator) -> Any:
        """A full state that agrees with all ``seat`` may see, hidden information drawn from ``rng``.

        Searches of games with hidden cards play on such states. A game
        without hidden information returns a copy of ``state``.
        """
        return self.copy_state(state)

    # -- positions: each game's notation (its docs page gives the fields) --------
    def to_text(self, state: Any, seat: int | None = None) -> str:
        """``state`` in the game's notation: the whole position, or (``seat`` given) what that seat knows.

        In a seat's view, what is hidden from it is written ``?``
        (:data:`envs.core.notation.HIDDEN`); a game without hidden information
        writes the same text either way. ``from_text`` reads both back.
        """
        raise NotImplementedError(f"{self.name}: no position notation")

    def from_text(self, text: str, rng: np.random.Generator | None = None) -> Any:
        """The position ``text`` fixes, as a new state; a text that cannot be read raises
        :class:`~envs.core.notation.PositionError` naming the field and what is wrong.

        A seat's view (hidden parts ``?``) is completed with hidden information
        drawn from ``rng``, consistent with all the text shows; without ``rng``
        it raises.
        """
        raise NotImplementedError(f"{self.name}: no position notation")

    def fresh_chance(self, state: Any, rng: np.random.Generator) -> Any:
        """``state`` with the chance it holds that no seat has seen yet drawn again from ``rng`` (in place).

        A clone made for search gets this, so it never holds the original's
        future (e.g. the order of the cards still in the stock). Nothing by
        default: a game whose state holds no future chance.
        """
        return state

    def past_decisions(self, state: Any, viewer: int) -> list[tuple[Any, int]]:
        """The moves the other players made this round, as (the state each was made in, the move).

        Rebuilt from ``state``'s hidden information, so in a deal from
        :meth:`determinize` they show what the others would have seen if the
        guess were true: a search weighs its deals by how likely those moves
        were. Empty by default (nothing to infer).
        """
        return []

    def round_key(self, state: Any) -> Any:
        """Which round of a many-round game ``state`` is in (a one-round game: always 0).

        A rollout to the end of the round stops when this changes or the game ends.
        """
        return 0

    def round_loser(self, state: Any, seat: int) -> bool:
        """Whether ``seat`` lost the round that just ended (scored by rollouts; none by default)."""
        return False

    def round_margin(self, state: Any, seat: int) -> float:
        """How far ``seat`` finished the round that just ended above the lowest other player (0 by default)."""
        return 0.0

    def capturing_moves(self, state: Any) -> list[int]:
        """The legal moves that take material, the biggest takes first (none by default).

        Searches extend their leaves with these (a quiescence search), so a
        position is not scored in the middle of an exchange.
        """
        return []

    def check_action(self, state: Any, action: Any, mask: np.ndarray | None = None) -> int:
        """Return ``action`` as an int, or raise naming the problem.

        ``TypeError`` for what is not an integer action (see
        :func:`~envs.core.checks.as_action`); :class:`RuleError` for an action
        out of range or illegal here. ``mask`` is the position's legal mask
        when the caller already has it.
        """
        if mask is not None and type(action) is int and 0 <= action < self.num_actions and mask[action]:
            return action
        action = as_action(action, self.num_actions, self.name)
        if self.is_over(state):
            raise RuleError(f"{self.name}: the game is over; no action {action} can be played")
        if not 0 <= action < self.num_actions:
            raise RuleError(f"{self.name}: action {action} is out of range [0, {self.num_actions})")
        if mask is None:
            mask = self.legal_mask(state)
        if not mask[action]:
            legal = np.flatnonzero(mask).tolist()
            shown = ", ".join(f"{a} ({self.action_name(state, a)})" for a in legal[:12])
            more = f", ... {len(legal) - 12} more" if len(legal) > 12 else ""
            raise RuleError(
                f"{self.name}: illegal action {action} ({self.action_name(state, action)}) "
                f"for seat {self.to_move(state)}; legal: {shown}{more}"
            )
        return action
