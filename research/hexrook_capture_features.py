"""Does a network that is shown the captures on the board play Swish/Squeeze better against medium?

The network alone, greedy, loses to medium in Swish and Squeeze however it is
trained: imitating medium or the compiled search, a hex-conv trunk, PPO,
Gumbel self-play (``results/2026-11-hexrook-expert-imitation.md``). The
reading there: the network still makes a tactical mistake most games, which
medium's one-move look-ahead punishes. Go programs met the same wall and fed
their policy networks tactical input features computed by the rules (AlphaGo:
capture size, self-atari size, liberties). This study gives our MLP such
features and measures the greedy network against medium again.

Features, all computed by the rules from the observation alone (no state,
no randomness), in two sets:

* ``now``: what the current position offers, without playing any move:
  * per cell (6 planes): the most a move of mine / the opponent's that
    lands on the cell takes; that takes the piece on the cell; that the
    rook on the cell can take;
  * per legal move (5 values): beads and rooks it takes, whether it wins at
    once, how much the opponent could take of the moving rook now (it
    flees), how much the opponent could take landing on its landing cell now
    (it blocks).
* ``reply``: ``now`` plus, per legal move, medium's own look-ahead terms:
  the most the opponent can take in reply after it, whether that reply wins
  or leaves the opponent without a move, and the most I could take next.
  This set holds a two-ply search, so a network using it is not a network
  alone in the issue's sense; it measures what medium's own view is worth
  to a network.

Network: our policies' MLP (tanh [256, 256] pi and vf towers) over the
observation and the planes; a move's logit is the tower's logit plus a small
MLP (F -> 32 -> 1, tanh) of the move's values, so every move is weighed by
the same learned function of its captures. The features ride in the
input vector (observation, planes, then ``MAX_MOVES`` slots of action index
and values), so the training loop, agreement and greedy play are the ones of
:mod:`research.hexrook_conv_imitation`.

    python -m research.hexrook_capture_features --game swish --teacher FILE --data DIR [--record] [--features now,none]

``--data`` holds ``train.npz`` and ``heldout.npz`` recorded by
:func:`research.hexrook_conv_imitation.record` (the teacher's games); with
``--record`` they are recorded first; the trained weights go there
too. ``none`` is the plain MLP on the same data, for comparison. Writes
``<out>/<game>.json`` and ``<game>.png``, by default under
``results/2026-11-hexrook-capture-features/`` (the figures:
``results/2026-11-hexrook-capture-features.md``).
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
from torch import nn

from envs.hexrook.board import BEAD, EMPTY, PHASE_PLAY, ROOK_VALUE, THREAT_CAP, WIN, HexRookGame, gain, take_value
from envs.hexrook.env import _observation
from envs.play import play_series
from policies.evaluation import wilson_interval
from research.hexrook_conv_imitation import GAMES, Greedy, MlpNet, plot, record, rules, train
from research.processes import run_jobs
from training.imitation import Demonstrations

OWN, ENEMY = 1, 2  # board codes of the observer's and the opponent's rooks in a position read off an observation
MAX_MOVES = 160  # slots for legal moves per position (3 rooks x 6 directions x at most 8 cells)
SETS = {"now": 5, "reply": 9}  # feature set -> values per move
PLANES = 6
SCALE = ROOK_VALUE  # values are divided by a rook's worth so that most lie in [0, 3]
OUT = Path("results/2026-11-hexrook-capture-features")


@dataclasses.dataclass
class Position:
    """A play-phase position read off the observer's observation (the observer to move)."""

    board: bytearray
    mine: list[int]
    theirs: list[int]
    need_me: int
    need_them: int
    last_ply: bool


def read_position(game: HexRookGame, obs: np.ndarray) -> Position:
    """The board, rooks and bead targets an observation shows, with the observer's rooks coded ``OWN``."""
    n = game.hex.n
    layout = _observation(n)
    planes = obs[: 4 * n].reshape(4, n)
    board = bytearray(n)
    for code, plane in ((OWN, 0), (ENEMY, 1), (BEAD, 2)):
        board_cells = np.flatnonzero(planes[plane] > 0.5)
        for c in board_cells.tolist():
            board[c] = code
    target = game.params["beads_to_win"]
    stores = np.rint(obs[layout["stores"]] * target).astype(int)
    plies = int(round(float(obs[layout["plies"]][0]) * game.params["max_plies"]))
    return Position(
        board,
        np.flatnonzero(planes[0] > 0.5).tolist(),
        np.flatnonzero(planes[1] > 0.5).tolist(),
        target - int(stores[0]),
        target - int(stores[1]),
        plies + 1 >= game.params["max_plies"],
    )


def _maps(game: HexRookGame, board: bytearray, moves: list) -> np.ndarray:
    """(3, cells): the most a move of ``moves`` takes landing on a cell, taking the cell's piece, from the cell."""
    out = np.zeros((3, game.hex.n), dtype=np.float32)
    for _action, cell, land, taken in moves:
        if not taken:
            continue
        value = take_value(board, taken)
        out[0, land] = max(out[0, land], value)
        for c in taken:
            out[1, c] = max(out[1, c], value)
        out[2, cell] = max(out[2, cell], value)
    return out


def best_take(
    game: HexRookGame, board: list[int], rooks: list[int], own: int, enemy: int, beads_needed: int, enemy_rooks: int
) -> tuple[float, bool]:
    """(value of the best capture, has any move) for the side with ``rooks``; WIN if it can win at once."""
    best, any_move = 0.0, False
    for _action, _cell, _land, taken in game.capture_moves(board, rooks, own, enemy):
        any_move = True
        if taken:
            beads, rks = gain(board, taken)
            if beads >= beads_needed or rks >= enemy_rooks:
                return WIN, True
            value = beads + ROOK_VALUE * rks
            if value > best:
                best = value
    return best, any_move


def after_move(
    board: list[int], cell: int, land: int, taken: list[int], own: int, my_rooks: list[int], their_rooks: list[int]
) -> tuple[list[int], list[int], list[int]]:
    """(board, my rooks, their rooks) after my rook (board code ``own``) moves ``cell`` -> ``land`` taking
    ``taken``: the position a one-move look-ahead reads, without the game's own bookkeeping."""
    after = board[:]
    after[cell], after[land] = EMPTY, own
    for c in taken:
        after[c] = EMPTY
    mine = [land if c == cell else c for c in my_rooks]
    theirs = [c for c in their_rooks if c not in taken]
    return after, mine, theirs


def capture_features(game: HexRookGame, obs: np.ndarray, features: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(planes (PLANES, cells), actions (k,), values (k, SETS[features])) of a play-phase observation."""
    pos = read_position(game, obs)
    board = pos.board
    my_moves = game.capture_moves(board, pos.mine, OWN, ENEMY)
    their_moves = game.capture_moves(board, pos.theirs, ENEMY, OWN)
    mine, theirs = _maps(game, board, my_moves), _maps(game, board, their_moves)
    planes = np.concatenate([mine, theirs]) / SCALE
    values = np.zeros((len(my_moves), SETS[features]), dtype=np.float32)
    actions = np.zeros(len(my_moves), dtype=np.int64)
    for i, (action, cell, land, taken) in enumerate(my_moves):
        actions[i] = action
        beads, rooks = gain(board, taken)
        wins = beads >= pos.need_me or (rooks and rooks >= len(pos.theirs))
        values[i, :5] = beads / SCALE, rooks, wins, theirs[1, cell] / SCALE, theirs[0, land] / SCALE
        if features == "reply" and not wins and not pos.last_ply:
            after, moved, left = after_move(board, cell, land, taken, OWN, pos.mine, pos.theirs)
            reply, they_move = best_take(game, after, left, ENEMY, OWN, pos.need_them, len(moved))
            threat, _ = best_take(game, after, moved, OWN, ENEMY, pos.need_me - beads, len(left))
            reply_wins = reply >= WIN
            values[i, 5:] = (
                0.0 if reply_wins else reply / SCALE,
                reply_wins,
                not they_move,
                min(threat, THREAT_CAP) / SCALE,
            )
    return planes, actions, values


def extra_size(game: HexRookGame, features: str) -> int:
    """Floats appended to an observation: the planes, then per move slot its action and values."""
    return PLANES * game.hex.n + MAX_MOVES * (1 + SETS[features])


def extend(game: HexRookGame, obs: np.ndarray, features: str) -> np.ndarray:
    """The observation with the capture features appended (zeros outside the play phase; action slots -1)."""
    n = game.hex.n
    extra = np.zeros(extra_size(game, features), dtype=np.float32)
    slots = extra[PLANES * n :].reshape(MAX_MOVES, 1 + SETS[features])
    slots[:, 0] = -1.0
    if obs[5 * n + PHASE_PLAY] == 1.0:
        planes, actions, values = capture_features(game, obs, features)
        if len(actions) > MAX_MOVES:
            raise ValueError(f"{len(actions)} moves: more than the {MAX_MOVES} slots")
        extra[: PLANES * n] = planes.ravel()
        slots[: len(actions), 0] = actions
        slots[: len(actions), 1:] = values
    return np.concatenate([np.asarray(obs, dtype=np.float32), extra])


class FeatureNet(nn.Module):
    """The MLP over observation and planes, plus a learned bonus of each legal move's values on its logit."""

    def __init__(self, game: HexRookGame, observation_size: int, num_actions: int, features: str) -> None:
        super().__init__()
        self.observation_size = observation_size
        self.planes = PLANES * game.hex.n
        self.per_move = SETS[features]
        self.num_actions = num_actions
        self.trunk = MlpNet(observation_size + self.planes, num_actions)
        self.bonus = nn.Sequential(nn.Linear(self.per_move, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        head = self.observation_size + self.planes
        logits, values = self.trunk(x[:, :head])
        slots = x[:, head:].reshape(len(x), MAX_MOVES, 1 + self.per_move)
        actions = slots[:, :, 0].long()
        used = actions >= 0
        bonus = self.bonus(slots[:, :, 1:]).squeeze(2) * used
        index = torch.where(used, actions, torch.full_like(actions, self.num_actions))
        extra = torch.zeros(len(x), self.num_actions + 1, dtype=logits.dtype)
        extra.scatter_add_(1, index, bonus)
        return logits + extra[:, : self.num_actions], values


def _extend_chunk(task: tuple[str, np.ndarray, str]) -> np.ndarray:
    name, observations, features = task
    game = rules(name, {"setup": "random"})
    return np.stack([extend(game, obs, features) for obs in observations])


def extend_all(name: str, demos: Demonstrations, features: str, jobs: int) -> Demonstrations:
    """``demos`` with every observation extended, over ``jobs`` processes (the same rows for any ``jobs``)."""
    chunks = np.array_split(demos.observations, max(1, len(demos) // 2000))
    tasks = [(name, chunk, features) for chunk in chunks]
    return dataclasses.replace(demos, observations=np.concatenate(run_jobs(_extend_chunk, tasks, jobs)))


class FeatureGreedy(Greedy):
    """:class:`Greedy` on the observation with the capture features appended."""

    def __init__(self, game: HexRookGame, net: FeatureNet, features: str) -> None:
        super().__init__(net)
        self.game, self.features = game, features

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        x = extend(self.game, np.asarray(observation, dtype=np.float32), self.features)
        return super().act(x, action_mask, state)


def with_features(name: str, demos: Demonstrations, features: str, jobs: int) -> Demonstrations:
    """``demos`` as a network with ``features`` reads them (``none``: unchanged)."""
    return demos if features == "none" else extend_all(name, demos, features, jobs)


def fit_and_score(
    name: str, features: str, train_set: Demonstrations, held_set: Demonstrations, args: argparse.Namespace, label: str
) -> tuple[nn.Module, dict[str, Any]]:
    """A network with ``features`` (``none``: the plain MLP) trained on ``train_set`` (read by
    :func:`with_features`) and its greedy score against medium over ``args.eval_games`` (seed
    ``args.seed + 30_011``): the net and its report (per-epoch history, score, seconds). ``args``: the training
    settings of :func:`train` and ``eval_games``."""
    params = {"setup": "random"}
    game = rules(name, params)
    num_actions = train_set.masks.shape[1]
    observation_size = train_set.observations.shape[1] - (0 if features == "none" else extra_size(game, features))
    torch.manual_seed(args.seed)
    net = (
        MlpNet(observation_size, num_actions)
        if features == "none"
        else FeatureNet(game, observation_size, num_actions, features)
    )
    clock = time.time()
    history = train(net, train_set, held_set, args, f"{label}/{features}")
    train_seconds = time.time() - clock
    player = Greedy(net) if features == "none" else FeatureGreedy(game, net, features)
    clock = time.time()
    series = play_series(name, [player, "medium"], args.eval_games, seed=args.seed + 30_011, **params)
    score = {"wins": series.wins[0], "draws": series.draws[0], "losses": series.losses[0]}
    score["score"] = (score["wins"] + 0.5 * score["draws"]) / args.eval_games
    low, high = wilson_interval(score["wins"], args.eval_games)
    score["wins_interval"] = [low, high]
    print(
        f"[{label}/{features}] greedy against medium: {score['wins']}/{score['draws']}/{score['losses']} "
        f"(wins {low:.1%}-{high:.1%}), {time.time() - clock:.0f} s",
        flush=True,
    )
    seconds = {"train": train_seconds, "eval": time.time() - clock}
    return net, {"history": history, "vs_medium": score, "seconds": seconds}


def load(path: Path) -> Demonstrations:
    with np.load(path) as data:
        return Demonstrations(*(data[field.name] for field in dataclasses.fields(Demonstrations)))


def save(demos: Demonstrations, path: Path) -> None:
    np.savez(path, **{field.name: getattr(demos, field.name) for field in dataclasses.fields(Demonstrations)})


TEACHER_HELP = "the policy file whose moves the data holds"


def add_data_arguments(parser: argparse.ArgumentParser, teacher: str = TEACHER_HELP) -> None:
    """The studies' ``--game``, ``--data`` (the folder of ``train.npz`` and ``heldout.npz``) and ``--teacher``."""
    parser.add_argument("--game", choices=GAMES, required=True)
    parser.add_argument("--data", type=Path, required=True, help="folder of train.npz and heldout.npz")
    parser.add_argument("--teacher", required=True, help=teacher)


def add_training_arguments(parser: argparse.ArgumentParser, features: str, eval_games: int) -> None:
    """The options of :func:`fit_and_score` and :func:`with_features`, with these defaults."""
    parser.add_argument("--features", default=features, help="comma-separated sets: now, reply, none")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--value-weight", type=float, default=2.0)
    parser.add_argument("--eval-games", type=int, default=eval_games)
    parser.add_argument("--agreement-rows", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)


def checked_training_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    """The feature sets named by ``--features``; a nonsense set or count is refused by its option's name."""
    sets = args.features.split(",")
    if not sets or set(sets) - {*SETS, "none"}:
        parser.error(f"--features: a comma-separated list of {', '.join(SETS)}, none; got {args.features!r}")
    for name in ("epochs", "batch", "eval_games", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1")
    return sets


def check_data(parser: argparse.ArgumentParser, folder: Path) -> None:
    """Refuse a ``--data`` folder without the recorded ``train.npz`` and ``heldout.npz``, by name."""
    missing = [name for name in ("train.npz", "heldout.npz") if not (folder / name).is_file()]
    if missing:
        found = f"{folder} has no {' or '.join(missing)}"
        parser.error(f"--data: {found} (research.hexrook_capture_features --record writes them)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_arguments(parser)
    parser.add_argument("--record", action="store_true", help="record the data first (the teacher with its search)")
    parser.add_argument("--games", type=int, default=6000, help="with --record: training games")
    parser.add_argument("--heldout-games", type=int, default=600, help="with --record: held-out games")
    add_training_arguments(parser, features="now,reply", eval_games=200)
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the report and plot")
    args = parser.parse_args(argv)
    sets = checked_training_arguments(parser, args)
    for name in ("games", "heldout_games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1")
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    params = {"setup": "random"}
    if args.record:
        args.data.mkdir(parents=True, exist_ok=True)
        save(record(args.game, params, args.teacher, args.games, args.seed, args.jobs), args.data / "train.npz")
        save(
            record(args.game, params, args.teacher, args.heldout_games, args.seed + 10_007, args.jobs),
            args.data / "heldout.npz",
        )
    check_data(parser, args.data)
    demos, held = load(args.data / "train.npz"), load(args.data / "heldout.npz")
    torch.set_num_threads(1)
    report: dict[str, Any] = {
        "game": args.game,
        "data": str(args.data),
        "teacher": args.teacher,
        "games": len(demos),
        "unit": "training positions",
        "ceiling": None,
        "args": vars(args) | {"data": str(args.data), "out": str(out)},
    }
    report["positions"] = {"train": len(demos), "heldout": len(held), "train_teacher": int(demos.by_teacher.sum())}
    report["nets"] = {}
    for features in sets:
        clock = time.time()
        train_set, held_set = (with_features(args.game, d, features, args.jobs) for d in (demos, held))
        feature_seconds = time.time() - clock
        if features != "none":
            rows = len(train_set) + len(held_set)
            print(f"[{args.game}/{features}] features of {rows} rows, {feature_seconds:.0f} s", flush=True)
        net, run = fit_and_score(args.game, features, train_set, held_set, args, args.game)
        run["seconds"] = {"features": feature_seconds, **run["seconds"]}
        report["nets"][features] = run
        (out / f"{args.game}.json").write_text(json.dumps(report, indent=2))
        plot(args.game, report, out / f"{args.game}.png")
        torch.save(net.state_dict(), args.data / f"{args.game}_{features}.pt")


if __name__ == "__main__":
    main()
