"""Table tests of Twirls of Action's rules: the seed's examples, the RULINGS, the encodings."""

import numpy as np
import pytest

import envs
from envs.core.game import RuleError
from envs.twirls.bots import BOTS
from envs.twirls.rules import BLACK, DIRECTION_NAMES, SETUPS, WHITE, TwirlsGame, TwirlsState

RNG = np.random.default_rng(0)

# 8x8 boards in the seed's notation (top rank first; capitals are the seed's marked stones)
START = SETUPS[8]
AFTER_ONE = ".xx.xxx./w6w/w6w/w2x3w/w6w/w6w/w6w/.xxxxxx."  # after Black's d8-d5
SEED_AFTER_TWO = ".xX.xxx./w6w/4w2w/W2x3w/w6w/w6w/w6w/.xxxxxx."  # the seed's picture
C6_BLOCKS = ".xX.xxx./w6w/2x1w2w/W2x3w/w6w/w6w/w6w/.xxxxx.."  # the same with Black's g1 moved to c6
NOT_WON_YET = ".x..xxx./7w/4w..w/3x.ww./..x.wW../...ww.ww/..w5/.xxxxxx."  # the seed's second picture
FRIEND_FIRST = "8/8/8/wxx5/8/8/8/7w"  # c5 looks west: b5 (friend) hides a5 (enemy)
# White to move: g5-f4 on g4 joins c3 d3 e3 d2 + f4; d3 and e3 then have 3 friendly neighbours
WIN_IN_ONE = "x7/8/8/6w1/6x1/2wwwx2/3w4/7x"
# Black to move: h6-d6 on f8 leaves White (f7, f8, a2: two groups, so White has not won) without a legal twirl
STALEMATE_IN_ONE = "3x.w2/5w2/7x/8/8/8/w7/2x5"


def cell(name: str, size: int = 8) -> int:
    return (int(name[1:]) - 1) * size + "abcdefghi".index(name[0])


def twirl(origin: str, direction: str, turn: int, size: int = 8) -> int:
    """Action of the stone on ``origin`` seeing its pivot towards ``direction``, turning P->O by ``turn``."""
    r = {-90: 0, -45: 1, 45: 2, 90: 3}[turn]
    return (cell(origin, size) * 8 + DIRECTION_NAMES.index(direction)) * 4 + r


def position(board: str, to_move: int, size: int = 8, swapped: bool = False, **params) -> TwirlsState:
    """``board`` with ``to_move`` to move after 10 or 11 plies (as the colour to move and the swap have it)."""
    plies = 10 + (to_move ^ swapped)
    text = f"{board} {'xw'[to_move]} {'s' if swapped else '-'} {plies}"
    return TwirlsGame(board_size=size, **params).from_text(text)


def names(state: TwirlsState, colour: int, size: int = 8) -> set[str]:
    table = TwirlsGame(board_size=size).tables.names
    return {table[c] for c in range(size * size) if state.stones[colour] >> c & 1}


# -- moves ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "board,to_move,action,name",
    [
        # the seed's three examples, in order
        (START, BLACK, twirl("d8", "SW", 45), "d8-d5@a5"),
        (AFTER_ONE, WHITE, twirl("a6", "NE", -90), "a6-e6@c8"),
        (SEED_AFTER_TWO, BLACK, twirl("c8", "SE", -90), "c8-c4@e6"),  # d5 lies between e6 and c4: no matter
        # a stone between origin and destination blocks (c6 on the way c8 -> c4)
        (C6_BLOCKS, BLACK, twirl("c8", "SE", -90), None),
        (START, BLACK, twirl("c8", "SW", -45), None),  # c8 -> a8 on a6: b8 in the way
        # the turns: +90 on a5 lands on d2, -90 would leave the board
        (START, BLACK, twirl("d8", "SW", 90), "d8-d2@a5"),
        (START, BLACK, twirl("d8", "SW", -90), None),
        (START, BLACK, twirl("b8", "SW", 45), "b8-b7@a7"),
        (START, BLACK, twirl("b8", "SW", -45), "b8-a8@a7"),
        # destination occupied: d5 on a5 turned +90 lands on a2 (a White stone)
        (SEED_AFTER_TWO, BLACK, twirl("d5", "W", 90), None),
        (SEED_AFTER_TWO, BLACK, twirl("d5", "W", -90), "d5-a8@a5"),
        # the first stone seen must be an enemy: a friendly one is no pivot and hides what lies behind
        (FRIEND_FIRST, BLACK, twirl("c5", "W", -90), None),
        (FRIEND_FIRST, BLACK, twirl("b5", "W", -90), "b5-a6@a5"),
        # no stone at all in that direction
        (START, BLACK, twirl("b8", "N", 90), None),
        (START, BLACK, twirl("d8", "S", 45), None),  # d1 is the first stone: friendly
    ],
)
def test_twirl_legality(board, to_move, action, name):
    game = TwirlsGame(board_size=8)
    state = position(board, to_move)
    legal = name is not None
    assert bool(game.legal_mask(state)[action]) is legal
    if not legal:
        with pytest.raises(RuleError, match=rf"illegal action {action}\b"):
            game.check_action(state, action)
        return
    assert game.action_name(state, action) == name
    origin, dest = name.split("@")[0].split("-")
    mine, theirs = names(state, to_move), names(state, 1 - to_move)
    game.apply(state, action, RNG)
    assert names(state, to_move) == (mine - {origin}) | {dest}
    assert names(state, 1 - to_move) == theirs  # nothing is captured; the pivot stays
    assert state.colour_to_move == 1 - to_move


def test_seed_sequence_from_the_start_reaches_the_seed_picture():
    game = TwirlsGame(board_size=8)
    state = game.new_state(RNG)
    assert state.stones == position(START, BLACK).stones
    for action in (twirl("d8", "SW", 45), twirl("a6", "NE", -90)):
        assert game.apply(state, game.check_action(state, action), RNG) == [0.0, 0.0]
    assert state.stones == position(SEED_AFTER_TWO, BLACK).stones
    assert game.to_move(state) == 0 and not state.over
    assert game.action_name(state, twirl("c8", "SE", -90)) == "c8-c4@e6"
    assert game.legal_mask(state)[twirl("c8", "SE", -90)]


def test_encoding_example_of_the_docstring():
    assert twirl("d8", "SW", 45) == 1910
    assert TwirlsGame().num_actions == 2593 and TwirlsGame(board_size=8).num_actions == 2049


@pytest.mark.parametrize("size,stones", [(9, 14), (8, 12)])
def test_setups(size, stones):
    game = TwirlsGame(board_size=size)
    state = game.new_state(RNG)
    assert [s.bit_count() for s in state.stones] == [stones, stones]
    assert state.stones[0] & state.stones[1] == 0
    assert game.to_move(state) == 0 and state.colour_to_move == BLACK
    assert game.legal_actions(state) and game.swap_action not in game.legal_actions(state)


def test_legal_list_matches_a_slow_reference():
    """Every action checked by brute-force geometry on random positions."""
    vec = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
    rng = np.random.default_rng(7)
    for size in (8, 9):
        game = TwirlsGame(board_size=size)
        for _ in range(15):
            cells = rng.choice(size * size, 20, replace=False)
            board = {int(c): i % 2 for i, c in enumerate(cells)}
            state = TwirlsState([sum(1 << c for c, k in board.items() if k == col) for col in (0, 1)])
            expected = set()
            for o, colour in board.items():
                if colour != 0:
                    continue
                of, orr = o % size, o // size
                for d, (df, dr) in enumerate(vec):
                    n, f, r = 1, of + df, orr + dr
                    while 0 <= f < size and 0 <= r < size and (r * size + f) not in board:
                        n, f, r = n + 1, f + df, r + dr
                    if not (0 <= f < size and 0 <= r < size) or board[r * size + f] == 0:
                        continue
                    for k, turn in enumerate((-2, -1, 1, 2)):
                        ef, er = vec[(d + 4 + turn) % 8]
                        tf, tr = f + n * ef, r + n * er
                        if not (0 <= tf < size and 0 <= tr < size) or (tr * size + tf) in board:
                            continue
                        steps = max(abs(tf - of), abs(tr - orr))
                        sf, sr = np.sign(tf - of), np.sign(tr - orr)
                        if any((orr + i * sr) * size + of + i * sf in board for i in range(1, steps)):
                            continue
                        expected.add((o * 8 + d) * 4 + k)
            assert set(game.legal_actions(state)) == expected


# -- the goal and the end checks ------------------------------------------------


def test_seed_not_won_yet_position():
    game = TwirlsGame(board_size=8)
    state = position(NOT_WON_YET, WHITE)
    white = state.stones[WHITE]
    t = game.tables
    assert t.connected(white)
    assert (white & t.neighbours[cell("f4")]).bit_count() == 5
    assert not t.has_won(white, 3) and not t.has_won(white, 4) and t.has_won(white, 5)


def test_only_the_mover_can_win():
    """White's stones fit max_neighbors=5, yet Black's move does not end the game."""
    game = TwirlsGame(board_size=8, max_neighbors=5)
    state = position(NOT_WON_YET, BLACK)
    action = game.legal_actions(state)[0]
    assert game.apply(state, action, RNG) == [0.0, 0.0]
    assert not state.over


@pytest.mark.parametrize(
    "board,to_move,params,swapped,action,over,winners",
    [
        (WIN_IN_ONE, WHITE, {}, False, twirl("g5", "S", -90), True, [1]),  # g5-f4: one group, <= 3 each
        (WIN_IN_ONE, WHITE, {}, False, twirl("g5", "S", 90), False, []),  # g5-h4: two groups
        (WIN_IN_ONE, WHITE, {"max_neighbors": 2}, False, twirl("g5", "S", -90), False, []),
        (WIN_IN_ONE, WHITE, {"max_neighbors": (2, 3)}, False, twirl("g5", "S", -90), True, [1]),
        (WIN_IN_ONE, WHITE, {"max_neighbors": (3, 2)}, False, twirl("g5", "S", -90), False, []),
        # after a swap player_0 plays White: the limit follows the seat, not the colour
        (WIN_IN_ONE, WHITE, {"max_neighbors": (3, 2)}, True, twirl("g5", "S", -90), True, [0]),
        # the mover's win is checked before the ply limit
        (WIN_IN_ONE, WHITE, {"max_plies": 11}, False, twirl("g5", "S", -90), True, [1]),
        (WIN_IN_ONE, WHITE, {"max_plies": 11}, False, twirl("g5", "S", 90), True, []),
        # the next player without a legal twirl loses ...
        (STALEMATE_IN_ONE, BLACK, {}, False, twirl("h6", "NW", 90), True, [0]),
        (STALEMATE_IN_ONE, BLACK, {}, True, twirl("h6", "NW", 90), True, [1]),
        (STALEMATE_IN_ONE, BLACK, {}, False, twirl("h6", "NW", 45), False, []),
        # ... but the ply limit is checked first
        (STALEMATE_IN_ONE, BLACK, {"max_plies": 11}, False, twirl("h6", "NW", 90), True, []),
    ],
)
def test_end_of_game(board, to_move, params, swapped, action, over, winners):
    game = TwirlsGame(board_size=8, **params)
    state = position(board, to_move, swapped=swapped)
    action = game.check_action(state, action)
    rewards = game.apply(state, action, RNG)
    assert state.over is over
    assert game.winners(state) == winners
    expected = [0.0, 0.0]
    for seat in (0, 1):
        if winners:
            expected[seat] = 1.0 if seat in winners else -1.0
    assert rewards == expected
    if over:
        assert not game.legal_mask(state).any()


def test_stalemate_position_leaves_white_without_twirls():
    game = TwirlsGame(board_size=8)
    state = position(STALEMATE_IN_ONE, BLACK)
    assert game.action_name(state, twirl("h6", "NW", 90)) == "h6-d6@f8"
    game.apply(state, twirl("h6", "NW", 90), RNG)
    assert game.tables.twirls(state.stones[WHITE], state.stones[BLACK]) == []


# -- the pie rule ----------------------------------------------------------------


def test_swap_is_legal_only_on_whites_first_turn():
    game = TwirlsGame(board_size=8)
    state = game.new_state(RNG)
    assert not game.legal_mask(state)[game.swap_action]
    game.apply(state, twirl("d8", "SW", 45), RNG)
    assert game.legal_mask(state)[game.swap_action]
    other = game.copy_state(state)
    game.apply(other, twirl("a6", "NE", -90), RNG)  # White moves instead: the chance is gone
    assert not game.legal_mask(other)[game.swap_action]
    assert game.action_name(state, game.swap_action) == "swap"


def test_swap_hands_the_colours_over_and_player_0_moves_next():
    game = TwirlsGame(board_size=8)
    state = game.new_state(RNG)
    game.apply(state, twirl("d8", "SW", 45), RNG)
    before = state.stones[:]
    assert game.apply(state, game.swap_action, RNG) == [0.0, 0.0]
    assert state.stones == before  # the board is untouched
    assert game.to_move(state) == 0 and state.colour_to_move == WHITE
    assert game.colour_of(state, 0) == WHITE and game.colour_of(state, 1) == BLACK
    assert state.plies == 2 and not state.over
    assert not game.legal_mask(state)[game.swap_action]
    assert game.legal_mask(state)[twirl("a6", "NE", -90)]  # White's twirls, now player_0's
    game.apply(state, twirl("a6", "NE", -90), RNG)
    assert game.to_move(state) == 1 and state.colour_to_move == BLACK


def test_swap_in_the_env_agents_keep_names():
    env = envs.make_raw("twirls", board_size=8)
    env.reset(seed=0)
    env.step(twirl("d8", "SW", 45))
    assert env.agent_selection == "player_1"
    env.step(env.game.swap_action)
    assert env.agent_selection == "player_0"
    n = 64
    obs1 = env.observe("player_1")["observation"]
    obs0 = env.observe("player_0")["observation"]
    assert obs1[cell("d5")] == 1 and obs1[n + cell("a5")] == 1  # player_1 owns the black stones
    assert obs0[cell("a5")] == 1 and obs0[n + cell("d5")] == 1
    assert obs1[3 * n] == 1 and obs0[3 * n] == 0  # "plays Black"
    assert obs0[3 * n + 1] == 1 and obs1[3 * n + 1] == 0  # to move
    assert env.observe("player_0")["action_mask"][twirl("a6", "NE", -90)] == 1


def test_swap_counts_as_a_ply():
    game = TwirlsGame(board_size=8, max_plies=2)
    state = game.new_state(RNG)
    game.apply(state, twirl("d8", "SW", 45), RNG)
    game.apply(state, game.swap_action, RNG)
    assert state.over and game.winners(state) == []


# -- observation ------------------------------------------------------------------


@pytest.mark.parametrize("size", [9, 8])
def test_observation_planes(size):
    env = envs.make_raw("twirls", board_size=size, max_neighbors=(4, 2))
    env.reset(seed=0)
    n = size * size
    obs = env.observe("player_0")["observation"]
    assert obs.shape == (3 * n + 6,) and obs.dtype == np.float32
    state = env.game_state
    assert obs[:n].sum() == state.stones[BLACK].bit_count()
    assert obs[n : 2 * n].sum() == state.stones[WHITE].bit_count()
    assert np.all(obs[:n] + obs[n : 2 * n] + obs[2 * n : 3 * n] == 1)
    assert list(obs[3 * n :]) == [1, 1, 0, 0.5, 0.25, 0]
    assert list(env.observe("player_1")["observation"][3 * n :]) == [0, 0, 0, 0.25, 0.5, 0]


# -- parameters -----------------------------------------------------------------


@pytest.mark.parametrize(
    "params,named",
    [
        ({"board_size": 7}, "board_size"),
        ({"board_size": "9"}, "board_size"),
        ({"board_size": True}, "board_size"),
        ({"max_neighbors": 1}, "max_neighbors"),
        ({"max_neighbors": 9}, "max_neighbors"),
        ({"max_neighbors": (4,)}, "max_neighbors"),
        ({"max_neighbors": (4, 2, 3)}, "max_neighbors"),
        ({"max_neighbors": "3"}, "max_neighbors"),
        ({"max_neighbors": 3.0}, "max_neighbors"),
        ({"max_neighbors": (4, 1)}, "max_neighbors"),
        ({"max_plies": 0}, "max_plies"),
        ({"max_plies": 2.5}, "max_plies"),
    ],
)
def test_bad_parameters_are_named(params, named):
    with pytest.raises(RuleError, match=named):
        TwirlsGame(**params)
    with pytest.raises(ValueError, match=named):
        envs.make("twirls", **params)


def test_good_parameters():
    assert TwirlsGame(max_neighbors=(4, 2)).limits == (4, 2)
    assert TwirlsGame(max_neighbors=[2, 8]).limits == (2, 8)
    assert TwirlsGame(max_neighbors=np.int64(4)).limits == (4, 4)
    assert TwirlsGame(board_size=8, max_plies=1).max_plies == 1


# -- bots -------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_bots_take_a_win_in_one(level):
    game = TwirlsGame(board_size=8)
    state = position(WIN_IN_ONE, WHITE)
    bot = BOTS[level](game, seed=3)
    assert bot.choose(state, game.legal_mask(state)) == twirl("g5", "S", -90)


def white_can_win(game, state) -> bool:
    white, black = state.stones[WHITE], state.stones[BLACK]
    return any(game.tables.has_won(white ^ (1 << o) ^ (1 << d), 3) for _, o, d in game.tables.moves(white, black))


def test_medium_stops_the_opponents_win_in_one():
    """Black to move in WIN_IN_ONE: most twirls leave White g5-f4; medium picks one that does not."""
    game = TwirlsGame(board_size=8)
    state = position(WIN_IN_ONE, BLACK)
    outcomes = {}
    for a in game.legal_actions(state):
        after = game.copy_state(state)
        game.apply(after, a, RNG)
        outcomes[a] = white_can_win(game, after)
    assert any(outcomes.values()) and not all(outcomes.values())
    for seed in range(5):
        choice = BOTS["medium"](game, seed=seed).choose(state, game.legal_mask(state))
        assert outcomes[choice] is False


# -- rendering -------------------------------------------------------------------


def test_ansi_marks_origin_destination_and_pivot():
    env = envs.make_raw("twirls", board_size=8, render_mode="ansi")
    env.reset(seed=0)
    env.step(twirl("d8", "SW", 45))
    rows = env.render().splitlines()
    assert rows[0] == " 8  .  X  X  *  X  X  X  . "  # the origin d8, now empty
    assert rows[3] == " 5 <O> .  . [X] .  .  .  O "  # pivot a5, the moved stone on d5
    assert rows[8].split() == list("abcdefgh")
    assert "last: d8 -> d5 pivot a5" in rows[-1] and "may swap" in rows[-1]
    env.step(env.game.swap_action)
    text = env.render()
    assert "player_1 swapped (now Black)" in text and "player_0 (White) to move" in text
    assert "<" not in text and "[" not in text


@pytest.mark.parametrize("size", [9, 8])
def test_rgb_frame_size_and_last_move_drawn(size):
    env = envs.make_raw("twirls", board_size=size, render_mode="rgb_array")
    env.reset(seed=0)
    before = env.render()
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    after = env.render()
    assert before.shape == after.shape and before.shape[2] == 3
    highlight = np.all(after == np.array([255, 200, 0], dtype=np.uint8), axis=2)
    assert highlight.sum() > 50 and not np.all(before == np.array([255, 200, 0], dtype=np.uint8), axis=2).any()
    env.close()


# -- ending_moves: the search's fast test for game-ending twirls ----------------------------------


def _positions_with_enders(params, games, seed):
    """Positions along games of medium (which connects) and random, with the game's own ending moves."""
    from envs.core.game import Game
    from envs.twirls.bots import MediumBot

    game, rng = TwirlsGame(**params), np.random.default_rng(seed)
    for g in range(games):
        state, bots = game.new_state(rng), [MediumBot(game, seed=seed + g), None]
        while not game.is_over(state):
            mask = game.legal_mask(state)
            legal = np.flatnonzero(mask).tolist()
            yield game, state, legal, Game.ending_moves(game, state, legal, rng)
            mover = bots[(g + game.to_move(state)) % 2]
            action = mover.choose(state, mask) if mover else int(rng.choice(legal))
            game.apply(state, action, rng)


@pytest.mark.parametrize(
    "params",
    [{}, {"board_size": 8}, {"max_plies": 30}, {"max_neighbors": (4, 2)}],
    ids=["9x9", "8x8", "ply-limit", "per-seat-limit"],
)
def test_fast_ending_moves_match_playing_each_move(params):
    found = 0
    for game, state, legal, expected in _positions_with_enders(params, games=6, seed=3):
        assert game.ending_moves(state, legal, np.random.default_rng(0)) == expected
        found += len(expected)
    assert found > 0  # the games do reach positions with ending moves


def test_ending_moves_include_leaving_the_opponent_without_a_twirl():
    game = TwirlsGame(board_size=8)
    state = position(STALEMATE_IN_ONE, BLACK)
    legal = np.flatnonzero(game.legal_mask(state)).tolist()
    assert twirl("h6", "NW", 90) in game.ending_moves(state, legal, RNG)
    assert twirl("h6", "NW", 45) not in game.ending_moves(state, legal, RNG)
