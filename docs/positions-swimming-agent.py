"""A determinised flat Monte Carlo player for Swimming, on the public state API only.

For each of a few worlds drawn from what the seat to move knows (``sample_world``: the others' hidden cards and
the stock dealt afresh), every legal move is tried in a few clones with fresh chance and played out at random
to the end of the round; the move that lost the fewest coins on average is played.
"""

import numpy as np

import envs


def playout_value(sim, seat: int, action: int, rng: np.random.Generator) -> float:
    """``action``, then random moves to the end of the round (someone pays or sinks): the coins ``seat`` won or
    lost (sinking, out of the game, counts as losing one)."""
    start, players = sim.returns(), len(sim.agents)
    sim.apply(action)
    while not sim.is_terminal() and sim.returns() == start and len(sim.agents) == players:
        sim.apply(int(rng.choice(sim.legal_actions())))
    gained = sim.returns()[seat] - start[seat]
    sunk = f"player_{seat}" not in sim.agents or (sim.is_terminal() and gained <= 0)
    return gained - sunk


def flat_monte_carlo(env, rng: np.random.Generator, worlds: int = 8, playouts: int = 1) -> int:
    """The move of the seat to move with the best mean playout value over ``worlds`` sampled worlds."""
    seat, legal = env.current_player(), env.legal_actions()
    totals = dict.fromkeys(legal, 0.0)
    for _ in range(worlds):
        world = env.sample_world(seat, rng)
        for action in legal:
            for _ in range(playouts):
                totals[action] += playout_value(world.clone(seed=rng), seat, action, rng)
    return max(legal, key=totals.__getitem__)


def play_game(seed: int, agent_seat: int, **rules) -> list[float]:
    """One game (``rules``: e.g. ``num_players=2``): the agent at ``agent_seat``, random players elsewhere; every
    seat's coins won or lost."""
    env, rng = envs.make("swimming", **rules), np.random.default_rng(seed)
    env.reset(seed=seed)
    while not env.is_terminal():
        mover = env.current_player()
        env.apply(flat_monte_carlo(env, rng) if mover == agent_seat else int(rng.choice(env.legal_actions())))
    return env.returns()


if __name__ == "__main__":  # python docs/positions-swimming-agent.py [GAMES [PLAYERS [COINS]]]
    import sys

    games, players, coins = ([int(a) for a in sys.argv[1:4]] + [10, 2, 1][len(sys.argv[1:4]) :])[:3]
    won = [
        play_game(seed, seed % players, num_players=players, coins=coins)[seed % players] > 0 for seed in range(games)
    ]
    print(f"the agent won {sum(won)} of {games} games against {players - 1} random player(s), {coins} coin(s) each")
