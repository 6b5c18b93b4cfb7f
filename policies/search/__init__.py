"""The search library: play-time and training searches over the batched engines, guided by a network.

- :mod:`policies.search.tree`: one batched tree search (a Gumbel root, PUCT inside) over many boards.
- :mod:`policies.search.alpha_beta`: depth-limited alpha-beta with the game's solver near the end.
- :mod:`policies.search.compiled`: that alpha-beta, compiled, run on a game's batched engine.
- :mod:`policies.search.compiled_games`: the engines' functions it calls, registered.
- :mod:`policies.search.rollouts`: determinised play-outs for the card game.
- :mod:`policies.search.gumbel`: the tree search as a player, and its evaluators.
- :mod:`policies.search.player`: what every searching player shares (``act``, ``explain``).
"""
