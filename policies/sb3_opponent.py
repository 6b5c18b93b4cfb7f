"""An SB3 MaskablePPO ``.zip`` model as an opponent (needs torch; the numpy policies do not)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np


class SB3Opponent:
    """Plays the most probable legal action of a saved MaskablePPO model."""

    def __init__(self, path: str | Path, name: str | None = None, seed: int | None = None, **params: Any) -> None:
        from sb3_contrib import MaskablePPO

        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"model file {path} does not exist")
        try:
            self.model = MaskablePPO.load(path, device="cpu")
        except Exception as err:  # SB3 raises many kinds for a bad archive
            raise ValueError(f"{path} is not a loadable MaskablePPO model: {err}") from None
        self.path = path
        if name is not None:
            from envs.registry import make_raw

            raw = make_raw(name, **params)
            expected, actions = type(raw).observation_shape(raw.game), raw.game.num_actions
            if self.model.observation_space.shape != expected or self.model.action_space.n != actions:
                raise ValueError(
                    f"{path}: model has observation {self.model.observation_space.shape} and "
                    f"{self.model.action_space.n} actions; {name} has {expected} and {actions}"
                )

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: Any = None) -> int:
        action, _ = self.model.predict(
            observation, action_masks=np.asarray(action_mask).astype(bool), deterministic=True
        )
        return int(action)
