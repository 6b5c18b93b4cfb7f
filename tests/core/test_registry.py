"""One list of games: the app's adapters, training configs, shipped policies and golden files all follow
envs/registry.py."""

import importlib
import json
import pkgutil

import pytest

import policies
import scripts.app.games
from envs.registry import GAMES, entry, policy_file, variant_label
from tests.helpers import GOLDEN, ROOT

CONFIG_DIR = ROOT / "training" / "configs"


def test_every_game_has_an_app_adapter_and_no_adapter_is_extra():
    with_adapter = set()
    for info in pkgutil.iter_modules(scripts.app.games.__path__):
        module = importlib.import_module(f"scripts.app.games.{info.name}")
        if hasattr(module, "ADAPTER"):
            with_adapter.add(info.name)
    assert with_adapter == set(GAMES)
    for name in GAMES:
        assert isinstance(scripts.app.games.adapter_for(name), scripts.app.games.Adapter)


def test_unknown_game_has_no_adapter():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        scripts.app.games.adapter_for("chess")


def test_training_configs_are_the_registry_ones():
    on_disk = {path.stem: json.loads(path.read_text()) for path in CONFIG_DIR.glob("*.json")}
    named = {config: name for name, e in GAMES.items() for config in e.configs}
    assert set(on_disk) == set(named)
    for config, name in named.items():
        assert on_disk[config]["game"] == name, config
    for name, e in GAMES.items():
        assert e.configs and e.config_path(ROOT).exists(), name
        assert on_disk[e.configs[0]].get("params", {}) == e.variants[0], f"{name}: the first config trains the default"


def test_shipped_policies_are_the_configs_ones():
    shipped = {
        policy_file(
            json.loads((CONFIG_DIR / f"{config}.json").read_text())["game"],
            **json.loads((CONFIG_DIR / f"{config}.json").read_text()).get("params", {}),
        )
        for e in GAMES.values()
        for config in e.configs
    }
    assert shipped == {path.name for path in policies.POLICY_DIR.glob("*.npz")}
    for name in GAMES:
        assert policies.shipped_path(name, **entry(name).variants[0]).exists(), name


def test_golden_files_are_the_registry_variants():
    assert {name for e in GAMES.values() for name in e.golden_files} == {p.name for p in GOLDEN.glob("*.txt")}


# (game, params, golden file, policy file)
NAMES = [
    ("swival", {}, "swival.txt", "swival_hard.npz"),
    ("twirls", {"board_size": 8}, "twirls_board_size-8.txt", "twirls_board_size-8_hard.npz"),
    ("swimming", {"num_players": 4}, "swimming_num_players-4.txt", "swimming_hard.npz"),
    ("swahili", {"num_players": 4}, "swahili_num_players-4.txt", "swahili_num_players-4_hard.npz"),
    ("squeeze", {"setup": "fixed"}, "squeeze_setup-fixed.txt", "squeeze_setup-fixed_hard.npz"),
]


@pytest.mark.parametrize("game,params,golden,policy", NAMES)
def test_file_names(game, params, golden, policy):
    assert entry(game).golden_file(params) == golden
    assert policy_file(game, **params) == policy


def test_variant_label():
    assert variant_label({}) == ""
    assert variant_label({"setup": "fixed", "num_players": 3}) == "num_players-3_setup-fixed"


@pytest.mark.parametrize(
    "game,params,match,golden",
    [
        ("swival", {}, ("easy", "medium"), "swival_easy-vs-medium.txt"),
        ("swimming", {"num_players": 4}, ("hard", "medium"), "swimming_num_players-4_hard-vs-medium.txt"),
        ("twirls", {"board_size": 8}, None, "twirls_board_size-8.txt"),
    ],
)
def test_bot_match_golden_file_names(game, params, match, golden):
    assert entry(game).golden_file(params, match) == golden


def test_every_game_pins_its_bot_matches_under_the_default_rules():
    from envs.registry import BOT_MATCHES

    assert BOT_MATCHES == (("easy", "medium"), ("hard", "medium"))
    for e in GAMES.values():
        assert [g for g in e.golden_games if g[1] is not None] == [(e.variants[0], m) for m in BOT_MATCHES]
