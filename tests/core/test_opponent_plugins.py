"""The ``swgym.opponents`` entry point is the extension point for opponent names: a third-party package's
resolver, registered as an installed distribution registers it, names an opponent every env takes."""

import gymnasium
import numpy as np
import pytest

import envs
from envs import opponents
from envs.opponents import PLUGIN_GROUP, make_opponent

RESOLVER = '''
class FirstLegal:
    """Plays the lowest legal action."""

    def __init__(self, name, seed):
        self.name, self.seed = name, seed

    def reset(self, seed=None):
        pass

    def act(self, observation, action_mask, state=None):
        return int(action_mask.nonzero()[0][0])


def resolve(name, spec, seed=None, trusted=False, search=True, **params):
    """``first-legal`` for every game; None for any other name (left to the other resolvers)."""
    return FirstLegal(name, seed) if spec == "first-legal" else None
'''


@pytest.fixture
def third_party(tmp_path, monkeypatch):
    """An installed distribution ``tiny-swgym-opponents`` (a dist-info folder on sys.path) that registers
    ``tiny_resolver:resolve`` under the entry point group."""
    (tmp_path / "tiny_resolver.py").write_text(RESOLVER)
    info = tmp_path / "tiny_swgym_opponents-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-swgym-opponents\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{PLUGIN_GROUP}]\ntiny = tiny_resolver:resolve\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    opponents._resolvers.cache_clear()  # loaded once a process: again with the new distribution
    yield
    monkeypatch.undo()
    opponents._resolvers.cache_clear()


def test_a_third_party_resolver_names_an_opponent(third_party):
    player = make_opponent("swival", "first-legal", seed=3)
    assert type(player).__name__ == "FirstLegal" and (player.name, player.seed) == ("swival", 3)
    mask = np.zeros(10, dtype=np.int8)
    mask[[4, 7]] = 1
    assert player.act(np.zeros(3), mask) == 4


def test_the_name_reaches_every_env(third_party):
    single = gymnasium.make("swgym/Swival-v0", opponent="first-legal", seat=0)
    single.reset(seed=0)
    assert type(single.unwrapped.opponents[0]).__name__ == "FirstLegal"
    _, _, terminated, truncated, _ = single.step(int(np.flatnonzero(single.unwrapped.action_masks())[0]))
    assert not (terminated or truncated)  # the opponent's lowest legal move was played
    vec = envs.make_vec("swival", 2, opponent="first-legal", seed=0)
    vec.reset()
    assert type(vec.opponents[0].opponent).__name__ == "FirstLegal"  # asked board by board
    vec.step(vec.action_masks().argmax(axis=1))


def test_the_shipped_names_still_resolve_beside_it(third_party):
    """The resolvers are asked in the order of their entry point names; each returns None for names not its own."""
    from policies.search.alpha_beta import PolicySearch

    assert isinstance(make_opponent("swival", "hard"), PolicySearch)


def test_a_name_no_resolver_knows_is_named(third_party):
    with pytest.raises(ValueError, match="unknown opponent 'first-illegal' for swival"):
        make_opponent("swival", "first-illegal")
