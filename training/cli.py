"""``swgym train`` (self-play from a config) and ``swgym export`` (SB3 .zip -> numpy policy)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def cmd_train(args: argparse.Namespace) -> None:
    from policies import shipped_path
    from training.selfplay import load_config, train

    config = load_config(args.config or args.game)
    if config["game"] != args.game:
        raise ValueError(f"config {args.config} is for {config['game']!r}, not {args.game!r}")
    if args.steps:
        config["total_timesteps"] = args.steps
    out = Path(args.out or f"runs/{args.game}")
    ship = shipped_path(args.game, **config["params"]) if args.ship else None
    summary = train(config, out, ship_to=ship, progress_bar=not args.no_progress)
    print(json.dumps({k: v for k, v in summary.items() if k != "curve"}, indent=2))
    print(f"learning curve: {out / 'learning_curve.png'}" + (f"; shipped to {ship}" if ship else ""))


def cmd_export(args: argparse.Namespace) -> None:
    from sb3_contrib import MaskablePPO

    from training.export import export_policy

    model = MaskablePPO.load(args.model, device="cpu")
    params = json.loads(args.params) if args.params else {}
    print(export_policy(model.policy, args.out, args.game, params))


def cmd_ladder(args: argparse.Namespace) -> None:
    from policies import shipped_path
    from training.ladder import ladder, ladder_rules, save_ladder

    params = ladder_rules(args.game)
    shipped = shipped_path(args.game, **params).exists()
    entrants = args.entrants or ["random", "easy", "medium"] + (["hard"] if shipped else [])
    result = ladder(args.game, entrants, games=args.games, seed=args.seed, params=params, jobs=args.jobs)
    json_path, png_path = save_ladder(result, args.out)
    for name, elo in result["elo"].items():
        print(f"{name:<10} {elo:8.0f}")
    print(f"written: {json_path}, {png_path}")


def cmd_report(args: argparse.Namespace) -> None:
    from envs.registry import GAMES
    from training.report import markdown, report, write_report

    variants = {"swahili": [{"num_players": 2}, {"num_players": 4}]} if not args.games_only_default else None
    names = args.names or list(GAMES)
    rows = report(args.games, names, seed=args.seed, variants=variants, jobs=args.jobs)
    print(markdown(rows))
    print(f"written (these rows replace the same matchups, the rest kept): {write_report(rows, args.out)}")


def add_commands(sub) -> None:
    p = sub.add_parser("report", help="evaluation table of every game's bots and hard opponents")
    p.add_argument("names", nargs="*", help="games (default all)")
    p.add_argument("--games", type=int, default=400, help="games per matchup")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="results")
    p.add_argument("--games-only-default", action="store_true", help="only each game's default rules")
    p.add_argument("--jobs", type=int, default=1, help="processes per series (same result as 1)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("ladder", help="Elo ladder random < easy < medium < hard from round-robin series")
    p.add_argument("game")
    p.add_argument("--entrants", nargs="*", default=None)
    p.add_argument("--games", type=int, default=100, help="games per pair (each way round with more players)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="results")
    p.add_argument("--jobs", type=int, default=1, help="processes per series (same result as 1)")
    p.set_defaults(func=cmd_ladder)

    p = sub.add_parser("train", help="self-play MaskablePPO training from training/configs/<game>.json")
    p.add_argument("game")
    p.add_argument("--config", default=None, help="a config file instead of training/configs/<game>.json")
    p.add_argument("--steps", type=int, default=None, help="override total_timesteps")
    p.add_argument("--out", default=None, help="run folder (default runs/<game>)")
    p.add_argument("--ship", action="store_true", help="also write the shipped policies/<game>[_variant]_hard.npz")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("export", help="export an SB3 MaskablePPO .zip to a numpy policy file")
    p.add_argument("model")
    p.add_argument("--game", required=True)
    p.add_argument("--params", default=None, help="rule parameters as JSON")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_export)
