"""``swgym train``, ``export``, ``ladder`` and ``report``: what they do (their arguments are in scripts/cli.py)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def cmd_train(args: argparse.Namespace) -> None:
    if getattr(args, "minutes", None) is not None:  # the quick path; its budget counts its imports
        started = time.time()
        from training.quick import cmd_quick  # on use: swgym starts fast

        return cmd_quick(args, started)
    if getattr(args, "backend", "sb3") == "rllib":
        return cmd_train_rllib(args)
    if getattr(args, "backend", "sb3") == "gumbel":
        return cmd_train_gumbel(args)
    backends = {"address": "rllib or gumbel", "iterations": "rllib or gumbel", "env_runners": "rllib",
                "rule": "rllib or gumbel", "seed": "rllib"}  # fmt: skip
    given = [
        f"--{n.replace('_', '-')} only with --backend {b}"
        for n, b in backends.items()
        if getattr(args, n, None) is not None
    ]
    if given:
        raise ValueError(f"{'; '.join(given)} (the SB3 path takes them from --config)")
    from policies import shipped_path  # on use: swgym starts fast
    from training.selfplay import load_config, train  # on use: swgym starts fast

    config = load_config(args.config or args.game)
    if config["game"] != args.game:
        raise ValueError(f"config {args.config} is for {config['game']!r}, not {args.game!r}")
    apply_budgets(config, args)
    if getattr(args, "env", None):
        config["env"] = args.env  # "single": the path the shipped networks were trained on
    out = Path(args.out or f"runs/{args.game}")
    ship = shipped_path(args.game, **config["params"]) if args.ship else None
    # SB3's bar redraws in place: on a terminal only (the evaluation lines report progress in a log)
    bar = not args.no_progress and sys.stderr.isatty()
    resume = {"resume": True} if getattr(args, "resume", False) else {}
    summary = train(config, out, ship_to=ship, progress_bar=bar, **resume)
    print(json.dumps({k: v for k, v in summary.items() if k != "curve"}, indent=2))
    print(f"learning curve: {out / 'learning_curve.png'}" + (f"; shipped to {ship}" if ship else ""))


def cmd_curves(args: argparse.Namespace) -> None:
    """``swgym curves GAME``: :func:`training.curves.run_curves` with the game's training config."""
    from training.config import load_config  # on use: swgym starts fast
    from training.curves import CurveSettings, run_curves
    from training.quick import RECIPES, QuickSettings

    config = load_config(args.game)
    params = {**config["params"], **(args.params or {})}
    out = Path(args.out or f"runs/{args.game}_curves")
    settings = CurveSettings(
        minutes=args.minutes, every=args.every, games=args.games, seed=args.seed or 0, opening_plies=args.opening_plies
    )
    run_curves(args.game, params, out, config, settings, RECIPES.get(args.game, QuickSettings()))
    print((out / "curves.md").read_text())
    print(f"curves: {out / 'curves.csv'}, {out / 'curves.md'}")


#: The budgets of ``swgym train`` (SB3 path): option -> (the config key it sets, the phase it reaches).
BUDGETS = {
    "steps": (("total_timesteps",), "PPO"),
    "imitation_games": (("imitation", "games"), "recording"),
    "imitation_epochs": (("imitation", "epochs"), "imitation"),
    "eval_games": (("eval", "games"), "evaluation"),
}


def apply_budgets(config: dict, args: argparse.Namespace) -> None:
    """Set the budgets given on the command line (and ``--head``) in ``config``; a budget for a phase the config
    does not have is refused, naming the phase. ``--imitation-games 0`` drops the recording and imitation."""
    missing = [
        f"--{option.replace('_', '-')} (the {phase} phase)"
        for option, ((section, *_), phase) in BUDGETS.items()
        if getattr(args, option, None) is not None and section not in config
    ]
    if missing:
        raise ValueError(f"config {args.config or args.game} has no such phase for {', '.join(missing)}")
    for option, (keys, _) in BUDGETS.items():
        value = getattr(args, option, None)
        if value is None:
            continue
        if len(keys) == 1:
            config[keys[0]] = value
        else:
            config[keys[0]] = {**config[keys[0]], keys[1]: value}
    if config.get("imitation") and config["imitation"]["games"] == 0:
        del config["imitation"]
    if getattr(args, "head", None):
        config["head"] = args.head


def cmd_train_gumbel(args: argparse.Namespace) -> None:
    """Gumbel Expert Iteration (training/gumbel.py) from the config's ``"gumbel"`` section; with ``--address``
    its generators run as Ray tasks there (training/ray_cluster.py), the learning here."""
    from dataclasses import replace  # on use: swgym starts fast

    from policies import shipped_path  # on use: swgym starts fast
    from training.config import load_config  # on use: swgym starts fast (and no SB3: the Ray virtualenv has none)
    from training.gumbel import Settings, ship, shipped_search, train  # on use: swgym starts fast

    sb3_only = ("env", "env_runners", "steps", "imitation_games", "imitation_epochs", "eval_games", "head")
    unsupported = [f"--{n.replace('_', '-')}" for n in sb3_only if getattr(args, n, None) is not None]
    if unsupported:
        raise ValueError(f"{', '.join(unsupported)} not supported with --backend gumbel")
    config = load_config(args.config or args.game)
    settings = Settings.from_config(config.get("gumbel"), where=f"{args.config or args.game} config: gumbel")
    if args.iterations:
        settings = replace(settings, iterations=args.iterations)
    params = {**config["params"], **(getattr(args, "params", None) or {})}
    out = Path(args.out or f"runs/{args.game}_gumbel")
    if args.ship:  # before any work
        shipped_search(config.get("search"))
    summary = train(args.game, params, settings, out, resume=getattr(args, "resume", False), address=args.address)
    print(json.dumps({k: v for k, v in summary.items() if k != "curve"}, indent=2))
    print(f"network: {summary['network']} (swgym eval {args.game} {summary['network']} medium)")
    if args.ship:
        shipped = ship(Path(summary["network"]), shipped_path(args.game, **params), config["search"])
        print(f"shipped to {shipped} with the config's search {config['search']}")


def cmd_train_rllib(args: argparse.Namespace) -> None:
    """Self-play on Ray RLlib (training/rllib.py): Ray started here, or the cluster at ``--address``."""
    from training.rllib import settings, train  # on use: swgym starts fast

    sb3_only = ("config", "env", "imitation_games", "imitation_epochs", "eval_games", "head")
    unsupported = [f"--{n.replace('_', '-')}" for n in ("ship", "resume") if getattr(args, n, None)]
    unsupported += [f"--{n.replace('_', '-')}" for n in sb3_only if getattr(args, n, None) is not None]
    if unsupported:
        raise ValueError(f"{', '.join(unsupported)} not supported with --backend rllib")
    overrides = {"iterations": args.iterations, "num_env_runners": args.env_runners, "seed": args.seed}
    if getattr(args, "params", None):
        overrides["params"] = args.params  # --rule key=value, parsed by scripts/cli.py
    if args.steps and not args.iterations:  # env steps: whole iterations of the default batch
        overrides["iterations"] = max(1, -(-args.steps // settings(args.game)["train_batch_size"]))
    out = Path(args.out or f"runs/{args.game}_rllib")
    summary = train(args.game, out, address=args.address, **{k: v for k, v in overrides.items() if v is not None})
    print(json.dumps({k: v for k, v in summary.items() if k not in ("curve", "settings")}, indent=2))
    print(f"policy: {summary['policy']} (plays with numpy: swgym eval {args.game} {summary['policy']} medium)")


def cmd_export(args: argparse.Namespace) -> None:
    """Write the numpy policy file of an SB3 model: its weights only, unless ``--trust`` (SB3's loader)."""
    params = args.params
    if args.trust:
        from sb3_contrib import MaskablePPO  # on use: swgym starts fast

        from training.export import export_policy  # on use: swgym starts fast

        model = MaskablePPO.load(args.model, device="cpu")
        print(export_policy(model.policy, args.out, args.game, params))
        return
    from policies.numpy_policy import NumpyPolicy, write_policy_file  # on use: swgym starts fast
    from policies.sb3_zip import read_sb3_zip  # on use: swgym starts fast

    meta, arrays = read_sb3_zip(args.model, args.game, params)
    NumpyPolicy((meta, arrays), name=args.game, params=params)  # sizes and rules checked against the env
    print(write_policy_file(args.out, meta, arrays))


def cmd_ladder(args: argparse.Namespace) -> None:
    """Play and rate a ladder (or rate a saved one again, ``--refit``), print it and write its JSON and chart."""
    from policies import shipped_path  # on use: swgym starts fast
    from policies.ladder import ladder, ladder_rules, refit, save_ladder  # on use: swgym starts fast

    if args.refit is not None:
        saved = json.loads(Path(args.refit).read_text())
        if saved.get("game") != args.game:
            raise ValueError(f"{args.refit} is a ladder of {saved.get('game')!r}, not {args.game!r}")
        result = refit(saved, samples=args.samples, seed=args.seed or 0)
    else:
        params = args.params or ladder_rules(args.game)
        shipped = shipped_path(args.game, **params).exists()
        entrants = args.entrants or ["random", "easy", "medium"] + (["hard"] if shipped else [])
        result = ladder(
            args.game, entrants, games=args.games, seed=args.seed or 0, params=params, jobs=args.jobs,
            opening_plies=args.opening_plies, samples=args.samples,
        )  # fmt: skip
    json_path, png_path = save_ladder(result, args.out)
    print(format_ladder(result))
    print(f"written: {json_path}, {png_path}")


def format_ladder(result: dict) -> str:
    """The ladder as a table: each entrant's rating and 95% interval (the first entrant is 0)."""
    width = max(10, *map(len, result["elo"]))
    lines = [f"{'entrant':<{width}} {'rating':>8}  95% interval"]
    for name, elo in result["elo"].items():
        low, high = result["interval95"][name]
        lines.append(f"{name:<{width}} {round(elo):8d}  [{round(low)}, {round(high)}]")
    rules = ", ".join(f"{k}={v}" for k, v in result["params"].items()) or "default rules"
    lines.append(f"{result['game']} ({rules}): {result['games']} games, {result['model']}")
    return "\n".join(lines)


def cmd_report(args: argparse.Namespace) -> None:
    from envs.registry import GAMES  # on use: swgym starts fast
    from policies.report import markdown, report, write_report  # on use: swgym starts fast

    variants = {"swahili": [{"num_players": 2}, {"num_players": 4}]} if not args.games_only_default else None
    names = args.names or list(GAMES)
    rows = report(args.games, names, seed=args.seed, variants=variants, jobs=args.jobs)
    print(markdown(rows))
    print(f"written (these rows replace the same matchups, the rest kept): {write_report(rows, args.out)}")
