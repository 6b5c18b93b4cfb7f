"""Swimming's batched engine against its AEC env: chance during a step, sunk seats, the round record.

The shared differential test (``tests/conformance/test_every_variant.py``) cannot drive Swimming:
a step's showdown deals the next round (chance drawn from the batch's
streams, not the AEC env's generator) and sinks players (the AEC env then
steps out the finished agents first). Here every new deal is checked before
it is copied into the AEC env (every active seat and the dealer's second lot
three cards, the stock the rest, the 32 cards once each, and everything but
the cards as the rules would have it), then masks, every seat's observation,
rewards and ends are compared at every step, and the whole rules state
(``moves`` and the last showdown included) on a rotating share of the boards.
"""

import numpy as np
import pytest

import envs
from envs.core.batched import BatchedGame
from envs.registry import GAMES
from envs.swimming import batched as swimming_batched
from envs.swimming.rules import CHOICE, KNOCK, NUM_CARDS, PASS

# random games per registry variant: enough that every way a round ends (bingo, knock, empty deck) shows up
GAMES_PER_VARIANT = 48
VARIANTS = [pytest.param(params, GAMES_PER_VARIANT, id=f"{params}") for params in GAMES["swimming"].variants]
# every rule parameter honoured: a few games each beyond the registry's variants
EXTRA = [
    pytest.param(params, 24, id=f"{params}")
    for params in (
        {"num_players": 3, "knock_first_round": True},
        {"num_players": 5, "open_hands": True},
        {"num_players": 4, "coins": 1},
        {"num_players": 3, "coins": 5, "max_round_turns": 4},
        {"num_players": 2, "max_round_turns": 1},
        {"num_players": 6, "open_hands": True, "knock_first_round": True},
    )
]
FULL_STATE_EVERY = 24  # each board's whole rules state is compared every 24th step


def check_new_deal(dealt, expected):
    """``dealt`` (the batch's new round) deals every card once, three to each active seat and the second lot.

    Everything but the cards must be what the rules' own ``start_round`` made (``expected``).
    """
    n = len(dealt.active)
    active = [s for s in range(n) if dealt.active[s]]
    for s in range(n):
        assert len(dealt.hands[s]) == (3 if dealt.active[s] else 0), f"seat {s} dealt {dealt.hands[s]}"
        assert dealt.hands[s] == sorted(dealt.hands[s])
    assert len(dealt.other_lot) == 3 and len(dealt.deck) == NUM_CARDS - 3 * (len(active) + 1)
    every = [c for s in active for c in dealt.hands[s]] + dealt.other_lot + dealt.deck
    assert sorted(every) == list(range(NUM_CARDS)), every
    cards = ("hands", "other_lot", "deck")
    theirs = {k: v for k, v in vars(dealt).items() if k not in cards}
    ours = {k: v for k, v in vars(expected).items() if k not in cards}
    assert theirs == ours
    assert dealt.phase == CHOICE and dealt.moves == [] and dealt.middle == []


def styled_actions(batch, style, rng):
    """Random legal moves by board style: 0 uniform, 1 passing often (refreshes, the stock runs out), 2 knocking."""
    actions = batch.random_actions()
    mask = batch.legal_mask()
    draw = rng.random(batch.num_envs)
    actions = np.where((style == 1) & mask[:, PASS] & (draw < 0.6), PASS, actions)
    return np.where((style == 2) & mask[:, KNOCK] & (draw < 0.5), KNOCK, actions)


def play_swimming(params, num_games, seed):
    """Random games through the batch and one AEC env per board, compared at every step (see the module doc)."""
    batch = envs.make_batched("swimming", num_games, seed=seed, **params)
    players = batch.num_players
    aecs = []
    for i in range(num_games):
        aec = envs.make_raw("swimming", **params)
        aec.reset(seed=seed + i)
        aec.game_state = batch.board_state(i)  # the batch's first deal and dealer draw
        aec.agent_selection = aec.possible_agents[aec.game_state.to_move]
        aecs.append(aec)
    game = aecs[0].game
    steps = deals = 0
    rng = np.random.default_rng(seed)
    style = np.arange(num_games) % 3
    reasons = set()
    expected_obs = np.zeros((players, num_games, batch.obs_size), dtype=np.float32)
    expected_mask = np.zeros((num_games, batch.num_actions), dtype=bool)
    expected_rewards = np.zeros((num_games, players), dtype=np.float32)
    while not batch.over.all():
        live = np.flatnonzero(~batch.over)
        for i in live:
            state = aecs[i].game_state
            assert aecs[i].agent_selection == aecs[i].possible_agents[batch.to_move[i]], (i, steps)
            expected_mask[i] = aecs[i].legal_mask()
            for seat in range(players):
                expected_obs[seat, i] = aecs[i].observe_state(game, state, seat)
        np.testing.assert_array_equal(batch.legal_mask()[live], expected_mask[live], err_msg=f"masks, step {steps}")
        for seat in range(players):
            np.testing.assert_array_equal(
                batch.observe(seat)[live],
                expected_obs[seat, live],
                err_msg=f"observations of seat {seat}, step {steps}",
            )
        for i in live[live % FULL_STATE_EVERY == steps % FULL_STATE_EVERY]:
            assert batch.board_state(int(i)) == aecs[i].game_state, (i, steps)
        rounds = batch.arrays["round"].copy()
        actions = styled_actions(batch, style, rng)
        rewards, done = batch.step(actions)
        for i in live:
            aec = aecs[i]
            aec.step(int(actions[i]))
            expected_rewards[i] = [aec.rewards.get(a, 0.0) for a in aec.possible_agents]
            while aec.agents and aec.terminations[aec.agent_selection] and not done[i]:
                aec.step(None)  # a seat that sank leaves
            assert done[i] == game.is_over(aec.game_state), (i, steps)
            if done[i] or batch.arrays["round"][i] != rounds[i]:
                reasons.add(aec.game_state.last.reason)
            if done[i]:
                assert batch.board_state(int(i)) == aec.game_state, (i, steps)
            elif batch.arrays["round"][i] != rounds[i]:  # a showdown dealt the next round: compare, then copy
                dealt = batch.board_state(int(i))
                check_new_deal(dealt, aec.game_state)
                aec.game_state.hands, aec.game_state.other_lot = dealt.hands, dealt.other_lot
                aec.game_state.deck = dealt.deck
                deals += 1
        np.testing.assert_array_equal(rewards[live], expected_rewards[live], err_msg=f"rewards, step {steps}")
        steps += 1
    return batch, aecs, deals, reasons


@pytest.mark.parametrize(("params", "num_games"), VARIANTS + EXTRA)
def test_batched_swimming_plays_as_the_aec_env(params, num_games):
    batch, aecs, deals, reasons = play_swimming(params, num_games, seed=12)
    assert deals >= num_games  # every game had rounds after the first: the deals mid-step were compared
    if num_games >= GAMES_PER_VARIANT:  # the ways a round ends, each seen
        assert {"bingo", "knock", "deck"} <= reasons, reasons
    winners = [aec.game_state.winner for aec in aecs]
    assert winners == batch.arrays["winner"].tolist() and min(winners) >= 0


def test_a_wrong_deal_fails_the_check():
    batch = envs.make_batched("swimming", 2, seed=0, num_players=3)
    while batch.arrays["round"][0] < 2:
        batch.step(np.where(batch.over, -1, batch.random_actions()))
    dealt = batch.board_state(0)
    check_new_deal(dealt, batch.board_state(0))
    short = batch.board_state(0)
    short.deck = short.deck[1:]  # a card too few
    with pytest.raises(AssertionError):
        check_new_deal(short, dealt)
    twice = batch.board_state(0)
    twice.hands[twice.to_move] = sorted([twice.deck[0]] + twice.hands[twice.to_move][1:])
    with pytest.raises(AssertionError):
        check_new_deal(twice, dealt)


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_conversions_keep_the_round_record_and_the_end(num_players):
    """Every board, mid-round, just dealt and finished, goes to the rules and back unchanged (moves included)."""
    batch = envs.make_batched("swimming", 48, seed=7, num_players=num_players)
    copy = envs.make_batched("swimming", 48, seed=8, num_players=num_players)
    seen_moves = seen_over = 0
    for step in range(1000):
        was_over = batch.over.copy()
        batch.step(batch.random_actions())
        boards = np.flatnonzero(~was_over & ((np.arange(48) % 8 == step % 8) | batch.over)).tolist()
        for i in boards:
            state = batch.board_state(i)
            copy.set_board(i, state)
            assert copy.board_state(i) == state
            seen_moves += len(state.moves) > 3
            seen_over += bool(batch.over[i])
        for name, array in batch.arrays.items():
            if name != "actions":  # the record's unused tail is free
                np.testing.assert_array_equal(copy.arrays[name][boards], array[boards], err_msg=name)
        np.testing.assert_array_equal(copy.over[boards], batch.over[boards])
        if batch.over.all():
            break
    assert seen_moves and seen_over


def test_a_position_set_mid_round_without_its_moves_plays_on_as_in_the_rules():
    """A hand-written position need not give the round's moves ("-"): the engine then keeps the round's record
    from that position on, and plays, converts and copies the board as the rules do, into the next deal."""
    aec = envs.make_raw("swimming", num_players=3)
    aec.reset(seed=3)
    for _ in range(5):
        aec.step(int(np.flatnonzero(aec.legal_mask())[0]))
    text = aec.position().rsplit(" ", 1)[0] + " -"
    aec.reset(options={"position": text})
    batch = envs.make_batched("swimming", 2, seed=0, num_players=3)
    copy = envs.make_batched("swimming", 2, seed=1, num_players=3)
    batch.set_position(0, text)
    assert batch.position(0) == text
    rng = np.random.default_rng(0)
    while batch.arrays["round"][0] == 1:
        state = batch.board_state(0)
        assert state == aec.game_state
        np.testing.assert_array_equal(batch.legal_mask()[0], aec.legal_mask())
        np.testing.assert_array_equal(batch.observe(1)[0], aec.observe_state(aec.game, state, 1))
        copy.set_board(0, state)
        assert copy.board_state(0) == state
        action = int(rng.choice(np.flatnonzero(aec.legal_mask())))
        batch.step(np.array([action, batch.random_actions()[1]]))
        aec.step(action)
    assert len(state.moves) > 6
    for _ in range(4):  # the next round is dealt: its record starts at the deal again
        batch.step(batch.random_actions())
    moves = batch.position(0).split()[-1]
    assert moves != "-" and moves.startswith(f"{batch.board_state(0).dealer}")


def test_past_decisions_read_the_same_record():
    """The hard opponent's search reads ``past_decisions``: the same from a batch board as from the rules."""
    batch = envs.make_batched("swimming", 16, seed=3)
    for _ in range(12):
        batch.step(batch.random_actions())
    game = batch.engine.game
    checked = 0
    for i in range(16):
        state = batch.board_state(i)
        if not game.is_over(state) and state.moves:
            decisions = game.past_decisions(state, state.to_move)
            for past, action in decisions:
                assert game.legal_mask(past)[action]
            checked += len(decisions)
    assert checked > 0


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="num_players"):
        envs.make_batched("swimming", 4, num_players=7)
    batch = envs.make_batched("swimming", 4, seed=0)
    with pytest.raises(ValueError, match=r"illegal action.*board 1: 0"):
        batch.step(np.array([12, 0, 12, 12]))  # the dealer's choice: only 12 and 13
    state = batch.board_state(0)
    state.deck = state.deck[:-1]
    with pytest.raises(ValueError, match="not the 32 cards"):
        batch.set_board(0, state)
    with pytest.raises(ValueError, match="SwimmingState of 4 players"):
        batch.set_board(0, envs.make_batched("swimming", 1, seed=0, num_players=3).board_state(0))


# -- the vector env --------------------------------------------------------------------------
def run(vec, steps, seed):
    rng = np.random.default_rng(seed)
    ends = 0
    total = np.zeros(vec.num_envs)
    for _ in range(steps):
        masks = vec.action_masks()
        assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, rewards, terminated, _, _ = vec.step(actions)
        assert set(np.unique(rewards).tolist()) <= set(range(-20, 121))  # whole coins
        total += rewards
        ends += int(terminated.sum())
    return ends, total


@pytest.mark.parametrize("opponent", ["random", "easy"])
def test_vector_env_plays_whole_games(opponent):
    vec = envs.make_vec("swimming", 64 if opponent == "random" else 8, opponent=opponent, seed=0)
    obs, _ = vec.reset()
    assert obs.shape == (vec.num_envs, 228) and vec.single_action_space.n == 14
    ends, total = run(vec, 300 if opponent == "random" else 100, seed=1)
    assert ends > 0 and (total < 0).any()  # coins paid and episodes ended


def test_vector_env_four_players_asks_each_opponent_for_its_own_seat():
    """Learner in one seat, three opponents: opponent k plays seat k, or k + 1 from the learner's seat on."""
    vec = envs.make_vec("swimming", 32, opponent=["random"] * 3, seed=0, num_players=4)
    asked = []

    class Recorder:
        def __init__(self, k):
            self.k = k

        def reset(self, seed=None):
            pass

        def new_games(self, where):
            pass

        def actions(self, batch, boards):
            asked.append((self.k, batch.to_move[boards].copy(), vec.seats[boards].copy()))
            return batch.random_actions()[boards]

    vec.set_opponents([Recorder(k) for k in range(3)])  # batch opponents (the protocol) are used as they are
    vec.reset()
    run(vec, 100, seed=2)
    assert {k for k, _, _ in asked} == {0, 1, 2}
    for k, seats, learner in asked:
        assert (seats != learner).all()
        np.testing.assert_array_equal(seats, k + (k >= learner))


def test_engine_record_is_sized_for_the_longest_round():
    engine = swimming_batched.engine(num_players=3, max_round_turns=7)
    assert engine.arrays["actions"][0] == (7 + 3 + 2,)
    assert isinstance(BatchedGame(engine, 2, seed=0).board_state(0).deck, list)
