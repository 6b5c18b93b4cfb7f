"""Does a value fitted to its own search's values (bootstrapping) make a hex-rook hard search stronger?

The value towers of Squeeze's and Swish's hards were fitted to the outcomes
of games between bots, which say little about any one position; refits to
more such games did not help (``value_refit``). Here the targets come from
the search instead (TreeStrap, Veness et al. 2009; Expert Iteration with
alpha-beta as the expert): positions are taken from seeded games of medium
against medium on the batched engine (one position in ``--every`` of the
play phase), and each is labelled with the value the base file's own search
finds for the player to move at a small counted budget (``--label-work``,
deepening up to ``--label-depth`` plies), mixed with the game's outcome by
``--mix`` (1: the search's value alone). Fresh towers of the base's shape
are fitted to those labels (:func:`training.value_fit.fit_tower`; with ``--from-base``
the base's own towers are fitted further instead, each on the same positions), and
``only.npz`` is the base file with them as its value; held-out positions of
another seed measure the squared error to their labels and to their outcomes.

    python -m research.value_bootstrap [--game squeeze] [--positions 60000] [--label-work 2000] [--mix 1]
                                       [--towers 1] [--epochs 8] [--jobs 2] [--out DIR] [--base FILE]

then ``swgym eval GAME DIR/only.npz hard --games 40 --jobs 2 --seed 5``.
Labels are cached in ``DIR/labels_SEED.npz`` with the settings that made them, so a refit with other ``--mix``
or ``--epochs`` skips them.
Figures: ``results/2026-11-squeeze-search.md``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):  # one BLAS thread a process (before numpy loads)
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402

from envs.hexrook.board import PHASE_PLAY  # noqa: E402
from envs.registry import game_module, make_batched  # noqa: E402
from policies import shipped_path  # noqa: E402
from policies.numpy_policy import NumpyPolicy, read_policy_file, write_policy_file  # noqa: E402
from policies.provenance import sha256  # noqa: E402

PARAMS = {"setup": "random"}  # the hex-rook games' default set-up

_search: Any = None  # each labelling process's own search (made once, by _start_labeller)


def record_positions(
    game: str, positions: int, every: int, seed: int, boards: int = 256
) -> tuple[list, np.ndarray, np.ndarray]:
    """(rules states, the mover's final outcome for each, the game each came from) of ``positions`` play-phase
    positions from seeded games of medium against medium on the batched engine, one in ``every`` of each game's
    positions (by a seeded draw)."""
    from envs.vector import batch_opponent  # numba loads with the batched engine only

    rng = np.random.default_rng(seed)
    batch = make_batched(game, boards, seed=int(rng.integers(2**31)), **PARAMS)
    medium = batch_opponent(game, "medium", seed=int(rng.integers(2**31)), **PARAMS)
    states: list[Any] = []
    owners: list[tuple[int, int]] = []  # (game, mover) of each state
    game_of = np.arange(boards)
    next_game = boards
    returns: dict[int, np.ndarray] = {}  # game -> each seat's return so far

    def play(live: np.ndarray) -> np.ndarray:
        """Medium's move on the boards ``live``; their games' returns kept; which boards' games ended."""
        actions = np.full(boards, -1, dtype=np.int64)
        actions[live] = medium.actions(batch, live)
        rewards, done = batch.step(actions)
        for i in live:
            returns.setdefault(int(game_of[i]), np.zeros(2))[:] += rewards[i]
        return done

    while len(states) < positions:
        live = np.flatnonzero(~batch.over)
        for i in live:
            if rng.random() < 1.0 / every:
                state = batch.board_state(int(i))
                if state.phase == PHASE_PLAY and not state.over:
                    states.append(state)
                    owners.append((int(game_of[i]), int(state.to_move)))
        done = play(live)
        if done.any():
            ended = np.flatnonzero(done)
            batch.reset_where(done)
            game_of[ended] = np.arange(next_game, next_game + ended.size)
            next_game += ended.size
    # positions of games still running at the end have no outcome yet: play those games out
    kept = np.isin(game_of, [g for g, _ in owners[:positions]])
    while (kept & ~batch.over).any():
        play(np.flatnonzero(kept & ~batch.over))
    outcomes = np.array([returns[g][mover] for g, mover in owners[:positions]], dtype=np.float32)
    return states[:positions], outcomes, np.array([g for g, _ in owners[:positions]])


def _start_labeller(base: str, game: str, overrides: dict[str, Any]) -> None:
    global _search
    from policies.search import PolicySearch

    meta, _ = read_policy_file(base)
    settings = {**meta["search"], **overrides}
    settings.pop("kind", None)
    _search = PolicySearch(NumpyPolicy(base), game, PARAMS, **settings)


def _label(states: list) -> list[float]:
    return [_search.best_move(state)[1] for state in states]


def label_positions(states: list, base: str, game: str, overrides: dict[str, Any], jobs: int) -> np.ndarray:
    """The base file's search value (settings ``overrides`` over its own) for the player to move of each state,
    in ``jobs`` processes, with progress lines."""
    chunks = [states[lo : lo + 200] for lo in range(0, len(states), 200)]
    labels: list[float] = []
    clock = time.time()
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, initializer=_start_labeller, initargs=(base, game, overrides)) as pool:
        for done, chunk_labels in enumerate(pool.imap(_label, chunks), 1):
            labels.extend(chunk_labels)
            if done % 10 == 0 or done == len(chunks):
                rate = len(labels) / (time.time() - clock)
                print(f"[label] {len(labels)}/{len(states)} positions, {rate:.1f}/s", flush=True)
    return np.asarray(labels, dtype=np.float32)


def labelled(
    out: Path, game: str, positions: int, every: int, seed: int, base: str, overrides: dict[str, Any], jobs: int
) -> dict[str, np.ndarray]:
    """Observations (of the mover), search labels and outcomes of ``positions`` positions; cached in ``out``
    with what made them (a cache made otherwise is made again)."""
    cache = out / f"labels_{seed}.npz"
    made_by = json.dumps(
        {"game": game, "positions": positions, "every": every, "seed": seed, "base": sha256(base)} | overrides,
        sort_keys=True,
    )
    if cache.exists():
        with np.load(cache) as saved:
            if "made_by" in saved and str(saved["made_by"]) == made_by:
                print(f"labels of seed {seed} from {cache}")
                return {k: saved[k] for k in ("observations", "labels", "outcomes")}
        print(f"{cache} was made with other settings: labelling again")
    clock = time.time()
    states, outcomes, _ = record_positions(game, positions, every, seed)
    print(f"recorded {len(states)} positions in {time.time() - clock:.0f} s", flush=True)
    raw = game_module(game).raw_env
    rules = raw.game_cls(**PARAMS)
    observations = np.stack([raw.observe_state(rules, s, s.to_move) for s in states])
    labels = label_positions(states, base, game, overrides, jobs)
    data = {"observations": observations, "labels": labels, "outcomes": outcomes}
    np.savez_compressed(cache, made_by=np.array(made_by), **data)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=["squeeze", "swish"], default="squeeze")
    parser.add_argument("--positions", type=int, default=60000)
    parser.add_argument("--heldout", type=int, default=3000)
    parser.add_argument("--every", type=int, default=6, help="take one position in this many")
    parser.add_argument("--label-work", type=int, default=2000, help="the labelling search's total_work")
    parser.add_argument("--label-depth", type=int, default=6)
    parser.add_argument("--mix", type=float, default=1.0, help="label weight against the outcome's (0..1)")
    parser.add_argument("--towers", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument(
        "--from-base", action="store_true", help="fit the base file's own towers further (one new tower each)"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="default: runs/exp/GAME_bootstrap")
    parser.add_argument("--base", help="the policy file whose search labels and whose value is replaced")
    args = parser.parse_args()
    if not args.learning_rate > 0:
        parser.error(f"--learning-rate must be > 0, got {args.learning_rate}")
    for name in ("positions", "heldout", "every", "label_work", "label_depth", "towers", "epochs", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if not 0.0 <= args.mix <= 1.0:
        parser.error(f"--mix must be within 0..1, got {args.mix}")
    import torch

    from policies.numpy_policy import split_value_towers
    from training.value_fit import fit_tower, replace_value, set_tower_arrays, tower_arrays, value_tower

    torch.set_num_threads(1)
    out = Path(args.out or f"runs/exp/{args.game}_bootstrap")
    out.mkdir(parents=True, exist_ok=True)
    base = str(args.base or shipped_path(args.game, **PARAMS))
    overrides = {"total_work": args.label_work, "depth": args.label_depth, "max_work": 0}
    held = labelled(out, args.game, args.heldout, args.every, args.seed + 1000, base, overrides, args.jobs)

    def target(data: dict[str, np.ndarray]) -> np.ndarray:
        return (args.mix * data["labels"] + (1.0 - args.mix) * data["outcomes"]).astype(np.float32)

    meta, arrays = read_policy_file(base)
    base_policy = NumpyPolicy((meta, arrays), source=base)
    base_towers = split_value_towers(arrays)[1]
    hidden = [w.shape[1] for w, _ in base_policy.value_members[0][0]]  # the base's (first) tower's layer widths
    towers, histories = [], []
    count = len(base_towers) if args.from_base else args.towers
    for k in range(count):
        data_seed = args.seed + (0 if args.from_base else k)  # fitted further, every tower takes the one set
        train = labelled(out, args.game, args.positions, args.every, data_seed, base, overrides, args.jobs)
        torch.manual_seed(args.seed + k)
        net = value_tower(train["observations"].shape[1], hidden, torch.nn.Tanh)
        if args.from_base:
            set_tower_arrays(net, base_towers[k])
        histories.append(
            fit_tower(
                net,
                (train["observations"], target(train)),
                (held["observations"], target(held)),
                args.epochs,
                256,
                args.learning_rate,
                args.seed + k,
                label=f"{args.game} bootstrapped tower {k + 1}/{count}",
            )
        )
        towers.append(tower_arrays(net))
    only = replace_value(write_policy_file(out / "only.npz", meta, arrays), towers)
    values = {"base": base_policy.values(held["observations"])}
    values["new"] = NumpyPolicy(only).values(held["observations"])
    errors = {
        f"{name} against {against}": float(np.mean((v - held[against]) ** 2))
        for name, v in values.items()
        for against in ("labels", "outcomes")
    }
    errors["labels against outcomes"] = float(np.mean((held["labels"] - held["outcomes"]) ** 2))
    summary = {"args": vars(args), "base": base, "heldout_mse": errors, "history": histories}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps(errors, indent=2))
    print(f"written: {only}, {out / 'summary.json'}")


if __name__ == "__main__":
    main()
