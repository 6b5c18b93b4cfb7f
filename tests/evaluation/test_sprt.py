"""Sequential tests (policies/sprt.py, swgym eval --sprt): fishtest's numbers, and by simulation: on two equal
players H1 is accepted about alpha of the time; a clearly stronger player is told apart early."""

import numpy as np
import pytest

from policies.sprt import SprtSeries, SprtTest, bounds, counts, llr, run_sprt


@pytest.mark.parametrize(
    "tally,elo0,elo1,expected",
    [  # the values of fishtest's own LLRcalc.LLR_logistic on these counts
        ([10789, 19328, 33806, 19402, 10543], -3, 1, 2.131067811785043),  # stat_util's example, pentanomial
        ([65804, 56553, 65388], -3, 1, 2.049042617981811),  # the same test's losses, draws, wins
        ([3, 10, 20, 12, 5], 0, 10, 0.24458907711259723),
        ([0, 4, 7], 0, 50, 1.4691446802277195),  # an empty count: fishtest's small prior
    ],
)
def test_the_llr_is_fishtests(tally, elo0, elo1, expected):
    assert llr(tally, elo0, elo1) == pytest.approx(expected, rel=1e-9)


def test_bounds_and_counts():
    assert bounds(0.05, 0.05) == pytest.approx((-2.944439, 2.944439))
    scores = [1, 0, 0.5, 0.5, 1, 1, 0, 0]
    assert counts(scores, paired=False) == [3, 2, 3]
    assert counts(scores, paired=True) == [1, 0, 2, 0, 1]  # pair scores: 1, 1, 2, 0


def simulate(pair_probs, test, rng, step=10, max_pairs=3000):
    """One sequential test on pairs drawn from ``pair_probs`` (pair scores 0, 1/4 ... 1): (decision, pairs)."""
    tally = np.zeros(5, dtype=int)
    while tally.sum() < max_pairs:
        tally += rng.multinomial(step, pair_probs)
        _, decision = test.state(tally.tolist())
        if decision:
            return decision, int(tally.sum())
    return "", int(tally.sum())


def test_equal_players_accept_h1_about_alpha_of_the_time():
    test = SprtTest(0, 60)
    rng = np.random.default_rng(0)
    equal = [0.1, 0.2, 0.4, 0.2, 0.1]  # symmetric: an expected score of one half, Elo 0
    runs = [simulate(equal, test, rng) for _ in range(300)]
    accepted_h1 = sum(d == "H1" for d, _ in runs) / len(runs)
    assert all(d for d, _ in runs) and 0.01 <= accepted_h1 <= 0.10


def test_a_clearly_stronger_player_is_accepted_early():
    test = SprtTest(0, 60)
    rng = np.random.default_rng(1)
    stronger = [0.02, 0.08, 0.3, 0.3, 0.3]  # a pair score of 0.76 on average: about 200 Elo
    runs = [simulate(stronger, test, rng) for _ in range(100)]
    assert all(d == "H1" for d, _ in runs)
    assert np.mean([n for _, n in runs]) < 40  # pairs: far fewer than a fixed 400-game series


def test_swgym_eval_sprt_stops_and_resumes_from_its_checkpoint(tmp_path, capsys):
    from scripts.cli import main

    book = tmp_path / "sprt.json"
    argv = ["eval", "swival", "medium", "random", "--sprt", "0", "100", "--games", "200", "--sprt-step", "4",
            "--opening-plies", "2", "--checkpoint", str(book)]  # fmt: skip
    main(argv)
    first = capsys.readouterr().out
    assert "H1 accepted: medium is at least 100 Elo stronger" in first and "pentanomial" in first
    played = int(first.strip().splitlines()[-2].split()[1].rstrip(":"))
    assert played < 200
    main(argv)  # decided already: read from the file, nothing played again
    again = capsys.readouterr().out
    assert again.strip().splitlines()[0] == f"games {played}: " + first.strip().splitlines()[-2].split(": ", 1)[1]


def test_a_stopped_test_goes_on_where_it_was(tmp_path):
    series = SprtSeries("swival", ["easy", "random"], 40, seed=1, step=4, opening_plies=2)
    test = SprtTest(-400, 400, alpha=0.01, beta=0.01)
    whole, lines = run_sprt(series, test, {}, report=lambda line: None), []

    def stop_after_two(line):
        lines.append(line)
        if len(lines) == 2:
            raise KeyboardInterrupt

    book = tmp_path / "book.json"
    with pytest.raises(KeyboardInterrupt):
        run_sprt(series, test, {}, checkpoint=book, report=stop_after_two)
    resumed = []
    outcome = run_sprt(series, test, {}, checkpoint=book, report=resumed.append)
    assert resumed[0] == lines[1] and outcome == whole  # from the 8 games kept, to the same end
    with pytest.raises(ValueError, match="another series"):
        run_sprt(series, SprtTest(0, 400), {}, checkpoint=book)


def test_an_sprt_compares_two_players():
    with pytest.raises(ValueError, match="two players"):
        run_sprt(SprtSeries("swimming", ["medium"] * 4, 40), SprtTest(0, 10), {})
    with pytest.raises(ValueError, match="below"):
        SprtTest(10, 0)
