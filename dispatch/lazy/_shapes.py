"""Shapes and dtypes of lazy calls, known before anything is computed.

``infer(name, args, kwargs)`` returns ``(shape, dtype)`` for one output, or a
list of them for a function that returns a tuple. Exact rules cover the common
operations (elementwise with broadcasting, reductions, reshaping, indexing,
contractions, joining and splitting, linear algebra); every other name is
evaluated abstractly: on zero-strided numpy views of the right shape and dtype,
with ``jax.eval_shape`` when the leaves are jax arrays, or on torch's ``meta``
device when they are torch tensors. dtypes follow numpy's promotion rules
(NEP 50), found by running the numpy implementation on one-element arrays once
per combination of input dtypes, then cached.

The rules are written by topic, one module each: ``_shapes_elementwise``,
``_shapes_reductions``, ``_shapes_manipulation``, ``_shapes_indexing`` and
``_shapes_linalg``; what they share is in ``_shapes_common``, the abstract
evaluation in ``_shapes_abstract``. This module assembles their ``RULES`` (a
name in two topics is an error) and answers :func:`infer`.
"""

from __future__ import annotations

from typing import Any

from dispatch.lazy import (
    _shapes_elementwise,
    _shapes_indexing,
    _shapes_linalg,
    _shapes_manipulation,
    _shapes_reductions,
)
from dispatch.lazy._shapes_abstract import abstract
from dispatch.lazy._shapes_common import _LAZY as _LAZY  # filled in by _array
from dispatch.lazy._shapes_common import _NODATA as _NODATA  # filled in by _array
from dispatch.lazy._shapes_common import (
    Rule,
    Shape,
    ShapeError,
    broadcast,
    dtype_name,
    dtype_of,
    eval_dtype,
    norm_axes,
    norm_axis,
    promote,
    shape_of,
)
from dispatch.lazy._shapes_common import _find_lazy as _find_lazy
from dispatch.lazy._shapes_indexing import index_shape
from dispatch.lazy._shapes_linalg import matmul_shape, parse_einsum, tensordot_axes
from dispatch.lazy._shapes_manipulation import reshape_shape

__all__ = [
    "DATA_DEPENDENT",
    "RULES",
    "Rule",
    "Shape",
    "ShapeError",
    "abstract",
    "broadcast",
    "dtype_name",
    "dtype_of",
    "eval_dtype",
    "index_shape",
    "infer",
    "matmul_shape",
    "norm_axes",
    "norm_axis",
    "parse_einsum",
    "promote",
    "register_shape_rule",
    "reshape_shape",
    "shape_of",
    "tensordot_axes",
]
# names whose output shape depends on the values of the inputs
DATA_DEPENDENT = frozenset(
    [
        "nonzero", "argwhere", "flatnonzero", "unique", "unique_values",
        "unique_counts", "unique_inverse", "unique_all", "extract", "trim_zeros",
        "setdiff1d", "intersect1d", "union1d", "setxor1d", "bincount", "compress",
    ]
)


def _assemble() -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    for topic in (_shapes_elementwise, _shapes_reductions, _shapes_manipulation,
                  _shapes_indexing, _shapes_linalg):
        for name, rule in topic.RULES.items():
            if name in rules:
                raise RuntimeError(
                    f"shape rule {name!r} is defined twice (again in {topic.__name__})"
                )
            rules[name] = rule
    return rules


RULES: dict[str, Rule] = _assemble()


def infer(name: str, args: tuple, kwargs: dict) -> Any:
    """(shape, dtype), or a list of them for a tuple-valued function."""
    if name in DATA_DEPENDENT:
        raise ShapeError(
            f"{name!r} has an output shape that depends on the values of its input; "
            "compute its input first"
        )
    rule = RULES.get(name)
    if rule is None:
        return abstract(name, args, kwargs)
    return rule(args, kwargs)


def register_shape_rule(name: str, rule: Rule) -> Rule:
    """Teach the lazy backend the output shape and dtype of ``name``.

    Parameters
    ----------
    name : str
        The ``do`` name.
    rule : callable
        ``rule(args, kwargs) -> (shape, dtype_name)``, or a list of such pairs for
        a function returning a tuple. Lazy arguments expose ``.shape`` and
        ``.dtype`` (a numpy dtype name).

    Examples
    --------
    >>> from dispatch import lazy
    >>> def outer_sum(args, kwargs):
    ...     return args[0].shape + args[1].shape, "float64"
    >>> _ = lazy.register_shape_rule("my_outer_sum", outer_sum)
    """
    RULES[name] = rule
    return rule
