"""``autoray.experimental.complexity_tracing``: the cost of a lazy computation, in
operations, from its recorded graph (:func:`compute_cost`)."""

from __future__ import annotations

import math
from typing import Any

from dispatch.lazy import ascend

__all__ = ("compute_cost",)


def _size(x: Any) -> int:
    return math.prod(x.shape)


def _cost(node: Any) -> int | None:
    """Multiply-adds of one node: the dense products and decompositions autoray counts."""
    fn = getattr(node, "fn_name", None)
    deps = [d for d in getattr(node, "deps", ()) if hasattr(d, "shape")]
    if fn in ("tensordot", "matmul", "einsum") and deps:
        sizes: dict[int, int] = {}
        for d in deps:
            for s in d.shape:
                sizes[s] = sizes.get(s, 0) + 1
        out = _size(node)
        inner = math.prod(deps[0].shape) // max(out, 1) if fn != "einsum" else 1
        return out * max(inner, 1)
    if fn in ("linalg.qr", "linalg.svd", "linalg.eigh") and deps:
        m, n = deps[0].shape[-2:]
        return max(m, n) * min(m, n) ** 2
    return None


def compute_cost(z: Any, print_missed: bool = True) -> int:
    """Sum of the costs of the nodes of the lazy array ``z`` that have one.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import lazy, do
    >>> a = lazy.Variable((4, 4))
    >>> compute_cost(do("matmul", a, a), print_missed=False) > 0
    True
    """
    total, missed = 0, set()
    for node in ascend(z):
        c = _cost(node)
        if c is None:
            missed.add(getattr(node, "fn_name", "?"))
        else:
            total += c
    if print_missed and missed:
        print("Missed:", sorted(missed))
    return total
