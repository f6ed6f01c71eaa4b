"""mlx: the method list's ``jit_compile`` through ``mx.compile``, and control flow
that survives it.

``mx.compile`` traces the function on its array arguments and takes the other
arguments as constants of the trace (a new value compiles again), as jax.jit with
static arguments. mlx has no traced control flow: the loops and conditionals are the
composed ones, which read their conditions on the host, wherever mlx lets a value be
read (eagerly, and under ``mx.grad``). Inside ``mx.compile`` (and ``mx.vmap``) no
value can be read (``is_available`` says so): there ``cond`` and ``switch`` compute
every branch and select the one taken with ``mx.where`` (jax's rule under ``vmap``:
the branches must give outputs of one structure and shape), and ``while_loop`` with a
Python ``max_iter`` runs that many steps, each kept only while the condition holds.
A ``while_loop`` without a limit cannot be traced: ``UnsupportedError`` says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mlx.core as mx
from dispatch.translations._adapters import branch_index, require_callable, tree_structure
from dispatch.translations._composed import control as composed
from dispatch.translations.mlx.devices import _is_available

from dispatch.engine import UnsupportedError, do, tree_flatten, tree_unflatten


def _jit_compile(f: Callable) -> Callable:
    """The list's ``jit_compile``: ``f`` compiled by ``mx.compile``.

    Examples
    --------
    >>> import mlx.core as mx
    >>> from dispatch import do
    >>> power = do("jit_compile", lambda x, n: x ** n, like="mlx")
    >>> power(mx.arange(3.0), 2).tolist()
    [0.0, 1.0, 4.0]
    """
    require_callable("jit_compile", "f", f)
    return mx.compile(f)


def _traced(x: Any) -> bool:
    return isinstance(x, mx.array) and not _is_available(x)


def _select(name: str, pred: Any, taken: Any, other: Any) -> Any:
    """``mx.where(pred, t, o)`` leaf by leaf of two outputs of one structure."""
    if tree_structure(taken) != tree_structure(other):
        raise TypeError(f"{name}: inside mx.compile every branch must return outputs of the "
                        "same structure (tuples, lists and dicts nested alike)")
    leaves, ref = tree_flatten(taken, get_ref=True)
    others = tree_flatten(other)
    out = []
    for t, o in zip(leaves, others, strict=True):
        t, o = mx.array(t), mx.array(o)
        if t.shape != o.shape:
            raise TypeError(f"{name}: inside mx.compile every branch must return outputs of "
                            f"the same shapes; got {tuple(t.shape)} and {tuple(o.shape)}")
        out.append(mx.where(pred, t, o))
    return tree_unflatten(out, ref)


def _cond(pred: Any, true_fun: Callable, false_fun: Callable, *operands: Any) -> Any:
    """jax.lax.cond: the composed Python ``if``; on a traced ``pred``, both branches
    selected by ``mx.where`` (see the module docstring)."""
    if not _traced(pred):
        return composed.cond(pred, true_fun, false_fun, *operands)
    require_callable("cond", "true_fun", true_fun)
    require_callable("cond", "false_fun", false_fun)
    if pred.ndim != 0:
        raise TypeError(f"cond: pred must be a scalar (0-d), got shape {tuple(pred.shape)}")
    return _select("cond", pred.astype(mx.bool_), true_fun(*operands), false_fun(*operands))


def _switch(index: Any, branches: Sequence[Callable], *operands: Any) -> Any:
    """jax.lax.switch: the composed one; on a traced ``index``, every branch, the
    clamped index's output selected by ``mx.where``."""
    if not _traced(index):
        return composed.switch(index, branches, *operands)
    branches = composed._branches("switch", branches)
    branch_index("switch", index, len(branches))  # the checks of an integer scalar
    i = mx.clip(index, 0, len(branches) - 1)
    outs = [b(*operands) for b in branches]
    result = outs[-1]
    for k in range(len(branches) - 2, -1, -1):
        result = _select("switch", i == k, outs[k], result)
    return result


def _while_loop(loop: Callable, values: Any, max_iter: Any = None) -> Any:
    """The composed ``while_loop``; on a traced condition, ``max_iter`` steps unrolled,
    each step's values kept where ``any(values[0])`` held before it."""
    values = tuple(values)
    if not values or not _traced(values[0]):
        return composed.while_loop(loop, values, max_iter)
    if isinstance(max_iter, (tuple, list)):
        checkpoints = [int(c) for c in max_iter]
    elif isinstance(max_iter, int) and not isinstance(max_iter, bool):
        checkpoints = [max_iter]
    else:
        raise UnsupportedError(
            "while_loop inside mx.compile needs a Python int max_iter (or a list of "
            "checkpoints): mlx has no loop primitive that a compiled function can trace, "
            "and its condition cannot be read there. With a limit, the loop runs that "
            f"many steps, each kept while the condition holds; got max_iter={max_iter!r}")
    values = tuple(do("stop_gradient_tree", values))
    trajectory = [values] if 0 in checkpoints else []
    for i in range(1, max(checkpoints, default=0) + 1):
        go = mx.any(values[0])
        step = tuple(loop(*values))
        values = _select("while_loop", go, step, values)
        if i in checkpoints:
            trajectory.append(values)
    if isinstance(max_iter, (tuple, list)):
        trajectory.extend([values] * (len(checkpoints) - len(trajectory)))
        return do("stop_gradient_tree", do("stack_leaves", trajectory))
    return do("stop_gradient_tree", values)


def _requires_fixed_shapes_when_tracing() -> bool:
    # mx.compile traces with its inputs' shapes and cannot read values: a shape that
    # depends on values (nonzero, boolean_mask) needs a static size there, as in jax
    return True


TABLE = {
    "requires_fixed_shapes_when_tracing": _requires_fixed_shapes_when_tracing,
    "jit_compile": _jit_compile,
    "cond": _cond,
    "switch": _switch,
    "while_loop": _while_loop,
}
