"""One table of activations: every name a policy file may give has its torch module in training, and the two
compute the same function (a torch network and its exported numpy policy agree)."""

import numpy as np
import pytest
import torch

from policies.network import ACTIVATIONS as NUMPY_ACTIVATIONS
from training.network import ACTIVATION_NAMES
from training.network import TORCH_ACTIVATIONS as ACTIVATIONS


def test_training_names_the_activations_of_policies():
    assert list(ACTIVATIONS) == list(NUMPY_ACTIVATIONS)
    assert {ACTIVATION_NAMES[module] for module in ACTIVATIONS.values()} == set(NUMPY_ACTIVATIONS)


@pytest.mark.parametrize("name", sorted(NUMPY_ACTIVATIONS))
def test_numpy_and_torch_activations_agree(name):
    x = np.linspace(-4.0, 4.0, 81, dtype=np.float32)
    expected = ACTIVATIONS[name]()(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(NUMPY_ACTIVATIONS[name](x), expected, rtol=1e-6, atol=1e-6)
