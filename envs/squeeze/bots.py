"""Squeeze's easy and medium bots: the hex-rook bots (:mod:`envs.hexrook.bots`), which read the move rule
from the game."""

from envs.hexrook.bots import BOTS, EasyBot, MediumBot

__all__ = ["BOTS", "EasyBot", "MediumBot"]
