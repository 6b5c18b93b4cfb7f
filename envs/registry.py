"""Every game of the suite, by name: the one list to extend when a game is added.

What else each game has is named from here: its golden playthrough files
(``tests/golden/<game>[_<variant>].txt`` for random play under each variant,
``<game>[_<variant>]_<first>-vs-<rest>.txt`` for the bot matches of the default
rules, :data:`BOT_MATCHES`), its training configs
(``training/configs/<config>.json``), its shipped hard policies
(``policies/<game>[_<variant>]_hard.npz``, :func:`policy_file`) and its play-app
adapter (``scripts/app/games/<game>.py``); a test checks that none is
missing and none is extra.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium

# The bot matches pinned by a golden playthrough of each game's default rules: (seat 0, every other seat). A change
# in how the bots or the shipped hard opponent (its network and search) play changes these files.
BOT_MATCHES: tuple[tuple[str, str], ...] = (("easy", "medium"), ("hard", "medium"))


@dataclass(frozen=True)
class GameEntry:
    name: str  # registry name, e.g. "swival"
    module: str  # versioned PettingZoo module exposing env() and raw_env
    package: str  # package holding rules.py, env.py, render.py, bots.py
    gym_id: str  # single-agent gymnasium id
    batched: str = ""  # module with engine(**params) -> envs.core.batched.Engine; "" until the game has one
    # module with an exact endgame oracle for play-time search (empty_cells, state_value, nodes, warm_up:
    # see policies/search/alpha_beta.py); "" when the game has none
    solver: str = ""
    # rule-parameter sets that the test suite, golden playthroughs and bench cover;
    # the first is the game's default rules (the shipped hard opponent's variant)
    variants: tuple[dict, ...] = ({},)
    # training configs (training/configs/<config>.json), one per shipped hard opponent; the first trains the
    # default rules; empty: just the game's name
    training_configs: tuple[str, ...] = ()

    @property
    def bots_module(self) -> str:
        """The module with ``BOTS = {"easy": cls, "medium": cls}``: ``<package>.bots``."""
        return f"{self.package}.bots"

    @property
    def configs(self) -> tuple[str, ...]:
        """Names of the game's training configs, the default rules' first."""
        return self.training_configs or (self.name,)

    def config_path(self, root: Path, config: str | None = None) -> Path:
        """``root/training/configs/<config>.json`` (the default rules' config when ``config`` is None)."""
        return Path(root) / "training" / "configs" / f"{config or self.configs[0]}.json"

    def golden_file(self, params: dict[str, Any], match: tuple[str, str] | None = None) -> str:
        """File name of the golden playthrough of rule-parameter set ``params`` (as listed in ``variants``):
        random play, or the bot ``match`` (seat 0's opponent, the other seats')."""
        label = variant_label(params)
        return f"{self.name}{'_' + label if label else ''}{'_' + '-vs-'.join(match) if match else ''}.txt"

    @property
    def golden_games(self) -> tuple[tuple[dict, tuple[str, str] | None], ...]:
        """Every golden playthrough as (rule parameters, bot match or None for random play): random play under
        each variant, then each of :data:`BOT_MATCHES` under the default rules."""
        return tuple((params, None) for params in self.variants) + tuple((self.variants[0], m) for m in BOT_MATCHES)

    @property
    def golden_files(self) -> tuple[str, ...]:
        """The golden playthrough file of every golden game."""
        return tuple(self.golden_file(params, match) for params, match in self.golden_games)


def variant_label(params: dict[str, Any]) -> str:
    """File-name friendly label of a rule-parameter set ("" for none)."""
    return "_".join(f"{k}-{v}" for k, v in sorted(params.items())).replace(" ", "").replace(",", "-")


GAMES: dict[str, GameEntry] = {
    e.name: e
    for e in [
        GameEntry(
            "swival",
            "envs.swival_v0",
            "envs.swival",
            "swgym/Swival-v0",
            batched="envs.swival.batched",
            solver="envs.swival.solver",
        ),
        GameEntry(
            "twirls",
            "envs.twirls_v0",
            "envs.twirls",
            "swgym/Twirls-v0",
            batched="envs.twirls.batched",
            variants=({}, {"board_size": 8}),
        ),
        GameEntry(
            "swimming",
            "envs.swimming_v0",
            "envs.swimming",
            "swgym/Swimming-v0",
            batched="envs.swimming.batched",
            variants=({"num_players": 4}, {"num_players": 2}, {"num_players": 6}),
        ),
        GameEntry(
            "swahili",
            "envs.swahili_v0",
            "envs.swahili",
            "swgym/Swahili-v0",
            batched="envs.swahili.batched",
            variants=({"num_players": 2}, {"num_players": 3}, {"num_players": 4}),
            training_configs=("swahili", "swahili_4p"),
        ),
        GameEntry(
            "swish",
            "envs.swish_v0",
            "envs.swish",
            "swgym/Swish-v0",
            batched="envs.swish.batched",
            variants=({"setup": "random"}, {"setup": "fixed"}, {"setup": "marquisian"}),
        ),
        GameEntry(
            "squeeze",
            "envs.squeeze_v0",
            "envs.squeeze",
            "swgym/Squeeze-v0",
            batched="envs.squeeze.batched",
            variants=({"setup": "random"}, {"setup": "fixed"}, {"setup": "marquisian"}),
        ),
    ]
}
"""Every game by registry name: its ``GameEntry`` gives the versioned module (``module``), the single-agent
gymnasium id (``gym_id``), its batched engine's module (``batched``, "" when it has none) and the rule-parameter
sets the suite covers (``variants``, the default rules first)."""


def _entry(name: str) -> GameEntry:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(GAMES)}") from None


def list_games() -> list[str]:
    """Names of every game, in registry order."""
    return list(GAMES)


def game_module(name: str) -> ModuleType:
    """The versioned module (``envs.<name>_v0``) of a game."""
    return importlib.import_module(_entry(name).module)


def entry(name: str) -> GameEntry:
    """The registry entry of game ``name`` (a clear error for unknown names)."""
    return _entry(name)


def policy_file(name: str, **params: Any) -> str:
    """File name of the hard policy of game ``name`` under rule ``params``.

    ``<game>_hard.npz`` for the default rules; the rule parameters that differ
    from the game's defaults name the variant, e.g. ``swahili_num_players-4_hard.npz``.
    """
    game_cls = game_module(name).raw_env.game_cls
    rules = game_cls.normalise_params(params)  # a bad rule value is named here, not looked for as a file
    label = variant_label({k: v for k, v in rules.items() if game_cls.PARAMS[k] != v})
    return f"{name}{'_' + label if label else ''}_hard.npz"


def make(name: str, **kwargs: Any):
    """The wrapped PettingZoo AEC env of game ``name`` (``render_mode`` and rule keywords)."""
    return game_module(name).env(**kwargs)


def make_raw(name: str, **kwargs: Any):
    """The unwrapped AEC env (``raw_env``) of game ``name``."""
    return game_module(name).raw_env(**kwargs)


def observation_shape(name: str, **params: Any) -> tuple[int, ...]:
    """The shape of game ``name``'s observation tensor under rule ``params`` (what a network for it takes)."""
    raw = make_raw(name, **params)
    return tuple(int(n) for n in type(raw).observation_shape(raw.game))


def action_layout(name: str, **params: Any):
    """Game ``name``'s actions as (cell, move) pairs under rule ``params``, for a factored action head
    (:class:`envs.core.action_layout.ActionLayout`); None for a game whose actions do not factor so."""
    raw = make_raw(name, **params)
    return type(raw).action_layout(raw.game)


def batched_engine(name: str, **params: Any):
    """The batched engine (:class:`envs.core.batched.Engine`) of game ``name`` under rule ``params``.

    The first call imports numba and loads (or compiles) the game's kernels.
    """
    e = _entry(name)
    if not e.batched:
        with_engine = ", ".join(g.name for g in GAMES.values() if g.batched)
        raise NotImplementedError(
            f"{name} has no batched engine yet (games with one: {with_engine}); "
            f"use envs.make({name!r}) or gymnasium.make({e.gym_id!r})"
        )
    return importlib.import_module(e.batched).engine(**params)


def make_batched(name: str, num_envs: int, seed: int | None = None, *, random_others: bool = False, **params: Any):
    """N boards of game ``name``, every seat played by the caller (:class:`envs.core.batched.BatchedGame`);
    ``random_others``: the random opponents' loop will be played (it compiles meanwhile, in a second process)."""
    from envs.core.batched import BatchedGame  # numba loads with the first batched engine only

    return BatchedGame(batched_engine(name, **params), num_envs, seed=seed, random_others=random_others)


def register_gymnasium() -> None:
    """Register each game's single-agent env with gymnasium (idempotent)."""

    for entry in GAMES.values():
        if entry.gym_id not in gymnasium.registry:
            gymnasium.register(
                entry.gym_id,
                entry_point="envs.single_agent:SingleAgentEnv",
                vector_entry_point="envs.vector:make_vec",  # envs.vector imports this module, not the reverse
                kwargs={"name": entry.name},
                # unwrapped, so that env.action_masks() is reachable
                disable_env_checker=True,
                order_enforce=False,
            )
