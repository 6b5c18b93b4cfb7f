"""The one int check (envs.core.checks.as_int) and the number check built on it: a bool is neither."""

import numpy as np
import pytest

from envs.core.checks import as_int, as_number


@pytest.mark.parametrize("value", [3, np.int64(3), np.uint8(3)])
def test_integers_are_ints_and_numbers(value):
    assert as_int(value) == 3 and type(as_int(value)) is int
    assert as_number(value) == 3.0 and type(as_number(value)) is float


@pytest.mark.parametrize("value", [2.5, np.float32(2.5)])
def test_floats_are_numbers_not_ints(value):
    assert as_int(value) is None
    assert as_number(value) == 2.5 and type(as_number(value)) is float


@pytest.mark.parametrize("value", [True, False, np.bool_(True), "3", None, [3], np.array([3])])
def test_bools_and_the_rest_are_neither(value):
    assert as_int(value) is None and as_number(value) is None
