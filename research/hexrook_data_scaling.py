"""Would more search-labelled positions make the Swish/Squeeze network alone beat medium?

The networks alone lose to medium in Swish and Squeeze after imitating the
compiled search on 45k of its moves, with or without the captures on the board
as inputs (``results/2026-11-hexrook-capture-features.md``). The route left
untried was more of the teacher's moves: hours of recording, one board at a
time. This study measures the trend that would have to continue: the same
networks trained on the first 1/8, 1/4, 1/2 and all of the recorded positions
(and on more, recorded here with another seed), each scored greedy against
medium.

    python -m research.hexrook_data_scaling --game swish --teacher FILE --data DIR \\
        [--more-games 6000] [--sizes 0.125,0.25,0.5,1,all] [--features now,none] [--eval-games 400]

``--data`` holds the capture-features study's ``train.npz`` and
``heldout.npz``. With ``--more-games N`` the teacher's games of seed
``--more-seed`` are recorded into ``more_<seed>_<N>.npz`` there (once; kept
for later runs) and follow ``train.npz`` in the pool. A size is a multiple of
``train.npz``'s positions: the pool's first that many positions, in recorded
order; ``all`` is the whole pool. Every network is trained with the same settings (epochs, batch, seed)
and held out on the same positions. Runs already in the report are kept, so
a stopped study resumes (and a finished one run again redraws its plot).
Writes ``<out>/<game>.json`` and ``<game>.png``, by default under
``results/2026-11-hexrook-data-scaling/``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from research.hexrook_capture_features import (
    add_data_arguments,
    add_training_arguments,
    check_data,
    checked_training_arguments,
    fit_and_score,
    load,
    save,
    with_features,
)
from research.hexrook_conv_imitation import join, record
from training.imitation import Demonstrations

OUT = Path("results/2026-11-hexrook-data-scaling")
TARGET = 0.75  # the score of the network alone against medium
RECORDED_SEEDS = (0, 10_007)  # the seeds of train.npz and heldout.npz (the capture-features study's --record)


def first(demos: Demonstrations, rows: int) -> Demonstrations:
    """The first ``rows`` positions of ``demos``."""
    return Demonstrations(*(getattr(demos, f.name)[:rows] for f in dataclasses.fields(Demonstrations)))


def pool(args: argparse.Namespace, demos: Demonstrations) -> Demonstrations:
    """``demos`` (``train.npz``), followed by the teacher's ``--more-games`` games of seed ``--more-seed``
    (recorded once)."""
    if not args.more_games:
        return demos
    path = args.data / f"more_{args.more_seed}_{args.more_games}.npz"
    if not path.exists():
        clock = time.time()
        more = record(args.game, {"setup": "random"}, args.teacher, args.more_games, args.more_seed, args.jobs)
        save(more, path)
        print(f"[{args.game}] recorded {len(more)} positions in {time.time() - clock:.0f} s: {path}", flush=True)
    return join([demos, load(path)])


def draw_wins(ax: Any, runs: list[dict[str, Any]], eval_games: int, **style: Any) -> np.ndarray:
    """Each run's greedy wins against medium (%, returned) with its 95% bars, at its count of the teacher's moves."""
    x = [r["teacher_positions"] for r in runs]
    wins = np.array([100 * r["vs_medium"]["wins"] / eval_games for r in runs])
    low = wins - [100 * r["vs_medium"]["wins_interval"][0] for r in runs]
    high = [100 * r["vs_medium"]["wins_interval"][1] for r in runs] - wins
    ax.errorbar(x, wins, yerr=[low, high], marker="o", capsize=3, **style)
    return wins


def draw_levels(ax: Any) -> None:
    """The issue's target and medium's level, across a wins-against-medium plot."""
    ax.axhline(100 * TARGET, color="grey", ls=":", label=f"target (score {TARGET})")
    ax.axhline(50, color="grey", ls="--", lw=0.8, label="medium's level")


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (wins_ax, agree_ax) = plt.subplots(1, 2, figsize=(10, 4))
    ticks = set()
    for features, colour in zip(sorted({r["features"] for r in report["runs"]}), ("tab:blue", "tab:orange")):
        runs = sorted((r for r in report["runs"] if r["features"] == features), key=lambda r: r["teacher_positions"])
        x = [r["teacher_positions"] for r in runs]
        ticks |= set(x)
        label = "plain MLP" if features == "none" else f"inputs: {features}"
        draw_wins(wins_ax, runs, report["eval_games"], color=colour, label=label)
        agree_ax.plot(x, [100 * r["heldout_agreement"] for r in runs], marker="o", color=colour, label=label)
    draw_levels(wins_ax)
    for ax in (wins_ax, agree_ax):
        ax.set_xscale("log", base=2)
        ax.set_xticks(sorted(ticks), [f"{t / 1000:.1f}k" for t in sorted(ticks)], fontsize=8)
        ax.minorticks_off()
        ax.set_xlabel("the teacher's moves trained on")
        ax.legend(fontsize=8)
    wins_ax.set_ylabel("greedy wins against medium (%, 95% bars)")
    wins_ax.set_ylim(0, 100)
    agree_ax.set_ylabel("held-out agreement with the teacher (%)")
    fig.suptitle(f"{report['game']}: the network alone by training data ({report['eval_games']} games a point)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_arguments(parser)
    parser.add_argument("--more-games", type=int, default=0, help="the teacher's games recorded beyond train.npz")
    parser.add_argument("--more-seed", type=int, default=1, help="their seed (not train.npz's 0 or heldout's 10007)")
    parser.add_argument("--sizes", default="0.125,0.25,0.5,1", help="multiples of train.npz's positions; all: the pool")
    add_training_arguments(parser, features="now,none", eval_games=400)
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the report and plot")
    args = parser.parse_args(argv)
    sets = checked_training_arguments(parser, args)
    words = args.sizes.split(",")
    try:
        numbers = {float(size) for size in words if size != "all"}
    except ValueError:
        parser.error(f"--sizes: comma-separated positive numbers or all, got {args.sizes!r}")
    if any(size <= 0 for size in numbers):
        parser.error(f"--sizes: every size must be > 0, got {args.sizes!r}")
    if args.more_games < 0:
        parser.error("--more-games must be >= 0")
    if args.more_seed in RECORDED_SEEDS:
        parser.error(f"--more-seed {args.more_seed} would record train.npz's or heldout.npz's games again")
    check_data(parser, args.data)
    base = load(args.data / "train.npz")
    base_rows = len(base)
    demos, held = pool(args, base), load(args.data / "heldout.npz")
    sizes = sorted(numbers | ({len(demos) / base_rows} if "all" in words else set()))
    if round(sizes[-1] * base_rows) > len(demos):
        parser.error(
            f"--sizes: {sizes[-1]} x {base_rows} positions is more than the pool's {len(demos)}; "
            "record more with --more-games, or name the whole pool: all"
        )
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{args.game}.json"
    report: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {"runs": []}
    report |= {"game": args.game, "teacher": args.teacher, "eval_games": args.eval_games, "base_positions": base_rows}
    report["args"] = vars(args) | {"data": str(args.data), "out": str(args.out)}
    done = {(r["features"], r["positions"]) for r in report["runs"]}
    torch.set_num_threads(1)
    wanted = [round(size * base_rows) for size in sizes]
    for features in sets:
        if all((features, rows) in done for rows in wanted):
            continue
        clock = time.time()
        train_all, held_set = (with_features(args.game, d, features, args.jobs) for d in (demos, held))
        print(f"[{args.game}/{features}] features of the pool, {time.time() - clock:.0f} s", flush=True)
        for size, rows in zip(sizes, wanted):
            if (features, rows) in done:
                continue
            train_set = first(train_all, rows)
            _, run = fit_and_score(args.game, features, train_set, held_set, args, f"{args.game} x{size:g}")
            last = run["history"][-1]
            report["runs"].append(
                {
                    "features": features,
                    "size": size,
                    "positions": rows,
                    "teacher_positions": int(train_set.by_teacher.sum()),
                    "heldout_agreement": last["heldout_agreement"],
                    "train_agreement": last["train_agreement"],
                }
                | run
            )
            path.write_text(json.dumps(report, indent=2))
    plot(report, args.out / f"{args.game}.png")  # a finished study run again only draws its plot again


if __name__ == "__main__":
    main()
