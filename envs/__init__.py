"""swgym games as PettingZoo environments.

>>> import envs
>>> env = envs.make("swival", render_mode="ansi")   # PettingZoo AEC env
>>> import gymnasium; single = gymnasium.make("swgym/Swival-v0", opponent="medium")
"""

from envs.registry import GAMES, list_games, make, make_raw, register_gymnasium

register_gymnasium()

__all__ = ["GAMES", "list_games", "make", "make_raw"]
