"""Random-play speed of every game against PettingZoo's connect_four_v3, in one run.

An agent-step is one ``last()`` (observation and mask built) plus one
``step()`` through the wrapped PettingZoo env, exactly as a user's loop does;
the random agent picks from the mask as cheaply as numpy allows, so that the
figures measure the envs rather than the agent.
Rounds are interleaved (connect four, then each game, repeated) so machine
noise hits all alike; the table gives medians and the ratio of medians.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def agent_steps_per_second(make_env: Callable[[], Any], seconds: float, seed: int = 0) -> float:
    """Random legal play through ``env.agent_iter()`` for about ``seconds``; returns agent-steps/s."""
    env = make_env()
    rng = np.random.default_rng(seed)
    steps, games = 0, 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=seed + games)
        games += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = obs["action_mask"].view(bool).nonzero()[0]  # the int8 0/1 mask read as bool
                action = int(legal[rng.integers(legal.size)])
            env.step(action)
            steps += 1
            if steps % 256 == 0 and time.perf_counter() > deadline:
                break
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


def run(games: list[tuple[str, dict]], seconds: float = 1.0, rounds: int = 5) -> list[dict[str, Any]]:
    """Median agent-steps/s per (game, params) and the ratio to connect_four_v3."""
    from pettingzoo.classic import connect_four_v3

    import envs

    makers: dict[str, Callable[[], Any]] = {"connect_four_v3": connect_four_v3.env}
    for name, params in games:
        label = name + ("" if not params else " " + " ".join(f"{k}={v}" for k, v in params.items()))
        makers[label] = lambda name=name, params=params: envs.make(name, **params)
    samples: dict[str, list[float]] = {k: [] for k in makers}
    for r in range(rounds):
        for label, make in makers.items():
            samples[label].append(agent_steps_per_second(make, seconds, seed=r))
    base = statistics.median(samples["connect_four_v3"])
    return [
        {"env": label, "median_steps_per_s": statistics.median(v), "ratio": statistics.median(v) / base, "samples": v}
        for label, v in samples.items()
    ]


def format_table(rows: list[dict[str, Any]]) -> str:
    width = max(len(r["env"]) for r in rows)
    out = [f"{'env':<{width}}  {'agent-steps/s (median)':>22}  {'x connect_four_v3':>17}"]
    for r in rows:
        out.append(f"{r['env']:<{width}}  {r['median_steps_per_s']:>22,.0f}  {r['ratio']:>17.2f}")
    return "\n".join(out)


# -- the batched engines (swgym bench --batch) -------------------------------------------
BATCH_SIZES = (1, 256, 4096)


def batched_steps_per_second(name: str, params: dict, num_envs: int, seconds: float, seed: int = 0) -> float:
    """Random legal play on ``num_envs`` boards for about ``seconds``: agent-steps/s.

    Each step builds every board's mask and its mover's observation, picks a
    random legal action per board (in the kernel) and steps with autoreset, so
    every board makes one agent-step per call.
    """
    import envs

    batch = envs.make_batched(name, num_envs, seed=seed, **params)
    obs = np.empty((num_envs, batch.obs_size), dtype=np.float32)
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(16):
            batch.legal_mask()
            batch.observe(batch.to_move, out=obs)
            batch.step(batch.random_actions(), autoreset=True)
        calls += 16
        if time.perf_counter() > deadline:
            break
    return calls * num_envs / (time.perf_counter() - start)


VECTOR_SIZES = (256, 4096)  # the learner's vector env, beside the engine at the same N
WARM_UP_SECONDS = 0.05  # an untimed run of each measurement before the rounds


def vector_steps_per_second(name: str, params: dict, num_envs: int, seconds: float, seed: int = 0) -> float:
    """The learner's vector env against random opponents for about ``seconds`` of the env's time: learner steps/s.

    Each step reads the learner's masks (``action_masks()``) and calls ``step()``; only those two calls are
    timed, so that the figure measures the env (its opponents' moves and bookkeeping). The learner's random
    legal action in between (the engine's compiled pick on those masks) is the learner's cost, not timed.
    """
    import envs
    from envs.core.batched import random_legal_actions, seed_streams

    vec = envs.make_vec(name, num_envs, opponent="random", seed=seed, **params)
    vec.reset()
    streams, everyone = seed_streams(seed + 1, num_envs), np.ones(num_envs, dtype=bool)
    actions = np.empty(num_envs, dtype=np.int64)
    calls, in_env = 0, 0.0
    clock = time.perf_counter
    while in_env < seconds:
        for _ in range(16):
            start = clock()
            masks = vec.action_masks()
            picked = clock()
            random_legal_actions(masks, streams, everyone, actions)
            stepped = clock()
            vec.step(actions)
            in_env += (picked - start) + (clock() - stepped)
        calls += 16
    return calls * num_envs / in_env


def batch_run(
    games: list[tuple[str, dict]],
    seconds: float = 1.0,
    rounds: int = 5,
    sizes: tuple[int, ...] = BATCH_SIZES,
    vector_sizes: tuple[int, ...] = VECTOR_SIZES,
) -> list[dict[str, Any]]:
    """Median agent-steps/s of each game's batched engine at each N, its learner's vector env (learner steps/s),
    its AEC env and connect_four_v3, interleaved. Every measurement runs once untimed first, so that no kernel
    (nor any of its specialisations) compiles while the clock runs."""
    from pettingzoo.classic import connect_four_v3

    import envs
    from envs.registry import entry

    cases = [(n, p) for n, p in games if entry(n).batched]
    makers: dict[tuple[str, str], Callable[[int, float], float]] = {
        ("connect_four_v3", "AEC"): lambda r, t: agent_steps_per_second(connect_four_v3.env, t, seed=r)
    }
    players: dict[str, int] = {}
    for name, params in cases:
        label = name + ("" if not params else " " + " ".join(f"{k}={v}" for k, v in params.items()))
        players[label] = envs.make_raw(name, **params).game.num_players
        makers[(label, "AEC")] = lambda r, t, name=name, params=params: agent_steps_per_second(
            lambda: envs.make(name, **params), t, seed=r
        )
        for n in sizes:
            makers[(label, f"N={n}")] = lambda r, t, name=name, params=params, n=n: batched_steps_per_second(
                name, params, n, t, seed=r
            )
        for n in vector_sizes:
            makers[(label, f"vec N={n}")] = lambda r, t, name=name, params=params, n=n: vector_steps_per_second(
                name, params, n, t, seed=r
            )
    for measure in makers.values():  # untimed first: every kernel and specialisation compiled or loaded
        measure(0, WARM_UP_SECONDS)
    samples: dict[tuple[str, str], list[float]] = {k: [] for k in makers}
    for r in range(rounds):
        for key, measure in makers.items():
            samples[key].append(measure(r, seconds))
    base = statistics.median(samples[("connect_four_v3", "AEC")])
    rows = []
    for (label, how), v in samples.items():
        median = statistics.median(v)
        row = {
            "env": label,
            "engine": how,
            "median_steps_per_s": median,
            "ratio": median / base,
            "x_aec": median / statistics.median(samples[(label, "AEC")]),
            "samples": v,
        }
        if how.startswith("vec "):  # learner steps x players, against the engine's agent-steps at the same N
            row["x_engine"] = median * players[label] / statistics.median(samples[(label, how[len("vec ") :])])
        rows.append(row)
    return rows


def format_batch_table(rows: list[dict[str, Any]]) -> str:
    """The --batch table; ``vec`` rows are the learner's vector env (learner steps/s), and their last column
    is learner steps/s x players over the engine's agent-steps/s at the same N."""
    width = max(len(r["env"]) for r in rows)
    out = [
        (
            f"{'env':<{width}}  {'engine':>10}  {'steps/s (median)':>16}  {'x connect_four_v3':>17}  {'x AEC':>7}"
            f"  {'vec x players / engine':>22}"
        )
    ]
    for r in rows:
        share = f"{r['x_engine']:>22.0%}" if "x_engine" in r else ""
        out.append(
            f"{r['env']:<{width}}  {r['engine']:>10}  {r['median_steps_per_s']:>16,.0f}  "
            f"{r['ratio']:>17.2f}  {r['x_aec']:>7.1f}  {share}".rstrip()
        )
    return "\n".join(out)


# -- MaskablePPO end to end (swgym bench --ppo) ----------------------------------------------
def ppo_settings(name: str, **over: Any) -> dict[str, Any]:
    """The batched run's settings: the game's training config's vector path (boards, PPO, network), ``over`` on top."""
    from training.selfplay import load_config, run_settings

    config = load_config(name)
    boards, ppo = run_settings({**config, "env": "vector"})
    settings = {
        "num_envs": boards,
        "n_steps": ppo["n_steps"],
        "batch_size": ppo["batch_size"],
        "n_epochs": ppo["n_epochs"],
        "net_arch": list(config["net_arch"]),
        "opponent": "random",
        "rank": config["rank"],  # of the factored head, where the game has one
        "shaping": None,  # a batched shaping potential (training.shaping.BATCH_POTENTIALS), or None
    }
    unknown = set(over) - set(settings)
    if unknown:
        raise ValueError(f"unknown PPO bench setting(s) {sorted(unknown)}; known: {sorted(settings)}")
    if over.get("shaping"):
        from training.shaping import check_potential

        check_potential(name, over["shaping"], batched=True)
    return {**settings, **over}


def _timed(obj: Any, name: str, clock: list[float]) -> None:
    """Wrap ``obj.name`` so that its wall time adds up in ``clock[0]``."""
    inner = getattr(obj, name)

    def timed(*args, **kwargs):
        t = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            clock[0] += time.perf_counter() - t

    setattr(obj, name, timed)


def episode_returns(shaped: bool = False) -> Any:
    """An SB3 callback keeping, per rollout, the env steps, seconds and mean return of the episodes that ended
    (``.points``), and on a ``shaped`` env (:class:`training.shaping.ShapedVecEnv`) its potential's mean over the
    rollout's steps and boards; made on use, so that swgym starts without SB3."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Returns(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.points: list[dict[str, float]] = []
            self.returns: list[float] = []
            self.potentials: list[float] = []
            self.start = time.perf_counter()

        def _on_step(self) -> bool:
            self.returns += [info["episode"]["r"] for info in self.locals["infos"] if "episode" in info]
            if shaped:  # the wrapper's potential of the boards' new observations
                self.potentials.append(float(np.mean(self.training_env.phi)))
            return True

        def _on_rollout_end(self) -> None:
            mean = float(np.mean(self.returns)) if self.returns else float("nan")
            seconds = time.perf_counter() - self.start
            self.points.append({"steps": self.num_timesteps, "seconds": seconds, "mean_return": mean,
                                "episodes": len(self.returns)})  # fmt: skip
            if shaped:
                self.points[-1]["potential"] = float(np.mean(self.potentials))
            self.returns, self.potentials = [], []

    return Returns()


def ppo_batched_once(
    name: str, settings: dict[str, Any], steps: int, seed: int = 0, head: str = "plain"
) -> dict[str, Any]:
    """One timed MaskablePPO run on the batched vector env (after a warm-up rollout and update) with the action
    ``head`` ("plain" or "factored"): env steps/s, seconds in the engine, the opponents, the rollout's torch
    forward passes (and SB3's buffer) and the updates, and the run's curve (mean return of the episodes that
    ended in each rollout). With ``settings["shaping"]`` the learner's reward is shaped by that potential
    (:class:`training.shaping.ShapedVecEnv`, gamma 0.99, scale 1) and the curve also gives its mean: in Twirls,
    whose games against random rarely end in a run this short, how connected the learner keeps its stones."""
    from sb3_contrib import MaskablePPO

    from training.factored_policy import ppo_policy
    from training.sb3_vec import make_sb3_vec
    from training.selfplay import log_nowhere
    from training.shaping import ShapedVecEnv

    learner = make_sb3_vec(name, settings["num_envs"], opponent=settings["opponent"], seed=seed)
    vec = ShapedVecEnv(learner, settings["shaping"], gamma=0.99) if settings["shaping"] else learner  # PPO's gamma
    policy, head_kwargs = ppo_policy(name, {}, head, settings["rank"])
    model = MaskablePPO(
        policy,
        vec,
        n_steps=settings["n_steps"],
        batch_size=settings["batch_size"],
        n_epochs=settings["n_epochs"],
        policy_kwargs={"net_arch": settings["net_arch"], **head_kwargs},
        seed=seed,
        verbose=0,
    )
    log_nowhere(model)
    model.learn(settings["n_steps"] * settings["num_envs"])  # warm-up: kernels, torch
    env_s, opp_s, update_s = [0.0], [0.0], [0.0]
    _timed(learner.venv, "step", env_s)
    for opp in learner.venv.opponents:
        _timed(opp, "actions", opp_s)
    _timed(model, "train", update_s)
    returns = episode_returns(shaped=bool(settings["shaping"]))
    start, cpu = time.perf_counter(), time.process_time()
    model.learn(steps, reset_num_timesteps=True, callback=returns)
    total, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "env_steps_per_s": model.num_timesteps / total,
        "env_steps_per_cpu_s": model.num_timesteps / cpu,  # steadier than wall time on a shared machine
        "engine_s": env_s[0] - opp_s[0],
        "opponent_s": opp_s[0],
        "rollout_torch_s": total - env_s[0] - update_s[0],
        "update_s": update_s[0],
        "total_s": total,
        "curve": returns.points,
    }


def ppo_single_once(
    name: str, settings: dict[str, Any], envs_: int, steps: int, seed: int = 0, n_steps: int = 256
) -> float:
    """Env steps/s of MaskablePPO on ``envs_`` single-agent envs (DummyVecEnv), the same network and epochs."""
    import gymnasium
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    from envs.registry import entry
    from training.selfplay import log_nowhere

    single = make_vec_env(
        lambda: gymnasium.make(entry(name).gym_id, opponent=settings["opponent"]), n_envs=envs_, seed=seed
    )
    model = MaskablePPO(
        "MlpPolicy",
        single,
        n_steps=n_steps,
        batch_size=min(512, n_steps * envs_),
        n_epochs=settings["n_epochs"],
        policy_kwargs={"net_arch": settings["net_arch"]},
        seed=seed,
        verbose=0,
    )
    log_nowhere(model)
    start = time.perf_counter()
    model.learn(steps)
    return model.num_timesteps / (time.perf_counter() - start)


def ppo_heads(name: str) -> tuple[str, ...]:
    """The action heads PPO can have in game ``name``: the plain one, and the factored one where the game
    declares an action layout."""
    from envs.registry import action_layout

    return ("plain", "factored") if action_layout(name) else ("plain",)


def ppo_run(
    name: str = "swival",
    rounds: int = 3,
    steps: int | None = None,
    single_envs: int = 8,
    single_steps: int = 4096,
    single_n_steps: int = 256,
    seed: int = 0,
    **over: Any,
) -> list[dict[str, Any]]:
    """MaskablePPO env steps/s on the batched vector env, with each action head the game has (:func:`ppo_heads`),
    and on the single-agent env (plain head), rounds interleaved (medians), with the batched runs' time split into
    engine, opponents, rollout torch and updates, and each batched run's curve (its first round's).

    Settings: the game's training config (:func:`ppo_settings`), ``over`` on top
    (``num_envs``, ``n_steps``, ``batch_size``, ``n_epochs``, ``net_arch``, ``opponent``, ``rank``).
    """
    import torch

    torch.set_num_threads(1)
    settings = ppo_settings(name, **over)
    steps = steps or 8 * settings["num_envs"] * settings["n_steps"]
    heads = ppo_heads(name)
    batched: dict[str, list[dict[str, Any]]] = {h: [] for h in heads}
    single = []
    for r in range(rounds):
        for head in heads:
            batched[head].append(ppo_batched_once(name, settings, steps, seed=seed + r, head=head))
        single.append(ppo_single_once(name, settings, single_envs, single_steps, seed=seed + r, n_steps=single_n_steps))
    common = f"epochs={settings['n_epochs']} net={settings['net_arch']} vs {settings['opponent']}"
    rows = []
    for head, runs in batched.items():
        med = {k: statistics.median(b[k] for b in runs) for k in runs[0] if k != "curve"}
        rank = f" rank={settings['rank']}" if head == "factored" else ""
        rank += f" shaped by {settings['shaping']}" if settings["shaping"] else ""
        rows.append(
            {
                "game": name,
                "run": "batched vector env" + ("" if len(heads) == 1 else f", {head}"),
                "head": head,
                "settings": (
                    f"N={settings['num_envs']} n_steps={settings['n_steps']} batch={settings['batch_size']} "
                    f"{common}{rank}, {steps} steps"
                ),
                **med,
                "samples": [b["env_steps_per_s"] for b in runs],
                "curve": runs[0]["curve"],
            }
        )
    rows.append(
        {
            "game": name,
            "run": f"single-agent env x{single_envs}",
            "head": "plain",
            "settings": (
                f"N={single_envs} n_steps={single_n_steps} batch={min(512, single_n_steps * single_envs)} "
                f"{common}, {single_steps} steps"
            ),
            "env_steps_per_s": statistics.median(single),
            "samples": single,
        }
    )
    return rows


def format_ppo_curves(rows: list[dict[str, Any]]) -> str:
    """The batched runs' curves side by side, a line per rollout: env steps, then each head's seconds and mean
    return of the episodes that ended in that rollout (vs the run's opponent)."""
    out = []
    for name in dict.fromkeys(r["game"] for r in rows):
        runs = [r for r in rows if r["game"] == name and r.get("curve")]
        if len(runs) < 2:
            continue
        shaped = "potential" in runs[0]["curve"][0]
        what = ", and the shaping potential's mean over its steps" if shaped else ""
        out.append(f"{name}: mean return of the episodes ended in each rollout{what} ({runs[0]['settings']})")
        heads = "".join(
            f"  {r['head'] + ' s':>11}  {r['head'] + ' return':>16}" + (f"  {r['head'] + ' potential':>19}" * shaped)
            for r in runs
        )
        out.append(f"{'env steps':>10}{heads}")
        for points in zip(*(r["curve"] for r in runs)):
            line = f"{points[0]['steps']:>10,}"
            for p in points:
                line += f"  {p['seconds']:>11.1f}  {p['mean_return']:>16.3f}"
                line += f"  {p['potential']:>19.3f}" if shaped else ""
            out.append(line)
    return "\n".join(out)


def format_ppo_table(rows: list[dict[str, Any]]) -> str:
    """The --ppo table: medians; the split of the batched run's seconds (engine, opponents, torch, updates)."""
    out = [
        (
            f"{'game':<8}  {'run':<28}  {'env steps/s':>11}  {'per CPU s':>9}  {'engine s':>8}  {'opponents s':>11}  "
            f"{'rollout torch s':>15}  {'updates s':>9}  settings"
        )
    ]
    for r in rows:
        split = "".join(
            f"  {r[k]:>{w}.2f}" if k in r else f"  {'':>{w}}"
            for k, w in (("engine_s", 8), ("opponent_s", 11), ("rollout_torch_s", 15), ("update_s", 9))
        )
        cpu = f"{r['env_steps_per_cpu_s']:>9,.0f}" if "env_steps_per_cpu_s" in r else f"{'':>9}"
        out.append(f"{r['game']:<8}  {r['run']:<28}  {r['env_steps_per_s']:>11,.0f}  {cpu}{split}  {r['settings']}")
    return "\n".join(out)


def bench_batched(args: Any) -> None:
    """``swgym bench --batch`` / ``--ppo``: print the tables (``args``: the bench command's arguments)."""
    import json
    from pathlib import Path

    from envs.registry import GAMES

    names = args.games or [n for n, e in GAMES.items() if e.batched]
    unknown = [n for n in names if n not in GAMES]
    if unknown:
        raise SystemExit(f"swgym bench: unknown game(s) {', '.join(unknown)}; the games are {', '.join(GAMES)}")
    without = [n for n in names if not GAMES[n].batched]
    if without:
        print(f"no batched engine yet: {', '.join(without)} (skipped)")
    rows: dict[str, Any] = {}
    if args.batch:
        cases = [(n, p) for n in names if GAMES[n].batched for p in (GAMES[n].variants if args.variants else [{}])]
        rows["batch"] = batch_run(cases, seconds=args.seconds or 1.0, rounds=args.rounds)
        print(format_batch_table(rows["batch"]))
    if getattr(args, "search", False):
        cases = [(n, p) for n in names if GAMES[n].batched for p in (GAMES[n].variants if args.variants else [{}])]
        rows["search"] = search_run(cases, seconds=args.seconds or 1.0, rounds=args.rounds)
        print(format_search_table(rows["search"]))
    if args.ppo:
        rows["ppo"] = [
            r
            for n in names
            if GAMES[n].batched
            for r in ppo_run(n, rounds=args.rounds, steps=args.steps, shaping=args.shaping)
        ]
        print(format_ppo_table(rows["ppo"]))
        if curves := format_ppo_curves(rows["ppo"]):
            print(curves)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


# -- tree search in the engine (swgym bench --search) -------------------------------------------------------------
SEARCH_SIZES = (1, 64, 1024)


def search_positions(name: str, params: dict, boards: int, seed: int = 0):
    """A batch of ``boards`` positions a few random moves into their games (none finished)."""
    import envs

    batch = envs.make_batched(name, boards, seed=seed, **params)
    for _ in range(6):
        batch.step(batch.random_actions(), autoreset=True)
    return batch


def search_simulations_per_second(
    name: str, params: dict, trees: int, seconds: float, simulations: int = 16, network: bool = True,
    leaf_wins: bool = False,
) -> float:  # fmt: skip
    """The engine's tree search with the shipped network on ``trees`` positions at once: simulations/s
    (each simulation adds at most one node to each tree). The network computes the legal moves' logits alone,
    as self-play does (:func:`policies.search.gumbel.evaluator`'s ``compiled_head``). ``network=False``: a network
    that costs nothing (every move alike, every position a draw), so the figure is the search's and the
    engine's alone.
    ``leaf_wins``: each new node also played one ply ahead with every legal move (its cost)."""
    from policies import shipped_path
    from policies.numpy_policy import NumpyPolicy
    from policies.search.evaluators import evaluator, flat_evaluator
    from policies.search.tree import TreeSearch

    batch = search_positions(name, params, trees)
    policy = NumpyPolicy(shipped_path(name, **params), name=name, params=params)
    players = batch.num_players
    evaluate = evaluator(policy, players, compiled_head=True) if network else flat_evaluator(players)
    search = TreeSearch(batch, evaluate, trees=trees, simulations=simulations, leaf_wins=leaf_wins, seed=0)
    live = np.flatnonzero(~batch.over)
    runs, start = 0, time.perf_counter()
    while True:
        search.run(batch, live)
        runs += 1
        if time.perf_counter() - start > seconds:
            break
    return runs * simulations * live.size / (time.perf_counter() - start)


#: The hards whose play-time search (policies/search/alpha_beta.py) the engine's tree search is measured against: the
#: revision before any hard played the engine's search, so the yardstick stays when a new hard ships.
PLAY_TIME_HARD = "hard@714a9b8"


def play_time_nodes_per_second(
    name: str, params: dict, positions: int, seconds: float, compiled: bool = False
) -> float | None:
    """Nodes/s of :data:`PLAY_TIME_HARD`'s own play-time search (policies/search/alpha_beta.py) on the same kind of
    positions, one at a time; None where that hard does not search with it (its nodes are not counted the same
    way) or cannot be had (no git checkout). ``compiled``: the same search run inside the engine
    (``PolicySearch(compiled=True)``: the same nodes), None where the engine or the settings do not allow it."""
    from policies import load
    from policies.search.alpha_beta import PolicySearch

    try:
        player = load(name, PLAY_TIME_HARD, seed=0, **params)
    except ValueError:
        return None
    if not isinstance(player, PolicySearch):
        return None
    if compiled:
        settings = {k: v for k, v in player.meta["search"].items() if k != "kind"}
        try:
            player = PolicySearch(player.policy, name, params, **settings, compiled=True)
        except ValueError:
            return None
    batch = search_positions(name, params, positions)
    obs, masks = batch.observe(batch.to_move), batch.legal_mask()
    nodes, start = 0, time.perf_counter()
    for i in np.flatnonzero(~batch.over):
        player.act(obs[i], masks[i], batch.board_state(int(i)))
        nodes += player.nodes
        if time.perf_counter() - start > seconds:
            break
    return nodes / (time.perf_counter() - start)


def search_run(games: list[tuple[str, dict]], seconds: float = 1.0, rounds: int = 3) -> list[dict[str, Any]]:
    """Simulations/s of the engine's tree search at N = 1, 64, 1024 trees per game (medians of interleaved
    rounds, each measurement run once untimed first), beside the play-time search's nodes/s."""
    makers: dict[tuple[str, str], Callable[[float], float | None]] = {}
    for name, params in games:
        label = name + ("" if not params else " " + " ".join(f"{k}={v}" for k, v in params.items()))
        for n in SEARCH_SIZES:
            makers[(label, f"tree N={n}")] = lambda t, name=name, params=params, n=n: search_simulations_per_second(
                name, params, n, t
            )
        makers[(label, "tree N=1024, free net")] = lambda t, name=name, params=params: search_simulations_per_second(
            name, params, 1024, t, network=False
        )
        makers[(label, "tree N=1024, leaf_wins")] = lambda t, name=name, params=params: search_simulations_per_second(
            name, params, 1024, t, leaf_wins=True
        )
        makers[(label, "play-time")] = lambda t, name=name, params=params: play_time_nodes_per_second(
            name, params, 64, t
        )
        makers[(label, "play-time, compiled")] = lambda t, name=name, params=params: play_time_nodes_per_second(
            name, params, 64, t, compiled=True
        )
    for measure in makers.values():
        measure(WARM_UP_SECONDS)
    samples: dict[tuple[str, str], list[float | None]] = {k: [] for k in makers}
    for _ in range(rounds):
        for key, measure in makers.items():
            samples[key].append(measure(seconds))
    rows = []
    for (label, how), v in samples.items():
        if any(x is None for x in v):
            continue
        median = statistics.median(v)
        old = samples[(label, "play-time")]
        base = statistics.median(old) if old and None not in old else None
        rows.append(
            {
                "env": label,
                "search": how,
                "median_per_s": median,
                "x_play_time": None if base is None or how == "play-time" else median / base,
                "samples": v,
            }
        )
    return rows


def format_search_table(rows: list[dict[str, Any]]) -> str:
    """The --search table: tree search simulations/s (a node each) and the play-time search's nodes/s."""
    width = max(len(r["env"]) for r in rows)
    out = [f"{'env':<{width}}  {'search':>22}  {'nodes/s (median)':>16}  {'x play-time search':>18}"]
    for r in rows:
        ratio = f"{r['x_play_time']:>18.1f}" if r["x_play_time"] is not None else ""
        out.append(f"{r['env']:<{width}}  {r['search']:>22}  {r['median_per_s']:>16,.0f}  {ratio}".rstrip())
    return "\n".join(out)
