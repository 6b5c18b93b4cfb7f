"""The ``swgym`` command: watch, play, scores, bench, golden (and eval / train from training/)."""

from __future__ import annotations

import argparse
import ast
import json
import os
import sys
from pathlib import Path
from typing import Any

# The networks play one position at a time, where BLAS threads only add contention
# (a forward pass measured 3x slower on a busy 2-core machine); set before numpy loads.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

MAX_SEATS = 6


def parse_params(items: list[str]) -> dict[str, Any]:
    """``--rule key=value`` pairs; values are Python literals where they parse (8, (4, 2), True)."""
    params = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"swgym: --rule takes key=value, got {item!r}")
        try:
            params[key] = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            params[key] = raw
    return params


def _add_rule_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rule", action="append", metavar="KEY=VALUE",
                   help="a rule parameter of the game, e.g. --rule board_size=8 (repeatable)")
    p.add_argument("--seed", type=int, default=None, help="seed of the game and the bots")


def cmd_watch(args: argparse.Namespace) -> None:
    from envs.registry import make_raw
    from scripts.watch import watch

    params = parse_params(args.rule)
    n = make_raw(args.game, **params).game.num_players
    players = [getattr(args, f"p{i}") or args.others for i in range(n)]
    print(watch(args.game, players, seed=args.seed, gif=args.gif, fps=args.fps, text=args.text,
                brain=args.brain, mp4=args.mp4, **params))


def cmd_play(args: argparse.Namespace) -> None:
    from scripts.app import play_command

    play_command(args, parse_params(args.rule))


def cmd_scores(args: argparse.Namespace) -> None:
    from scripts.app import scores_command

    scores_command(args)


def cmd_bench(args: argparse.Namespace) -> None:
    from envs.registry import GAMES
    from scripts.bench import format_table, run

    if args.batch or args.ppo:
        from scripts.bench import bench_batched

        return bench_batched(args)

    names = args.games or list(GAMES)
    cases = [(n, p) for n in names for p in (GAMES[n].variants if args.variants else [{}])] \
        if all(n in GAMES for n in names) else None
    if cases is None:
        raise SystemExit(f"swgym bench: unknown game among {names}; the games are {', '.join(GAMES)}")
    rows = run(cases, seconds=args.seconds, rounds=args.rounds)
    print(format_table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


def cmd_eval(args: argparse.Namespace) -> None:
    from scripts.evaluate import evaluate, format_rows, table_rows

    params = parse_params(args.rule)
    rows = table_rows(evaluate(args.game, args.players, args.games, seed=args.seed or 0, jobs=args.jobs, **params))
    print(format_rows(rows))
    if args.json:
        Path(args.json).write_text(json.dumps({"game": args.game, "params": params, "rows": rows}, indent=2))


def cmd_golden(args: argparse.Namespace) -> None:
    from envs.core.playthrough import record, variant_label
    from envs.registry import GAMES

    folder = Path(args.dir)
    names = args.games or list(GAMES)
    changed = 0
    for name in names:
        for params in GAMES[name].variants:
            label = variant_label(params)
            path = folder / f"{name}{'_' + label if label else ''}.txt"
            text = record(name, seed=0, **params)
            same = path.exists() and path.read_text() == text
            if args.write and not same:
                path.write_text(text)
            changed += not same
            print(f"{'same' if same else ('written' if args.write else 'DIFFERS')}: {path}")
    if changed and not args.write:
        sys.exit(1)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="swgym", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("watch", help="watch computer players: a window, text, or a GIF")
    p.add_argument("game")
    for i in range(MAX_SEATS):
        p.add_argument(f"--p{i}", default=None, help=f"player_{i}: random|easy|medium|hard or a policy file")
    p.add_argument("--others", default="random", help="players for seats not given (default random)")
    p.add_argument("--gif", default=None, help="write the episode to this GIF instead of a window")
    p.add_argument("--fps", type=float, default=2.0)
    p.add_argument("--text", action="store_true", help="print the boards as text")
    p.add_argument("--brain", action="store_true", help="overlay what the player to move weighs")
    p.add_argument("--mp4", default=None, help="write the episode to this MP4 (needs imageio-ffmpeg)")
    _add_rule_args(p)
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("play", help="play against the computer: a window, or the terminal")
    p.add_argument("game")
    p.add_argument("--vs", default="medium", help="random|easy|medium|hard or a policy file")
    p.add_argument("--seat", type=int, default=0, help="your seat (0 moves first)")
    p.add_argument("--think", type=float, default=None,
                   help="seconds to take your move back before the computer answers "
                        "(terminal default: wait for Enter; window default 2)")
    p.add_argument("--name", default=None, help="your name in the scores (default: your login name)")
    p.add_argument("--db", default=None, help="scores file (default: under $XDG_DATA_HOME/swgym)")
    p.add_argument("--tui", action="store_true", help="play in the terminal (automatic with no display)")
    _add_rule_args(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("scores", help="show, clear or remove the scores kept by swgym play")
    p.add_argument("--game", default=None, help="only this game")
    p.add_argument("--clear", action="store_true", help="remove every entry (of --game only, if given)")
    p.add_argument("--remove", default=None, metavar="NAME", help="remove this player's entries")
    p.add_argument("--db", default=None, help="scores file (default: under $XDG_DATA_HOME/swgym)")
    p.set_defaults(func=cmd_scores)

    p = sub.add_parser("bench", help="random-play agent-steps/s of each game vs connect_four_v3")
    p.add_argument("games", nargs="*")
    p.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (the median is reported)")
    p.add_argument("--variants", action="store_true", help="every registry variant, not only the defaults")
    p.add_argument("--json", default=None, help="also save the table as JSON")
    p.add_argument("--batch", action="store_true", help="the batched engines at N = 1, 256, 4096 beside the AEC envs")
    p.add_argument("--ppo", action="store_true", help="MaskablePPO env steps/s: batched vector env vs single-agent")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("eval", help="a seeded series between players, seats rotated: W/D/L with 95%% CI")
    p.add_argument("game")
    p.add_argument("players", nargs="+", help="one per seat: random|easy|medium|hard or a policy file")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--jobs", type=int, default=1, help="processes to play the series in (same result as 1)")
    p.add_argument("--json", default=None, help="also save the table as JSON")
    _add_rule_args(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("golden", help="check or rewrite the golden playthrough files")
    p.add_argument("games", nargs="*")
    p.add_argument("--write", action="store_true")
    p.add_argument("--dir", default="tests/golden")
    p.set_defaults(func=cmd_golden)

    try:
        from training.cli import add_commands
    except ImportError:  # training extras not installed
        pass
    else:
        add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except (ValueError, TypeError, FileNotFoundError) as err:
        raise SystemExit(f"swgym {args.command}: {err}") from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
