"""Playing games by name: one game between opponents (:func:`play_game`, with an observer hook), or a seeded
series with seats rotated (:func:`play_series`), with duplicate deals for card games and, for players that
never vary their moves, random openings."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs.core.checks import as_int
from envs.core.match import turns
from envs.core.opponents import Opponent
from envs.opponents import make_opponent
from envs.registry import make_raw

OPENING_STREAM = 0x09E4  # mixed into a game's seed for its random opening (not the players' or the deal's stream)


@dataclass
class GameRecord:
    """Outcome of one game: ``returns`` and ``winners`` by seat, the number of plies (the opening's
    included), think times by seat, the random ``opening`` moves played before the players moved, and
    ``ranks`` by seat: the finishing order (0 first, equal ranks tied; :func:`finishing_ranks`); ``digest``: a
    hash of the starting position and every move, equal for two games only if they were played alike."""

    returns: list[float]
    winners: list[int]
    plies: int
    move_seconds: list[list[float]] = field(default_factory=list)
    opening: list[int] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    digest: str = ""


def finishing_ranks(winners: list[int], standings: list[float] | None, left_at: dict[int, int], n: int) -> list[int]:
    """Each seat's place, counted as in a race (the number of seats that finished ahead of it: 0 first; seats
    that tie share a place and the next place is skipped): winners first, then by the game's ``standings``
    (scores, higher better) where it has them, then by how late a seat left the game (``left_at``: the ply it
    was eliminated at; seats still in it rank above every seat that left). A draw ties every seat."""

    def key(seat: int) -> tuple[bool, float, float]:
        return seat in winners, standings[seat] if standings else 0.0, left_at.get(seat, float("inf"))

    keys = [key(seat) for seat in range(n)]
    return [sum(other > mine for other in keys) for mine in keys]


@dataclass(frozen=True)
class Openings:
    """How a series' games begin: from ``positions`` (texts of the game's notation: deal ``d`` from
    ``positions[d % len(positions)]``), then ``plies`` random legal plies. Each is played in every seating."""

    plies: int = 0
    positions: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.plies or self.positions)

    def for_deal(self, deal: int) -> Openings:
        """The opening of deal ``deal``: its one position (if any) and the random plies."""
        if not self.positions:
            return self
        return Openings(self.plies, (self.positions[deal % len(self.positions)],))

    def describe(self) -> str:
        """E.g. ``"3 opening positions, then 2 random plies"``."""
        parts = [f"{len(self.positions)} opening position" + "s" * (len(self.positions) != 1)] * bool(self.positions)
        parts += [f"{self.plies} random opening plies"] * bool(self.plies)
        return ", then ".join(parts)

    def to_json(self) -> Any:
        """The plies alone (an int, as series records always held), or both with the positions."""
        return self.plies if not self.positions else {"plies": self.plies, "positions": list(self.positions)}


def check_opening_plies(opening_plies: Any) -> Openings:
    """``opening_plies`` (an int >= 0 of random plies, an :class:`Openings`, or its JSON) as an
    :class:`Openings`, or a ValueError naming it."""
    if isinstance(opening_plies, dict) and set(opening_plies) == {"plies", "positions"}:
        opening_plies = Openings(opening_plies["plies"], tuple(opening_plies["positions"]))
    if isinstance(opening_plies, Openings):
        if (plain := as_int(opening_plies.plies)) is None or plain < 0:
            raise ValueError(f"opening plies must be an int >= 0, got {opening_plies.plies!r}")
        if not all(isinstance(text, str) for text in opening_plies.positions):
            raise ValueError("opening positions must be texts of the game's notation")
        return opening_plies
    if (plain := as_int(opening_plies)) is None or plain < 0:
        raise ValueError(f"opening_plies must be an int >= 0, got {opening_plies!r}")
    return Openings(plain)


def play_game(
    name: str,
    players: Sequence[Opponent],
    seed: int | None = None,
    observer: Callable[[int, np.ndarray, np.ndarray, int], None] | None = None,
    opening_plies: int | Openings = 0,
    **params: Any,
) -> GameRecord:
    """One game of ``name`` with ``players[i]`` in seat i (the raw env: an illegal move raises).

    ``observer(seat, observation, action_mask, action)``, if given, sees every move of the players.
    ``opening_plies``: the game's first plies are legal moves drawn at random (from ``seed``) before the
    players take over (an :class:`Openings` may also give the position the game starts from), so that players
    who always answer a position the same way still meet many positions;
    a game that ends within them raises a ValueError (it would be scored on random moves).
    """
    openings = check_opening_plies(opening_plies)
    env = make_raw(name, **params)
    if len(players) != env.game.num_players:
        raise ValueError(f"{name}: {env.game.num_players} players needed, got {len(players)}")
    env.reset(seed=seed, options={"position": openings.positions[0]} if openings.positions else None)
    seed_rng = np.random.default_rng(seed)
    for p in players:
        p.reset(seed=int(seed_rng.integers(2**31)))
    opening_rng = np.random.default_rng(None if seed is None else [seed, OPENING_STREAM])
    returns = dict.fromkeys(env.possible_agents, 0.0)
    plies = 0
    move_seconds: list[list[float]] = [[] for _ in players]
    opening: list[int] = []
    left_at: dict[int, int] = {}  # seat -> the ply it left the game at (games that eliminate)
    digest = hashlib.blake2b(env.position().encode(), digest_size=8)
    for agent in turns(env, returns=returns):
        obs = env.observe(agent)
        seat = env.agent_seat[agent]
        if plies < openings.plies:
            action = int(opening_rng.choice(np.flatnonzero(obs["action_mask"])))
            opening.append(action)
            digest.update(b",%d" % action)
            env.step(action)
            plies += 1
            _note_leavers(env.game, env.game_state, plies, left_at)
            continue
        started = time.perf_counter()
        action = players[seat].act(obs["observation"], obs["action_mask"], env.game_state)
        move_seconds[seat].append(time.perf_counter() - started)
        if observer is not None:
            observer(seat, obs["observation"], obs["action_mask"], action)
        digest.update(b",%d" % action)
        env.step(action)
        plies += 1
        _note_leavers(env.game, env.game_state, plies, left_at)
    if openings.plies and plies <= openings.plies:
        raise ValueError(
            f"{name}: the game ended within its {openings.plies} random opening plies (seed {seed}); "
            "use fewer opening plies"
        )
    if openings.positions and plies == 0:
        raise ValueError(f"{name}: the opening position {openings.positions[0]!r} is already over")
    winners = env.game.winners(env.game_state)
    ranks = finishing_ranks(winners, env.game.standings(env.game_state), left_at, len(players))
    returns_by_seat = [returns[a] for a in env.possible_agents]
    return GameRecord(returns_by_seat, winners, plies, move_seconds, opening, ranks, digest.hexdigest())


def _note_leavers(game: Any, state: Any, plies: int, left_at: dict[int, int]) -> None:
    """Record the ply at which each seat that has just left the game (e.g. sunk) left it."""
    for seat in range(game.num_players):
        if seat not in left_at and not game.seat_active(state, seat):
            left_at[seat] = plies


@dataclass
class SeriesResult:
    """Per entrant (by index in the given list): wins, draws, losses, games, summed returns, think times;
    ``duplicate``: whether each deal (or opening) was played once with every entrant in every seat;
    ``opening_plies``: the random plies each game began with; ``game_ids`` and ``game_ranks``: each game's
    number in the series and every entrant's place in it (:attr:`GameRecord.ranks`, by entrant), for ratings
    fitted to whole results and for tests on pairs of games; ``game_digests``: each game's
    :attr:`GameRecord.digest` (:func:`distinct_games` counts how many games were played alike)."""

    names: list[str]
    wins: list[int]
    draws: list[int]
    losses: list[int]
    returns: list[float]
    games: int
    move_seconds: list[list[float]] = field(default_factory=list)  # every move's think time
    duplicate: bool = False
    opening_plies: Openings = Openings()
    game_ids: list[int] = field(default_factory=list)
    game_ranks: list[list[int]] = field(default_factory=list)
    game_digests: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.opening_plies = check_opening_plies(self.opening_plies)  # read back from JSON: an int or a dict


def uses_duplicate_deals(
    name: str, duplicate: bool | None = None, opening_plies: int | Openings = 0, **params: Any
) -> bool:
    """``duplicate``, or when None the game's own choice (``Game.duplicate_deals``: card games), and always
    with random openings (each opening is then played in every seating, so neither side keeps a lucky one)."""
    if duplicate is None:
        return bool(make_raw(name, **params).game.duplicate_deals) or bool(check_opening_plies(opening_plies))
    if not isinstance(duplicate, (bool, np.bool_)):
        raise TypeError(f"duplicate must be True, False or None (the game's choice), got {duplicate!r}")
    return bool(duplicate)


def check_duplicate_games(entrants: int, games: int, first_game: int = 0) -> None:
    """Duplicate deals play each deal once per rotation of the seats: whole deals only."""
    if games % entrants or first_game % entrants:
        raise ValueError(
            f"duplicate deals: each deal (or opening) is played {entrants} times (once per seating), so games must "
            f"be a multiple of {entrants}, got {games}" + (f" from game {first_game}" if first_game else "")
        )


def play_series(
    name: str,
    entrants: Sequence[Any],
    games: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    first_game: int = 0,
    duplicate: bool | None = None,
    opening_plies: int | Openings = 0,
    **params: Any,
) -> SeriesResult:
    """``games`` games, the seating rotated each game so every entrant plays every seat.

    ``entrants`` are opponent specs (names, policy paths, objects), one per
    seat. A game counts as a win for each of its winners, a draw for every
    entrant when nobody won, and a loss otherwise. Game ``g`` of a series
    depends only on ``seed`` and ``g`` (players are re-seeded per game), so
    games ``first_game .. first_game + games - 1`` played apart add up to
    the same series played at once.

    ``duplicate`` (default: the game's choice, :func:`uses_duplicate_deals`):
    the games come in blocks of as many games as entrants, each block one
    deal (one seed) played once in every rotation of the seats, so luck of
    the cards evens out; ``games`` and ``first_game`` must then be whole
    blocks.

    ``opening_plies`` (see :func:`play_game`): every game begins with that many random plies; duplicate by
    default, so each opening is played once in every seating.
    """
    n = len(entrants)
    opening_plies = check_opening_plies(opening_plies)
    duplicate = uses_duplicate_deals(name, duplicate, opening_plies, **params)
    if duplicate:
        check_duplicate_games(n, games, first_game)
    players = [make_opponent(name, spec, seed=seed + i, **params) for i, spec in enumerate(entrants)]
    names = [spec if isinstance(spec, str) else type(spec).__name__ for spec in entrants]
    wins, draws, losses, rets = [0] * n, [0] * n, [0] * n, [0.0] * n
    move_seconds: list[list[float]] = [[] for _ in range(n)]
    game_ranks: list[list[int]] = []
    digests: list[str] = []
    for g in range(first_game, first_game + games):
        order = [(g + s) % n for s in range(n)]  # order[seat] = entrant index
        deal = g // n if duplicate else g
        record = play_game(
            name, [players[i] for i in order], seed=seed * 100_003 + deal, opening_plies=opening_plies.for_deal(deal),
            **params,
        )  # fmt: skip
        placed = [0] * n
        for seat, entrant in enumerate(order):
            placed[entrant] = record.ranks[seat]
            rets[entrant] += record.returns[seat]
            move_seconds[entrant] += record.move_seconds[seat]
            if not record.winners:
                draws[entrant] += 1
            elif seat in record.winners:
                wins[entrant] += 1
            else:
                losses[entrant] += 1
        game_ranks.append(placed)
        digests.append(record.digest)
        if progress is not None:
            progress(g + 1 - first_game)
    return SeriesResult(
        names, wins, draws, losses, rets, games, move_seconds, duplicate, opening_plies,
        list(range(first_game, first_game + games)), game_ranks, digests,
    )  # fmt: skip


def merge_series(parts: Sequence[SeriesResult]) -> SeriesResult:
    """One series from parts played apart (same entrants, disjoint games), its games in order."""
    first = parts[0]
    n = len(first.names)
    games = sorted((g, ranks) for p in parts for g, ranks in zip(p.game_ids, p.game_ranks))
    digested = all(len(p.game_digests) == len(p.game_ids) for p in parts)  # parts kept before digests: none
    digests = sorted((g, d) for p in parts for g, d in zip(p.game_ids, p.game_digests)) if digested else []
    return SeriesResult(
        first.names,
        [sum(p.wins[i] for p in parts) for i in range(n)],
        [sum(p.draws[i] for p in parts) for i in range(n)],
        [sum(p.losses[i] for p in parts) for i in range(n)],
        [sum(p.returns[i] for p in parts) for i in range(n)],
        sum(p.games for p in parts),
        [[t for p in parts for t in p.move_seconds[i]] for i in range(n)],
        first.duplicate,
        first.opening_plies,
        [g for g, _ in games],
        [ranks for _, ranks in games],
        [d for _, d in digests],
    )


def distinct_games(result: SeriesResult) -> int | None:
    """How many of the series' games differ in their moves (None for a series kept before games had digests):
    players that answer every position the same way replay one game per seating unless the games open at
    random (``opening_plies``) or are dealt."""
    if len(result.game_digests) != result.games:
        return None
    return len(set(result.game_digests))
