"""The compiled forward of a network spec (:class:`policies.network.NetworkSpec`): numba kernels over float32.

The compiled alpha-beta (:mod:`policies.search.compiled`) reads a network
through these: :func:`value_towers` and :func:`policy_tower` lay a numpy
policy's arrays out as the kernels read them, from its spec, and
:func:`tower_values` and :func:`policy_keys` compute the value towers and the
plain head's move probabilities. They serve value towers of one depth with a
hidden layer, a plain action head, tanh or relu, and no board convolution;
another spec is refused by name. Their sums round differently from numpy's
matrix products (fastmath, a float32 tanh): ``tests/training/test_network_spec.py``
holds them to the numpy forward within rounding.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from envs.core.jit import CACHE_LINE, aligned, njit
from policies.numpy_policy import NumpyPolicy

TANH, RELU = 0, 1  # the towers' activation

#: Dense layers as the kernels read them, of one numba type whatever their number and shapes, so that a network
#: of other depths or members plays with the search already compiled (a new type would compile it again, about a
#: minute). Every weight matrix and bias lies in the one float32 ``buffer``, each from a cache line; ``table`` has
#: a row per layer: the weights' offset, rows and columns, the bias's offset and length. Value towers
#: (:func:`value_towers`): each member's first layer (stored (in, out)) in rows ``0 .. members-1``, then member
#: ``m``'s later layers in order (stored (out, in); the last its one-output head). A policy tower
#: (:func:`policy_tower`): its first layer (stored (in, out)), its later layers (stored (out, in)), then its plain
#: head (stored (actions, in)). ``activation``: after every hidden layer.
Layers = namedtuple("Layers", ("buffer", "table", "members", "activation"), module=__name__)
W_AT, W_ROWS, W_COLS, B_AT, B_LEN = range(5)  # the columns of ``Layers.table``
FLOATS_PER_LINE = CACHE_LINE // 4


def _layers(weights: list[tuple[np.ndarray, np.ndarray]], members: int, activation: str) -> Layers:
    """The :data:`Layers` of ``(weights, bias)`` pairs, each stored as given, in that order."""
    table = np.zeros((len(weights), 5), np.int64)
    at = 0
    for row, (w, b) in zip(table, weights):
        row[W_AT], (row[W_ROWS], row[W_COLS]) = at, w.shape
        at += -(-w.size // FLOATS_PER_LINE) * FLOATS_PER_LINE
        row[B_AT], row[B_LEN] = at, b.size
        at += -(-b.size // FLOATS_PER_LINE) * FLOATS_PER_LINE
    buffer = aligned(np.zeros(at, np.float32))
    for row, (w, b) in zip(table, weights):
        buffer[row[W_AT] : row[W_AT] + w.size] = np.asarray(w, np.float32).ravel()
        buffer[row[B_AT] : row[B_AT] + b.size] = np.asarray(b, np.float32).ravel()
    return Layers(buffer, table, members, TANH if activation == "tanh" else RELU)


@njit(cache=True, inline="always")  # inlined: numba returns a view only of an argument array, not of its fields
def weights_of(layers, i):
    """Layer ``i``'s weight matrix (a view into ``layers.buffer``)."""
    at, rows, cols = layers.table[i, W_AT], layers.table[i, W_ROWS], layers.table[i, W_COLS]
    return layers.buffer[at : at + rows * cols].reshape((rows, cols))


@njit(cache=True, inline="always")
def bias_of(layers, i):
    """Layer ``i``'s bias (a view into ``layers.buffer``)."""
    at = layers.table[i, B_AT]
    return layers.buffer[at : at + layers.table[i, B_LEN]]


def layer_widths(layers: Layers) -> list[int]:
    """Every layer's output width (a scratch array's width must be the widest)."""
    first = layers.table[: layers.members, W_COLS]  # stored (in, out)
    return [*first.tolist(), *layers.table[layers.members :, W_ROWS].tolist()]


@njit(cache=True, inline="always")
def _tanh(x):
    """tanh in float32 within a few units in the last place (Eigen's rational approximation; it vectorises)."""
    x = min(max(x, np.float32(-7.90531110763549805)), np.float32(7.90531110763549805))
    x2 = x * x
    p = x2 * np.float32(-2.76076847742355e-16) + np.float32(2.00018790482477e-13)
    p = x2 * p + np.float32(-8.60467152213735e-11)
    p = x2 * p + np.float32(5.12229709037114e-08)
    p = x2 * p + np.float32(1.48572235717979e-05)
    p = x2 * p + np.float32(6.37261928875436e-04)
    p = x2 * p + np.float32(4.89352455891786e-03)
    q = x2 * np.float32(1.19825839466702e-06) + np.float32(1.18534705686654e-04)
    q = x2 * q + np.float32(2.26843463243900e-03)
    q = x2 * q + np.float32(4.89352518554385e-03)
    return x * p / q


@njit(cache=True, fastmath=True)
def first_layer(x, rows, k, w, b, out):
    """``out[:k]`` = ``x[rows[:k]] @ w + b``, ``w`` stored (in, out): each nonzero input adds its weight row (the
    observations are mostly zeros: one-hot planes)."""
    n_in, n_out = w.shape
    for r in range(k):
        for j in range(n_out):
            out[r, j] = b[j]
        row = rows[r]
        for i in range(n_in):
            v = x[row, i]
            if v != 0.0:
                for j in range(n_out):
                    out[r, j] += v * w[i, j]


@njit(cache=True, fastmath=True)
def _next_layer(inputs, k, w, b, out):
    """``out[:k]`` = ``inputs[:k] @ w.T + b``, ``w`` stored (out, in): dot products, four rows at a time (then
    two, then one) so that each weight is read once for several rows."""
    n_out, n_in = w.shape
    r = 0
    while r + 4 <= k:
        x0, x1, x2, x3 = inputs[r], inputs[r + 1], inputs[r + 2], inputs[r + 3]
        for j in range(n_out):
            wj = w[j]
            a0 = a1 = a2 = a3 = np.float32(0.0)
            for i in range(n_in):
                y = wj[i]
                a0 += x0[i] * y
                a1 += x1[i] * y
                a2 += x2[i] * y
                a3 += x3[i] * y
            out[r, j], out[r + 1, j], out[r + 2, j], out[r + 3, j] = a0 + b[j], a1 + b[j], a2 + b[j], a3 + b[j]
        r += 4
    if r + 2 <= k:
        x0, x1 = inputs[r], inputs[r + 1]
        for j in range(n_out):
            wj = w[j]
            a0 = a1 = np.float32(0.0)
            for i in range(n_in):
                y = wj[i]
                a0 += x0[i] * y
                a1 += x1[i] * y
            out[r, j], out[r + 1, j] = a0 + b[j], a1 + b[j]
        r += 2
    if r < k:
        x0 = inputs[r]
        for j in range(n_out):
            wj = w[j]
            a0 = np.float32(0.0)
            for i in range(n_in):
                a0 += x0[i] * wj[i]
            out[r, j] = a0 + b[j]


@njit(cache=True, fastmath=True, error_model="numpy")  # numpy's: no zero check on tanh's division (it vectorises)
def _activate(h, k, n, activation):
    if activation == TANH:
        for r in range(k):
            for j in range(n):
                h[r, j] = _tanh(h[r, j])
    else:
        for r in range(k):
            for j in range(n):
                h[r, j] = max(h[r, j], np.float32(0.0))


@njit(cache=True, fastmath=True)
def first_layer_from(x, rows, k, seats, ref_obs, ref_pre, w, out):
    """``out[:k]``: the first layer (``w`` stored (in, out)) of observation rows ``x[rows[:k]]``, from that of a
    reference position seen by the same seat (``ref_obs[seats[r]]``, its layer ``ref_pre[seats[r]]``): only the
    inputs that differ are read. A position one move from the reference differs in a few cells."""
    n_in, n_out = w.shape
    for r in range(k):
        row, seat = rows[r], seats[r]
        for j in range(n_out):
            out[r, j] = ref_pre[seat, j]
        for i in range(n_in):
            d = x[row, i] - ref_obs[seat, i]
            if d != 0.0:
                for j in range(n_out):
                    out[r, j] += d * w[i, j]


@njit(cache=True)
def after_first_layer(k, towers, hidden, first, out):
    """``out[:k]``: the towers' value (members' mean) of ``k`` rows whose first layers (before the activation) are
    ``first[m, :k]`` for member ``m`` (overwritten). ``hidden``: (1, >= k, widest) float32 scratch."""
    members = towers.members
    later = (len(towers.table) - members) // members  # layers after the first
    for r in range(k):
        out[r] = 0.0
    for m in range(members):
        h, other = first[m], hidden[0]
        n = towers.table[m, W_COLS]
        for layer in range(later):
            _activate(h, k, n, towers.activation)
            at = members + m * later + layer
            w = weights_of(towers, at)
            _next_layer(h, k, w, bias_of(towers, at), other)
            n = w.shape[0]
            h, other = other, h
        for r in range(k):
            out[r] += h[r, 0]
    for r in range(k):
        out[r] = out[r] / np.float32(members)


@njit(cache=True)
def tower_values(x, rows, k, towers, hidden, first, out):
    """``out[:k]``: the towers' value (members' mean) of observation rows ``x[rows[:k]]``, float32.
    ``first``: (members, >= k, widest) and ``hidden``: (1, >= k, widest) float32 scratch for the layers."""
    for m in range(towers.members):
        first_layer(x, rows, k, weights_of(towers, m), bias_of(towers, m), first[m])
    after_first_layer(k, towers, hidden, first, out)


@njit(cache=True)
def policy_keys(x, row, legal, n, policy, hidden, keys):
    """``keys[:n]``: the policy's probabilities of the moves ``legal[:n]`` (a softmax over them alone, as
    ``masked_softmax`` of ``NumpyPolicy.logits_of``) for observation row ``x[row]``; ``row``: (1,) int64;
    ``hidden``: (2, widest) float32 scratch."""
    first_layer(x, row, 1, weights_of(policy, 0), bias_of(policy, 0), hidden[0:])
    h, other = hidden[0:1], hidden[1:2]
    width = policy.table[0, W_COLS]
    _activate(h, 1, width, policy.activation)
    head = len(policy.table) - 1
    for layer in range(1, head):
        w = weights_of(policy, layer)
        _next_layer(h, 1, w, bias_of(policy, layer), other)
        width = w.shape[0]
        _activate(other, 1, width, policy.activation)
        h, other = other, h
    head_w, head_b = weights_of(policy, head), bias_of(policy, head)
    top = np.float32(-np.inf)
    for j in range(n):
        a = legal[j]
        row_w = head_w[a]
        acc = np.float32(0.0)
        for i in range(width):
            acc += h[0, i] * row_w[i]
        keys[j] = acc + head_b[a]
        top = max(top, keys[j])
    total = np.float32(0.0)
    for j in range(n):
        keys[j] = np.exp(keys[j] - top)
        total += keys[j]
    for j in range(n):
        keys[j] = keys[j] / total


def value_towers(policy: NumpyPolicy) -> Layers:
    """The policy's value towers as the kernels read them (:data:`Layers`), from its spec."""
    spec = policy.spec
    if spec.conv is not None:
        raise ValueError("compiled forward: the network has a board convolution, which it does not compute")
    depths = {len(widths) + 1 for widths in (spec.value_widths, *spec.member_widths)}
    if len(depths) != 1 or min(depths) < 2:
        raise ValueError(
            f"compiled forward: value towers of one depth with a hidden layer only, got depths {sorted(depths)}"
        )
    if spec.value_outputs != 1:
        raise ValueError(f"compiled forward: a value head of one output only, got {spec.value_outputs}")
    firsts, later = [], []
    for tower, head in policy.value_members:
        (w0, b0), *rest = [*tower, head]
        firsts.append((w0, b0))
        later += [(w.T, b) for w, b in rest]  # stored (out, in): the kernel's dot products
    return _layers(firsts + later, len(firsts), spec.activation)


def policy_tower(policy: NumpyPolicy) -> Layers:
    """The policy's tower and plain head as the kernels read them (:data:`Layers`), from its spec."""
    spec = policy.spec
    if spec.factored is not None or spec.conv is not None or not spec.policy_widths:
        kind = "a factored head" if spec.factored is not None else "a board convolution or no policy tower"
        raise ValueError(f"compiled forward: a policy tower with a plain action head only, got {kind}")
    (pi_w0, pi_b0), *pi_later = policy.pi_layers
    layers = [(pi_w0, pi_b0), *((w.T, b) for w, b in pi_later), (policy.head.w.T, policy.head.b)]
    return _layers(layers, 1, spec.activation)


__all__ = [
    "RELU", "TANH", "Layers", "after_first_layer", "bias_of", "first_layer", "first_layer_from", "layer_widths",
    "policy_keys", "policy_tower", "tower_values", "value_towers", "weights_of",
]  # fmt: skip
