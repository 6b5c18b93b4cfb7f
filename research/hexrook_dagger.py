"""Does the Swish/Squeeze network alone gain more from the search labelling its own positions than from more of
the search's own games?

The networks alone imitate the compiled search on its own games and lose to
medium (``results/2026-11-hexrook-data-scaling.md``): each doubling of the
search's games adds a few points of wins. Imitation's known flaw is that the
apprentice is trained on the teacher's positions but plays its own: one
mistake leads it where it never saw the teacher play. DAgger (Ross et al.
2011), which is Expert Iteration's own loop (Anthony et al. 2017: the
apprentice's games, the expert's moves), fixes that: the apprentice plays,
the teacher labels every position the apprentice met, and the apprentice is
trained again on all labels so far.

Each round here:

1. the current network (greedy, with the capture inputs of
   :mod:`research.hexrook_capture_features`) plays ``--round-games`` games
   against medium, seats alternated; at each of its moves the teacher (a
   policy file with its search) is asked its move there;
2. a fresh network, with the same seed and settings, is trained on the
   teacher's games (``train.npz``) and every round's labelled positions so far;
3. it is scored greedy against medium (``--eval-games``), as in the other studies.

A round's network is also measured on the positions of its own games (the
next round's labels): how often its move there is the teacher's
(``own_agreement``), beside its agreement on the teacher's held-out games.

Round 0 is the network trained on ``train.npz`` alone. The comparison is the
data-scaling study's curve: the same network trained on as many of the
teacher's moves taken from its own games.

    python -m research.hexrook_dagger --game swish --teacher FILE --data DIR [--rounds 2] [--round-games 1500]

``--data`` holds ``train.npz`` and ``heldout.npz`` (the capture-features
study's recording); each round's labelled positions are kept there
(``dagger_<round>_<games>.npz``), and with them each round's network, so a
stopped study resumes at its next round (a study with other training settings
needs its own ``--data`` copy and ``--out``, or it reuses these). Writes ``<out>/<game>.json`` and
``<game>.png``, by default under ``results/2026-11-hexrook-dagger/``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from envs.opponents import make_opponent
from envs.play import play_game
from research.hexrook_capture_features import (
    FeatureGreedy,
    FeatureNet,
    add_data_arguments,
    add_training_arguments,
    check_data,
    checked_training_arguments,
    fit_and_score,
    load,
    save,
    with_features,
)
from research.hexrook_conv_imitation import agreement, join, rules
from research.hexrook_data_scaling import OUT as SCALING
from research.hexrook_data_scaling import draw_levels, draw_wins
from research.processes import run_jobs
from training.imitation import Demonstrations

OUT = Path("results/2026-11-hexrook-dagger")
CHUNK_GAMES = 50  # the apprentice's games, labelled in seeded chunks of this many
PARAMS = {"setup": "random"}


class Labelled:
    """The apprentice in its seat, keeping the teacher's move at each position the apprentice meets."""

    def __init__(self, apprentice: Any, teacher: Any) -> None:
        self.apprentice, self.teacher = apprentice, teacher
        self.rows: list[tuple[np.ndarray, np.ndarray, int]] = []

    def reset(self, seed: int | None = None) -> None:
        self.apprentice.reset(seed)
        self.teacher.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        label = int(self.teacher.act(observation, action_mask, state))
        self.rows.append((np.array(observation, dtype=np.float32), np.asarray(action_mask, dtype=bool), label))
        return self.apprentice.act(observation, action_mask, state)


def _label_chunk(task: tuple[str, dict[str, Any], str, str, int, int, list[int]]) -> Demonstrations:
    """The apprentice's games of one chunk against medium, each position labelled with the teacher's move."""
    name, weights, features, teacher, observation_size, num_actions, seeds = task
    torch.set_num_threads(1)
    game = rules(name, PARAMS)
    net = FeatureNet(game, observation_size, num_actions, features)
    net.load_state_dict(weights)
    net.eval()
    teacher_player = make_opponent(name, teacher, seed=seeds[0], **PARAMS)
    medium = make_opponent(name, "medium", seed=seeds[0], **PARAMS)
    parts = []
    for g, seed in enumerate(seeds):  # play_game resets each player from the game's seed
        player = Labelled(FeatureGreedy(game, net, features), teacher_player)
        seat = g % 2
        result = play_game(name, [player, medium] if seat == 0 else [medium, player], seed=seed, **PARAMS)
        if not player.rows:  # a game over before the apprentice's first move labels nothing
            continue
        obs, masks, labels = (np.asarray(column) for column in zip(*player.rows))
        outcome = np.full(len(labels), result.returns[seat], dtype=np.float32)
        parts.append(Demonstrations(obs, masks, labels.astype(np.int64), np.ones(len(labels), dtype=bool), outcome))
    return join(parts)


def label_round(args: argparse.Namespace, net: FeatureNet, round_index: int) -> Demonstrations:
    """Round ``round_index``'s labelled positions: recorded once into the data folder, read back after."""
    path = args.data / f"dagger_{round_index}_{args.round_games}.npz"
    if path.exists():
        return load(path)
    seeds = np.random.default_rng([args.seed, round_index, 71_993]).integers(2**31, size=args.round_games).tolist()
    weights = {key: value.clone() for key, value in net.state_dict().items()}
    tasks = [
        (args.game, weights, "now", args.teacher, net.observation_size, net.num_actions, seeds[lo : lo + CHUNK_GAMES])
        for lo in range(0, args.round_games, CHUNK_GAMES)
    ]
    clock = time.time()

    def done(count: int, _part: Demonstrations) -> None:
        print(
            f"[{args.game} round {round_index}] {count}/{len(tasks)} chunks labelled, {time.time() - clock:.0f} s",
            flush=True,
        )

    labelled = join(run_jobs(_label_chunk, tasks, args.jobs, on_result=done))
    save(labelled, path)
    return labelled


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    games = report["eval_games"]
    scaling = report.get("scaling") or []
    if scaling:
        ax.plot(
            [r["teacher_positions"] for r in scaling],
            [100 * r["wins"] / games for r in scaling],
            marker="s",
            color="tab:grey",
            label="more of the teacher's own games (data-scaling study)",
        )
    runs = report["rounds"]
    wins = draw_wins(ax, runs, games, color="tab:orange", label="DAgger rounds")
    for r, yi in zip(runs, wins):
        below = r["round"] % 2 == 0  # alternate sides, so that close rounds' labels do not overlap
        ax.annotate(
            f"round {r['round']}",
            (r["teacher_positions"], yi),
            textcoords="offset points",
            xytext=(4, -14 if below else 8),
            fontsize=8,
        )
    draw_levels(ax)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("the teacher's moves trained on")
    ax.set_ylabel(f"greedy wins against medium (%, {games} games, 95% bars)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8)
    ax.set_title(f"{report['game']}: the network alone (capture inputs), trained on its own positions")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def scaling_curve(game: str, eval_games: int) -> list[dict[str, int]]:
    """The data-scaling study's ``now`` runs (teacher's moves, wins), when it was scored over as many games."""
    path = SCALING / f"{game}.json"  # the comparison: more of the teacher's own games
    if not path.exists():
        return []
    study = json.loads(path.read_text())
    if study.get("eval_games") != eval_games:
        return []
    runs = sorted((r for r in study["runs"] if r["features"] == "now"), key=lambda r: r["teacher_positions"])
    return [{"teacher_positions": r["teacher_positions"], "wins": r["vs_medium"]["wins"]} for r in runs]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_arguments(parser, teacher="the policy file that labels (and whose moves the data holds)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the apprentice's games after round 0")
    parser.add_argument("--round-games", type=int, default=1500, help="the apprentice's games a round")
    add_training_arguments(parser, features="now", eval_games=400)
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the report and plot")
    args = parser.parse_args(argv)
    if checked_training_arguments(parser, args) != ["now"]:
        parser.error("--features: this study's apprentice is the capture-input network: now")
    if args.rounds < 0:
        parser.error("--rounds must be >= 0")
    if args.round_games < 1:
        parser.error("--round-games must be >= 1")
    check_data(parser, args.data)
    game = rules(args.game, PARAMS)
    base, held = load(args.data / "train.npz"), load(args.data / "heldout.npz")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{args.game}.json"
    report: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {"rounds": []}
    report |= {"game": args.game, "teacher": args.teacher, "eval_games": args.eval_games}
    report |= {"base_positions": len(base), "scaling": scaling_curve(args.game, args.eval_games)}
    report["args"] = vars(args) | {"data": str(args.data), "out": str(args.out)}
    torch.set_num_threads(1)
    base_set, held_set = (with_features(args.game, d, "now", args.jobs) for d in (base, held))
    observation_size, num_actions = base.observations.shape[1], base.masks.shape[1]
    labelled: list[Demonstrations] = []
    done = {r["round"] for r in report["rounds"]}
    net = FeatureNet(game, observation_size, num_actions, "now")  # round 0 replaces it before any labelling
    for round_index in range(args.rounds + 1):
        if round_index:  # the previous round's network plays, and is measured on the positions it met
            labelled.append(with_features(args.game, label_round(args, net, round_index), "now", args.jobs))
            own = agreement(net, labelled[-1], np.arange(len(labelled[-1])))
            for entry in report["rounds"]:
                if entry["round"] == round_index - 1:
                    entry["own_agreement"] = own
        weights_path = args.data / f"{args.game}_round{round_index}.pt"
        if round_index in done and weights_path.exists():
            net.load_state_dict(torch.load(weights_path))
            net.eval()
            continue
        train_set = join([base_set, *labelled])
        net, run = fit_and_score(args.game, "now", train_set, held_set, args, f"{args.game} round {round_index}")
        torch.save(net.state_dict(), weights_path)
        last = run["history"][-1]
        report["rounds"] = [r for r in report["rounds"] if r["round"] != round_index]
        report["rounds"].append(
            {
                "round": round_index,
                "positions": len(train_set),
                "teacher_positions": int(train_set.by_teacher.sum()),
                "apprentice_positions": int(sum(len(part) for part in labelled)),
                "heldout_agreement": last["heldout_agreement"],
                "train_agreement": last["train_agreement"],
            }
            | run
        )
        report["rounds"].sort(key=lambda r: r["round"])
        path.write_text(json.dumps(report, indent=2))  # kept after each round, so that a stopped study resumes
    path.write_text(json.dumps(report, indent=2))  # with the last round's own agreement, or a resumed study's
    plot(report, args.out / f"{args.game}.png")


if __name__ == "__main__":
    main()
