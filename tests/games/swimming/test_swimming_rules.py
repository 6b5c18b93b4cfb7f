"""Table tests of Swimming's rules, observation and env (agents leaving)."""

import numpy as np
import pytest

import envs
from envs.core.game import RuleError
from envs.core.match import turns
from envs.swimming.bots import BOTS, seat_view
from envs.swimming.env import raw_env
from envs.swimming.rules import (
    CHOICE,
    KEEP_LOT,
    KNOCK,
    OVER,
    PASS,
    PLAY,
    SWAP_ALL,
    TAKE_OTHER,
    SwimmingGame,
    SwimmingState,
    hand_score,
    parse_card,
)


def cards(text: str) -> list[int]:
    return sorted(parse_card(c) for c in text.split())


def table(hands, middle="7D 8D 9D", coins=None, deck=None, to_move=0, dealer=None, n=None, **params):
    """A position in play: ``hands`` a list of card strings (None = sunk seat)."""
    n = n or len(hands)
    game = SwimmingGame(num_players=n, **params)
    active = [h is not None for h in hands]
    used = set(cards(middle)) | {c for h in hands if h for c in cards(h)}
    if deck is None:
        deck = [c for c in range(32) if c not in used]
    else:
        deck = [parse_card(c) for c in deck.split()]  # stock order as given
    state = SwimmingState(
        coins=list(coins or [3] * n),
        active=active,
        dealer=(n - 1) if dealer is None else dealer,
        hands=[cards(h) if h else [] for h in hands],
        middle=cards(middle),
        deck=deck,
        public=[0] * n,
        phase=PLAY,
        to_move=to_move,
        round=1,
    )
    return game, state


RNG = np.random.default_rng(0)


# -- scores ------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand,score",
    [
        ("7S 10S QS", 27.0),  # seed: adding spades
        ("8H 10H KC", 18.0),  # seed: adding hearts
        ("9D 10H JC", 10.0),  # seed: hearts or clubs
        ("7D 7C 7H", 30.5),  # seed: three equal values
        ("KH KS KC", 30.5),
        ("AS KS QS", 31.0),  # Bingo
        ("AD AH AS", 33.0),  # Fire, above everything
        ("AD AH KS", 11.0),
        ("7C 8C 9C", 24.0),
    ],
)
def test_hand_score(hand, score):
    assert hand_score(cards(hand)) == score


# -- showdowns -----------------------------------------------------------------
@pytest.mark.parametrize(
    "hands,coins,payers,sunk",
    [
        (["7S 10S QS", "8H 10H KC", "9D 10H JC"], [3, 3, 3], [2], []),  # the lowest pays
        (["8H 10H KC", "8S 10S KD", "AS KS QS"], [3, 3, 3], [0, 1], []),  # tie for lowest: both pay
        (["AD AH AS", "AC KC QC", "7H 7S 7C"], [3, 3, 3], [1, 2], []),  # Fire: everyone else pays
        (["7S 10S QS", "8H 10H KC", "9D 10H JC"], [3, 3, 0], [], [2]),  # a swimmer who loses sinks
        (["7S 10S QS", "8H 10H KC", "9D 10H JC"], [3, 3, 1], [2], []),  # paying the last coin: swims
    ],
)
def test_showdown_payments(hands, coins, payers, sunk):
    game, state = table(hands, coins=coins)
    before = state.coins[:]
    rewards = [0.0] * 3
    game.showdown(state, np.random.default_rng(1), rewards, "knock")
    assert sorted(state.last.paid) == payers and sorted(state.last.sunk) == sunk
    for s in range(3):
        assert rewards[s] == (-1.0 if s in payers else 0.0)
        assert state.coins[s] == before[s] - (s in payers)
        assert state.active[s] == (s not in sunk)
    assert state.pot == len(payers)


def test_void_round_when_everyone_left_would_sink():
    game, state = table(["8H 10H KC", "8S 10S KD", None], coins=[0, 0, 0])
    rewards = [0.0] * 3
    game.showdown(state, np.random.default_rng(1), rewards, "knock")
    assert state.last.reason == "void" and rewards == [0.0] * 3
    assert state.active == [True, True, False] and state.phase == CHOICE
    assert state.dealer == 2  # replayed by the same dealer
    assert state.round == 2


def test_last_player_standing_takes_the_pot():
    game, state = table(["7S 10S QS", "9D 10H JC", None], coins=[2, 0, 0])
    state.pot = 7
    rewards = [0.0] * 3
    game.showdown(state, np.random.default_rng(1), rewards, "knock")
    assert state.phase == OVER and game.winners(state) == [0] and rewards == [7.0, 0.0, 0.0]
    assert not game.seat_active(state, 1)


# -- turns ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand,middle,action,new_hand,new_middle",
    [
        # hand sorted [9D, 10H, JC], middle sorted [7D, 8H, KC]
        ("9D 10H JC", "8H 7D KC", 3 * 2 + 2, "9D 10H KC", "7D 8H JC"),
        ("9D 10H JC", "8H 7D KC", 3 * 0 + 1, "8H 10H JC", "7D 9D KC"),
        ("9D 10H JC", "8H 7D KC", SWAP_ALL, "8H 7D KC", "9D 10H JC"),
    ],
)
def test_swaps(hand, middle, action, new_hand, new_middle):
    game, state = table([hand, "7S 10S QS", "AC KC QC"], middle=middle)
    game.apply(state, action, RNG)
    assert state.hands[0] == cards(new_hand) and state.middle == cards(new_middle)
    taken = set(cards(new_hand)) & set(cards(middle))
    assert state.public[0] == sum(1 << c for c in taken)  # the cards taken from the middle are public
    assert state.to_move == 1 and state.round == 1


def test_swap_scores_are_the_scores_the_rules_leave():
    """The bots' written-out swap scores against the rules' own swaps, over seeded random positions."""
    from envs.swimming.bots import swap_scores
    from envs.swimming.rules import FIRE2, FIRE_SCORE, score2

    rng = np.random.default_rng(11)
    for _ in range(200):
        dealt = rng.permutation(32)[:12].tolist()
        hand, middle, others = sorted(dealt[:3]), sorted(dealt[3:6]), [sorted(dealt[6:9]), sorted(dealt[9:])]
        scores = swap_scores(hand, middle)
        for action in range(SWAP_ALL + 1):
            game, state = table(["7D 8D 9D"] * 3)
            state.hands, state.middle = [hand[:], *(h[:] for h in others)], middle[:]
            game.apply(state, action, RNG)
            if state.last is None:
                assert scores[action] == score2(state.hands[0]), (hand, middle, action)
            else:  # Bingo or Fire: the round ended at once, and its showdown holds the hand's points
                points = FIRE_SCORE if scores[action] == FIRE2 else scores[action] / 2
                assert state.last.scores[0] == points, (hand, middle, action)


def test_bingo_after_swap_ends_round_at_once():
    # hand [7D, KS, AS], middle [8D, QS, 7C]: action 1 swaps 7D for QS
    game, state = table(["AS KS 7D", "7H 8H 9H", "8C 9C 10C"], middle="QS 7C 8D")
    rewards = game.apply(state, 1, RNG)
    assert state.last.reason == "bingo" and state.last.losers == [1]
    assert rewards == [0.0, -1.0, 0.0] and state.phase == CHOICE and state.round == 2


def test_fire_after_swap_makes_everyone_else_pay():
    game, state = table(["AS AH 7D", "AC KC QC", "8C 9C 10C"], middle="AD 7C 8D")
    rewards = game.apply(state, 1, RNG)  # hand [7D, AH, AS], middle [8D, AD, 7C]: 7D <-> AD
    assert state.last.reason == "fire" and rewards == [0.0, -1.0, -1.0]


@pytest.mark.parametrize(
    "knock_first_round,turns,allowed",
    [
        (False, 0, False),
        (False, 2, False),
        (False, 3, True),
        (True, 0, True),
    ],
)
def test_knock_allowed_only_after_a_full_circle(knock_first_round, turns, allowed):
    game, state = table(["7S 10S QS", "8H 10H KC", "9D 10H JC"], knock_first_round=knock_first_round)
    state.turns = turns
    assert bool(game.legal_mask(state)[KNOCK]) == allowed


def test_knock_gives_each_other_player_exactly_one_more_turn():
    game, state = table(["7S 10S QS", "8H 10H KC", "9D 10H JC", "7C 8C 9C"], to_move=1)
    state.turns = 4
    game.apply(state, KNOCK, RNG)
    assert state.knocker == 1 and not game.legal_mask(state)[KNOCK]
    movers = []
    while state.round == 1:
        movers.append(state.to_move)
        game.apply(state, PASS, RNG)
    assert movers == [2, 3, 0]
    assert state.last.reason == "knock" and state.last.losers == [2]


def test_knock_skips_sunk_seats():
    game, state = table(["7S 10S QS", None, "9D 10H JC", "7C 8C 9C"], to_move=3)
    state.turns = 3
    game.apply(state, KNOCK, RNG)
    movers = []
    while state.round == 1:
        movers.append(state.to_move)
        game.apply(state, PASS, RNG)
    assert movers == [0, 2]


def test_all_pass_refreshes_the_middle_and_first_passer_continues():
    game, state = table(["7S 10S QS", "8H 10H KC", "9D 10H JC"], deck="AC KC QC 7H", to_move=1)
    old_middle = state.middle[:]
    for _ in range(3):
        game.apply(state, PASS, RNG)
    assert state.middle == cards("AC KC QC") and state.deck == cards("7H")
    assert state.discards == sum(1 << c for c in old_middle)
    assert state.to_move == 1 and state.passes == 0 and state.round == 1


def test_all_pass_with_empty_deck_is_a_showdown():
    game, state = table(["7S 10S QS", "8H 10H KC", "9D 10H JC"], deck="AC KC", to_move=1)
    for _ in range(3):
        game.apply(state, PASS, RNG)
    assert state.last.reason == "deck" and state.last.losers == [2] and state.round == 2


def test_knock_breaks_a_run_of_passes():
    game, state = table(["7S 10S QS", "8H 10H KC", "9D 10H JC"], to_move=0)
    state.turns = 3
    game.apply(state, PASS, RNG)
    game.apply(state, KNOCK, RNG)
    game.apply(state, PASS, RNG)
    assert state.round == 1 and state.to_move == 0  # the passer gets its one more turn
    game.apply(state, PASS, RNG)
    assert state.last.reason == "knock"


# -- the deal ------------------------------------------------------------------
@pytest.mark.parametrize("action,hand,middle", [(KEEP_LOT, "seen", "other"), (TAKE_OTHER, "other", "seen")])
def test_dealer_lot_choice(action, hand, middle):
    game = SwimmingGame(num_players=3)
    for seed in range(50):
        state = game.new_state(np.random.default_rng(seed))
        lots = {"seen": state.hands[state.dealer][:], "other": state.other_lot[:]}
        if max(hand_score(h) for h in [*state.hands, lots["other"]]) < 31:
            break
    dealer = state.dealer
    assert state.phase == CHOICE and state.to_move == dealer and state.middle == []
    assert np.flatnonzero(game.legal_mask(state)).tolist() == [KEEP_LOT, TAKE_OTHER]
    game.apply(state, action, np.random.default_rng(0))
    assert state.hands[dealer] == lots[hand] and state.middle == lots[middle]
    assert state.phase == PLAY and state.to_move == (dealer + 1) % 3


def test_dealer_draw_highest_card_then_suit():
    game = SwimmingGame(num_players=4)
    for seed in range(20):
        state = game.new_state(np.random.default_rng(seed))
        keys = [(c & 7, c >> 3) for c in state.draw_cards]
        assert state.dealer == keys.index(max(keys))
        assert sum(len(h) for h in state.hands) + len(state.other_lot) + len(state.deck) == 32


def test_bingo_right_after_the_deal():
    game = SwimmingGame(num_players=2)
    state = SwimmingState(
        coins=[3, 3],
        active=[True, True],
        dealer=0,
        hands=[cards("7H 8H 9H"), cards("AS KS QS")],
        other_lot=cards("7C 8C 9C"),
        deck=[],
        public=[0, 0],
        phase=CHOICE,
        to_move=0,
        round=1,
    )
    rewards = game.apply(state, KEEP_LOT, RNG)
    assert state.last.reason == "bingo" and rewards == [-1.0, 0.0] and state.round == 2


def test_dealer_rotates_to_next_active_seat():
    game, state = table(["7S 10S QS", "8H 10H KC", None, "9D 10H JC"], coins=[3, 3, 0, 0], dealer=1)
    game.showdown(state, np.random.default_rng(0), [0.0] * 4, "knock")
    assert state.last.sunk == [3] and state.dealer == 0  # 2 and 3 are out


# -- parameters ------------------------------------------------------------------
@pytest.mark.parametrize(
    "params,word",
    [
        ({"num_players": 7}, "num_players"),
        ({"num_players": 1}, "num_players"),
        ({"num_players": "4"}, "num_players"),
        ({"coins": 0}, "coins"),
        ({"max_round_turns": 0}, "max_round_turns"),
        ({"knock_first_round": 1}, "knock_first_round"),
        ({"open_hands": "yes"}, "open_hands"),
    ],
)
def test_bad_parameters_are_named(params, word):
    with pytest.raises(RuleError, match=word):
        SwimmingGame(**params)


# -- hidden information ------------------------------------------------------------
def _hide_swap(state, holder, rng):
    """Replace ``holder``'s cards that are not public by stock cards (a different hidden hand)."""
    hidden = [c for c in state.hands[holder] if not state.public[holder] >> c & 1]
    fresh = state.deck[: len(hidden)]
    state.deck = hidden + state.deck[len(hidden) :]
    state.hands[holder] = sorted([c for c in state.hands[holder] if c not in hidden] + fresh)


def test_hidden_cards_never_leak():
    game = SwimmingGame(num_players=4)
    rng = np.random.default_rng(3)
    state = game.new_state(rng)
    checked = 0
    for _ in range(300):
        if game.is_over(state):
            break
        for viewer in range(4):
            for holder in range(4):
                if holder == viewer or not state.active[holder] or len(state.deck) < 3:
                    continue
                other = game.copy_state(state)
                _hide_swap(other, holder, rng)
                other.other_lot = other.other_lot[::-1]
                if other.hands[holder] != state.hands[holder]:
                    checked += 1
                assert np.array_equal(
                    raw_env.observe_state(game, state, viewer), raw_env.observe_state(game, other, viewer)
                )
        legal = np.flatnonzero(game.legal_mask(state))
        game.apply(state, int(legal[rng.integers(legal.size)]), rng)
    assert checked > 100


def test_public_cards_and_open_hands_are_seen():
    game, state = table(["9D 10H JC", "7S 10S QS", "AC KC QC"], middle="8H 7D KD")
    game.apply(state, 1, RNG)  # seat 0: 9D <-> KD (middle sorted [7D, KD, 8H])
    obs = raw_env.observe_state(game, state, 1)
    base_for_seat0 = 96 + 32 * 1  # relative seat 2 from viewer 1
    assert obs[base_for_seat0 + parse_card("KD")] == 1 and obs[base_for_seat0 : base_for_seat0 + 32].sum() == 1
    open_game = SwimmingGame(num_players=3, open_hands=True)
    obs = raw_env.observe_state(open_game, state, 1)
    assert obs[base_for_seat0 : base_for_seat0 + 32].sum() == 3


def test_seat_view_holds_no_hidden_card():
    game = SwimmingGame(num_players=4)
    state = game.new_state(np.random.default_rng(9))
    view = seat_view(game, state, 1)
    hidden = {c for s in (0, 2, 3) for c in state.hands[s]} | set(state.other_lot) | set(state.deck)
    assert set(view.unknown) == hidden - {c for k in view.known.values() for c in k}


@pytest.mark.parametrize("open_hands", [False, True])
def test_determinize_keeps_what_the_seat_sees_and_redeals_the_rest(open_hands):
    game = SwimmingGame(num_players=4, open_hands=open_hands)
    rng = np.random.default_rng(5)
    state = game.new_state(rng)
    checked = hands_changed = 0
    for _ in range(300):
        if game.is_over(state):
            break
        for seat in (s for s in range(4) if state.active[s]):
            deal = game.determinize(state, seat, rng)
            assert np.array_equal(raw_env.observe_state(game, deal, seat), raw_env.observe_state(game, state, seat))
            everywhere = (
                [c for s in range(4) for c in deal.hands[s]]
                + deal.middle
                + deal.other_lot
                + deal.deck
                + [c for c in range(32) if deal.discards >> c & 1]
            )
            assert sorted(everywhere) == list(range(32))  # every card once
            assert [len(h) for h in deal.hands] == [len(h) for h in state.hands]
            assert len(deal.deck) == len(state.deck) and len(deal.other_lot) == len(state.other_lot)
            assert deal.hands[seat] == state.hands[seat] and deal.middle == state.middle
            hands_changed += deal.hands != state.hands
            checked += 1
        legal = np.flatnonzero(game.legal_mask(state))
        game.apply(state, int(legal[rng.integers(legal.size)]), rng)
    assert checked > 300
    if open_hands:  # nothing hidden but the stock and the dealer's unseen lot
        assert hands_changed == 0
    else:
        assert hands_changed > 0.9 * checked


def test_determinize_is_seeded():
    game = SwimmingGame(num_players=4)
    state = game.new_state(np.random.default_rng(1))
    first = game.determinize(state, 2, np.random.default_rng(7))
    again = game.determinize(state, 2, np.random.default_rng(7))
    assert first.hands == again.hands and first.deck == again.deck and first.other_lot == again.other_lot


@pytest.mark.parametrize(
    "hands,coins,seat,lost",
    [
        (["9D 10H JC", "7S 10S QS", "AC KC QC"], [3, 3, 3], 0, True),  # lowest pays
        (["9D 10H JC", "7S 10S QS", "AC KC QC"], [3, 3, 3], 1, False),
        (["9D 10H JC", "7S 10S QS", "AC KC QC"], [0, 3, 3], 0, True),  # lowest swimmer sinks: a loss too
        (["AD AH AS", "7S 10S QS", "AC KC QC"], [3, 3, 3], 2, True),  # Fire: everyone else pays
    ],
)
def test_round_loser_reads_the_last_showdown(hands, coins, seat, lost):
    game, state = table(hands, coins=coins)
    key = game.round_key(state)
    game.showdown(state, RNG, [0.0] * 3, "knock")
    assert game.round_key(state) != key
    assert game.round_loser(state, seat) is lost


@pytest.mark.parametrize(
    "hands,seat,margin",
    [
        (["9D 10H JC", "7S 10S QS", "AC KC QC"], 0, 10 - 27),  # lowest: below the next lowest
        (["9D 10H JC", "7S 10S QS", "AC KC QC"], 2, 31 - 10),  # above the lowest
        (["AD AH AS", "7S 10S QS", "AC KC QC"], 0, 33 - 27),  # Fire counts 33
    ],
)
def test_round_margin_is_the_distance_to_the_lowest_other(hands, seat, margin):
    game, state = table(hands)
    game.showdown(state, RNG, [0.0] * 3, "knock")
    assert game.round_margin(state, seat) == margin


def test_a_void_round_is_no_loss():
    game, state = table(["9D 10H JC", "9S 10C JH"], coins=[0, 0])
    game.showdown(state, RNG, [0.0] * 2, "knock")
    assert state.last.reason == "void" and not game.round_loser(state, 0) and game.round_margin(state, 0) == 0


# -- the round's public record and the decisions rebuilt from it -------------------------------
def test_past_decisions_rebuild_the_states_the_others_moved_in():
    # Seat 1 swaps 7H for QS, seat 2 swaps all, seat 0 passes, seat 1 passes: seat 0 looks back from its turn.
    game, state = table(["7C 8C 9C", "7H AS KD", "10D JD QD"], middle="QS 8H 9H", deck="7D 8D 9D 10C JC")
    state.to_move = 1
    start = game.copy_state(state)
    for action in (1 * 3 + 2, SWAP_ALL):  # seat 1: 7H (hand card 1, after KD) for QS (middle card 2); seat 2: all
        game.apply(state, action, RNG)
    before_pass = game.copy_state(state)
    game.apply(state, PASS, RNG)  # seat 0
    game.apply(state, PASS, RNG)  # seat 1
    assert [(m.seat, m.action) for m in state.moves] == [(1, 5), (2, SWAP_ALL), (0, PASS), (1, PASS)]
    decisions = game.past_decisions(state, viewer=0)
    assert [(past.to_move, action) for past, action in decisions] == [(1, 5), (2, SWAP_ALL), (1, PASS)]
    first, swap_all, last_pass = (past for past, _ in decisions)
    assert first.hands == start.hands and first.middle == start.middle and first.public == start.public
    assert swap_all.hands[2] == cards("10D JD QD") and swap_all.middle == cards("7H 8H 9H")
    assert swap_all.hands[1] == cards("AS KD QS") and swap_all.public[1] == 1 << parse_card("QS")
    assert last_pass.passes == 1 and last_pass.hands == state.hands and last_pass.moves == state.moves[:3]
    assert before_pass.hands == state.hands
    assert [past.to_move for past, _ in game.past_decisions(state, viewer=1)] == [2, 0]


def test_past_decisions_match_the_true_states_over_whole_games():
    # Random moves through refreshes of the middle, knocks, dealer's choices and new rounds: every rebuilt
    # state is the one the mover really saw (the stock as a set: a refresh's three cards come back sorted).
    game = SwimmingGame(num_players=4)
    rng = np.random.default_rng(3)
    checked = refreshed = 0
    for _ in range(6):
        state, seen = game.new_state(rng), []
        while not game.is_over(state):
            if seen and seen[-1][0].round != state.round:
                seen = []
            legal = np.flatnonzero(game.legal_mask(state))
            action = int(legal[rng.integers(legal.size)])
            seen.append((game.copy_state(state), action))
            game.apply(state, action, rng)
            if game.is_over(state) or state.round != seen[-1][0].round:
                continue
            viewer = int(rng.integers(4))
            rebuilt = game.past_decisions(state, viewer)
            truth = [(past, a) for past, a in seen if past.to_move != viewer]
            assert [a for _, a in rebuilt] == [a for _, a in truth]
            for (past, _), (true, _) in zip(rebuilt, truth):
                assert sorted(past.deck) == sorted(true.deck)
                past.deck = true.deck
                assert vars(past) == vars(true)
                checked += 1
            refreshed += any(m.drawn for m in state.moves)
    assert checked > 5000 and refreshed > 10


def test_the_record_starts_again_each_round_and_copies_keep_their_own():
    game = SwimmingGame(num_players=3)
    state = game.new_state(np.random.default_rng(2))
    game.apply(state, KEEP_LOT, RNG)
    copy = game.copy_state(state)
    game.apply(copy, PASS, RNG)
    assert len(state.moves) == 1 and len(copy.moves) == 2
    game.showdown(state, RNG, [0.0] * 3, "knock")
    assert state.moves == [] and state.round == 2


# -- env: agents leave when they sink ------------------------------------------------
def test_sinking_agent_leaves_env_agents():
    env = envs.make_raw("swimming", num_players=3)
    env.reset(seed=0)
    g = env.game
    g.start_round(env.game_state, np.random.default_rng(0))
    env.game_state.coins = [3, 0, 3]
    env.game_state.hands = [cards("AS KS QS"), cards("7H 8D 9C"), cards("10C JC QC")]
    env.game_state.middle, env.game_state.phase, env.game_state.to_move = cards("7D 8H 9S"), PLAY, 2
    env.game_state.turns = 3
    env.agent_selection = "player_2"
    env.step(KNOCK)
    env.step(PASS)  # player_0
    env.step(PASS)  # player_1: showdown, player_1 sinks
    assert env.terminations["player_1"] and env.agent_selection == "player_1"
    env.step(None)
    assert env.agents == ["player_0", "player_2"]
    assert not env.game_state.active[1]


def test_whole_games_are_zero_sum_and_agents_leave():
    for n in (2, 4, 6):
        env = envs.make_raw("swimming", num_players=n)
        env.reset(seed=n)
        rng = np.random.default_rng(n)
        total = dict.fromkeys(env.possible_agents, 0.0)
        seen_sizes = set()

        def note_size(env=env, seen_sizes=seen_sizes) -> bool:  # asked at every selection, dead steps included
            seen_sizes.add(len(env.agents))
            return False

        for agent in turns(env, stop=note_size, returns=total):
            mask = env.observe(agent)["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(legal.size)]))
        assert sum(total.values()) == 0
        assert max(total.values()) == env.game_state.pot - (3 - env.game_state.coins[env.game_state.winner])
        assert seen_sizes == set(range(1, n + 1))  # the last sunk agent leaves the winner alone


def test_bots_choose_legal_actions():
    game = SwimmingGame(num_players=4)
    rng = np.random.default_rng(4)
    bots = [BOTS["medium"](game, 1), BOTS["easy"](game, 2), BOTS["medium"](game, 3), BOTS["easy"](game, 4)]
    state = game.new_state(rng)
    while not game.is_over(state):
        mask = game.legal_mask(state)
        a = bots[state.to_move].choose(state, mask)
        assert mask[a]
        game.apply(state, a, rng)


def test_turn_limit_ends_an_endless_round():
    game, state = table(["7S 10S QS", "8H 10H KC", "9D 10H JC"], max_round_turns=7)
    for _ in range(7):
        game.apply(state, 0, RNG)  # swapping back and forth forever
    assert state.last.reason == "turn limit" and state.round == 2


# -- bots ------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_bots_take_bingo(level):
    # hand [7D, KS, AS], middle [8D, QS, 7C]: action 1 (7D for QS) makes 31
    game, state = table(["AS KS 7D", "7H 8H 9H", "8C 9C 10C"], middle="QS 7C 8D")
    assert BOTS[level](game, seed=0).choose(state, game.legal_mask(state)) == 1


@pytest.mark.parametrize("level,moves", [("easy", 60), ("medium", 20)])  # medium thinks longer a move
def test_bots_read_only_their_seat(level, moves):
    """Changing an opponent's hidden cards never changes a bot's move (same seed)."""
    game = SwimmingGame(num_players=4)
    rng = np.random.default_rng(12)
    state = game.new_state(rng)
    compared = 0
    for _ in range(moves):
        if game.is_over(state):
            break
        me = state.to_move
        mask = game.legal_mask(state)
        for holder in range(4):
            if holder != me and state.active[holder] and len(state.deck) >= 3:
                other = game.copy_state(state)
                _hide_swap(other, holder, rng)
                other.deck = other.deck[::-1]
                a = BOTS[level](game, seed=5).choose(state, mask)
                b = BOTS[level](game, seed=5).choose(other, mask)
                assert a == b
                compared += 1
        game.apply(state, BOTS[level](game, seed=1).choose(state, mask), rng)
    assert compared > 20


def test_medium_beats_random_players():
    from envs.play import play_series

    result = play_series("swimming", ["medium", "random", "random", "random"], 8, seed=3)  # two duplicate deals
    assert (result.wins, result.draws) == ([8, 0, 0, 0], [0, 0, 0, 0])  # seeded: medium wins every game


def test_bots_score_hands_with_the_rules():
    """One hand score: the bots call the rules' score2 and name Bingo and Fire from the rules, no literals."""
    import inspect
    import re

    from envs.swimming import bots, rules

    assert bots.score2 is rules.score2
    assert not hasattr(bots, "s2")
    source = inspect.getsource(bots)
    assert not re.findall(r"(?<![\w.])(61|62|64)(?![\w.])", source)
