"""Swish's and Squeeze's medium bot, written once (``envs.hexrook.batched.medium_kernel``), against a slow
reference read from the rules (each move played by the rules, replies and threats from their captures): the
same moves with the same scores on every position played, a pick among medium's best, the per-position
:class:`envs.hexrook.bots.MediumBot` scoring as the batch does, hand-built positions, and the vector env and
pool playing medium through the engine."""

import numpy as np
import pytest

import envs
from envs.hexrook.batched import medium_actions, medium_scores
from envs.hexrook.board import (
    BEAD,
    PHASE_CHOICE,
    PHASE_COLOUR,
    PHASE_PLAY,
    PHASE_SETUP,
    ROOK_VALUE,
    THREAT_CAP,
    THREAT_WEIGHT,
    WIN,
)
from envs.hexrook.bots import EasyBot, MediumBot
from envs.squeeze.rules import SqueezeGame
from envs.swish.rules import SwishGame
from envs.vector import EngineBot, PerBoard, batch_opponent
from training.pool import BatchPool

GAMES = ("swish", "squeeze")
RANDOM, EASY, MEDIUM = range(3)
# (game, rules, seed, branches of medium's score the games must meet): set-ups, board sizes, short targets
# (wins at once), short games (the last-ply rule)
DEFAULT = {"allows a win", "threat"}  # 150 positions of the default rules may hold no win at once
PLAY = {"win", "allows a win", "threat"}
SHORT = {"last ply", "threat"}
VARIANTS = [
    ("swish", {}, 0, DEFAULT),
    ("swish", {}, 1, DEFAULT),
    ("squeeze", {}, 0, DEFAULT),
    ("squeeze", {}, 1, DEFAULT),
    ("swish", {"setup": "fixed", "max_plies": 12}, 2, SHORT),
    ("squeeze", {"setup": "fixed", "max_plies": 12}, 3, SHORT),
    ("swish", {"setup": "marquisian", "radius": 3, "beads_to_win": 3}, 4, PLAY),
    ("squeeze", {"setup": "marquisian", "radius": 3, "beads_to_win": 4, "max_plies": 40}, 5, PLAY),
    ("swish", {"radius": 5, "beads_to_win": 2, "max_plies": 60}, 6, PLAY),
    ("squeeze", {"radius": 6, "beads_to_win": 3, "max_plies": 60}, 7, PLAY),
]


def best_capture(game, state, seat, beads_needed, enemy_rooks):
    """(the most one move of ``seat`` takes in ``state``, by the rules' captures: WIN if it takes ``beads_needed``
    beads or ``enemy_rooks`` rooks; whether ``seat`` has a move)."""
    colour = state.colour[seat]
    own, enemy = colour + 1, 2 - colour
    best, moves = 0.0, game.move_actions(state, seat)
    for action in moves:
        cell, d, dist = game.decode_move(action)
        taken = game.captures(state.board, cell, d, dist, own, enemy)
        beads = sum(state.board[c] == BEAD for c in taken)
        if beads >= beads_needed or len(taken) - beads >= enemy_rooks:
            return WIN, True
        best = max(best, beads + ROOK_VALUE * (len(taken) - beads))
    return best, bool(moves)


def reference_move_scores(game, state):
    """Medium's score of every move of the player to move, each move played on a copy by the rules."""
    me = state.to_move
    mine, theirs = state.colour[me], 1 - state.colour[me]
    target = game.params["beads_to_win"]
    need_me, need_them = target - state.stores[me], target - state.stores[1 - me]
    actions, scores = game.move_actions(state), []
    for action in actions:
        after = game.copy_state(state)
        game.apply(after, action, None)
        beads = after.stores[me] - state.stores[me]
        value = beads + ROOK_VALUE * (len(state.rooks[theirs]) - len(after.rooks[theirs]))
        if beads >= need_me:
            scores.append(WIN)
            continue
        if state.plies + 1 >= game.params["max_plies"]:
            scores.append(value)
            continue
        reply, they_move = best_capture(game, after, 1 - me, need_them, len(after.rooks[mine]))
        if not they_move:
            scores.append(WIN)
        elif reply >= WIN:
            scores.append(-WIN + value)
        else:
            threat, _ = best_capture(game, after, me, need_me - beads, len(after.rooks[theirs]))
            scores.append(value - reply + THREAT_WEIGHT * min(threat, THREAT_CAP))
    return actions, scores


def reference_value(game, state, seat):
    """What a position is worth to ``seat`` by medium's look-ahead: the best score of the side to move."""
    if state.over:
        return 0.0 if state.winner is None else (WIN if state.winner == seat else -WIN)
    best = max(reference_move_scores(game, state)[1])
    return best if state.to_move == seat else -best


def reference_scores(game, state):
    """(actions, scores) medium weighs: its moves in play; at a choice each choice by the position it leads to,
    the opponent's colour pick (after "move first") the worst for the chooser."""
    if state.phase == PHASE_PLAY:
        return reference_move_scores(game, state)
    me, actions, scores = state.to_move, [], []
    for action in np.flatnonzero(game.legal_mask(state)).tolist():
        after = game.copy_state(state)
        game.apply(after, action, None)
        picks = np.flatnonzero(game.legal_mask(after)).tolist() if after.phase == PHASE_COLOUR else [None]
        values = []
        for pick in picks:
            final = game.copy_state(after)
            if pick is not None:
                game.apply(final, pick, None)
            values.append(reference_value(game, final, me))
        actions.append(action)
        scores.append(min(values))
    return actions, scores


def best_of(actions, scores):
    top = max(scores)
    return {a for a, s in zip(actions, scores) if s >= top - 1e-9}


def check_scores(batch, bot, boards, kinds):
    """The kernel's scored actions on ``boards`` against the rules' reference and MediumBot's (the same kernel
    on one board made from the rules' state: the same floats) and its pick among the best; adds to ``kinds``
    the branches of medium's score met (a win at once, a move that allows a win, a threat, the last ply, a
    choice); returns the rook-move positions compared."""
    actions, listed, scores, counts = medium_scores(batch, boards)
    max_plies = bot.game.params["max_plies"]
    mask = batch.legal_mask()
    compared = 0
    for k, i in enumerate(boards.tolist()):
        state = batch.board_state(i)
        if state.phase == PHASE_SETUP:  # uniform over the legal placements, as medium's
            assert counts[k] == 0 and mask[i, actions[k]]
            continue
        expected_actions, expected_scores = reference_scores(bot.game, state)
        kinds.update({"choice"} if state.phase != PHASE_PLAY else ())
        assert listed[k, : counts[k]].tolist() == expected_actions, f"board {i}: the actions differ"
        assert bot.scored_moves(state) == (expected_actions, scores[k, : counts[k]].tolist()), f"board {i}"
        np.testing.assert_allclose(scores[k, : counts[k]], expected_scores, rtol=0, atol=1e-9, err_msg=f"board {i}")
        assert actions[k] in best_of(expected_actions, expected_scores), f"board {i}: not one of medium's best"
        compared += state.phase == PHASE_PLAY
        s = scores[k, : counts[k]]
        kinds.update({"win"} if (s == WIN).any() else ())
        kinds.update({"allows a win"} if (s < -WIN / 2).any() else ())
        kinds.update({"threat"} if (s % 1 != 0).any() else ())
        kinds.update({"last ply"} if state.phase == PHASE_PLAY and state.plies + 1 == max_plies else ())
    return compared


def _variant_id(value):
    """Test ids that are the same in every process (a set's str order follows the process's hash seed)."""
    return "+".join(sorted(value)) if isinstance(value, (set, frozenset)) else str(value)


@pytest.mark.parametrize(("name", "rules", "seed", "branches"), VARIANTS, ids=_variant_id)
def test_kernel_scores_every_move_as_medium_does(name, rules, seed, branches):
    """Games of random, easy and medium players (each seat of each board its own), every position of the
    player to move scored by the kernel and by the rules' reference, until 150 are compared; medium's moves
    (the kernel's picks) are played."""
    num_boards = 9
    batch = envs.make_batched(name, num_boards, seed=seed, **rules)
    game = batch.engine.game
    bot, easy = MediumBot(game, seed=seed), EasyBot(game, seed=seed)
    players = np.array([[i % 3, i // 3 % 3] for i in range(num_boards)])
    compared = 0
    seen, kinds = set(), set()
    while compared < 150:
        batch.reset_done()
        live = np.flatnonzero(~batch.over)
        compared += check_scores(batch, bot, live, kinds)
        mask = batch.legal_mask().copy()
        randoms, mediums = batch.random_actions(), medium_actions(batch, live)
        actions = np.full(num_boards, -1, dtype=np.int64)
        for k, i in enumerate(live.tolist()):
            who = players[i, batch.to_move[i]]
            actions[i] = (randoms[i], easy.act(None, mask[i], batch.board_state(i)), mediums[k])[who]
            seen.add(who)
        batch.step(actions)
    assert seen == {RANDOM, EASY, MEDIUM} and kinds >= branches | {"choice"}


def position(name, white, black, beads, stores, plies=10, **rules):
    """A batch of one board holding a play-phase position: white (player_0) to move."""
    game = {"swish": SwishGame, "squeeze": SqueezeGame}[name](**rules)
    state = game.state_from(white, black, beads)
    state.phase, state.to_move, state.colour, state.first_mover = PHASE_PLAY, 0, [0, 1], 0
    state.stores, state.plies = list(stores), plies
    batch = envs.make_batched(name, 1, seed=0, **rules)
    batch.set_board(0, state)
    return batch, state


# (what it shows, game, white rooks, black rooks, beads, stores by seat, plies, rules, the moves medium may play)
HAND_BUILT = [
    ("leaps the bead that wins", "swish", ["e1", "a1", "i1"], ["a5", "i5", "e9"], ["e2", "e4", "c4"], (9, 0), 10, {},
     {"e1xe3"}),
    ("blocks the leap that would win for black", "swish", ["e5", "a1", "i1"], ["a5", "i5", "e9"], ["e8"], (0, 9), 10,
     {}, {"e5-e7"}),
    ("closes the row that wins", "squeeze", ["e5", "e1", "i1"], ["a5", "i5", "e9"], ["e4", "c4"], (9, 0), 10, {},
     {"e1xe3"}),
    ("takes the cell black would win on", "squeeze", ["e5", "a1", "i1"], ["a5", "i3", "e9"], ["e8", "c3"], (0, 9),
     10, {}, {"e5-e7", "e5-g5"}),
    ("does not take a bead that lets black win", "squeeze", ["e5", "e1", "i1"], ["a5", "i3", "e9"],
     ["e8", "e4", "c3"], (0, 9), 9, {"max_plies": 11}, {"e5-e7", "e5-g5"}),
    ("takes it on the last ply: no reply comes", "squeeze", ["e5", "e1", "i1"], ["a5", "i3", "e9"],
     ["e8", "e4", "c3"], (0, 9), 10, {"max_plies": 11}, {"e1xe3"}),
    ("leaves black's last rook without a move", "squeeze", ["e1", "i1", "i5"], ["a1"], ["a2", "b2", "e5"], (0, 0), 10,
     {}, {"e1-b1"}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("what", "name", "white", "black", "beads", "stores", "plies", "rules", "expected"), HAND_BUILT, ids=lambda x: x
)
def test_hand_built_positions(what, name, white, black, beads, stores, plies, rules, expected):
    batch, state = position(name, white, black, beads, stores, plies, **rules)
    game = batch.engine.game
    for seed in range(6):  # ties drawn differently: always among the expected moves
        batch.rng[:] = seed
        (action,) = medium_actions(batch, np.array([0]))
        assert game.action_name(state, int(action)) in expected, what
    assert {game.action_name(state, a) for a in best_of(*MediumBot(game).scored_moves(state))} == expected
    assert {game.action_name(state, a) for a in best_of(*reference_scores(game, state))} == expected


@pytest.mark.parametrize("name", GAMES)
def test_vector_env_plays_medium_in_the_engine_legally_and_by_the_seed(name):
    def run(seed):
        vec = envs.make_vec(name, 16, opponent="medium", seed=seed, max_plies=80)
        assert isinstance(vec.opponents[0], EngineBot)
        obs, _ = vec.reset()
        rng = np.random.default_rng(0)
        trace, ends = [obs], 0
        for _ in range(120):  # an illegal move of medium's would raise in the batch's step
            masks = vec.action_masks()
            obs, rewards, terminated, _, _ = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            trace.append(obs)
            ends += int(terminated.sum())
        return np.stack(trace), ends

    a, ends = run(3)
    b, _ = run(3)
    c, _ = run(4)
    assert ends >= 16 and (a == b).all() and not (a == c).all()


@pytest.mark.parametrize("name", GAMES)
def test_pool_plays_medium_through_the_engine(name):
    def run():
        pool = BatchPool(name, ["medium", "random"], [0.7, 0.3], {}, seed=1)
        vec = envs.make_vec(name, 24, opponent=pool, seed=2)
        obs, _ = vec.reset()
        trace = [obs]
        for _ in range(80):
            obs, *_ = vec.step(vec.action_masks().argmax(axis=1))
            trace.append(obs)
        assert isinstance(pool.member(0), EngineBot) and set(pool.shares()) == {"medium", "random"}
        return np.stack(trace)

    assert (run() == run()).all()


@pytest.mark.parametrize(
    ("what", "phase", "expected"),
    [
        ("player_1 takes white: black, boxed in, moves first and loses", PHASE_CHOICE, {"white"}),
        ("after 'move first' player_0 takes white: boxed-in black moves first", PHASE_COLOUR, {"white"}),
    ],
)
def test_hand_built_choices(what, phase, expected):
    """Squeeze, black's three rooks boxed in by beads in the corners: the side to move first with black loses."""
    batch = envs.make_batched("squeeze", 1, seed=0)
    game = batch.engine.game
    boxes = ["a2", "b1", "b2", "a4", "b6", "b5", "i2", "h1", "h2"]
    state = game.state_from(["e1", "e9", "i5"], ["a1", "a5", "i1"], boxes)
    if phase == PHASE_COLOUR:
        game.apply(state, game.choice_base, None)  # "move first"
    assert state.phase == phase
    batch.set_board(0, state)
    for seed in range(4):
        batch.rng[:] = seed
        (action,) = medium_actions(batch, np.array([0]))
        assert game.action_name(state, int(action)) in expected, what


@pytest.mark.parametrize(
    ("game", "spec", "kind"),
    [
        ("swish", "medium", EngineBot),
        ("squeeze", "medium", EngineBot),
        ("swish", "easy", PerBoard),  # no batched easy: board by board
        ("swival", "medium", PerBoard),  # an engine without bots
    ],
)
def test_batch_opponent_plays_a_bot_in_the_engine_where_the_engine_has_it(game, spec, kind):
    assert type(batch_opponent(game, spec, seed=0)) is kind
