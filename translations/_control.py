"""Checks shared by the tables' control flow and transforms (``while_loop``, ``cond``,
``switch``, ``scan``, ``jvp``...): a callable where one is needed, a loop carry that
keeps its structure, a branch index in range, primals and tangents that pair up.

Split from ``_adapters.py`` by topic; ``_adapters`` re-exports these names, which the
tables import from either module.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def require_callable(name: str, role: str, f: Any) -> None:
    """The TypeError for a control-flow or autodiff name given a non-callable ``f``."""
    if not callable(f):
        raise TypeError(f"{name}: {role} must be callable, got {type(f).__name__} {f!r:.60}")


def _is_branch(v: Any) -> bool:
    return isinstance(v, (list, tuple, dict))


def tree_structure(tree: Any) -> Any:
    """The nesting of tuples, lists and dicts of ``tree``, every other object a leaf
    (None), as a value comparable with ``==``."""
    if isinstance(tree, dict):
        return (dict, tuple((k, tree_structure(v)) for k, v in tree.items()))
    if isinstance(tree, (list, tuple)):
        return (type(tree) if not hasattr(tree, "_fields") else tuple,
                tuple(tree_structure(v) for v in tree))
    return None


def check_carry(name: str, role: str, before: Any, after: Any) -> None:
    """The TypeError for a loop body whose carry changes structure (jax's rule)."""
    if tree_structure(before) != tree_structure(after):
        raise TypeError(
            f"{name}: {role} must return a carry of the same structure as the initial "
            f"value (tuples, lists and dicts nested alike): got {_describe(after)}, "
            f"expected {_describe(before)}"
        )


def _describe(tree: Any) -> str:
    s = tree_structure(tree)

    def show(t: Any) -> str:
        if t is None:
            return "*"
        kind, items = t
        if kind is dict:
            return "{" + ", ".join(f"{k!r}: {show(v)}" for k, v in items) + "}"
        inner = ", ".join(show(v) for v in items)
        return f"[{inner}]" if kind is list else f"({inner}{',' if len(items) == 1 else ''})"

    return show(s)


def branch_index(name: str, index: Any, n: int) -> int | None:
    """``switch``'s index as a Python int clamped to ``[0, n)``, or None when it is
    a traced value (the caller clamps it in the library). TypeError for an index
    that is not an integer scalar."""
    if n == 0:
        raise ValueError(f"{name}: branches must be a non-empty sequence of callables")
    dtype = getattr(index, "dtype", None)
    if isinstance(index, bool) or (dtype is not None and np.dtype(_np_dtype(dtype)).kind == "b"):
        raise TypeError(f"{name}: index must be an integer scalar, got a boolean")
    if isinstance(index, (int, np.integer)):
        return min(max(int(index), 0), n - 1)
    if dtype is None:
        raise TypeError(f"{name}: index must be an integer scalar, got "
                        f"{type(index).__name__} {index!r:.60}")
    if np.dtype(_np_dtype(dtype)).kind not in "iu":
        raise TypeError(f"{name}: index must be an integer scalar, got dtype {dtype}")
    if tuple(getattr(index, "shape", ())) != ():
        raise TypeError(f"{name}: index must be a scalar (0-d), got shape "
                        f"{tuple(index.shape)}")
    return None


def _np_dtype(dtype: Any) -> Any:
    """numpy's dtype of a library's dtype object (torch.int64, tf.int32, jax's)."""
    if hasattr(dtype, "as_numpy_dtype"):  # tensorflow
        return dtype.as_numpy_dtype
    if type(dtype).__module__.startswith("torch"):
        return str(dtype).removeprefix("torch.")
    if not isinstance(dtype, (np.dtype, type, str)):
        # paddle.float64 prints as its module's attribute, as torch's dtypes do
        label = str(dtype).rsplit(".", 1)[-1]
        try:
            return np.dtype(label)
        except TypeError:
            pass
    return dtype


def check_primals(name: str, primals: Any, tangents: Any) -> None:
    """The errors of ``jvp`` for primals and tangents that do not pair up."""
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(f"{name}: primals and tangents must be tuples or lists (one entry "
                        f"per argument of fun), got {type(primals).__name__} and "
                        f"{type(tangents).__name__}")
    if len(primals) != len(tangents):
        raise ValueError(f"{name}: {len(primals)} primals but {len(tangents)} tangents")
