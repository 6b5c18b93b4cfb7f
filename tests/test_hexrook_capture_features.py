"""research/hexrook_capture_features.py: positions read off observations, the capture features against the
rules and medium's own scores, and the feature net's wiring."""

import numpy as np
import pytest
import torch

from envs.hexrook.board import PHASE_PLAY, ROOK_VALUE
from envs.hexrook.bots import THREAT_WEIGHT, WIN, MediumBot
from envs.hexrook.env import HexRookEnv
from research.hexrook_capture_features import (
    MAX_MOVES,
    OWN,
    PLANES,
    SCALE,
    SETS,
    FeatureNet,
    capture_features,
    extend,
    read_position,
)
from research.hexrook_conv_imitation import rules

PARAMS = {"setup": "random"}


def play_positions(name: str, games: int, seed: int):
    """(game, state) at every play-phase move of seeded games of medium (70%) and random moves."""
    game = rules(name, PARAMS)
    rng = np.random.default_rng(seed)
    bot = MediumBot(game, seed=seed)
    out = []
    for _ in range(games):
        state = game.new_state(rng)
        while not state.over:
            mask = game.legal_mask(state)
            if state.phase == PHASE_PLAY:
                out.append(game.copy_state(state))
            if state.phase == PHASE_PLAY and rng.random() < 0.7:
                action = bot.choose(state, mask)
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            game.apply(state, action, rng)
    return game, out


def medium_score(row: np.ndarray, last_ply: bool) -> float:
    """Medium's score of a move from the ``reply`` set's values (its formula in ``MediumBot.scored_moves``)."""
    value = SCALE * row[0] + ROOK_VALUE * row[1]
    if row[2]:
        return WIN
    if last_ply:
        return value
    if row[7]:
        return WIN
    if row[6]:
        return -WIN + value
    return value - SCALE * row[5] + THREAT_WEIGHT * SCALE * row[8]


@pytest.mark.parametrize("name", ["swish", "squeeze"])
def test_a_position_read_off_the_observation_is_the_state(name):
    game, states = play_positions(name, games=4, seed=1)
    for state in states[::5]:
        seat = state.to_move
        colour = state.colour[seat]
        pos = read_position(game, HexRookEnv.observe_state(game, state, seat))
        assert sorted(pos.mine) == sorted(state.rooks[colour])
        assert sorted(pos.theirs) == sorted(state.rooks[1 - colour])
        recoded = bytes({0: 0, colour + 1: OWN, 2 - colour: 3 - OWN, 3: 3}[k] for k in state.board)
        assert bytes(pos.board) == recoded
        target = game.params["beads_to_win"]
        assert (pos.need_me, pos.need_them) == (target - state.stores[seat], target - state.stores[1 - seat])
        assert pos.last_ply == (state.plies + 1 >= game.params["max_plies"])


@pytest.mark.parametrize("name", ["swish", "squeeze"])
def test_the_features_are_the_legal_moves_and_their_captures(name):
    game, states = play_positions(name, games=3, seed=2)
    checked = 0
    for state in states[::3]:
        seat = state.to_move
        colour = state.colour[seat]
        obs = HexRookEnv.observe_state(game, state, seat)
        planes, actions, values = capture_features(game, obs, "now")
        assert planes.shape == (PLANES, game.hex.n) and values.shape == (len(actions), SETS["now"])
        assert sorted(actions.tolist()) == np.flatnonzero(game.legal_mask(state)).tolist()
        for action, row in zip(actions.tolist(), values):
            cell, direction, distance = game.decode_move(action)
            taken = game.captures(state.board, cell, direction, distance, colour + 1, 2 - colour)
            rooks = sum(1 for c in taken if state.board[c] != 3)
            assert (round(SCALE * row[0]), row[1]) == (len(taken) - rooks, rooks)
            # the "mine" planes: the best capture landing on the move's landing cell is at least this one
            assert planes[0, game.landing(cell, direction, distance)] >= (len(taken) + 2 * rooks) / SCALE - 1e-6
        checked += int(values[:, 0].any())
    assert checked > 3  # positions with captures were among them


@pytest.mark.parametrize("name", ["swish", "squeeze"])
def test_the_reply_set_gives_medium_its_own_scores(name):
    game, states = play_positions(name, games=3, seed=3)
    bot = MediumBot(game, seed=0)
    for state in states[::2]:
        obs = HexRookEnv.observe_state(game, state, state.to_move)
        _, actions, values = capture_features(game, obs, "reply")
        last_ply = state.plies + 1 >= game.params["max_plies"]
        ours = {a: medium_score(row, last_ply) for a, row in zip(actions.tolist(), values)}
        for action, score in zip(*bot.scored_moves(state)):
            assert ours[action] == pytest.approx(score, abs=1e-4) or min(ours[action], score) >= WIN


def test_the_bonus_reaches_only_the_moves_in_the_slots():
    game, states = play_positions("swish", games=1, seed=4)
    state = states[10]
    obs = HexRookEnv.observe_state(game, state, state.to_move)
    x = extend(game, obs, "now")
    net = FeatureNet(game, obs.size, game.num_actions, "now")
    with torch.no_grad():
        torch.nn.init.constant_(net.bonus[2].bias, 5.0)  # every listed move gets about +5
        logits, _ = net(torch.as_tensor(x)[None])
        plain, _ = net.trunk(torch.as_tensor(x[: obs.size + PLANES * game.hex.n])[None])
    moved = (logits - plain).abs()[0] > 1e-3
    assert np.flatnonzero(moved.numpy()).tolist() == np.flatnonzero(game.legal_mask(state)).tolist()
    slots = x[obs.size + PLANES * game.hex.n :].reshape(MAX_MOVES, -1)
    assert (slots[np.count_nonzero(slots[:, 0] >= 0) :, 0] == -1).all()
