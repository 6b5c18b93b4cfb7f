"""The ``swgym`` command: watch, play, scores, bench, golden (and eval / train from training/)."""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

from training.ray_cluster import RAY_EXTRA, check_address  # imports no Ray (nor numpy): swgym starts fast

# The networks play one position at a time, where BLAS threads only add contention
# (results/2026-11-blas-threads.md); set before numpy loads.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

MAX_SEATS = 6
# The opponent names envs.opponents.make_opponent takes (written out: importing it would load numpy here).
OPPONENT_NAMES = "random|easy|medium|hard|network|mcts|mcts:N|hard@REV|network:FILE|module:callable"
GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"

# What each command needs beyond a plain install, and the extra that brings it
# (pyproject.toml's [project.optional-dependencies]); checked before any work.
TRAIN_EXTRA = "pip install -e '.[train]' (from a clone of swgym)"
NEEDS = {
    "train": ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "tqdm", "rich", "matplotlib"),
    "export": ("torch", "stable_baselines3", "sb3_contrib"),
    "curves": ("torch", "stable_baselines3", "sb3_contrib"),
    "ladder": ("matplotlib",),
}
# swgym train --backend rllib: Ray's own extra (it pins its gymnasium; a virtualenv of its own, see the Makefile)
RLLIB_EXTRA = RAY_EXTRA
RLLIB_NEEDS = ("torch", "ray")
# swgym train --backend gumbel: torch and the curve's matplotlib (not SB3); Ray as well with --address
GUMBEL_NEEDS = ("torch", "matplotlib")


def _number(kind: type, least: float, strict: bool):
    """An argparse type: a ``kind`` number above ``least`` (or at least it), refused by name otherwise."""
    word = {int: "a whole number", float: "a number"}[kind]
    bound = f"above {least:g}" if strict else f"of at least {least:g}"

    def convert(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {word} {bound}, got {text!r}") from None
        if not math.isfinite(value) or (value <= least if strict else value < least):
            raise argparse.ArgumentTypeError(f"must be {word} {bound}, got {text!r}")
        return value

    convert.__name__ = f"{kind.__name__} {bound}"
    return convert


positive_int = _number(int, 0, strict=True)
positive_float = _number(float, 0, strict=True)
nonnegative_int = _number(int, 0, strict=False)
nonnegative_float = _number(float, 0, strict=False)


def output_file(text: str) -> str:
    """An argparse type: a file to write, whose folder exists (checked before the work, not after)."""
    folder = Path(text).parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"the folder of {text!r} ({folder}) does not exist")
    return text


def missing_modules(modules) -> list[str]:
    """The modules among ``modules`` that cannot be imported here (found, not imported: cheap)."""
    import importlib.util

    missing = []
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    return missing


def require_extras(command: str, backend: str | None = None, address: str | None = None) -> None:
    """Stop ``swgym <command>`` before any work when the training extras it needs are not installed."""
    if backend == "gumbel" and address is not None and missing_modules(["ray"]):
        raise SystemExit(
            f"swgym {command} --backend gumbel --address {address}: runs the generators on Ray, which is not "
            f"installed here; install it with: {RLLIB_EXTRA} (or drop --address: one machine needs no Ray)"
        )
    if backend == "rllib":
        missing = missing_modules(RLLIB_NEEDS) or (["ray.rllib"] if missing_modules(["ray.rllib"]) else [])
        if missing:
            raise SystemExit(
                f"swgym {command} --backend rllib: needs the rllib extra ({', '.join(missing)} not "
                f"installed); install it with: {RLLIB_EXTRA}"
            )
        return
    missing = missing_modules(GUMBEL_NEEDS if backend == "gumbel" else NEEDS.get(command, ()))
    if missing:
        raise SystemExit(
            f"swgym {command}: needs the training extras ({', '.join(missing)} not installed); "
            f"install them with: {TRAIN_EXTRA}"
        )


def ray_address(text: str) -> str:
    """An argparse type: ``--address`` (auto, local or HOST:PORT), checked before any work."""
    try:
        return check_address(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def check_games(names) -> None:
    """A ValueError naming the first unknown game among ``names``."""
    from envs.registry import entry

    for name in names:
        entry(name)


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
    p.add_argument(
        "--rule",
        action="append",
        metavar="KEY=VALUE",
        help="a rule parameter of the game, e.g. --rule board_size=8 (repeatable)",
    )
    p.add_argument("--seed", type=nonnegative_int, default=None, help="seed of the game and the bots")


def read_positions(value: str) -> list[str]:
    """``--position``: a position text of the game's notation, or a file of them (one a line; blank lines and
    lines starting with ``#`` skipped)."""
    path = Path(value)
    if not path.is_file():
        return [value]
    texts = [line.strip() for line in path.read_text().splitlines()]
    texts = [text for text in texts if text and not text.startswith("#")]
    if not texts:
        raise ValueError(f"--position file {value} holds no position (one a line, in the game's notation)")
    return texts


def one_position(value: str | None) -> str | None:
    """``--position`` for a single game: the text, or the first of a file's positions."""
    return None if value is None else read_positions(value)[0]


def _add_position_arg(p: argparse.ArgumentParser, openings: bool = False) -> None:
    what = "each a position the games start from, each played in every seating" if openings else "the first used"
    p.add_argument(
        "--position",
        default=None,
        metavar="TEXT|FILE",
        help=f"start from this position in the game's notation (see its docs page), or a file of them ({what})",
    )


def cmd_watch(args: argparse.Namespace) -> None:
    from envs.registry import make_raw
    from scripts.watch import watch

    params = parse_params(args.rule)
    n = make_raw(args.game, **params).game.num_players
    extra = [f"--p{i}" for i in range(n, MAX_SEATS) if getattr(args, f"p{i}") is not None]
    if extra:
        raise ValueError(f"{' '.join(extra)} given, but {args.game} here has {n} players (--p0 to --p{n - 1})")
    players = [getattr(args, f"p{i}") or args.others for i in range(n)]
    print(
        watch(
            args.game,
            players,
            seed=args.seed,
            gif=args.gif,
            fps=args.fps,
            text=args.text,
            brain=args.brain,
            mp4=args.mp4,
            position=one_position(args.position),
            **params,
        )
    )


def cmd_play(args: argparse.Namespace) -> None:
    from scripts.app import play_command

    args.position = one_position(args.position)
    play_command(args, parse_params(args.rule))


def cmd_scores(args: argparse.Namespace) -> None:
    from scripts.app import scores_command

    scores_command(args)


def _usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one, else every core)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def cmd_warmup(args: argparse.Namespace) -> None:
    from scripts.warmup import shipped_cases, warmup

    check_games(args.games)
    warmup(shipped_cases(args.games), jobs=args.jobs)


def cmd_bench(args: argparse.Namespace) -> None:
    from envs.registry import GAMES
    from scripts.bench import format_table, run

    if args.part and not args.cold:
        raise SystemExit("swgym bench: --part chooses among the first uses of --cold and goes with it only")
    if args.cold:
        from scripts.warmup import PARTS, cold_run, format_cold_table, save_cold, shipped_cases

        check_games(args.games)
        rows = cold_run(shipped_cases(args.games), parts=tuple(args.part or PARTS))
        print(format_cold_table(rows))
        if args.json:
            save_cold(rows, args.json)
        return

    if args.ppo and args.seconds is not None:
        raise SystemExit(
            "swgym bench --ppo: PPO runs are measured over a count of env steps, not seconds; "
            "drop --seconds and give --steps N (see swgym bench --help)"
        )
    if args.steps is not None and not args.ppo:
        raise SystemExit("swgym bench: --steps counts PPO env steps and goes with --ppo only")
    if args.shaping is not None and not args.ppo:
        raise SystemExit("swgym bench: --shaping shapes the PPO learner's reward and goes with --ppo only")
    if args.batch or args.ppo or args.search:
        from scripts.bench import bench_batched

        return bench_batched(args)

    names = args.games or list(GAMES)
    cases = (
        [(n, p) for n in names for p in (GAMES[n].variants if args.variants else [{}])]
        if all(n in GAMES for n in names)
        else None
    )
    if cases is None:
        raise SystemExit(f"swgym bench: unknown game among {names}; the games are {', '.join(GAMES)}")
    rows = run(cases, seconds=args.seconds or 1.0, rounds=args.rounds)
    print(format_table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


def cmd_eval(args: argparse.Namespace) -> None:
    from envs.play import Openings, distinct_games
    from policies.evaluation import SeriesRun, evaluate, format_rows, table_rows

    if args.sprt is not None:
        return cmd_eval_sprt(args)
    params = parse_params(args.rule)
    openings = Openings(args.opening_plies, tuple(read_positions(args.position)) if args.position else ())
    per_round = len(args.players) * max(1, len(openings.positions))
    if openings.positions and args.games % per_round:
        raise ValueError(
            f"--games {args.games}: each of the {len(openings.positions)} opening position(s) is played in all "
            f"{len(args.players)} seatings, so games must be a multiple of {per_round}"
        )
    result = evaluate(
        args.game, args.players, args.games, seed=args.seed or 0, duplicate=args.duplicate,
        opening_plies=openings, run=SeriesRun(jobs=args.jobs, checkpoint=args.checkpoint), **params,
    )  # fmt: skip
    rows = table_rows(result)
    print(format_rows(rows))
    distinct = distinct_games(result)
    if distinct is not None and 2 * distinct <= result.games:
        print(
            f"swgym eval: {result.games} games but only {distinct} distinct one{'s' * (distinct != 1)}: the players "
            "answer each position the same way, so the series replays them; --opening-plies N (random first plies, "
            "each opening played in every seating) scores them over many positions",
            file=sys.stderr,
        )
    if args.json:
        saved = {"game": args.game, "params": params, "rows": rows, "distinct_games": distinct}
        Path(args.json).write_text(json.dumps(saved, indent=2))


def cmd_eval_sprt(args: argparse.Namespace) -> None:
    """``swgym eval GAME A B --sprt ELO0 ELO1``: games until fishtest's GSPRT decides, ``--games`` at most."""
    from envs.play import Openings
    from policies.sprt import SprtSeries, SprtTest, run_sprt

    if args.jobs != 1:
        raise ValueError("--sprt plays its games in order, in one process: drop --jobs")
    test = SprtTest(args.sprt[0], args.sprt[1], alpha=args.alpha, beta=args.beta)
    openings = Openings(args.opening_plies, tuple(read_positions(args.position)) if args.position else ())
    series = SprtSeries(
        args.game, args.players, args.games, seed=args.seed or 0, duplicate=args.duplicate,
        opening_plies=openings, step=args.sprt_step,
    )  # fmt: skip
    params = parse_params(args.rule)
    outcome = run_sprt(series, test, params, checkpoint=args.checkpoint, report=print)
    verdict = {
        "H1": f"H1 accepted: {args.players[0]} is at least {test.elo1:g} Elo stronger",
        "H0": f"H0 accepted: {args.players[0]} is at most {test.elo0:g} Elo stronger",
        "none": f"undecided after {outcome['games']} games (--games caps the test)",
    }[outcome["decision"]]
    print(f"{verdict} (alpha {test.alpha:g}, beta {test.beta:g}; {outcome['games']} games)")
    if args.json:
        Path(args.json).write_text(json.dumps({**outcome, "params": params}, indent=2))


def _add_sprt_args(p: argparse.ArgumentParser) -> None:
    """eval's sequential test: --sprt ELO0 ELO1, its error rates and the games between reports."""
    p.add_argument(
        "--sprt",
        nargs=2,
        type=float,
        metavar=("ELO0", "ELO1"),
        default=None,
        help="a sequential test (fishtest's GSPRT) of H0: the first player is ELO0 Elo stronger, against H1: ELO1; "
        "plays until one is accepted, --games at most, printing the LLR and its bounds as it goes; pairs of "
        "games from one deal or opening are counted as pairs (pentanomial)",
    )
    p.add_argument("--alpha", type=positive_float, default=0.05, help="--sprt: chance of accepting H1 under H0")
    p.add_argument("--beta", type=positive_float, default=0.05, help="--sprt: chance of accepting H0 under H1")
    p.add_argument("--sprt-step", type=positive_int, default=20, help="--sprt: games between reports (even)")


def cmd_results(args: argparse.Namespace) -> None:
    from scripts import results

    results.main(redo_all=args.all, dry_run=args.dry_run, games=args.games, jobs=args.jobs)


def cmd_golden(args: argparse.Namespace) -> None:
    from envs.playthrough import record
    from envs.registry import GAMES

    folder = Path(args.dir) if args.dir is not None else GOLDEN_DIR
    if not folder.is_dir():
        raise ValueError(f"golden folder {folder} not found (give its place with --dir)")
    names = args.games or list(GAMES)
    check_games(names)
    changed = 0
    for name in names:
        for params, match in GAMES[name].golden_games:
            path = folder / GAMES[name].golden_file(params, match)
            text = record(name, seed=0, match=match, **params)
            exists = path.exists()
            same = exists and path.read_text() == text
            if args.write and not same:
                path.write_text(text)
            changed += not same
            print(f"{'same' if same else 'written' if args.write else 'DIFFERS' if exists else 'missing'}: {path}")
    if changed and not args.write:
        sys.exit(1)


def _training_command(name: str):
    """``swgym <name>`` from training/cli.py, its extras checked before it is imported."""

    def run(args: argparse.Namespace) -> None:
        if name == "export":
            check_export_args(args)
        require_extras(name, getattr(args, "backend", None), getattr(args, "address", None))
        if name in ("ladder", "train", "export", "curves"):
            check_games([args.game])
        if name in ("train", "export", "ladder", "curves"):
            args.params = parse_params(args.rule)
        if name == "report":
            check_games(args.names)
        from training import cli

        getattr(cli, f"cmd_{name}")(args)

    return run


def _add_eval_command(sub) -> None:
    """``swgym eval``: a series (or a sequential test) between players."""
    p = sub.add_parser("eval", help="a seeded series between players, seats rotated: W/D/L with 95%% CI")
    p.add_argument("game")
    p.add_argument("players", nargs="+", help=f"one per seat: {OPPONENT_NAMES} or a policy file")
    p.add_argument("--games", type=positive_int, default=400)
    p.add_argument("--jobs", type=positive_int, default=1, help="processes to play the series in (same result as 1)")
    p.add_argument("--json", type=output_file, default=None, help="also save the table as JSON")
    p.add_argument(
        "--checkpoint",
        type=output_file,
        default=None,
        help="keep every finished chunk of games in this file; run the same command again to play only the games "
        "it lacks (a long series can span sessions; the same result as at once)",
    )
    p.add_argument(
        "--duplicate",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="play each deal once per rotation of the seats (games: a multiple of the players); "
        "default: on for card games (swimming) and with --opening-plies, off for the rest",
    )
    p.add_argument(
        "--opening-plies",
        type=nonnegative_int,
        default=0,
        help="begin every game with this many random legal plies (seeded; each opening played in every seating), "
        "so that players who always answer a position the same way meet many positions (default 0)",
    )
    _add_sprt_args(p)
    _add_rule_args(p)
    _add_position_arg(p, openings=True)
    p.set_defaults(func=cmd_eval)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="swgym", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("watch", help="watch computer players: a window, text, or a GIF")
    p.add_argument("game")
    for i in range(MAX_SEATS):
        p.add_argument(f"--p{i}", default=None, help=f"player_{i}: {OPPONENT_NAMES} or a policy file")
    p.add_argument("--others", default="random", help="players for seats not given (default random)")
    p.add_argument("--gif", type=output_file, default=None, help="write the episode to this GIF instead of a window")
    p.add_argument("--fps", type=positive_float, default=2.0, help="frames a second (above 0)")
    p.add_argument("--text", action="store_true", help="print the boards as text")
    p.add_argument("--brain", action="store_true", help="overlay what the player to move weighs")
    p.add_argument("--mp4", type=output_file, default=None, help="write the episode to this MP4 (needs imageio-ffmpeg)")
    _add_rule_args(p)
    _add_position_arg(p)
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("play", help="play against the computer: a window, or the terminal")
    p.add_argument("game")
    p.add_argument("--vs", default="medium", help=f"{OPPONENT_NAMES} or a policy file")
    p.add_argument("--seat", type=nonnegative_int, default=0, help="your seat (0 moves first)")
    p.add_argument(
        "--think",
        type=nonnegative_float,
        default=None,
        help="seconds to take your move back before the computer answers "
        "(terminal default: wait for Enter; window default 2)",
    )
    p.add_argument("--name", default=None, help="your name in the scores (default: your login name)")
    p.add_argument("--db", default=None, help="scores file (default: under $XDG_DATA_HOME/swgym)")
    p.add_argument("--tui", action="store_true", help="play in the terminal (automatic with no display)")
    _add_rule_args(p)
    _add_position_arg(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("scores", help="show, clear or remove the scores kept by swgym play")
    p.add_argument("--game", default=None, help="only this game")
    p.add_argument("--clear", action="store_true", help="remove every entry (of --game only, if given)")
    p.add_argument("--remove", default=None, metavar="NAME", help="remove this player's entries")
    p.add_argument("--db", default=None, help="scores file (default: under $XDG_DATA_HOME/swgym)")
    p.set_defaults(func=cmd_scores)

    p = sub.add_parser(
        "bench",
        help="speed: random play vs connect_four_v3, the batched engines (--batch), MaskablePPO (--ppo)",
        description="Speed figures, each the median of interleaved rounds. Four modes:",
        epilog=(
            "default: agent-steps/s of random play through each game's AEC env, and the ratio to PettingZoo's "
            "connect_four_v3 (--seconds, --rounds, --variants). "
            "--batch: the batched engines at N = 1, 256, 4096 and the learner's vector env at N = 256, 4096 "
            "(learner steps/s in the env's action_masks() and step() calls, and learner steps x players over the "
            "engine's agent-steps/s), beside the AEC envs "
            "(--seconds, --rounds, --variants). "
            "--ppo: MaskablePPO env steps/s on the batched vector env and on 8 single-agent envs, with the batched "
            "run's seconds split into engine, opponents, torch and updates; each run is a count of env steps "
            "(--steps; default 8 rollouts of the game's training config), so --seconds is refused. "
            "--search: simulations/s of the engine's tree search with the shipped network at N = 1, 64, 1024 "
            "trees (one node a tree each), beside the nodes/s of the play-time search of hard@714a9b8 on positions "
            "of the same kind, and of that search compiled inside the engine where the engine has it "
            "(--seconds, --rounds, --variants)."
        ),
    )
    p.add_argument("games", nargs="*")
    p.add_argument("--seconds", type=positive_float, default=None, help="seconds a measurement (default 1; not --ppo)")
    p.add_argument("--rounds", type=positive_int, default=5, help="interleaved rounds (the median is reported)")
    p.add_argument("--variants", action="store_true", help="every registry variant, not only the defaults")
    p.add_argument("--json", type=output_file, default=None, help="also save the table as JSON")
    p.add_argument("--batch", action="store_true", help="the batched engines and the vector env beside the AEC envs")
    p.add_argument("--ppo", action="store_true", help="MaskablePPO env steps/s: batched vector env vs single-agent")
    p.add_argument("--steps", type=positive_int, default=None, help="--ppo: env steps of each timed batched run")
    p.add_argument(
        "--shaping",
        default=None,
        metavar="POTENTIAL",
        help="--ppo: shape the learner's reward by this potential (twirls_groups), its mean shown on the curves",
    )
    p.add_argument(
        "--search", action="store_true", help="the engine's tree search at N = 1, 64, 1024 vs the play-time search"
    )
    p.add_argument(
        "--cold",
        action="store_true",
        help="seconds to the first step of make_vec and the first move of each shipped hard, in new processes: "
        "cold (an empty temporary compile cache), then warm",
    )
    p.add_argument(
        "--part",
        action="append",
        choices=("engine", "hard"),
        default=None,
        help="--cold: only this first use (repeatable): engine (make_vec's first step) or hard (its first move)",
    )
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser(
        "warmup",
        help="compile every engine and shipped hard ahead of use (into the shared cache), with progress",
        description="Compile the numba kernels that a first game, evaluation or training run would wait for: "
        "each game's batched engine and its shipped hard opponents' search. Cached once per version of the "
        "package, for every clone of it (NUMBA_CACHE_DIR moves the cache).",
    )
    p.add_argument("games", nargs="*", help="games (default all)")
    p.add_argument(
        "--jobs", type=positive_int, default=_usable_cores(),
        help="parts compiled at once, each in a process of its own (default: one per core)",
    )  # fmt: skip
    p.set_defaults(func=cmd_warmup)

    _add_eval_command(sub)

    p = sub.add_parser("golden", help="check or rewrite the golden playthrough files")
    p.add_argument("games", nargs="*")
    p.add_argument("--write", action="store_true")
    p.add_argument("--dir", default=None, help="golden files folder (default: tests/golden of this source tree)")
    p.set_defaults(func=cmd_golden)

    _add_training_commands(sub)
    return parser


def _add_training_commands(sub) -> None:
    """report, ladder, train, export: always listed; the extras they need are checked when they run."""
    p = sub.add_parser("report", help="evaluation table of every game's bots and hard opponents")
    p.add_argument("names", nargs="*", help="games (default all)")
    p.add_argument("--games", type=positive_int, default=400, help="games per matchup")
    p.add_argument("--seed", type=nonnegative_int, default=1)
    p.add_argument("--out", default="results")
    p.add_argument("--games-only-default", action="store_true", help="only each game's default rules")
    p.add_argument("--jobs", type=positive_int, default=1, help="processes per series (same result as 1)")
    p.set_defaults(func=_training_command("report"))

    p = sub.add_parser(
        "results", help="make again every shown result measured on other policy files than the shipped ones"
    )
    p.add_argument("--all", action="store_true", help="every result, not only those that need it")
    p.add_argument("--dry-run", action="store_true", help="list what would be made")
    p.add_argument("--games", type=positive_int, default=400, help="games per EVAL matchup")
    p.add_argument("--jobs", type=positive_int, default=1, help="processes per series (same result as 1)")
    p.set_defaults(func=cmd_results)

    p = sub.add_parser(
        "ladder",
        help="ratings with 95%% intervals of random < easy < medium < hard from round-robin series (needs the "
        "train extra)",
    )
    p.add_argument("game")
    p.add_argument(
        "--entrants",
        nargs="*",
        default=None,
        help=f"any players ({OPPONENT_NAMES}, a policy file), the first rated 0 "
        "(default: random easy medium hard), e.g. random medium hard hard@HEAD~5 mcts:2000",
    )
    p.add_argument("--games", type=positive_int, default=100, help="games per pair (each way round with more players)")
    p.add_argument("--out", default="results")
    p.add_argument("--jobs", type=positive_int, default=1, help="processes per series (same result as 1)")
    p.add_argument(
        "--opening-plies",
        type=nonnegative_int,
        default=0,
        help="begin every game with this many random plies, each opening in every seating (as swgym eval)",
    )
    _add_ladder_rating_args(p)
    _add_rule_args(p)
    p.set_defaults(func=_training_command("ladder"))

    p = sub.add_parser(
        "train", help="self-play MaskablePPO training from training/configs/<game>.json (needs the train extra)"
    )
    p.add_argument("game")
    p.add_argument("--config", default=None, help="a config file instead of training/configs/<game>.json")
    p.add_argument(
        "--steps", type=positive_int, default=None, help="PPO env steps (the config's total_timesteps; with "
        "--minutes, its PPO phase's); the recording, imitation and evaluation phases have their own budgets below",
    )  # fmt: skip
    p.add_argument(
        "--imitation-games", type=nonnegative_int, default=None,
        help="games recorded for the imitation phase (0: no recording nor imitation); refused if the config has none",
    )  # fmt: skip
    p.add_argument("--imitation-epochs", type=positive_int, default=None, help="epochs of the imitation phase")
    p.add_argument("--eval-games", type=positive_int, default=None, help="games of each evaluation during PPO")
    p.add_argument(
        "--head", choices=("plain", "factored"), default=None,
        help="PPO's action head (default: the config's); factored: over the game's action layout, for Twirls, "
        "Swish and Squeeze",
    )  # fmt: skip
    p.add_argument(
        "--minutes",
        type=positive_float,
        nargs="?",
        const=10.0,
        default=None,
        help="the quick path (training/quick.py): record, imitate, PPO vs easy and evaluate within this many "
        "minutes of wall clock (default 10), writing <out>/<game>_quick.npz",
    )
    p.add_argument("--out", default=None, help="run folder (default runs/<game>)")
    p.add_argument("--ship", action="store_true", help="also write the shipped policies/<game>[_variant]_hard.npz")
    p.add_argument("--resume", action="store_true", help="go on from the run folder's last checkpoint")
    p.add_argument(
        "--env",
        choices=("auto", "single", "vector"),
        default=None,
        help="the env to train on (default: the config's, 'auto': the batched vector env where the game "
        "has an engine; 'single': the single-agent envs the shipped networks were trained on)",
    )
    p.add_argument("--no-progress", action="store_true")
    p.add_argument(
        "--backend",
        choices=("sb3", "rllib", "gumbel"),
        default="sb3",
        help="sb3: MaskablePPO (default); rllib: Ray RLlib self-play (needs the rllib extra); gumbel: Gumbel "
        "Expert Iteration, the engine's tree search writing the targets (the config's \"gumbel\" section; "
        "--iterations)",
    )
    p.add_argument(
        "--address",
        type=ray_address,
        default=None,
        help="rllib: the Ray to train on; gumbel: the Ray its self-play generators run on (the config's "
        '"generators", one CPU each), while this process learns. auto: a running cluster (ray start); local: '
        "Ray started here; HOST:PORT: a cluster's head (e.g. 10.0.0.5:6379). Default: rllib starts Ray here, "
        "gumbel runs without Ray",
    )
    p.add_argument("--iterations", type=positive_int, default=None, help="rllib, gumbel: training iterations")
    p.add_argument(
        "--env-runners",
        type=positive_int,
        default=None,
        help="rllib: env runners (default: the cluster's CPUs less one)",
    )
    _add_rule_args(p)
    p.set_defaults(func=_training_command("train"))

    p = sub.add_parser(
        "curves",
        help="baseline learning curves by wall-clock minute: the quick path and PPO from scratch (needs the train "
        "extra)",
        description="Two runs of --minutes each (the quick path, then MaskablePPO from a random network against "
        "random), the bare network saved every --every seconds, then every saved network scored against random, "
        "easy and medium (--games each, seats rotated). Writes <out>/curves.csv and <out>/curves.md.",
    )
    p.add_argument("game")
    p.add_argument("--minutes", type=positive_float, default=10.0, help="wall clock of each run (default 10)")
    p.add_argument("--every", type=positive_float, default=60.0, help="seconds between two snapshots (default 60)")
    p.add_argument("--games", type=positive_int, default=100, help="games per snapshot and opponent (default 100)")
    p.add_argument(
        "--opening-plies", type=nonnegative_int, default=0,
        help="begin every scored game with this many random plies (as swgym eval; the CSV's distinct column "
        "counts the games that differ)",
    )  # fmt: skip
    p.add_argument("--out", default=None, help="run folder (default runs/<game>_curves)")
    _add_rule_args(p)
    p.set_defaults(func=_training_command("curves"))

    p = sub.add_parser("export", help="export an SB3 MaskablePPO .zip to a numpy policy file (needs the train extra)")
    _add_export_args(p)
    p.add_argument("--out", required=True)
    p.add_argument(
        "--trust",
        action="store_true",
        help="load with SB3's own loader, which unpickles the file and may run code in it; "
        "by default only the weights are read",
    )
    _add_rule_args(p)
    p.set_defaults(func=_training_command("export"))


def _add_ladder_rating_args(p: argparse.ArgumentParser) -> None:
    """ladder's ratings: bootstrap samples, and rating a saved ladder again without playing."""
    p.add_argument(
        "--samples", type=nonnegative_int, default=200, help="bootstrap refits behind the 95%% intervals (0: none)"
    )
    p.add_argument(
        "--refit",
        default=None,
        metavar="LADDER_JSON",
        help="rate a saved <game>_ladder.json again (its pairs' win counts) with intervals, playing no game",
    )


def _add_export_args(p: argparse.ArgumentParser) -> None:
    """export GAME MODEL, as every command takes the game first; the old --game / --params are answered with what
    to type now."""
    p.add_argument("game", nargs="?", default=None)
    p.add_argument("model", nargs="?", default=None, help="the SB3 MaskablePPO .zip")
    p.add_argument("--game", dest="old_game", default=None, help=argparse.SUPPRESS)
    p.add_argument("--params", dest="old_params", default=None, help=argparse.SUPPRESS)


def check_export_args(args: argparse.Namespace) -> None:
    """A SystemExit saying what to type now for the old ``export MODEL --game GAME --params JSON``."""
    if args.old_game is not None or args.old_params is not None:
        game = args.old_game or "GAME"
        model = args.game or "MODEL"
        rules = ""
        if args.old_params:
            try:
                rules = "".join(f" --rule {k}={v!r}" for k, v in json.loads(args.old_params).items())
            except (ValueError, AttributeError):
                rules = " --rule KEY=VALUE"
        raise SystemExit(
            "swgym export: the game now comes first and rules as --rule, as in every other command: "
            f"swgym export {game} {model} --out {args.out}{rules}"
        )
    if args.game is None or args.model is None:
        raise SystemExit("swgym export: give the game and the model: swgym export GAME MODEL.zip --out FILE.npz")


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
