"""research/swimming_playout_model.py: the value table is medium's valuation, and the value play-out bot plays by it."""

import numpy as np

from envs.registry import make_raw
from envs.swimming.bots import MediumBot, after
from envs.swimming.rules import BINGO2, CHOICE, KEEP_LOT, KNOCK, PASS, PLAY, SWAP_ALL, score2
from research.swimming_playout_model import ValueGreedyBot, value_of


def test_the_table_is_mediums_value_with_every_other_card_still_to_come():
    rules = make_raw("swimming", num_players=4).game
    medium = MediumBot(rules, seed=0)
    rng = np.random.default_rng(3)
    for _ in range(300):
        hand = rng.permutation(32)[:3].tolist()
        others = [c for c in range(32) if c not in hand]
        assert np.isclose(value_of(hand), medium.value(hand, others)), hand


def test_the_bot_takes_bingo_else_the_highest_value():
    env = make_raw("swimming", num_players=4)
    rules = env.game
    bot = ValueGreedyBot(rules, seed=0)
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(40):
        env.reset(seed=seed)
        state = env.game_state
        if state.phase == CHOICE:  # the dealer keeps the lot: play begins
            rules.apply(state, KEEP_LOT, rng)
        if state.phase != PLAY:  # the kept lot was Bingo: the round is over
            continue
        dealt = rng.permutation(32)[:6].tolist()
        state.hands[state.to_move], state.middle = dealt[:3], dealt[3:]
        mask = rules.legal_mask(state)
        mask[KNOCK] = False
        move = bot.choose(state, mask)
        hand = dealt[:3]
        bingo = [a for a in range(SWAP_ALL + 1) if score2(after(hand, dealt[3:], a)) >= BINGO2]
        if bingo:
            assert move == bingo[0]
        else:
            values = {PASS: value_of(hand), **{a: value_of(after(hand, dealt[3:], a)) for a in range(SWAP_ALL + 1)}}
            assert values[move] == max(values.values()), (hand, dealt[3:], move)
        checked += 1
    assert checked >= 30
