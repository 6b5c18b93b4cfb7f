"""Shipped opponents: learned policies played with numpy only.

``policies.load("swival", "hard")`` returns the opponent behind
``policies/swival_hard.npz``; a path to any ``.npz`` policy file works too,
and an SB3 MaskablePPO ``.zip`` model (its weights read without unpickling,
played with numpy; reading them needs torch). ``trusted=True`` loads a
``.zip`` with SB3's own loader instead, which can run code stored in the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from policies.mcts import make_mcts
from policies.numpy_policy import NumpyPolicy, PolicyFileError

POLICY_DIR = Path(__file__).resolve().parent


def shipped_path(game: str, **params: Any) -> Path:
    """Where the hard policy of ``game`` with rule ``params`` is shipped.

    The file name comes from the registry (:func:`envs.registry.policy_file`).
    """
    from envs.registry import policy_file

    return POLICY_DIR / policy_file(game, **params)


def load(
    game: str,
    name: str = "hard",
    seed: int | None = None,
    temperature: float = 0.0,
    trusted: bool = False,
    **params: Any,
):
    """The opponent named ``name`` ("hard" or a policy file path) for ``game`` with rule ``params``.

    Loading never runs code from the file unless ``trusted`` is True: an SB3
    ``.zip`` is then loaded by SB3 itself (unpickled), which some models need
    (custom networks); without it, its plain MLP weights are read as data.
    """
    if name == "hard":
        path = shipped_path(game, **params)
        if not path.exists():
            rules = f" with {params}" if params else ""
            raise FileNotFoundError(
                f"no hard opponent is shipped for {game}{rules} ({path.name} is missing "
                f"from {path.parent}); train one with `swgym train {game} --ship`"
            )
    else:
        path = Path(name)
    if path.suffix == ".zip":
        if trusted:
            try:
                from policies.sb3_opponent import SB3Opponent
            except ImportError as err:
                raise ImportError(
                    f"{path}: loading a trusted SB3 .zip needs the training extras (pip install swgym[train]): {err}"
                ) from None
            return SB3Opponent(path, game=game, seed=seed, **params)
        from policies.sb3_zip import read_sb3_zip

        return NumpyPolicy(
            read_sb3_zip(path, game, params),
            game=game,
            temperature=temperature,
            seed=seed,
            params=params,
            source=str(path),
        )
    policy = NumpyPolicy(path, game=game, temperature=temperature, seed=seed, params=params)
    search = policy.meta.get("search")
    if search:
        return _with_search(policy, path, game, params, search, seed)
    return policy


SEARCH_KINDS = ("alphabeta", "rollouts")


def _with_search(
    policy: NumpyPolicy, path: Path, game: str, params: dict[str, Any], search: dict[str, Any], seed: int | None
):
    """The policy file's play-time search around its network.

    ``search["kind"]``: ``"alphabeta"`` (the default; :class:`policies.search.PolicySearch`)
    or ``"rollouts"`` (:class:`policies.rollouts.RolloutSearch`); the other keys are its settings.
    """
    settings = dict(search)
    kind = settings.pop("kind", "alphabeta")
    try:
        if kind == "alphabeta":
            from policies.search import PolicySearch

            return PolicySearch(policy, game, params, **settings)
        if kind == "rollouts":
            from policies.rollouts import RolloutSearch

            return RolloutSearch(policy, game, params, seed=seed, **settings)
    except (TypeError, ValueError) as err:
        raise PolicyFileError(f"policy file {path}: its search settings {search} are not valid ({err})") from None
    raise PolicyFileError(f"policy file {path}: unknown search kind {kind!r}; known: {', '.join(SEARCH_KINDS)}")


__all__ = ["NumpyPolicy", "PolicyFileError", "load", "make_mcts", "shipped_path"]
