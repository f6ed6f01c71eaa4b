"""jax's shape functions where they depart from numpy: ``split`` at indices past
the end, ``ravel``'s orders, ``atleast_*`` of a list and their tuple results."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations._adapters import numpy_container, numpy_result_type
from dispatch.translations._adapters import ravel_order as _ravel_order
from dispatch.translations._composed import shape as composed_shape
from dispatch.translations._keywords import reshape_order

from dispatch.engine import NATIVE

_jnp_reshape = jnp.reshape


def _reshape(a: Any, shape: Any = None, order: str = "C", *, copy: bool | None = None,
             **kwargs: Any) -> Any:
    # jax reads order 'F' but takes copy=False even where numpy's reshape is no view
    # of a C-ordered array (numpy's refusal is its answer; jax arrays are immutable)
    if order != "C" or copy is False:
        order = reshape_order(jnp.shape(a), shape, order, copy)
    return _jnp_reshape(a, shape, order, copy=copy, **kwargs)


def _split_at(ary: Any, indices: Any, axis: int) -> list:
    # numpy splits at indices as slices do: indices past the end give empty pieces;
    # jax refuses them
    ary = jnp.asarray(ary)
    lead = (slice(None),) * (axis % ary.ndim)
    bounds = [0, *(int(i) for i in indices), ary.shape[axis]]
    return [ary[(*lead, slice(b0, b1))] for b0, b1 in itertools.pairwise(bounds)]


def _splitter(fn: Callable, axis_of: Callable | None = None) -> Callable:
    @functools.wraps(fn)
    def split(ary: Any, indices_or_sections: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(indices_or_sections, (int, np.integer)):
            return fn(ary, indices_or_sections, *args, **kwargs)
        ary = jnp.asarray(ary)
        axis = axis_of(ary) if axis_of else (args[0] if args else kwargs.get("axis", 0))
        return _split_at(ary, indices_or_sections, axis)

    return split


def _dsplit(ary: Any, indices_or_sections: Any) -> list:
    if jnp.ndim(ary) < 3:  # jax's raises IndexError
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _splitter(jnp.dsplit, lambda a: 2)(ary, indices_or_sections)


def _ravel(a: Any, order: Any = "C") -> Any:
    # jax implements 'C' and 'F' only; its arrays expose no memory layout, so 'A' and
    # 'K' read them as the C-contiguous arrays they stand for
    return jnp.ravel(a, "F" if _ravel_order(order) == "F" else "C")


def _atleast(fn: Callable) -> Callable:
    def atleast(*arys: Any) -> Any:
        # numpy reads one list argument as one array (jax refuses lists) and returns
        # several results as a tuple (jax: a list)
        if len(arys) == 1 and isinstance(arys[0], (list, tuple)):
            return fn(jnp.asarray(arys[0]))
        out = fn(*arys)
        return tuple(out) if isinstance(out, list) else out

    atleast.__name__ = atleast.__qualname__ = "_" + fn.__name__
    return atleast



def _traced(start_indices: Any) -> bool:
    """Whether a start index is a jax tracer (a value known only when the jit runs)."""
    items = [start_indices] if isinstance(start_indices, jax.Array) else start_indices
    return any(isinstance(s, jax.core.Tracer) for s in items)


# keras's slices with traced starts: lax.dynamic_slice / dynamic_update_slice (which
# move the starts so that the block fits: docs/vocabulary.md); the composed ones with
# starts that can be read (checked, basic indexing)
def _slice(inputs: Any, start_indices: Any, shape: Any) -> Any:
    if isinstance(inputs, jax.Array) and _traced(start_indices):
        return jax.lax.dynamic_slice(inputs, tuple(start_indices), tuple(shape))
    return composed_shape.slice_(inputs, start_indices, shape)


def _slice_update(inputs: Any, start_indices: Any, updates: Any) -> Any:
    if isinstance(inputs, jax.Array) and isinstance(updates, jax.Array) \
            and _traced(start_indices):
        return jax.lax.dynamic_update_slice(inputs, updates.astype(inputs.dtype),
                                            tuple(start_indices))
    return composed_shape.slice_update(inputs, start_indices, updates)

TABLE = {
    "reshape": _reshape,
    # numpy's permute_dims is transpose (axes optional); jax's requires the axes
    "permute_dims": "transpose",
    "slice": _slice,
    "slice_update": _slice_update,
    "split": _splitter(jnp.split),
    "array_split": _splitter(jnp.array_split),
    "hsplit": _splitter(jnp.hsplit, lambda a: 1 if a.ndim > 1 else 0),
    "vsplit": _splitter(jnp.vsplit, lambda a: 0),
    "dsplit": _dsplit,
    "ravel": _ravel,
    "atleast_1d": _atleast(jnp.atleast_1d),
    "atleast_2d": _atleast(jnp.atleast_2d),
    "atleast_3d": _atleast(jnp.atleast_3d),
    # jax.numpy's own (numpy semantics) beat the composed fallbacks of translations/_composed/
    "column_stack": NATIVE,
    "matrix_transpose": NATIVE,
    "union1d": NATIVE,
    "setdiff1d": NATIVE,
    "setxor1d": NATIVE,
    "append": NATIVE,
    # (not get_item, unravel_index and ravel_multi_index: jax's clip an index out of bounds, where
    # numpy raises; not ix_, which takes no booleans, nor histogram_bin_edges, which
    # takes no rule names such as 'auto', nor unwrap, whose integer period differs)
    "unique_values": NATIVE,
    # jnp's named tuples are its own classes (_UniqueAllResult...): numpy's
    "unique_counts": numpy_container(jnp.unique_counts, numpy_result_type("unique_counts")),
    "unique_inverse": numpy_container(jnp.unique_inverse,
                                      numpy_result_type("unique_inverse")),
    "unique_all": numpy_container(jnp.unique_all, numpy_result_type("unique_all")),
    # jnp returns lists; numpy 2 tuples
    "broadcast_arrays": numpy_container(jnp.broadcast_arrays, tuple),
    "meshgrid": numpy_container(jnp.meshgrid, tuple),
    "resize": NATIVE,
    "rollaxis": NATIVE,
    "diag_indices_from": NATIVE,
    "bitwise_count": NATIVE,
    "block": NATIVE,
    "extract": NATIVE,
    "packbits": NATIVE,
    "unpackbits": NATIVE,
}
