"""Does a value fitted to far more recorded games make a hex-rook hard search stronger (Squeeze, Swish)?

A searching hard opponent scores its leaves with its policy file's value
tower(s). Squeeze's were fitted to the discounted outcomes of 6000 and 16000
games recorded one position at a time, Swish's to those of its imitation and
PPO runs. The batched engine (with medium as a kernel) records 25000 games in
about a minute, so this study fits value towers to many more games' outcomes
(:mod:`training.value_fit`), measures their squared error on held-out games
of another seed beside the base file's towers', and writes two policy files
that differ from the base only in their value:

* ``plus.npz``: the base towers and the new ones (the mean of all);
* ``only.npz``: the new towers alone (``--towers``, each fitted to games of
  its own seed; their mean).

    python -m research.value_refit [--game squeeze] [--games 25000] [--epochs 4] [--towers 1] [--out DIR] [--base FILE]

Squeeze's figures compare with the hard shipped before this study, at c109355
(``git show c109355:policies/squeeze_hard.npz > base.npz``, then ``--base base.npz``);
by default the base is the game's shipped hard.

then, for each file, ``swgym eval GAME FILE medium --rule setup=random --games 100 --seed 7``.
The figures: ``results/2026-11-squeeze-search.md``, ``results/2026-11-swish-value-refit.md``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import torch

from policies import shipped_path
from policies.numpy_policy import NumpyPolicy, read_policy_file, write_policy_file
from training.export import add_value_members
from training.value_fit import fit_value_towers, record_heldout, replace_value, value_fit_settings

PARAMS = {"setup": "random"}  # the hex-rook games' default set-up
OPPONENTS = {"medium": 0.6, "easy": 0.3, "random": 0.1}  # Squeeze's shipped networks' recording mix


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=["squeeze", "swish"], default="squeeze")
    parser.add_argument("--games", type=int, default=25000)
    parser.add_argument(
        "--opponents",
        default=None,
        help="medium's opponents in the recorded games, e.g. medium=1 (default: "
        + ",".join(f"{k}={v}" for k, v in OPPONENTS.items())
        + ")",
    )
    parser.add_argument("--heldout", type=int, default=2000)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--towers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="default: runs/exp/GAME_value")
    parser.add_argument("--base", help="the policy file to compare with and copy (default: the shipped hard)")
    args = parser.parse_args()
    out = Path(args.out or f"runs/exp/{args.game}_value")
    try:
        opponents = (
            {name: float(share) for name, share in (item.split("=") for item in args.opponents.split(","))}
            if args.opponents
            else OPPONENTS
        )
    except ValueError:
        parser.error(f"--opponents takes name=share,... (e.g. medium=0.6,easy=0.4), got {args.opponents!r}")
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    settings = value_fit_settings(
        {
            "opponents": opponents,
            "games": args.games,
            "heldout_games": args.heldout,
            "towers": args.towers,
            "epochs": args.epochs,
        }
    )
    held = record_heldout(args.game, PARAMS, settings, seed=args.seed)
    towers, histories = fit_value_towers(
        args.game, PARAMS, settings, [256, 256], torch.nn.Tanh, seed=args.seed, heldout=held
    )

    base = args.base or shipped_path(args.game, **PARAMS)
    meta, arrays = read_policy_file(base)
    only = replace_value(write_policy_file(out / "only.npz", meta, arrays), towers)
    plus = add_value_members(write_policy_file(out / "plus.npz", meta, arrays), [only])
    old = NumpyPolicy(base).member_values(held.observations)
    new = NumpyPolicy(only).member_values(held.observations)
    errors = {f"shipped tower {k}": v for k, v in enumerate(old)} | {f"new tower {k}": v for k, v in enumerate(new)}
    errors |= {"shipped (mean)": np.mean(old, axis=0), "new (mean)": np.mean(new, axis=0)}
    errors |= {"shipped and new (mean)": np.mean(old + new, axis=0), "always 0": np.zeros_like(held.outcomes)}
    mse = {name: float(np.mean((values - held.outcomes) ** 2)) for name, values in errors.items()}
    summary = {"settings": settings, "heldout_positions": len(held), "history": histories, "heldout_mse": mse}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps(mse, indent=2))
    print(f"written: {plus}, {only}, {out / 'summary.json'}")


if __name__ == "__main__":
    main()
