"""research/swimming_deals.py: its searches' budgets, the referee's regret and the paired summary."""

import pytest

from research.swimming_deals import TOLD, arm_name, measure, positions, searchers, summary


def test_arms_scale_the_deals_and_only_the_told_arm_sees_the_hands():
    arms, referee = searchers(referee_deals=50)
    for factor in (1, 2, 4):
        search = arms[arm_name(factor)]
        assert (search.samples, search.belief_deals) == (96 * factor, 384 * factor)
        assert "determinize" not in vars(search.game)  # the rules' own: it still draws the hidden cards
    for told in (arms[TOLD], referee):
        assert told.belief_deals == 0 and "determinize" in vars(told.game)  # replaced: keeps the true hands
    assert (arms[TOLD].samples, referee.samples) == (96, 50)


def test_a_position_is_measured_the_same_twice_and_regrets_are_scored_by_the_referee():
    position = positions(1, seed=5)[0]
    first, again = (measure((5, 48, 0, position)) for _ in range(2))
    strip = lambda row: (row["scores"], {name: arm["move"] for name, arm in row["arms"].items()})  # noqa: E731
    assert strip(first) == strip(again)
    best = min(first["scores"].values())
    for arm in first["arms"].values():
        assert arm["regret"] == pytest.approx(first["scores"][str(arm["move"])] - best)
        assert arm["regret"] >= 0


def test_summary_pairs_each_arm_with_x1_by_position():
    def row(x1, x2):
        return {"arms": {arm_name(1): {"regret": x1, "cpu_s": 1.0}, arm_name(2): {"regret": x2, "cpu_s": 2.0}}}

    table = {t["arm"]: t for t in summary([row(0.2, 0.1), row(0.0, 0.0), row(0.4, 0.3)])}
    assert table[arm_name(1)]["mean_regret"] == pytest.approx(0.2)
    assert table[arm_name(2)]["minus_x1"] == pytest.approx(-2 / 30)
    assert table[arm_name(2)]["best_move_share"] == pytest.approx(1 / 3)
    assert table[arm_name(2)]["median_cpu_s"] == 2.0
    low, high = table[arm_name(2)]["minus_x1_ci95"]
    assert low < -2 / 30 < high
