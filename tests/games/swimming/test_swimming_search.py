"""Swimming's state API for search: clones with fresh chance, exact copies, worlds a seat can believe in
(weighted by a model of the others' past moves), the whole-state vector, and a flat Monte Carlo player on it."""

import copy
import pickle
import runpy
from pathlib import Path

import numpy as np
import pytest

import envs

STOCK = "KDADQH9HJDKHAH7H10D8SJSKS9C10CQCACQD"
# player_3 has the last turn before player_0, who knocked: one pass ends the round and the next is dealt
LAST_TURN = f"7S10SQS/8H10HKC/9DJHJC/7D8D7C 9SAS8C - {STOCK} - 3,3,3,3 0 3 3 play 0 0 7 1 - -"
# everyone but player_3 has passed: its pass draws the top three cards of the stock as the new middle
REFRESH = f"7S10SQS/8H10HKC/9DJHJC/7D8D7C 9SAS8C - {STOCK} - 3,3,3,3 0 3 3 play - 3 7 1 - -"
AGENT = Path(__file__).resolve().parents[3] / "docs" / "positions-swimming-agent.py"


def at(text, seed=0):
    env = envs.make("swimming")
    env.reset(seed=seed, options={"position": text})
    return env


def after_pass(env):
    env.apply(env.string_to_action("pass"))
    return env.position()


@pytest.mark.parametrize("position", [LAST_TURN, REFRESH], ids=["next round's deal", "next middle"])
def test_a_clone_for_search_does_not_hold_the_next_deal(position):
    env = at(position)
    clones = [env.clone() for _ in range(200)]
    truth = after_pass(env)
    same = sum(after_pass(clone) == truth for clone in clones)
    # by chance: a new deal of 32 cards never repeats; the same 3 of 17 stock cards as the middle 1 time in 680
    assert same <= 2
    seeded = [after_pass(at(position).clone(seed=7)) for _ in range(2)]
    assert seeded[0] == seeded[1] != truth


@pytest.mark.parametrize("position", [LAST_TURN, REFRESH], ids=["next round's deal", "next middle"])
def test_exact_copies_hold_the_next_deal(position):
    env = at(position)
    exact = [env.clone(keep_chance=True), copy.deepcopy(env.unwrapped), pickle.loads(pickle.dumps(env.unwrapped))]
    truth = after_pass(env)
    assert [after_pass(copied) for copied in exact] == [truth] * 3


def test_a_clone_keeps_the_hands_and_draws_the_stock_afresh():
    env = at(REFRESH)
    clone = env.clone(seed=1)
    full, again = env.position().split(), clone.position().split()
    assert full[:3] == again[:3] and full[4:] == again[4:]  # only the stock's order differs
    assert full[3] != again[3] and sorted(full[3]) == sorted(again[3])


# player_0 dealt and kept its lot; player_1 gave 7H for AS; player_2 to move. player_0 saw AS and 7H, not
# player_1's two other cards (KH, AC).
SWAPPED = (
    "8D9DQD/KH*ASAC/10DJDKD/7S8S9S 7H10SQS - 7DAD8H9H10HJHQHAHJSKS7C8C9C10CJCQCKC - 3,3,3,3 0 0 2 play - 0 1 1 -"
    " 0keep:10SQSAS,1swap:7H>AS"
)
KING_OF_CLUBS = 3 * 8 + 6


def hand_of_player_1(world):
    return world.position().split()[0].split("/")[1]


def test_sample_world_keeps_what_the_seat_saw():
    env = at(SWAPPED)
    rng = np.random.default_rng(0)
    worlds = [env.sample_world(0, rng) for _ in range(30)]
    assert all(world.position(0) == env.position(0) for world in worlds)
    hands = {hand_of_player_1(world) for world in worlds}
    assert all("*AS" in hand for hand in hands) and len(hands) > 20


def swapped_only_holding(card):
    """A model under which player_1's swap was possible only if it held ``card`` (other decisions: uniform).

    player_1 sits at the dealer's (player_0's) left, so in its observation the dealer is seat +3.
    """
    decoder = envs.make("swimming")

    def model(observation, mask):
        pieces = decoder.decode_observation(observation)
        if pieces["seat_3"][3]:  # player_1's decision
            return np.full(len(mask), float(pieces["hand"][card]))
        return np.full(len(mask), 1.0 / len(mask))

    return model


def test_sample_world_with_a_model_draws_only_worlds_where_the_past_moves_were_possible():
    # the two kinds of world player_0 can believe in: player_1 held KC when it swapped, or it did not (KC is in
    # another hand or the stock). Under the model only the first could have made the swap.
    env = at(SWAPPED)
    rng = np.random.default_rng(1)
    model = swapped_only_holding(KING_OF_CLUBS)
    free = [hand_of_player_1(env.sample_world(0, rng)) for _ in range(40)]
    weighed = [hand_of_player_1(env.sample_world(0, rng, model=model, candidates=200)) for _ in range(40)]
    assert sum("KC" in hand for hand in free) < 10  # 2 in 25 worlds by chance
    assert all("KC" in hand for hand in weighed)


def test_a_sampled_worlds_past_swap_names_the_card_given_in_that_worlds_hand():
    # the model is asked how likely player_1's swap was in each drawn world: the swap must be the one that gives
    # 7H from the hand as drawn there (its index in the hand differs from world to world), not the true hand's index
    env = at(SWAPPED)
    rng = np.random.default_rng(2)
    indices = set()
    for _ in range(20):
        world = env.sample_world(0, rng).unwrapped
        ((past, action),) = [d for d in world.game.past_decisions(world.game_state, 0) if d[0].to_move == 1]
        assert past.hands[1][action // 3] == world.game_state.middle[0]  # 7H, now the middle's lowest card
        assert past.middle[action % 3] in world.game_state.hands[1]  # AS
        indices.add(action // 3)
    assert len(indices) > 1


def test_the_whole_state_vector_sees_every_card_and_no_observation_is_it():
    env = at(SWAPPED)
    state = env.state()
    assert state.dtype == np.float32 and env.state_space.contains(state)
    world = env.sample_world(0, np.random.default_rng(3))
    assert np.array_equal(world.observe("player_0")["observation"], env.observe("player_0")["observation"])
    assert not np.array_equal(world.state(), state)  # player_0 cannot tell them apart; the state can
    assert np.array_equal(at(env.position()).state(), state)
    assert all(observation.size != state.size for observation in (env.observe(a)["observation"] for a in env.agents))


def test_the_monte_carlo_player_saves_itself_on_its_last_turn():
    # player_0 knocked; player_3 (9 points) would pay if it passed; a swap such as 7D for 9S (17) saves it
    agent = runpy.run_path(str(AGENT))
    last_turn = LAST_TURN.replace("7D8D7C", "7D8S9H").replace("9HJD", "8DJD").replace("10D8SJS", "10D7CJS")
    for seed in range(3):
        env = at(last_turn)
        move = agent["flat_monte_carlo"](env, np.random.default_rng(seed))
        env.apply(move)
        assert env.returns()[3] == 0.0


def test_the_monte_carlo_player_beats_random_players():
    # two players, one coin each (short games), seats alternating
    agent = runpy.run_path(str(AGENT))
    won = [agent["play_game"](seed, seed % 2, num_players=2, coins=1)[seed % 2] > 0 for seed in range(10)]
    assert sum(won) >= 8  # random play wins 5 of 10; 8 or more happens by chance 1 time in 18
