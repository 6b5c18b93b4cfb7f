"""The rollout buffer MaskablePPO runs with here: the legal-move masks kept one byte an action."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer


class BoolMaskBuffer(MaskableRolloutBuffer):
    """sb3-contrib's rollout buffer with the legal-move masks kept one byte an action, not a float32: in the games of
    thousands of actions the masks are most of a rollout (Squeeze: 1024 boards x 16 steps x 3114 actions, 204 MB as
    floats). The minibatches and so the training are the same (the masks are 0 or 1 either way)."""

    def reset(self) -> None:
        super().reset()
        self.action_masks = np.ones((self.buffer_size, self.n_envs, self.mask_dims), dtype=bool)


def buffer_kwargs(env: Any) -> dict[str, Any]:
    """MaskablePPO's keyword for :class:`BoolMaskBuffer` over ``env`` (none for a dict observation space, which has a
    buffer of its own)."""
    return {} if isinstance(env.observation_space, spaces.Dict) else {"rollout_buffer_class": BoolMaskBuffer}
