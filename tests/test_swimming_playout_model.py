"""research/swimming_playout_model.py: the value table is medium's valuation, and the value play-out bot plays by it."""

import json

import numpy as np
import pytest

from envs.registry import make_raw
from envs.swimming.bots import MediumBot, after
from envs.swimming.rules import BINGO2, CHOICE, KEEP_LOT, KNOCK, PASS, PLAY, SWAP_ALL, score2
from research.swimming_playout_model import (
    ValueGreedyBot,
    compare,
    paired_difference,
    plot_compare,
    t_quantile_975,
    value_of,
)


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


@pytest.mark.parametrize(("df", "table"), [(1, 12.706), (5, 2.571), (19, 2.093), (1000, 1.962)])
def test_the_t_quantile_is_the_tables(df, table):
    assert t_quantile_975(df) == pytest.approx(table, abs=1e-3)


def test_the_paired_difference_is_the_mean_part_difference_with_a_t_interval():
    paired = paired_difference([30, 20, 25], [28, 22, 20], games=300)
    # differences 2, -2, 5: sum 5, sd 3.512; half width t(2) * sd * sqrt(3) / 300
    assert paired["difference"] == pytest.approx(5 / 300)
    half = 4.303 * 3.5119 * 3**0.5 / 300
    assert paired["ci95"] == pytest.approx([5 / 300 - half, 5 / 300 + half], abs=1e-4)
    with pytest.raises(ValueError, match="at least 2 parts"):
        paired_difference([3], [2], games=100)


def _keep_part(folder, model, first, last, wins):
    record = {"wins": [wins, 0, 0, 0], "games": last + 1 - first}
    (folder / f"{model}_seed1_games{first}-{last}.json").write_text(json.dumps(record))


def test_compare_pairs_the_parts_both_models_played(tmp_path, capsys):
    for first, value_wins, easy_wins in [(0, 30, 25), (100, 20, 24), (200, 28, 20)]:
        _keep_part(tmp_path, "value", first, first + 99, value_wins)
        _keep_part(tmp_path, "easy", first, first + 99, easy_wins)
    _keep_part(tmp_path, "value", 300, 399, 99)  # easy has not played it: left out
    (tmp_path / "value_seed2_games0-99.json").write_text(json.dumps({"wins": [99, 0, 0, 0]}))  # another seed's
    record = compare(str(tmp_path), ["value", "easy"], seed=1)
    assert record["games"] == 300 and record["wins"] == [78, 69]
    assert record["paired"]["difference"] == pytest.approx(9 / 300)
    assert "value 78 (26.0%), easy 69 (23.0%)" in capsys.readouterr().out
    assert record["parts"] == [[0, 99, 30, 25], [100, 199, 20, 24], [200, 299, 28, 20]]
    plot_compare(record, str(tmp_path / "compare.png"))
    assert (tmp_path / "compare.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(SystemExit, match="played by both"):
        compare(str(tmp_path), ["value", "easy"], seed=2)
    _keep_part(tmp_path, "value", 0, 199, 50)  # a part of a longer series would count games 0-199 twice
    _keep_part(tmp_path, "easy", 0, 199, 49)
    with pytest.raises(SystemExit, match="overlap"):
        compare(str(tmp_path), ["value", "easy"], seed=1)
    with pytest.raises(SystemExit, match="not a folder"):
        compare(str(tmp_path / "missing"), ["value", "easy"], seed=1)
