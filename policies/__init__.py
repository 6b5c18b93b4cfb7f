"""Shipped opponents: learned policies played with numpy only.

``policies.load("swival", "hard")`` returns the opponent behind
``policies/swival_hard.npz`` (with its play-time search; ``"network"``: the
same network alone, greedy); ``"hard@REV"`` the one that file held at git
revision REV (a past hard, for ladders; needs git and a git checkout of this
project); a path to any ``.npz`` policy file works too,
and an SB3 MaskablePPO ``.zip`` model (its weights read without unpickling,
played with numpy; reading them needs torch). ``trusted=True`` loads a
``.zip`` with SB3's own loader instead, which can run code stored in the file.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from envs.core.opponents import MCTS_NAME, NETWORK_PREFIX, PAST_PREFIX, SHIPPED_NAMES
from policies.numpy_policy import NumpyPolicy, PolicyFileError

POLICY_DIR = Path(__file__).resolve().parent
POLICY_SUFFIXES = (".npz", ".zip")  # what a policy file's name ends with: numpy weights, or an SB3 model


def shipped_path(name: str, **params: Any) -> Path:
    """Where the hard policy of game ``name`` with rule ``params`` is shipped.

    The file name comes from the registry (:func:`envs.registry.policy_file`).
    """
    from envs.registry import policy_file

    return POLICY_DIR / policy_file(name, **params)


def load(
    name: str,
    spec: str = "hard",
    seed: int | None = None,
    temperature: float = 0.0,
    trusted: bool = False,
    search: bool = True,
    **params: Any,
):
    """The opponent ``spec`` names for game ``name`` (its registry name) with rule ``params``.

    ``"hard"``: the shipped policy with its play-time search; ``"network"``: the
    shipped network alone (the moves it rates best, or sampled at
    ``temperature``), no search; ``"hard@REV"``: the hard policy file as git
    revision REV held it; otherwise a policy file path.

    ``search=False``: the network alone even where the file names a search
    (what ``"network"`` is for the shipped file).

    Loading never runs code from the file unless ``trusted`` is True: an SB3
    ``.zip`` is then loaded by SB3 itself (unpickled), which some models need
    (custom networks); without it, its weights (a plain MLP, or the factored head of
    ``training.factored_policy``) are read as data.
    """
    if spec.startswith(PAST_PREFIX):
        with tempfile.TemporaryDirectory() as folder:  # the file is read whole on load, then removed
            path = past_hard_file(name, spec[len(PAST_PREFIX) :], Path(folder), **params)
            return load(name, str(path), seed=seed, temperature=temperature, search=search, **params)
    if spec in SHIPPED_NAMES:
        path = shipped_path(name, **params)
        if not path.exists():
            rules = f" with {params}" if params else ""
            raise FileNotFoundError(
                f"no hard opponent is shipped for {name}{rules} ({path.name} is missing "
                f"from {path.parent}); train one with `swgym train {name} --ship`"
            )
    else:
        path = Path(spec)
    if path.suffix == ".zip":
        if trusted:
            try:
                from policies.sb3_opponent import SB3Opponent
            except ImportError as err:
                raise ImportError(
                    f"{path}: loading a trusted SB3 .zip needs the training extras "
                    f"(from a clone: pip install -e '.[train]'): {err}"
                ) from None
            return SB3Opponent(path, name=name, seed=seed, **params)
        from policies.sb3_zip import read_sb3_zip

        return NumpyPolicy(
            read_sb3_zip(path, name, params),
            name=name,
            temperature=temperature,
            seed=seed,
            params=params,
            source=str(path),
        )
    policy = NumpyPolicy(path, name=name, temperature=temperature, seed=seed, params=params)
    settings = policy.meta.get("search")
    if settings and search and spec != "network":
        return _with_search(policy, path, name, params, settings, seed)
    return policy


def opponent_by_name(
    name: str, spec: str, seed: int | None = None, trusted: bool = False, search: bool = True, **params: Any
):
    """The learned player a ``spec`` names for game ``name`` (``"hard"``, ``"network"``, ``"hard@REV"``,
    ``"mcts[:N]"``, a policy file path, ``"network:PATH"`` that file's network alone, ``"module:callable"`` an
    agent of the user's own code: :func:`user_agent`), or None when the spec is none of these.

    Registered as this project's ``swgym.opponents`` entry point, so that
    :func:`envs.opponents.make_opponent` (and every env) takes these names.
    """
    if spec.startswith(NETWORK_PREFIX):
        path = spec[len(NETWORK_PREFIX) :]
        if not path.endswith(POLICY_SUFFIXES):
            raise ValueError(f"{spec!r}: give a policy file (.npz or .zip) after {NETWORK_PREFIX!r}")
        return load(name, path, seed=seed, trusted=trusted, search=False, **params)
    if spec in SHIPPED_NAMES or spec.startswith(PAST_PREFIX) or spec.endswith(POLICY_SUFFIXES):
        return load(name, spec, seed=seed, trusted=trusted, search=search, **params)
    if spec == MCTS_NAME or spec.startswith(MCTS_NAME + ":"):
        from policies.search.mcts import make_mcts  # numba loads with the tree search only

        return make_mcts(name, spec, seed=seed, **params)  # it checks N
    if CALLABLE_SPEC.fullmatch(spec):
        return user_agent(name, spec, seed=seed, **params)
    return None


CALLABLE_SPEC = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")  # "module:callable", e.g. "mybots:greedy"


def user_agent(name: str, spec: str, seed: int | None = None, **params: Any):
    """The agent of the user's own code that ``"module:callable"`` names: ``callable(name, seed=seed,
    **params)`` is called for game ``name`` and returns an opponent (``act(observation, action_mask, state)``
    and ``reset(seed)``); an opponent object itself is taken as it is. The module is imported from the
    installed packages or, failing that, the current folder."""
    import importlib
    import os
    import sys

    from envs.core.opponents import Opponent

    module_name, _, attribute = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        if os.getcwd() in sys.path:
            raise ValueError(f"{spec!r}: no module {module_name!r} here or among the installed packages") from None
        sys.path.append(os.getcwd())
        return user_agent(name, spec, seed=seed, **params)
    target: Any = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise ValueError(f"{spec!r}: module {module_name!r} has no {attribute!r}")
        target = getattr(target, part)
    agent = target if isinstance(target, Opponent) else target(name, seed=seed, **params)
    if not isinstance(agent, Opponent):
        raise TypeError(f"{spec!r} gave {agent!r}, not an opponent with act(observation, action_mask, state) and reset")
    return agent


def past_hard_file(name: str, rev: str, folder: Path, **params: Any) -> Path:
    """The hard policy file of game ``name`` (rule ``params``) as git revision ``rev`` held it, written into
    ``folder``.

    A past hard opponent is named ``hard@REV`` (a commit, tag or e.g. ``HEAD~3``) wherever an opponent name is
    taken, so a ladder can show a new hard above the old ones. Without git or a git checkout, give the old file's
    path instead (``git show REV:policies/<file> > old.npz``). A ``ValueError`` names what is wrong.
    """
    from envs.registry import policy_file

    file_name = policy_file(name, **params)
    if not rev or rev.startswith("-") or any(c.isspace() for c in rev):
        raise ValueError(f"{PAST_PREFIX}{rev}: give a git revision after '@' (a commit, tag or HEAD~N)")
    try:
        done = subprocess.run(
            ["git", "-C", str(POLICY_DIR), "show", f"{rev}:./{file_name}"], capture_output=True, check=False, timeout=60
        )
    except FileNotFoundError:
        raise ValueError(
            f"{PAST_PREFIX}{rev} needs git, which is not installed; give the old file's path instead"
        ) from None
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        raise ValueError(
            f"{PAST_PREFIX}{rev}: git has no policies/{file_name} at revision {rev!r} "
            f"({why[-1] if why else 'git failed'}); past hards need a git checkout of swgym, "
            f"else give the old file's path (git show REV:policies/{file_name} > old.npz)"
        )
    path = Path(folder) / f"{PAST_PREFIX}{rev.replace('/', '_')}_{file_name}"
    path.write_bytes(done.stdout)
    return path


SEARCH_KINDS = ("alphabeta", "rollouts", "mcts", "gumbel")


def _with_search(
    policy: NumpyPolicy, path: Path, name: str, params: dict[str, Any], search: dict[str, Any], seed: int | None
):
    """The policy file's play-time search around its network.

    ``search["kind"]``: ``"alphabeta"`` (the default; :class:`policies.search.alpha_beta.PolicySearch`),
    ``"rollouts"`` (:class:`policies.search.rollouts.RolloutSearch`), ``"mcts"`` (PUCT guided by the network,
    :class:`policies.search.mcts.PolicyMCTS`) or ``"gumbel"`` (the tree search,
    :class:`policies.search.gumbel.GumbelPlayer`); the other keys are its settings.
    """
    settings = dict(search)
    kind = settings.pop("kind", "alphabeta")
    try:
        if kind == "alphabeta":
            from policies.search.alpha_beta import PolicySearch

            return PolicySearch(policy, name, params, **settings)
        if kind == "rollouts":
            from policies.search.rollouts import RolloutSearch

            return RolloutSearch(policy, name, params, seed=seed, **settings)
        if kind == "mcts":
            from policies.search.mcts import PolicyMCTS

            return PolicyMCTS(policy, name, params, seed=seed, **settings)
        if kind == "gumbel":
            from policies.search.gumbel import GumbelPlayer  # numba loads with the engine's tree search only

            return GumbelPlayer(policy, name, params, seed=seed, **settings)
    except (TypeError, ValueError) as err:
        raise PolicyFileError(f"policy file {path}: its search settings {search} are not valid ({err})") from None
    raise PolicyFileError(f"policy file {path}: unknown search kind {kind!r}; known: {', '.join(SEARCH_KINDS)}")


__all__ = ["NumpyPolicy", "PolicyFileError", "load", "opponent_by_name", "past_hard_file", "shipped_path"]
