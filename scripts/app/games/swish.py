"""Swish clicks: the hex-rook adapter it shares with its twin (see :mod:`scripts.app.games.hexrook`)."""

from scripts.app.games.hexrook import HexRookAdapter

ADAPTER = HexRookAdapter  # found by adapter_for("swish")
