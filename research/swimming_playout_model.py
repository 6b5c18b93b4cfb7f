"""Swimming's hard opponent: does a play-out model of the others' swaps closer to the mediums' win more?

The shipped search (``policies/rollouts.py``) plays every seat of its play-outs, its own included, as the
easy bot swaps (the swap that raises the score most, else pass), with the network timing the knocks. The
mediums it plays against choose their swaps otherwise: they value a hand as its score plus 0.6 times the mean
gain of one more swap with a card that can still come (``MediumBot.value``), keep their best-valued swaps,
then pick among those by play-outs of their own. Knowing the hands took the search from 24% to 59.5%, and
timing the knocks as the network does from 43.5% to 59.5% (``results/2026-11-swimming-bound.md``): the
play-out model matters. This study asks whether the swaps matter too.

* ``agreement``: at the play-phase moves of seeded games of four mediums, how often each play-out model of a
  swap (easy's greedy score; the greedy value below) makes the medium's own move, the knocks left out (the
  network times those); beside them the greedy value over medium's own unknown cards, and the hard's network.
* ``series``: the shipped hard with the play-out model ``value`` (the swap or pass of the highest value
  ``score2 + 0.6 * mean gain of one more swap``, the mean taken over the 29 cards not in the hand: a table
  lookup, as cheap as easy's) against three mediums, 4 players, on the duplicate deals of the shipped row
  (``swgym eval swimming hard medium medium medium --rule num_players=4 --games 2000 --seed 1``)::

    python -m research.swimming_playout_model agreement --games 100 --seed 5
    python -m research.swimming_playout_model series --games 2000 --seed 1 --jobs 2 --parts DIR --json F

* ``compare``: two models' series on the same games, part by part from their ``--parts`` (each part's deals are
  the same for both): the difference of their wins, with a 95% interval from the spread of the parts'
  differences (a paired comparison: the luck of the deals is shared)::

    python -m research.swimming_playout_model compare --seed 1 --parts DIR --models value easy [--plot F.png]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import re
import sys
import time
from pathlib import Path

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):  # one BLAS thread, as swgym plays (before numpy loads)
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402

from envs.core.match import turns  # noqa: E402
from envs.play import SeriesResult, merge_series, play_series  # noqa: E402
from envs.registry import make_raw  # noqa: E402
from envs.swimming.bots import KNOCK_AT, EasyBot, MediumBot, after, seat_view, swap_scores  # noqa: E402
from envs.swimming.rules import BINGO2, CHOICE, KNOCK, NUM_CARDS, PASS, SCORE2, SWAP_ALL, score2  # noqa: E402
from policies import load  # noqa: E402
from policies.evaluation import mean_interval, wilson_interval  # noqa: E402
from research.processes import run_jobs  # noqa: E402


def value_table(weight: float = MediumBot.potential_weight) -> np.ndarray:
    """``score2 + weight * mean gain of one more swap`` of every ordered triple (indexed like ``SCORE2``), the mean
    over the cards not in the hand: medium's ``value`` with every other card taken as one that can still come."""
    score = np.array(SCORE2, dtype=np.float64).reshape(NUM_CARDS, NUM_CARDS, NUM_CARDS)
    cards = np.arange(NUM_CARDS)
    a, b, c = np.meshgrid(cards, cards, cards, indexing="ij")
    gain = np.zeros(score.shape)
    for u in range(NUM_CARDS):
        best = np.maximum(np.maximum(score[u, b, c], score[a, u, c]), score[a, b, u])
        outside = (a != u) & (b != u) & (c != u)
        gain += np.where(outside, np.maximum(best - score, 0.0), 0.0)
    return (score + weight * gain / (NUM_CARDS - 3)).reshape(-1)


VALUE2 = value_table().tolist()


def value_of(hand: list[int]) -> float:
    a, b, c = hand
    return VALUE2[a << 10 | b << 5 | c]


class ValueGreedyBot(EasyBot):
    """Easy's play-out bot with medium's valuation: Bingo or Fire at once, else the swap or pass of the highest
    value (``VALUE2``); knocks at 30 and keeps the dealer's lot as easy does."""

    def choose(self, state, mask: np.ndarray) -> int:
        if state.phase == CHOICE:
            return super().choose(state, mask)
        hand, middle = state.hands[state.to_move], state.middle
        if mask[KNOCK] and score2(hand) >= KNOCK_AT:
            return KNOCK
        for action, score in enumerate(swap_scores(hand, middle)):
            if score >= BINGO2:
                return action  # Bingo or Fire ends the round at once
        return self.pick_best([PASS, *range(SWAP_ALL + 1)], [value_of(hand), *swap_scores(hand, middle, VALUE2)])


PLAYOUT_BOTS = {"easy": EasyBot, "value": ValueGreedyBot}


def agreement(games: int, seed: int) -> dict[str, float | int]:
    """Share of the mediums' play-phase moves (knocks left out) each play-out model makes too."""
    env = make_raw("swimming", num_players=4)
    rules = env.game
    mediums = [MediumBot(rules, seed=seed * 10 + s) for s in range(4)]
    models = {name: bot(rules, seed=seed) for name, bot in PLAYOUT_BOTS.items()}
    same = dict.fromkeys(models, 0)
    network = load("swimming", "hard", num_players=4)
    exact_value_same, network_same, moves = 0, 0, 0
    for g in range(games):
        env.reset(seed=seed * 100_003 + g)
        for agent in turns(env):
            state = env.game_state
            seat = env.agent_seat[agent]
            mask = env.observe(agent)["action_mask"].astype(bool)
            move = mediums[seat].choose(state, mask)
            if state.phase != CHOICE and move != KNOCK:
                moves += 1
                no_knock = mask.copy()
                no_knock[KNOCK] = False
                for name, model in models.items():
                    same[name] += model.choose(state, no_knock) == move
                observation = network.observe(rules, state, seat)[None]
                logits = np.where(no_knock, network.policy.logits(observation)[0], -np.inf)
                network_same += int(np.argmax(logits)) == move
                view = seat_view(rules, state, seat)
                options = [PASS, *range(SWAP_ALL + 1)]
                exact = [
                    mediums[seat].value(view.hand if a == PASS else after(view.hand, view.middle, a), view.unknown)
                    for a in options
                ]
                exact_value_same += options[int(np.argmax(exact))] == move
            env.step(move)
    shares: dict[str, float | int] = {name: n / moves for name, n in same.items()}
    shares["value, medium's own unknown cards"] = exact_value_same / moves
    shares["the hard's network (its favourite move)"] = network_same / moves
    shares["moves"] = moves
    return shares


def compare(parts: str, models: list[str], seed: int) -> dict:
    """Print and return the two models' wins part by part, and the paired difference over the parts both played."""
    if not Path(parts).is_dir():
        raise SystemExit(f"compare: --parts {parts} is not a folder of kept parts")
    a, b = models
    wins_a, wins_b = part_wins(parts, a, seed), part_wins(parts, b, seed)
    both = sorted(set(wins_a) & set(wins_b))
    if not both:
        raise SystemExit(f"compare: no part (seed {seed}) in {parts} was played by both {a} and {b}")
    overlapping = [(k, n) for k, n in zip(both, both[1:]) if n[0] <= k[1]]
    if overlapping:  # parts of series of other lengths: their games would be counted twice
        raise SystemExit(f"compare: parts of games {overlapping[0][0]} and {overlapping[0][1]} in {parts} overlap")
    played = sum(last + 1 - first for first, last in both)
    print(f"games      {a:>6} {b:>6}")
    for first, last in both:
        print(f"{first:4d}-{last:<4d}  {wins_a[first, last]:6d} {wins_b[first, last]:6d}")
    total_a, total_b = sum(wins_a[k] for k in both), sum(wins_b[k] for k in both)
    paired = paired_difference([wins_a[k] for k in both], [wins_b[k] for k in both], played)
    low, high = paired["ci95"]
    print(
        f"{played} games: {a} {total_a} ({total_a / played:.1%}), {b} {total_b} ({total_b / played:.1%}); "
        f"{a} - {b}: {paired['difference']:+.1%} (95% {low:+.1%} to {high:+.1%}, paired over {len(both)} parts)"
    )
    record = {"models": models, "games": played, "wins": [total_a, total_b], "paired": paired}
    record["parts"] = [[first, last, wins_a[first, last], wins_b[first, last]] for first, last in both]
    return record


def plot_compare(record: dict, path: str, goal: float = 0.30) -> None:
    """Each model's share of wins over the games so far, part by part, beside the goal and a fair share (25%)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parts = np.asarray(record["parts"], dtype=float)
    games = np.cumsum(parts[:, 1] + 1 - parts[:, 0])
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for column, model, colour in ((2, record["models"][0], "tab:blue"), (3, record["models"][1], "tab:grey")):
        ax.plot(games, np.cumsum(parts[:, column]) / games, "o-", color=colour, ms=3, label=f"play-outs: {model}")
    ax.axhline(goal, color="tab:green", ls="--", lw=1, label=f"goal {goal:.0%}")
    ax.axhline(0.25, color="black", ls=":", lw=1, label="fair share 25%")
    ax.set_xlabel("games (duplicate deals, the same for both)")
    ax.set_ylabel("the hard's share of wins so far")
    ax.set_ylim(0.2, 0.35)
    ax.set_title("Swimming's hard against three mediums, by its play-out model", fontsize=9)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _series(job: tuple[str, int, int, int, str | None]) -> SeriesResult:
    """Games ``first .. first + games - 1`` of the series; kept in (and, when there, read from) ``parts``."""
    model, seed, first, games, parts = job
    kept = Path(parts) / f"{model}_seed{seed}_games{first}-{first + games - 1}.json" if parts else None
    if kept is not None and kept.exists():
        return SeriesResult(**json.loads(kept.read_text()))
    hard = load("swimming", "hard", num_players=4)
    hard.playout_bot = PLAYOUT_BOTS[model](hard.game, seed=seed)
    result = play_series(
        "swimming", [hard, "medium", "medium", "medium"], games, seed=seed, first_game=first, num_players=4
    )
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        record = dataclasses.asdict(result)  # the hard's think times only: the mediums' would make the file 4x
        record["move_seconds"] = [[round(t, 4) for t in result.move_seconds[0]]] + [[] for _ in range(3)]
        kept.write_text(json.dumps(record))
    return result


def part_wins(parts: str, model: str, seed: int) -> dict[tuple[int, int], int]:
    """{(first game, last game): the hard's wins} of each part of ``model``'s series (``seed``) kept in ``parts``."""
    pattern = re.compile(rf"{re.escape(model)}_seed{seed}_games(\d+)-(\d+)\.json")
    wins = {}
    for kept in Path(parts).iterdir():
        match = pattern.fullmatch(kept.name)
        if match:
            wins[int(match[1]), int(match[2])] = json.loads(kept.read_text())["wins"][0]
    return wins


def _part_bounds(games: int, jobs: int) -> list[tuple[int, int]]:
    """(first, last) game of each part of a series: whole deals of 4 games, parts of about 100 games."""
    deals = games // 4
    parts = min(deals, max(jobs, deals // 25))
    bounds = np.linspace(0, deals, parts + 1).astype(int) * 4
    return [(int(a), int(b) - 1) for a, b in zip(bounds[:-1], bounds[1:])]


def t_quantile_975(df: int) -> float:
    """Student's t distribution's 97.5% point for ``df`` degrees of freedom (its density integrated; no scipy)."""
    x = np.linspace(0.0, 60.0, 600001)
    log_scale = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    density = np.exp(log_scale - (df + 1) / 2 * np.log1p(x * x / df))
    cdf = 0.5 + np.concatenate([[0.0], np.cumsum((density[1:] + density[:-1]) / 2 * np.diff(x))])
    return float(x[np.searchsorted(cdf, 0.975)])


def paired_difference(wins_a: list[int], wins_b: list[int], games: int) -> dict[str, float]:
    """A's share of wins minus B's over the same parts, with a 95% interval from the parts' differences (t)."""
    n = len(wins_a)
    if n < 2:
        raise ValueError(f"a paired comparison needs at least 2 parts both models played, got {n}")
    per_part = mean_interval([a - b for a, b in zip(wins_a, wins_b)], critical=t_quantile_975(n - 1))
    difference, low, high = (value * n / games for value in per_part)  # wins a part -> share of all the games
    return {"difference": difference, "ci95": [low, high], "parts": n}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["agreement", "series", "compare"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model", choices=sorted(PLAYOUT_BOTS), default="value", help="series: the play-out model")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", metavar="PATH")
    parser.add_argument("--parts", metavar="DIR", help="series: keep each part's games there, and resume from them")
    parser.add_argument("--plot", metavar="PATH", help="compare: draw both models' share of wins over the games (.png)")
    parser.add_argument("--models", nargs=2, choices=sorted(PLAYOUT_BOTS), help="compare: the two play-out models")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be >= 1")
    started = time.time()
    if args.what == "compare" and (not args.parts or not args.models):
        parser.error("compare needs --parts DIR and --models A B")
    if args.what != "compare" and (args.plot or args.models):
        parser.error("--plot and --models are for compare")
    if args.what == "series" and args.games % 4:
        parser.error("series: --games must be whole deals of 4 games")
    if args.what == "compare":
        record = compare(args.parts, args.models, args.seed)
        if args.plot:
            plot_compare(record, args.plot)
    elif args.what == "agreement":
        record: dict = {"agreement": agreement(args.games, args.seed)}
        print(json.dumps(record["agreement"], indent=1))
    else:
        bounds = _part_bounds(args.games, args.jobs)
        parts = len(bounds)
        jobs = [(args.model, args.seed, first, last + 1 - first, args.parts) for first, last in bounds]

        def progress(done: int, part) -> None:
            line = f"{time.strftime('%H:%M:%S')} part {done} of {parts}: {part.wins[0]} wins of {part.games}"
            print(line, flush=True)

        result = merge_series(run_jobs(_series, jobs, args.jobs, on_result=progress))
        wins = result.wins[0]
        low, high = wilson_interval(wins, args.games)
        seconds = result.move_seconds[0]
        record = {
            "model": args.model,
            "games": args.games,
            "seed": args.seed,
            "wins": wins,
            "win_rate": wins / args.games,
            "win_ci95": [low, high],
            "median_move_s": float(np.median(seconds)),
            "max_move_s": float(np.max(seconds)),
        }
        print(
            f"hard, play-out model {args.model}, against three mediums: {wins} of {args.games} "
            f"({wins / args.games:.1%}, 95% {low:.1%}-{high:.1%}); wall s a move median "
            f"{record['median_move_s']:.3f}, max {record['max_move_s']:.3f}"
        )
    record["command"] = ["python", "-m", "research.swimming_playout_model", *(argv or sys.argv[1:])]
    record["seconds"] = round(time.time() - started, 1)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(record, out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
