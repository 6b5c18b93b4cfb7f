"""Would Swimming's hard opponent choose better moves with more deals? Its choices, scored by a search told the hands.

Positions: the moves of seat 0 in games of the shipped hard against three mediums (4 players) at which its
search has more than one candidate. At each, these searches choose a move:

* the shipped search with 1x, 2x and 4x its deals (``samples`` and ``belief_deals`` both scaled);
* the shipped search told every hidden hand, at 1x (only the stock order drawn, no weighing of deals).

A referee, the search told the hands with ``--referee`` deals of the stock, scores every candidate (the
share of play-outs in which the mover loses the round, less the small margin term). A choice's regret is
its score minus the best candidate's. If more deals lower the regret little while knowing the hands lowers
it much, the number of deals is not what keeps the hard from winning more::

    python -m research.swimming_deals --positions 600 --seed 3 --jobs 2 [--json F] [--plot F.png]

Every position is searched with seeds drawn from ``--seed`` and its number, so the figures do not depend on
``--jobs``. The figures: ``results/2026-11-swimming-deals.md``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import numpy as np

from envs.swimming.rules import PLAY, SwimmingState
from policies import load
from policies.evaluation import mean_interval, progress_printer
from policies.rollouts import RolloutSearch
from research.processes import run_jobs
from research.swimming_bound import told_the_hands
from research.swimming_reading import against_mediums

DEAL_FACTORS = (1, 2, 4)
TOLD = "told the hands, x1"


def arm_name(factor: int) -> str:
    return f"deals x{factor}"


def searchers(referee_deals: int) -> tuple[dict[str, RolloutSearch], RolloutSearch]:
    """({arm name: its search}, the referee); each its own load, so telling one the hands leaves the rest."""
    arms = {}
    for factor in DEAL_FACTORS:
        search = load("swimming", "hard", num_players=4)
        search.samples *= factor
        search.belief_deals *= factor
        arms[arm_name(factor)] = search
    arms[TOLD] = told_the_hands(load("swimming", "hard", num_players=4))
    referee = told_the_hands(load("swimming", "hard", num_players=4))
    referee.samples = referee_deals
    return arms, referee


class Recorder:
    """Seat 0: plays as the shipped hard and keeps (state, observation, mask) where its search has a choice."""

    def __init__(self, wanted: int) -> None:
        self.player = load("swimming", "hard", num_players=4)
        self.wanted = wanted
        self.positions: list[tuple[SwimmingState, np.ndarray, np.ndarray]] = []

    def reset(self, seed: int | None = None) -> None:
        self.player.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: SwimmingState) -> int:
        if state.phase == PLAY and len(self.positions) < self.wanted:
            moves, _ = self.player.candidates(observation, action_mask)
            if len(moves) > 1:
                rules = self.player.game
                self.positions.append((rules.copy_state(state), observation.copy(), np.asarray(action_mask).copy()))
        return self.player.act(observation, action_mask, state)


def positions(count: int, seed: int) -> list[tuple[SwimmingState, np.ndarray, np.ndarray]]:
    """``count`` positions of seat 0 from seeded games of the shipped hard against three mediums."""
    recorder = Recorder(count)
    against_mediums(recorder, recorder.player.game, seed, done=lambda: len(recorder.positions) >= count)
    return recorder.positions


_SEARCHERS: dict[int, tuple[dict[str, RolloutSearch], RolloutSearch]] = {}  # by the referee's deals


def measure(job: tuple[int, int, int, tuple[SwimmingState, np.ndarray, np.ndarray]]) -> dict[str, Any]:
    """One position: each arm's choice, its regret under the referee's scores and its CPU seconds."""
    seed, referee_deals, index, (state, observation, mask) = job
    if referee_deals not in _SEARCHERS:  # built once per process
        _SEARCHERS[referee_deals] = searchers(referee_deals)
    arms, referee = _SEARCHERS[referee_deals]
    seeds = np.random.default_rng([seed, index]).integers(2**31, size=len(arms) + 1).tolist()
    referee.reset(seeds[-1])
    referee.best_move(state, observation, mask)
    scores = dict(referee.scores)
    best = min(scores.values())
    out: dict[str, Any] = {"index": index, "scores": {str(a): s for a, s in scores.items()}, "arms": {}}
    for (name, search), arm_seed in zip(arms.items(), seeds):
        search.reset(arm_seed)
        started = time.process_time()
        choice = search.best_move(state, observation, mask)
        seconds = time.process_time() - started
        if choice not in scores:
            raise RuntimeError(f"{name} chose {choice}, not a candidate of the referee {sorted(scores)}")
        out["arms"][name] = {"move": choice, "regret": scores[choice] - best, "cpu_s": seconds}
    return out


def summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per arm: mean regret (95% interval), its difference from x1 paired by position, share of the referee's
    best moves chosen, median CPU seconds a move."""
    base = [r["arms"][arm_name(1)]["regret"] for r in rows]
    table = []
    for name in rows[0]["arms"]:
        regrets = [r["arms"][name]["regret"] for r in rows]
        mean, low, high = mean_interval(regrets)
        diff, diff_low, diff_high = mean_interval([a - b for a, b in zip(regrets, base)])
        table.append(
            {
                "arm": name,
                "positions": len(rows),
                "mean_regret": mean,
                "regret_ci95": [low, high],
                "minus_x1": diff,
                "minus_x1_ci95": [diff_low, diff_high],
                "best_move_share": float(np.mean([r == 0.0 for r in regrets])),
                "median_cpu_s": statistics.median(r["arms"][name]["cpu_s"] for r in rows),
            }
        )
    return table


def plot(table: list[dict[str, Any]], path: str) -> None:
    """Each arm's mean regret (95% interval) against its median CPU seconds a move."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    for t in table:
        low, high = t["regret_ci95"]
        told = t["arm"] == TOLD
        ax.errorbar(
            t["median_cpu_s"], t["mean_regret"], yerr=[[t["mean_regret"] - low], [high - t["mean_regret"]]],
            fmt="s" if told else "o", color="tab:green" if told else "tab:blue", capsize=4,
        )  # fmt: skip
        ax.annotate(t["arm"], (t["median_cpu_s"], t["mean_regret"]), textcoords="offset points", xytext=(6, 6))
    ax.axvline(1.0, color="tab:red", ls="--", lw=1, label="1 s a move")
    ax.set_xlabel("median CPU seconds a move")
    ax.set_ylabel("mean regret (share of rounds lost)")
    ax.set_ylim(bottom=0)
    ax.set_title(f"Swimming's hard search, {table[0]['positions']} positions: more deals or the hands", fontsize=9)
    ax.legend(loc="center right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--referee", type=int, default=768, help="deals of the stock the referee plays out")
    parser.add_argument("--jobs", type=int, default=1, help="processes (the same figures for any number)")
    parser.add_argument("--json", help="save every position's choices and the summary here")
    parser.add_argument("--plot", metavar="PATH", help="draw the arms' regret against their CPU time (a .png)")
    parser.add_argument("--replot", metavar="JSON", help="only draw --plot from a saved --json")
    args = parser.parse_args(argv)
    if args.replot:
        if not args.plot:
            parser.error("--replot needs --plot")
        with open(args.replot) as f:
            plot(json.load(f)["summary"], args.plot)
        return
    if min(args.positions, args.referee, args.jobs) < 1:
        parser.error("--positions, --referee and --jobs must be >= 1")
    started = time.time()
    found = positions(args.positions, args.seed)
    print(f"{len(found)} positions recorded in {time.time() - started:.0f} s")
    jobs = [(args.seed, args.referee, i, p) for i, p in enumerate(found)]
    progress = progress_printer(len(jobs), "positions")
    rows = run_jobs(measure, jobs, args.jobs, on_result=lambda done, _row: progress(done), chunksize=4)
    table = summary(rows)
    print(f"{'arm':<20} {'mean regret':>12} {'95% CI':>20} {'minus x1':>10} {'95% CI':>20} {'best':>6} {'cpu s':>6}")
    for t in table:
        print(
            f"{t['arm']:<20} {t['mean_regret']:>12.4f} {str([round(v, 4) for v in t['regret_ci95']]):>20} "
            f"{t['minus_x1']:>10.4f} {str([round(v, 4) for v in t['minus_x1_ci95']]):>20} "
            f"{t['best_move_share']:>6.1%} {t['median_cpu_s']:>6.3f}"
        )
    print(f"{time.time() - started:.0f} s in all")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "summary": table, "positions": rows}, f, indent=1)
    if args.plot:
        plot(table, args.plot)


if __name__ == "__main__":
    main()
