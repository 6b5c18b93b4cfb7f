"""Play-outs over deals of the hidden cards, guided by a network (policies/search/rollouts.py), on Swimming tables."""

import numpy as np
import pytest

from envs.play import play_game
from envs.swimming.rules import KNOCK, PASS, SwimmingGame, SwimmingState, parse_card
from policies.numpy_policy import NumpyPolicy
from policies.search.rollouts import RolloutSearch
from tests.helpers import preference_policy

PARAMS = {"num_players": 3}


def cards(text):
    return sorted(parse_card(c) for c in text.split())


def table(hand, middle, shown=("", ""), put_aside=""):
    """Seat 0 to move, three players with three coins each.

    ``shown``: cards seats 1 and 2 are seen to hold (taken from the middle);
    their other cards and the stock are dealt from the rest.
    """
    game = SwimmingGame(**PARAMS)
    known = [cards(s) for s in shown]
    seen = set(cards(hand)) | set(cards(middle)) | set(cards(put_aside)) | set(known[0]) | set(known[1])
    rest = [c for c in range(32) if c not in seen]
    hands = [cards(hand)]
    for k in known:
        missing = 3 - len(k)
        hands.append(sorted(k + rest[:missing]))
        rest = rest[missing:]
    state = SwimmingState(
        coins=[3, 3, 3],
        active=[True] * 3,
        dealer=2,
        hands=hands,
        middle=cards(middle),
        deck=rest,
        public=[0] + [sum(1 << c for c in k) for k in known],
        discards=sum(1 << c for c in cards(put_aside)),
        phase=1,
        to_move=0,
        turns=3,
        round=1,
    )
    return game, state


def swap(game, state, give, take):
    """The action that swaps hand card ``give`` for middle card ``take``."""
    return state.hands[0].index(parse_card(give)) * 3 + state.middle.index(parse_card(take))


# AS KS 7D (21) with QS in the middle: swapping 7D for QS is Bingo (31), which ends the round at once.
# Both others are seen to hold 30, and every ace is in sight, so nobody else can hold Fire: Bingo never
# loses, while passing (everyone passes until the stock runs out) always leaves 21 the lowest.
BINGO = dict(hand="AS KS 7D", middle="QS AH 8C", shown=("10H JH QH", "10C JC QC"), put_aside="AD AC")


@pytest.mark.parametrize(
    "width,always,expected",
    [
        (1, (), "pass"),  # only the network's favourite is played out: nothing to compare
        (1, ("bingo",), "bingo"),  # the Bingo swap is played out too, and never loses
        (2, (), "bingo"),  # the network's second choice is the Bingo swap
    ],
)
def test_play_outs_pick_the_move_that_loses_least(width, always, expected):
    game, state = table(**BINGO)
    bingo = swap(game, state, "7D", "QS")
    name = {"pass": PASS, "bingo": bingo}
    search = RolloutSearch(
        preference_policy([PASS, bingo], "swimming", PARAMS),
        "swimming",
        PARAMS,
        samples=16,
        width=width,
        always=[name[a] for a in always],
        seed=0,
    )
    assert search.best_move(state) == name[expected]
    if len(search.scores) > 1:
        assert search.scores == {PASS: 1.0, bingo: 0.0}


def test_equal_shares_go_to_the_networks_favourite():
    # Two swaps that keep the hand at 21 (7D for 8C or for AH: still AS KS the best suit) both lose every deal.
    game, state = table(**BINGO)
    keep_8c, keep_ah = swap(game, state, "7D", "8C"), swap(game, state, "7D", "AH")
    for order in ([keep_8c, keep_ah], [keep_ah, keep_8c]):
        search = RolloutSearch(
            preference_policy([PASS, *order], "swimming", PARAMS),
            "swimming",
            PARAMS,
            samples=8,
            width=1,
            always=order[::-1],
            seed=0,
        )
        assert search.best_move(state) == PASS  # all three lose every deal: the favourite
        assert set(search.scores.values()) == {1.0}


def test_knock_is_played_out_when_it_beats_the_networks_favourite():
    # 30 in clubs (AC KC 9C) against two players seen to hold 20-point hands. Everyone's favourite is to swap all
    # three cards with the middle: knocking ends the round after one more turn each, while swapping gives the
    # 30 away.
    game, state = table("AC KC 9C", "7D 8H 9S", shown=("10H JH", "10S JS"))
    search = RolloutSearch(
        preference_policy([9, PASS], "swimming", PARAMS),
        "swimming",
        PARAMS,
        samples=24,
        width=1,
        always=[KNOCK],
        seed=0,
    )
    assert search.best_move(state) == KNOCK
    assert search.scores[KNOCK] < search.scores[9]


def test_same_seed_same_moves_and_the_seat_view_only():
    game, state = table("9H QH 7S", "8C QD KD")  # 19 points; nothing of the others' hands in sight
    policy = preference_policy([PASS, KNOCK], "swimming", PARAMS)
    first = RolloutSearch(policy, "swimming", PARAMS, samples=8, width=2, seed=3)
    again = RolloutSearch(policy, "swimming", PARAMS, samples=8, width=2, seed=3)
    assert first.best_move(state) == again.best_move(state) and first.scores == again.scores
    hidden = game.copy_state(state)  # other hands and stock dealt differently: the same view for seat 0
    hidden.hands[1], hidden.hands[2] = state.hands[2], state.hands[1]
    hidden.deck = state.deck[::-1]
    again.reset(3)
    first.reset(3)
    assert first.best_move(state) == again.best_move(hidden) and first.scores == again.scores
    assert any(0 < score < 1 for score in first.scores.values())  # the deals differ: not a foregone result


@pytest.mark.parametrize("settings", [{}, {"playout": "easy", "belief_deals": 8, "network_moves": [KNOCK]}])
def test_whole_game_with_legal_moves_and_the_same_seed_the_same_game(settings):
    from envs.opponents import make_opponent

    def game_record():
        policy = preference_policy([PASS, KNOCK, 9], "swimming", PARAMS)
        search = RolloutSearch(policy, "swimming", PARAMS, samples=4, width=2, always=[KNOCK], **settings)
        players = [search] + [make_opponent("swimming", "easy", seed=s, **PARAMS) for s in (1, 2)]
        moves = []
        record = play_game(
            "swimming",
            players,
            seed=0,
            **PARAMS,
            observer=lambda seat, obs, mask, action: moves.append((seat, action, bool(mask[action]))),
        )
        return record, moves

    record, moves = game_record()
    assert len(moves) == record.plies and all(legal for _, _, legal in moves) and len(record.winners) == 1
    assert sum(seat == 0 for seat, _, _ in moves) == len(record.move_seconds[0]) >= 1
    assert game_record()[1] == moves


def holding_policy(card, action):
    """A network that plays ``action`` (near certainly) when its own hand holds ``card``; else every move alike."""
    policy = preference_policy([], "swimming", PARAMS)
    w0 = np.zeros((policy.obs_size, 4), np.float32)
    w0[card, 0] = 3.0  # observation 0-31: the own hand
    head = np.zeros((4, policy.num_actions), np.float32)
    head[0, action] = 10.0
    arrays = {
        "pi_w0": w0,
        "pi_b0": np.zeros(4, np.float32),
        "vf_w0": w0,
        "vf_b0": np.zeros(4, np.float32),
        "action_w": head,
        "action_b": np.zeros(policy.num_actions, np.float32),
        "value_w": np.zeros((4, 1), np.float32),
        "value_b": np.zeros(1, np.float32),
    }
    return NumpyPolicy((policy.meta, arrays))


def passed_round():
    """Seat 0 to move after seats 1 and 2 passed; JD is nowhere seat 0 can see."""
    game, state = table("9H QH 7S", "8C QD KD")
    rng = np.random.default_rng(0)
    state.to_move = 1
    game.apply(state, PASS, rng)
    game.apply(state, PASS, rng)
    assert state.to_move == 0 and parse_card("JD") in game.unseen_cards(state, 0)[0]
    return game, state


@pytest.mark.parametrize("power", [1.0, 0.5])
def test_deals_are_weighed_by_how_likely_the_others_moves_were(power):
    # The network passes with a JD in hand, and otherwise passes one time in 12 (12 legal moves, knock among them).
    # Deals giving JD to seat 1 or 2 explain their passes 12 times better than deals leaving it in the stock.
    game, state = passed_round()
    jd = parse_card("JD")
    search = RolloutSearch(
        holding_policy(jd, PASS), "swimming", PARAMS, samples=8, belief_deals=200, belief_power=power, seed=0
    )
    deals = [game.determinize(state, 0, np.random.default_rng(k)) for k in range(200)]
    weights = search.belief_weights(deals, 0)
    held = np.array([jd in deal.hands[1] or jd in deal.hands[2] for deal in deals])
    assert 0 < held.sum() < len(deals)
    assert weights.sum() == pytest.approx(1.0)
    assert weights[held].mean() / weights[~held].mean() == pytest.approx(12.0**power, rel=0.01)
    assert np.ptp(weights[held]) < 1e-9 and np.ptp(weights[~held]) < 1e-9
    position_blind = RolloutSearch(
        preference_policy([PASS], "swimming", PARAMS), "swimming", PARAMS, samples=8, belief_deals=200, seed=0
    )
    assert np.ptp(position_blind.belief_weights(deals, 0)) < 1e-12  # a network blind to the hand tells nothing


def test_played_out_deals_are_drawn_by_their_weights():
    game, state = passed_round()
    jd = parse_card("JD")
    held = lambda deals: np.mean([jd in d.hands[1] or jd in d.hands[2] for d in deals])  # noqa: E731
    uniform = RolloutSearch(holding_policy(jd, PASS), "swimming", PARAMS, samples=100, seed=0)
    weighed = RolloutSearch(
        holding_policy(jd, PASS), "swimming", PARAMS, samples=100, belief_deals=400, belief_power=4.0, seed=0
    )
    assert held(uniform.deals(state, 0)) < 0.4 < 0.9 < held(weighed.deals(state, 0))
    fresh_round = table("9H QH 7S", "8C QD KD")[1]  # nobody has moved: the first deals, unweighed
    assert weighed.belief_weights([fresh_round], 0) is None and len(weighed.deals(fresh_round, 0)) == 100


@pytest.mark.parametrize(
    "network_order,network_moves,knocks",
    [
        ([PASS], (), True),  # the easy bot knocks at 30 by itself
        ([PASS], (KNOCK,), False),  # the network times the knocks: it (almost) never knocks
        ([KNOCK], (KNOCK,), True),  # the network knocks first of all
    ],
)
def test_the_network_times_its_moves_in_the_play_outs(network_order, network_moves, knocks):
    game, state = table("AC KC 9C", "7D 8H 9S")  # 30 points, knocking allowed
    search = RolloutSearch(
        preference_policy(network_order, "swimming", PARAMS),
        "swimming",
        PARAMS,
        playout="easy",
        network_moves=network_moves,
        seed=0,
    )
    search.advance([state])
    assert (state.knocker == 0) is knocks and state.moves[-1].seat == 0


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"samples": 0}, "samples and width must be >= 1"),
        ({"width": 0}, "samples and width must be >= 1"),
        ({"always": [14]}, r"always: \[14\] are not actions of swimming"),
        ({"always": ["knock"]}, "are not actions"),
        ({"playout": "hard"}, "playout must be 'network' or a bot level of swimming"),
        ({"margin_weight": -1}, "margin_weight must be >= 0"),
        ({"belief_deals": -1}, "belief_deals must be an int >= 0"),
        ({"belief_deals": 4.5}, "belief_deals must be an int >= 0"),
        ({"belief_deals": 10}, r"belief_deals \(10\) must be 0 or at least samples \(24\)"),
        ({"belief_power": 0}, "belief_power must be > 0"),
        ({"network_moves": [99], "playout": "easy"}, r"network_moves: \[99\] are not"),
        ({"network_moves": [KNOCK]}, "network_moves needs a bot level as playout"),
    ],
)
def test_bad_rollout_settings_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        RolloutSearch(preference_policy([PASS], "swimming", PARAMS), "swimming", PARAMS, **kwargs)


def test_without_a_state_the_bare_network_plays():
    game, state = table(**BINGO)
    from envs.swimming.env import raw_env

    search = RolloutSearch(preference_policy([KNOCK, PASS], "swimming", PARAMS), "swimming", PARAMS)
    obs, mask = raw_env.observe_state(game, state, 0), game.legal_mask(state)
    assert search.act(obs, mask) == KNOCK and np.all(search.explain(obs, mask)["moves"][0][0] == KNOCK)


def test_the_easy_bot_can_play_the_play_outs():
    # After a pass, the network's play-outs pass until the stock runs out: 21 is the lowest every time. The easy
    # bot knocks at 30 and, given one more turn, takes the Bingo swap itself: passing then never loses either,
    # and the tie goes to the network's favourite, the pass.
    game, state = table(**BINGO)
    bingo = swap(game, state, "7D", "QS")
    policy = preference_policy([PASS, bingo], "swimming", PARAMS)
    by_network = RolloutSearch(policy, "swimming", PARAMS, samples=16, width=2, seed=0)
    by_easy = RolloutSearch(policy, "swimming", PARAMS, samples=16, width=2, playout="easy", seed=0)
    assert by_network.best_move(state) == bingo and by_network.scores == {PASS: 1.0, bingo: 0.0}
    assert by_easy.best_move(state) == PASS and by_easy.scores == {PASS: 0.0, bingo: 0.0}


def test_margin_breaks_ties_between_equally_losing_moves():
    # Seat 1 has knocked and seat 0 has the last turn, so the round ends after its move; both others hold 30.
    # Keeping AS KS (21) and breaking them up (11) both lose every deal, by 9 and by 19 points.
    game, state = table(**BINGO)
    state.knocker = 1
    keep, split = swap(game, state, "7D", "8C"), swap(game, state, "KS", "8C")
    policy = preference_policy([split, keep], "swimming", PARAMS)  # the network prefers the worse swap
    plain = RolloutSearch(policy, "swimming", PARAMS, samples=8, width=2, seed=0)
    assert plain.best_move(state) == split and plain.scores == {split: 1.0, keep: 1.0}
    with_margin = RolloutSearch(policy, "swimming", PARAMS, samples=8, width=2, margin_weight=0.01, seed=0)
    assert with_margin.best_move(state) == keep
    assert with_margin.scores == pytest.approx({keep: 1 + 0.01 * 9, split: 1 + 0.01 * 19})
