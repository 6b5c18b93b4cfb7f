"""The play app's logic, with no pygame in it: whose turn, the pending clicks, undo, timers, scores.

The window (``scripts/app/window.py``) only turns mouse events into
:meth:`Session.click` / :meth:`Session.press` calls and draws what the
session says; tests drive the session directly with a fake clock.

Timing. After the person moves, the computer answers when ``think`` seconds
have passed (the person may take the move back until then); each further
computer move waits ``SPEEDS[speed]`` seconds. ``control`` (the Swimming
original's option, offered for every game): ``auto`` as just said;
``semiauto`` waits for Continue after the person's own turn instead of the
think time; ``manual`` waits for Continue before every computer move.
"""

from __future__ import annotations

import getpass
import inspect
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from envs.core.match import next_turn
from envs.opponents import make_opponent
from envs.registry import make_raw
from scripts.app.games import adapter_for
from scripts.app.games.base import Key
from scripts.scores import normal_name

SPEEDS = {"slow": 1.5, "normal": 0.6, "fast": 0.15, "instant": 0.0}
CONTROLS = ("auto", "semiauto", "manual")
THINK_STEPS = (0.0, 1.0, 2.0, 3.0, 5.0, 8.0, 13.0)


def default_name() -> str:
    try:
        return getpass.getuser() or "you"
    except Exception:  # noqa: BLE001 - no login name on this system
        return "you"


def available_difficulties(name: str) -> list[str]:
    """random, easy, medium, and hard when a policy is shipped for game ``name``."""
    from policies import shipped_path

    return ["random", "easy", "medium"] + (["hard"] if shipped_path(name).exists() else [])


class Session:
    """One person against the computer at one game; many games in a row."""

    def __init__(
        self,
        name: str,
        vs: str = "medium",
        seat: int = 0,
        player: str | None = None,
        seed: int | None = None,
        think: float = 2.0,
        params: dict[str, Any] | None = None,
        scores=None,
        speed: str = "normal",
        control: str = "auto",
        brain: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.game_name = name
        self.params = dict(params or {})
        self.vs = vs
        self.seat = seat
        self.player = normal_name(player or default_name())  # as the scores file stores it
        self.seed = seed
        self.think = float(think)
        if speed not in SPEEDS:
            raise ValueError(f"speed must be one of {', '.join(SPEEDS)}, got {speed!r}")
        if control not in CONTROLS:
            raise ValueError(f"control must be one of {', '.join(CONTROLS)}, got {control!r}")
        self.speed = speed
        self.control = control
        self.brain_on = brain
        self.scores = scores
        self.clock = clock
        self.adapter = adapter_for(name)
        self.env = None
        self.games_played = 0
        self.position: str | None = None  # the position every game starts from (None: the game's start)
        self.new_game(seed=seed, record_abandoned=False)

    def start_at(self, position: str) -> None:
        """Play from ``position`` (the game's notation) from now on; such games are not scored."""
        self.position = position
        self.scores = None
        self.new_game(seed=self.seed, record_abandoned=False)

    # -- the position ------------------------------------------------------------
    @property
    def game(self):
        return self.env.game

    @property
    def state(self):
        return self.env.game_state

    @property
    def renderer(self):
        return type(self.env).renderer

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state) or self.resigned

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.game.to_move(self.state)

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    @property
    def n(self) -> int:
        return self.game.num_players

    def seat_name(self, seat: int) -> str:
        if seat == self.seat:
            return self.player
        return f"computer {self.vs}" if self.n == 2 else f"computer {self.vs} {seat}"

    # -- a new game ----------------------------------------------------------------
    def new_game(
        self,
        seed: int | None = None,
        record_abandoned: bool = True,
        params: dict | None = None,
        vs: str | None = None,
        seat: int | None = None,
    ) -> None:
        """Start again (a game in progress counts as resigned once the person has moved)."""
        if (
            record_abandoned
            and self.env is not None
            and not self.over
            and self.person_moved
            and self.can_resign() is None
        ):
            self._record_resignation()
        if params is not None:
            self.params = dict(params)
        if vs is not None:
            self.vs = vs
        env = make_raw(self.game_name, **self.params)
        if seat is not None:
            self.seat = seat
        if not 0 <= self.seat < env.game.num_players:
            raise ValueError(f"{self.game_name}: seat must be in [0, {env.game.num_players}), got {self.seat}")
        self.env = env
        self.seed = seed
        self.env.reset(seed=seed, options=None if self.position is None else {"position": self.position})
        rng = np.random.default_rng(seed)
        self.computers = {
            s: make_opponent(self.game_name, self.vs, seed=int(rng.integers(2**31)), **self.params)
            for s in range(self.n)
            if s != self.seat
        }
        self.selection: list[Key] = []
        self.hover: Key | None = None
        self.undo_stack: list[dict] = []
        self.history: list[tuple[int, int]] = []
        self.resigned = False
        self.recorded = False
        self.person_moved = False
        self.waiting_continue = False
        self.ready_at = self.clock()
        self.message = ""
        self.refusal = ""
        self.brain: dict[str, Any] | None = None
        self.events: list[str] = []  # sounds to play: "move", "computer", "refused", "win", "lose", "draw"
        self.coins = [0] * self.n
        self._options = None
        self._settle()

    # -- the person's clicks ---------------------------------------------------------
    def options(self) -> dict[int, list[tuple]]:
        """Legal actions of the person with their click paths (cached per position)."""
        if not self.my_turn:
            return {}
        if self._options is None:
            mask = self.env.legal_mask()
            self._options = self.adapter.paths(self.game, self.state, mask, self.seat)
        return self._options

    def candidates(self, selection: list[Key] | None = None) -> list[int]:
        sel = tuple(self.selection if selection is None else selection)
        return [a for a, paths in self.options().items() if any(p[: len(sel)] == sel for p in paths)]

    def next_keys(self) -> list[Key]:
        """Keys that continue the pending selection towards some legal action."""
        sel = tuple(self.selection)
        keys: dict[Key, None] = {}
        for paths in self.options().values():
            for p in paths:
                if len(p) > len(sel) and p[: len(sel)] == sel:
                    keys[p[len(sel)]] = None
        return list(keys)

    def complete(self, selection: list[Key]) -> int | None:
        """The action whose whole path is ``selection``, when exactly one is."""
        sel = tuple(selection)
        done = [a for a, paths in self.options().items() if sel in paths]
        return done[0] if len(done) == 1 else None

    def click(self, key: Key | None) -> bool:
        """A click on a board key or an action button; True when accepted (maybe playing a move)."""
        self.refusal = ""
        if not self.my_turn:
            self._refuse("The game is over: press New game." if self.over else "Wait: it is not your turn.")
            return False
        if key is not None and key in self.next_keys():
            self.selection.append(key)
        elif key is not None and self.selection and key in self._first_keys():
            self.selection = [key]  # start again from another piece
        else:
            self._refuse(self.adapter.reason(self.game, self.state, self.seat, self.selection, key))
            return False
        action = self.complete(self.selection)
        if action is not None:
            self.play(action)
        return True

    def _first_keys(self) -> list[Key]:
        return list({p[0]: None for paths in self.options().values() for p in paths})

    def cancel(self) -> None:
        self.selection = []
        self.refusal = ""

    def _refuse(self, why: str) -> None:
        self.refusal = why
        self.events.append("refused")

    def play(self, action: int) -> None:
        """The person plays ``action`` (legal, or a RuleError naming the legal ones)."""
        if not self.my_turn:
            raise ValueError("it is not the person's turn")
        before = self.env.snapshot()
        self._step(int(action))
        self.person_moved = True
        blocked = self.adapter.undo_blocked(self.game, before["state"], self.state)
        self.undo_stack = [] if blocked else self.undo_stack + [before]
        self.events.append("move")
        if not self.over and not self.my_turn:
            now = self.clock()
            if self.control in ("semiauto", "manual"):
                self.waiting_continue = True
            else:
                self.ready_at = now + (self.think if self.undo_stack else 0.0)
        self._finish_if_over()

    # -- undo, resign, continue -----------------------------------------------------------
    def can_undo(self) -> str | None:
        """None when the person's last move can be taken back, else why not."""
        if not self.undo_stack:
            return "nothing to take back: the computer has answered" if self.person_moved else "no move to take back"
        return None

    def undo(self) -> bool:
        why = self.can_undo()
        if why is not None:
            self._refuse(f"Undo: {why}.")
            return False
        self.env.restore(self.undo_stack.pop())
        self.history.pop()
        self._options = None
        self.selection = []
        self.waiting_continue = False
        self.message = "Move taken back."
        self.person_moved = bool(self.history) and any(s == self.seat for s, _ in self.history)
        return True

    def can_resign(self) -> str | None:
        if self.over:
            return "the game is over"
        if not self.game.seat_active(self.state, self.seat):
            return "you are out of this game already"
        return self.adapter.can_resign(self.game, self.state, self.seat)

    def resign(self) -> bool:
        """ "I quit": the person loses (Swimming: the game is aborted and the pot shared out)."""
        why = self.can_resign()
        if why is not None:
            self._refuse(f"I quit: not now, {why}.")
            return False
        self._record_resignation()
        self.resigned = True
        self.selection = []
        self.message = "You resigned."
        self.events.append("lose")
        return True

    def continue_(self) -> bool:
        if not self.waiting_continue:
            return False
        self.waiting_continue = False
        self.ready_at = self.clock()
        self.undo_stack = []
        return True

    # -- time: the computer's moves ---------------------------------------------------------
    def countdown(self) -> float | None:
        """Seconds left to take the move back before the computer answers (None when not counting)."""
        if self.over or self.my_turn or self.waiting_continue or not self.undo_stack:
            return None
        return max(0.0, self.ready_at - self.clock())

    def tick(self) -> bool:
        """Let a computer move when its time has come; True when something changed (one move at most)."""
        if self.over or self.my_turn or self.waiting_continue or self.clock() < self.ready_at:
            return False
        self.computer_move()
        return True

    def computer_move(self) -> int:
        seat = self.to_move
        agent = self.env.possible_agents[seat]
        obs = self.env.observe(agent)
        opponent = self.computers[seat]
        if self.brain_on:
            self.brain = self.explain(seat, obs)
        action = int(opponent.act(obs["observation"], obs["action_mask"], self.env.game_state))
        self.undo_stack = []
        self._step(action)
        self.events.append("computer")
        if not self.over and not self.my_turn:
            if self.control == "manual":
                self.waiting_continue = True
            else:
                self.ready_at = self.clock() + SPEEDS[self.speed]
        self._finish_if_over()
        return action

    def explain(self, seat: int, obs: dict | None = None) -> dict[str, Any]:
        """What computer ``seat`` weighs here (see :func:`explain`)."""
        return explain(self.env, self.computers.get(seat), seat, obs)

    # -- internals ----------------------------------------------------------------------------
    def _step(self, action: int) -> None:
        seat = self.game.to_move(self.state)
        name = self.env.action_name(action)
        self.env.step(action)
        self.history.append((seat, action))
        rewards = [0.0] * self.n
        for agent, r in self.env.rewards.items():
            rewards[self.env.agent_seat[agent]] = r
        self._settle()
        self._options = None
        self.selection = []
        self.refusal = ""
        self.message = f"{self.seat_name(seat)}: {name}"
        if self.adapter.coins:
            delta = {self.seat_name(s): int(round(r)) for s, r in enumerate(rewards) if r}
            for s, r in enumerate(rewards):
                self.coins[s] += int(round(r))
            if delta and self.scores is not None:
                self.scores.add_coins(self.game_name, delta)

    def _settle(self) -> None:
        """Step the agents that are done (PettingZoo's dead steps) so that a live one is selected."""
        next_turn(self.env, stop=lambda: self.game.is_over(self.state))  # a finished game stays on the board

    def _finish_if_over(self) -> None:
        if not self.game.is_over(self.state) or self.recorded:
            return
        self.recorded = True
        self.games_played += 1
        winners = self.game.winners(self.state)
        results = {}
        for s in range(self.n):
            if not winners:
                results[self.seat_name(s)] = "draw"
            elif s in winners:
                results[self.seat_name(s)] = "win" if len(winners) == 1 else "draw"
            else:
                results[self.seat_name(s)] = "loss"
        mine = results[self.player]
        self.outcome = mine
        self.message = {
            "win": "You win!",
            "draw": "A draw." if not winners else "You share the win.",
            "loss": "You lose.",
        }[mine]
        self.events.append({"win": "win", "draw": "draw", "loss": "lose"}[mine])
        self.undo_stack = []
        if self.scores is not None:
            take = self.seat_name(winners[0]) if self.adapter.coins and len(winners) == 1 else None
            self.scores.record(self.game_name, results, take_carry=take)

    def _record_resignation(self) -> None:
        if self.recorded:
            return
        self.recorded = True
        self.games_played += 1
        self.outcome = "loss"
        if self.scores is None:
            return
        players = [self.seat_name(s) for s in range(self.n)]
        if self.adapter.coins:
            active = [self.seat_name(s) for s in range(self.n) if self.game.seat_active(self.state, s)]
            pot = -sum(self.coins)
            self.scores.abort(self.game_name, players, active, pot, responsible=self.player, losers=[self.player])
        elif self.n == 2:
            self.scores.record(self.game_name, {self.player: "loss", self.seat_name(1 - self.seat): "win"})
        else:
            self.scores.record(self.game_name, {self.player: "loss"})

    # -- settings -------------------------------------------------------------------------------
    def set_think(self, up: bool) -> float:
        steps = THINK_STEPS
        i = min(range(len(steps)), key=lambda k: abs(steps[k] - self.think))
        self.think = steps[min(len(steps) - 1, i + 1)] if up else steps[max(0, i - 1)]
        return self.think

    def cycle(self, current: str, values) -> str:
        values = list(values)
        return values[(values.index(current) + 1) % len(values)] if current in values else values[0]

    def close(self) -> None:
        """The window closes: a game in progress counts as resigned (as the original's End)."""
        if not self.over and self.person_moved and self.can_resign() is None:
            self._record_resignation()


def explain(env, opponent, seat: int, obs: dict | None = None, top: int = 5) -> dict[str, Any]:
    """What ``opponent`` (to move in ``seat``) weighs: {"seat", "kind", "value", "moves": [(name, weight)]}.

    Bots give scored moves (``kind`` "scores"), policies probabilities and a
    value; an opponent without ``explain`` shows its legal moves uniformly.
    """
    if obs is None:
        obs = env.observe(env.possible_agents[seat])
    mask = obs["action_mask"]
    method = getattr(opponent, "explain", None)
    if method is None:
        legal = np.flatnonzero(mask)
        info = {"moves": [(int(a), 1.0 / len(legal)) for a in legal[:top]], "value": None, "kind": "uniform"}
    elif "state" in inspect.signature(method).parameters:
        info = method(obs["observation"], mask, env.game_state, top=top)
    else:
        info = method(obs["observation"], mask, top=top)
    return {
        "seat": seat,
        "kind": info.get("kind", "probabilities"),
        "value": info.get("value"),
        "moves": [(env.action_name(a), float(w)) for a, w in info["moves"]],
    }
