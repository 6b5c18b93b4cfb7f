"""Does a network that sees the hex board's geometry imitate Swish/Squeeze's medium better than the MLP?

Issue 22 (learned strength): the MLP [256, 256] over the flat observation
picks medium's move 45% (Swish) / 37% (Squeeze) of the time after imitation.
The guess: an MLP over raw planes cannot see rook rays; a net with the hex
geometry built in should do far better. This study trains two networks the
same way on the same recorded games and measures both:

* ``mlp``: our policies' network (SB3 ``MlpPolicy``, tanh [256, 256] pi and
  vf towers, a linear head over all actions), built by sb3-contrib;
* ``conv``: a hex-board "cell conv" net (:class:`HexConvNet`): each layer
  gives every cell a linear map (+ ReLU) of its own features and its 6
  neighbours' (zeros off the board), residual from layer 2 on; the move
  logits of a rook's cell come from that cell's features (48 per cell:
  6 directions x 8 distances, exactly the action layout), the other actions
  (placements, choices) and the value from the features pooled over cells.
  8 layers: a layer reaches one step further, and 8 steps span the radius-4
  board (its longest ray), so every cell's logits can see every cell;
  32 channels: the smallest width of the 32-64 range, as 8 layers of 32
  already cost about 10x the MLP's time per position on one CPU thread.

Training is :func:`training.imitation.pretrain`'s: cross-entropy of the
masked logits on the teacher's moves only, value MSE on the outcomes
(weight ``--value-weight``), Adam, gradient norm clipped at 0.5, the same
epochs, batch and learning rate for both nets. Measured per epoch: the
held-out and training-set agreement with medium (argmax of the masked
logits == medium's move, teacher rows), the value loss; at the end, the
greedy net against medium (``--eval-games``, seats alternated). Medium draws
among equally scored moves, so agreement has a ceiling below 100%:
:func:`tie_ceiling` estimates it from medium's own scores.

    python -m research.hexrook_conv_imitation --game swish [--games 20000] [--epochs 6] [--channels 48]

``--teacher FILE`` makes the teacher a policy file with its play-time search
(Expert Iteration's first step: the apprentice learns the expert's moves);
its games are recorded game by game in seeded chunks, over ``--jobs``
processes, with the same positions for any number of processes.

Writes ``results/2026-11-hexrook-conv/<game>.json`` and ``<game>.png``
(with another teacher, under ``results/2026-11-hexrook-expert-imitation/``, unless ``--out``);
the figures: ``results/2026-11-hexrook-conv.md`` and ``results/2026-11-hexrook-expert-imitation.md``.
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

from envs.hexrook.board import PHASE_PLAY, HexRookGame
from envs.hexrook.bots import MediumBot
from envs.hexrook.env import EXTRA_FEATURES
from envs.opponents import make_opponent
from envs.play import play_game, play_series
from envs.registry import game_module
from research.processes import run_jobs
from training.imitation import Demonstrations, collect, collect_batched

GAMES = ("swish", "squeeze")
OPPONENTS = {"medium": 0.7, "random": 0.3}  # who the teacher plays in the recorded games
CHUNK_GAMES = 100  # a search teacher's games, recorded in seeded chunks of this many
PLANES = 5  # per-cell planes of the observation: own rooks, enemy rooks, beads, empty, edge
OUT = Path("results/2026-11-hexrook-conv")
EXPERT_OUT = Path("results/2026-11-hexrook-expert-imitation")  # the default --out when the teacher is not medium


def rules(game: str, params: dict[str, Any]) -> HexRookGame:
    """The game's rules object (its ``hex`` is the board geometry)."""
    if game not in GAMES:
        raise ValueError(f"not a hex-rook game: {game!r}; use one of {GAMES}")
    return game_module(game).raw_env.game_cls(**params)


def neighbour_table(game: HexRookGame) -> np.ndarray:
    """(cells, 6) int64: the neighbour of each cell in directions 0..5, ``cells`` where it is off the board."""
    hexb = game.hex
    table = np.full((hexb.n, 6), hexb.n, dtype=np.int64)
    for cell in range(hexb.n):
        for d in range(6):
            ray = hexb.rays[cell][d]
            if ray:
                table[cell, d] = ray[0]
    return table


class CellConv(nn.Module):
    """Per cell: linear map of (own features, 6 neighbours' features) + ReLU; residual when widths agree."""

    def __init__(self, neighbours: torch.Tensor, width_in: int, width_out: int, residual: bool) -> None:
        super().__init__()
        self.register_buffer("neighbours", neighbours, persistent=False)
        self.linear = nn.Linear(7 * width_in, width_out)
        self.residual = residual

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, cells, width = x.shape
        padded = torch.cat([x, x.new_zeros(batch, 1, width)], dim=1)  # row ``cells``: off the board
        around = padded[:, self.neighbours]  # (batch, cells, 6, width)
        y = torch.relu(self.linear(torch.cat([x, around.reshape(batch, cells, 6 * width)], dim=2)))
        return x + y if self.residual else y


class HexConvNet(nn.Module):
    """Cell-conv trunk; move logits per cell (``cell*48 + k``), other actions and value from pooled features."""

    def __init__(self, game: HexRookGame, num_actions: int, layers: int = 8, channels: int = 48) -> None:
        super().__init__()
        n, radius = game.hex.n, game.radius
        self.cells = n
        self.per_cell = 6 * 2 * radius  # the move encoding: (cell*6 + direction)*2*radius + (distance - 1)
        self.moves = n * self.per_cell
        self.num_actions = num_actions
        neighbours = torch.as_tensor(neighbour_table(game))
        width_in = PLANES + EXTRA_FEATURES
        self.trunk = nn.ModuleList(
            CellConv(neighbours, width_in if i == 0 else channels, channels, residual=i > 0) for i in range(layers)
        )
        self.move_head = nn.Linear(channels, self.per_cell)
        self.other_head = nn.Linear(channels + EXTRA_FEATURES, num_actions - self.moves)
        self.value_head = nn.Sequential(
            nn.Linear(channels + EXTRA_FEATURES, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh()
        )

    def features(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(per-cell features (B, cells, channels), extras (B, 13)) of flat observations (B, 5*cells + 13)."""
        n = self.cells
        planes = obs[:, : PLANES * n].reshape(-1, PLANES, n).transpose(1, 2)
        extras = obs[:, PLANES * n :]
        x = torch.cat([planes, extras[:, None, :].expand(-1, n, -1)], dim=2)
        for layer in self.trunk:
            x = layer(x)
        return x, extras

    def heads(self, x: torch.Tensor, extras: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits (B, actions), value (B,)) from the trunk's features."""
        pooled = torch.cat([x.mean(dim=1), extras], dim=1)
        moves = self.move_head(x).reshape(x.shape[0], self.moves)  # cell c's logit k -> action c*per_cell + k
        logits = torch.cat([moves, self.other_head(pooled)], dim=1)
        return logits, self.value_head(pooled).squeeze(1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.heads(*self.features(obs))


class MlpNet(nn.Module):
    """Our policies' network: sb3-contrib's ``MaskableActorCriticPolicy``, tanh [256, 256] per tower."""

    def __init__(self, observation_size: int, num_actions: int, hidden: tuple[int, ...] = (256, 256)) -> None:
        super().__init__()
        from gymnasium import spaces
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

        self.policy = MaskableActorCriticPolicy(
            spaces.Box(0.0, 1.0, (observation_size,), np.float32),
            spaces.Discrete(num_actions),
            lambda _: 1e-3,
            net_arch={"pi": list(hidden), "vf": list(hidden)},
            activation_fn=nn.Tanh,
        )

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        latent_pi, latent_vf = self.policy.mlp_extractor(self.policy.extract_features(obs))
        return self.policy.action_net(latent_pi), self.policy.value_net(latent_vf).squeeze(1)


def masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with the illegal actions pushed to -1e8 (as sb3-contrib masks them)."""
    return torch.where(mask, logits, torch.full_like(logits, -1e8))


def build(kind: str, game: HexRookGame, observation_size: int, num_actions: int, args: argparse.Namespace):
    if kind == "mlp":
        return MlpNet(observation_size, num_actions)
    return HexConvNet(game, num_actions, layers=args.layers, channels=args.channels)


def check_wiring(net: HexConvNet, demos: Demonstrations) -> None:
    """Assert the conv net's layout: a move's logit comes from its rook's cell; masked probabilities are sane.

    * every legal move in a play-phase row starts on a cell of the mover's own rook plane (so action
      ``c*48 + k`` is a move of the rook on cell c, the cell whose features give that logit);
    * changing the trunk's features of one cell changes exactly that cell's 48 move logits (and the
      pooled heads), no other move logit;
    * on a batch, the masked softmax is finite, sums to 1 and puts no weight on illegal actions.
    """
    n, per_cell = net.cells, net.per_cell
    play = np.flatnonzero(demos.observations[:, 5 * n + PHASE_PLAY] == 1.0)[:500]
    for row in play:
        legal = np.flatnonzero(demos.masks[row, : net.moves])
        assert (demos.observations[row, legal // per_cell] == 1.0).all(), f"row {row}: a move not from own rook"
    obs = torch.as_tensor(demos.observations[:64])
    with torch.no_grad():
        x, extras = net.features(obs)
        before, _ = net.heads(x, extras)
        cell = 17
        bumped = x.clone()
        bumped[:, cell] += 1.0
        after, _ = net.heads(bumped, extras)
        changed = (after[:, : net.moves] != before[:, : net.moves]).any(dim=0).nonzero().flatten()
        expected = torch.arange(cell * per_cell, (cell + 1) * per_cell)
        assert torch.equal(changed, expected), f"moves changed by cell {cell}: {changed.tolist()}"
        mask = torch.as_tensor(demos.masks[:64])
        probs = torch.softmax(masked(before, mask), dim=1)
    assert torch.isfinite(probs).all()
    assert torch.allclose(probs.sum(dim=1), torch.ones(len(probs)), atol=1e-5)
    assert float(probs[~mask].sum()) < 1e-6


def agreement(net: nn.Module, demos: Demonstrations, rows: np.ndarray, batch: int = 2048) -> float:
    """Share of ``rows`` where the argmax of the masked logits is the recorded move."""
    hits = 0
    net.eval()
    with torch.no_grad():
        for lo in range(0, len(rows), batch):
            idx = rows[lo : lo + batch]
            logits, _ = net(torch.as_tensor(demos.observations[idx]))
            pick = masked(logits, torch.as_tensor(demos.masks[idx])).argmax(dim=1).numpy()
            hits += int((pick == demos.actions[idx]).sum())
    return hits / max(1, len(rows))


def value_loss(net: nn.Module, demos: Demonstrations, batch: int = 2048) -> float:
    """Mean squared error of the value head on every row's outcome."""
    total = 0.0
    net.eval()
    with torch.no_grad():
        for lo in range(0, len(demos), batch):
            _, values = net(torch.as_tensor(demos.observations[lo : lo + batch]))
            total += float(((values - torch.as_tensor(demos.outcomes[lo : lo + batch])) ** 2).sum())
    return total / max(1, len(demos))


def train(
    net: nn.Module, demos: Demonstrations, held: Demonstrations, args: argparse.Namespace, label: str
) -> list[dict[str, float]]:
    """``pretrain``'s loop on a plain module; per epoch: losses, agreements (train sample, held-out), seconds."""
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr)
    order_rng = np.random.default_rng(args.seed)
    sample_rng = np.random.default_rng(args.seed + 1)
    obs, actions = torch.as_tensor(demos.observations), torch.as_tensor(demos.actions)
    taught, targets = torch.as_tensor(demos.by_teacher), torch.as_tensor(demos.outcomes)
    train_rows = np.flatnonzero(demos.by_teacher)
    train_rows = np.sort(sample_rng.choice(train_rows, min(len(train_rows), args.agreement_rows), replace=False))
    held_rows = np.flatnonzero(held.by_teacher)
    history = []
    for epoch in range(1, args.epochs + 1):
        net.train()
        clock = time.time()
        order = order_rng.permutation(len(demos))
        totals = np.zeros(3)
        for lo in range(0, len(order), args.batch):
            idx = order[lo : lo + args.batch]
            logits, values = net(obs[idx])
            log_probs = torch.log_softmax(masked(logits, torch.as_tensor(demos.masks[idx])), dim=1)
            log_prob = log_probs.gather(1, actions[idx, None]).squeeze(1)
            weight = taught[idx].float()
            policy_loss = -(log_prob * weight).sum() / weight.sum().clamp(min=1.0)
            v_loss = torch.mean((values - targets[idx]) ** 2)
            loss = policy_loss + args.value_weight * v_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimizer.step()
            totals += [policy_loss.item() * len(idx), v_loss.item() * len(idx), len(idx)]
        train_seconds = time.time() - clock
        entry = {
            "epoch": epoch,
            "policy_loss": totals[0] / totals[2],
            "value_loss": totals[1] / totals[2],
            "train_agreement": agreement(net, demos, train_rows),
            "heldout_agreement": agreement(net, held, held_rows),
            "heldout_value_loss": value_loss(net, held),
            "train_seconds": train_seconds,
        }
        history.append(entry)
        print(
            f"[{label}] epoch {epoch}/{args.epochs}: policy loss {entry['policy_loss']:.3f}, value loss "
            f"{entry['value_loss']:.3f} (held-out {entry['heldout_value_loss']:.3f}), agreement train "
            f"{entry['train_agreement']:.1%} held-out {entry['heldout_agreement']:.1%}, {train_seconds:.0f} s",
            flush=True,
        )
    net.eval()
    return history


class Greedy:
    """An opponent playing the argmax of a net's masked logits."""

    def __init__(self, net: nn.Module) -> None:
        self.net = net

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        with torch.no_grad():
            logits, _ = self.net(torch.as_tensor(np.asarray(observation, dtype=np.float32))[None])
        mask = torch.as_tensor(np.asarray(action_mask).astype(bool))[None]
        return int(masked(logits, mask).argmax(dim=1)[0])


class TieCounter:
    """Medium, counting at each of its play-phase moves how many moves share its best score."""

    def __init__(self, bot: MediumBot) -> None:
        self.bot = bot
        self.ties: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        self.bot.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        if state.phase == PHASE_PLAY:
            _, scores = self.bot.scored_moves(state)
            self.ties.append(scores.count(max(scores)))
        return self.bot.act(observation, action_mask, state)


def tie_ceiling(game: str, params: dict[str, Any], games: int, seed: int) -> dict[str, float]:
    """Medium's ties in games like the recorded ones (medium against medium 0.7 / random 0.3, seats rotated).

    A predictor that knows medium's scores exactly matches its move with chance 1/k at a k-way tie: the mean
    of 1/k is the agreement ceiling.
    """
    rng = np.random.default_rng(seed)
    counter = TieCounter(MediumBot(rules(game, params), seed=seed))
    for g in range(games):
        other = make_opponent(game, "medium" if rng.random() < 0.7 else "random", seed=int(rng.integers(2**31)))
        seats = [counter, other] if g % 2 == 0 else [other, counter]
        play_game(game, seats, seed=int(rng.integers(2**31)), **params)
    ties = np.asarray(counter.ties)
    return {
        "positions": int(ties.size),
        "share_tied": float(np.mean(ties > 1)),
        "mean_tied_moves": float(np.mean(ties)),
        "ceiling": float(np.mean(1.0 / ties)),
    }


def _collect_chunk(task: tuple[str, dict[str, Any], str, int, int]) -> Demonstrations:
    game, params, teacher, games, seed = task
    return collect(game, params, teacher, OPPONENTS, games=games, seed=seed, progress=False)


def join(parts: list[Demonstrations]) -> Demonstrations:
    """One set of positions from several, in order."""
    names = [field.name for field in dataclasses.fields(Demonstrations)]
    return Demonstrations(*(np.concatenate([getattr(part, name) for part in parts]) for name in names))


def record(game: str, params: dict[str, Any], teacher: str, games: int, seed: int, jobs: int = 1) -> Demonstrations:
    """``games`` recorded games of ``teacher`` against ``OPPONENTS``, seats rotated.

    Medium's are played on the batched engine; any other teacher's (a policy
    file, its search included) game by game in chunks of ``CHUNK_GAMES``
    seeded by their index, so ``jobs`` does not change the positions.
    """
    if teacher == "medium":
        return collect_batched(game, params, "medium", OPPONENTS, games=games, seed=seed, boards=512)
    tasks = [
        (game, params, teacher, min(CHUNK_GAMES, games - lo), seed * 100_003 + k)
        for k, lo in enumerate(range(0, games, CHUNK_GAMES))
    ]
    clock = time.time()

    def done(count: int, _part: Demonstrations) -> None:
        print(f"[{game}] {count}/{len(tasks)} chunks of {teacher}'s games, {time.time() - clock:.0f} s", flush=True)

    return join(run_jobs(_collect_chunk, tasks, jobs, on_result=done))


def plot(game: str, report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for (kind, run), colour in zip(report["nets"].items(), ("tab:blue", "tab:green", "tab:orange")):
        epochs = [h["epoch"] for h in run["history"]]
        held = [100 * h["heldout_agreement"] for h in run["history"]]
        ax.plot(epochs, held, marker="o", color=colour, label=f"{kind} held-out")
        train = [100 * h["train_agreement"] for h in run["history"]]
        ax.plot(epochs, train, ls="--", alpha=0.6, color=colour, label=f"{kind} train")
    if report["ceiling"] is not None:
        ax.axhline(100 * report["ceiling"]["ceiling"], color="grey", ls=":", label="ceiling (medium's ties)")
    teacher = Path(report["teacher"]).stem
    ax.set_xlabel("epoch")
    ax.set_ylabel(f"picks {teacher}'s move (%)")
    ax.set_title(f"{game}: imitating {teacher}, {report['games']} {report.get('unit', 'games')}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, required=True)
    parser.add_argument("--games", type=int, default=20000, help="training games recorded")
    parser.add_argument("--heldout-games", type=int, default=2000)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--value-weight", type=float, default=2.0)
    parser.add_argument("--layers", type=int, default=8)
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--ceiling-games", type=int, default=200)
    parser.add_argument("--agreement-rows", type=int, default=20000, help="training rows sampled for agreement")
    parser.add_argument("--nets", default="mlp,conv")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help=f"default {OUT}, or {EXPERT_OUT} with another teacher")
    parser.add_argument(
        "--teacher", default="medium", help="medium, or another player: a difficulty or a policy file (its search on)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes recording another teacher's games")
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = OUT if args.teacher == "medium" else EXPERT_OUT
    nets = args.nets.split(",")
    if not nets or set(nets) - {"mlp", "conv"}:
        parser.error(f"--nets: a comma-separated list of mlp, conv; got {args.nets!r}")
    for name in ("games", "heldout_games", "epochs", "batch", "layers", "channels", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1")
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    params = {"setup": "random"}
    game = rules(args.game, params)
    if args.teacher != "medium":
        try:
            make_opponent(args.game, args.teacher, **params)
        except (ValueError, TypeError, OSError) as error:
            parser.error(f"--teacher: {error}")
    report: dict[str, Any] = {
        "game": args.game,
        "games": args.games,
        "teacher": args.teacher,
        "args": vars(args) | {"out": str(args.out)},
    }
    times: dict[str, float] = {}

    clock = time.time()
    demos = record(args.game, params, args.teacher, args.games, args.seed, args.jobs)
    held = record(args.game, params, args.teacher, args.heldout_games, args.seed + 10_007, args.jobs)
    times["collect"] = time.time() - clock
    report["positions"] = {"train": len(demos), "train_teacher": int(demos.by_teacher.sum())}
    report["positions"] |= {"heldout": len(held), "heldout_teacher": int(held.by_teacher.sum())}
    print(f"[{args.game}] recorded {report['positions']} in {times['collect']:.0f} s", flush=True)

    report["ceiling"] = None  # medium's ties bound the agreement with medium only
    if args.teacher == "medium":
        clock = time.time()
        report["ceiling"] = tie_ceiling(args.game, params, args.ceiling_games, args.seed + 20_011)
        times["ceiling"] = time.time() - clock
        print(f"[{args.game}] medium's ties: {report['ceiling']} ({times['ceiling']:.0f} s)", flush=True)

    observation_size, num_actions = demos.observations.shape[1], demos.masks.shape[1]
    report["nets"] = {}
    args.out.mkdir(parents=True, exist_ok=True)
    for kind in nets:
        torch.manual_seed(args.seed)
        net = build(kind, game, observation_size, num_actions, args)
        if isinstance(net, HexConvNet):
            check_wiring(net, held)
            print(f"[{args.game}] conv wiring checked", flush=True)
        count = sum(p.numel() for p in net.parameters())
        print(f"[{args.game}/{kind}] {count} parameters", flush=True)
        clock = time.time()
        history = train(net, demos, held, args, f"{args.game}/{kind}")
        train_time = time.time() - clock
        clock = time.time()
        series = play_series(args.game, [Greedy(net), "medium"], args.eval_games, seed=args.seed + 30_011, **params)
        eval_time = time.time() - clock
        score = {"wins": series.wins[0], "draws": series.draws[0], "losses": series.losses[0]}
        print(f"[{args.game}/{kind}] greedy against medium: {score} ({eval_time:.0f} s)", flush=True)
        report["nets"][kind] = {
            "parameters": count,
            "history": history,
            "vs_medium": score,
            "seconds": {"train": train_time, "eval": eval_time},
        }
        report["times"] = times
        (args.out / f"{args.game}.json").write_text(json.dumps(report, indent=2))
        plot(args.game, report, args.out / f"{args.game}.png")
    print(f"[{args.game}] written {args.out / args.game}.json and .png", flush=True)


if __name__ == "__main__":
    main()
