"""Compilation, control flow and host calls on jax: the backend method list's
``jit_compile`` (and its gradient and Hessian forms) on ``jax.jit``,
``while_loop`` on ``lax.while_loop``, ``vectorized_call`` on ``vmap``,
``numpy_call`` on ``pure_callback``, jax.lax's ``cond``, ``switch``, ``fori_loop``,
``scan``, ``map`` and ``associative_scan`` themselves (with dispatch's errors for
non-callables, bad indices and carry structure changes), and whether shapes must be
fixed when tracing.

``jit_compile`` is jax.jit over the jax arrays among the (flattened) arguments; every
other leaf (Python numbers, strings, numpy arrays) is static: part of the cache key
and a compile-time constant in the trace, as numpy arrays are inside any jax.jit
function. A new static value compiles a new function (Python numbers used as sizes
must be static; pass jax arrays for values that change from call to call).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations._adapters import branch_index, check_carry, require_callable
from dispatch.translations._composed.control import _branches
from dispatch.translations._composed.control import vectorized_call as _vectorized_call_composed


class _StaticLeaf:
    """A hashable stand-in for a static argument (numpy arrays by their bytes)."""

    __slots__ = ("key", "value")

    def __init__(self, value: Any):
        self.value = value
        if isinstance(value, np.ndarray):
            self.key: Any = ("ndarray", value.shape, value.dtype.str, value.tobytes())
        elif isinstance(value, np.generic):
            self.key = ("scalar", value.dtype.str, value.tobytes())
        else:
            try:
                hash(value)
            except TypeError:
                self.key = ("id", id(value))  # unhashable object: by identity
            else:
                self.key = (type(value), value)

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _StaticLeaf) and self.key == other.key


_JIT_CACHE_SIZE = 64


class _JitFunction:
    """``f`` compiled by jax.jit per structure of its static arguments."""

    def __init__(self, f: Callable):
        self.f = f
        self.compiled: dict[Any, Callable] = {}
        functools.update_wrapper(self, f)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
        dynamic = tuple(isinstance(v, jax.Array) for v in leaves)
        static = tuple(_StaticLeaf(v) for v, d in zip(leaves, dynamic, strict=True) if not d)
        key = (treedef, dynamic, static)
        fn = self.compiled.get(key)
        if fn is None:
            if len(self.compiled) >= _JIT_CACHE_SIZE:
                self.compiled.pop(next(iter(self.compiled)))
            fn = self.compiled[key] = jax.jit(self._bind(treedef, dynamic, static))
        return fn(*(v for v, d in zip(leaves, dynamic, strict=True) if d))

    def _bind(self, treedef: Any, dynamic: tuple, static: tuple) -> Callable:
        f = self.f

        def run(*arrays: Any) -> Any:
            it_a, it_s = iter(arrays), iter(static)
            leaves = [next(it_a) if d else next(it_s).value for d in dynamic]
            args, kwargs = jax.tree_util.tree_unflatten(treedef, leaves)
            return f(*args, **kwargs)

        return run


def _jit_compile(f: Callable) -> Callable:
    """The list's ``jit_compile``: ``f`` compiled by jax.jit, the jax arrays among its
    (flattened) arguments traced and every other argument static: part of the cache
    key, so a new static value compiles again (pass jax arrays for values that change
    from call to call). numpy, dask and pydata sparse, which have no compiler, return
    ``f`` itself.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> power = do("jit_compile", lambda x, n: x ** n, like="jax")
    >>> power(jnp.arange(3.0), 2).tolist()
    [0.0, 1.0, 4.0]
    """
    return f if isinstance(f, _JitFunction) else _JitFunction(f)


def _loop_types(values: Any) -> Any:
    # lax loops want the body to return exactly the carried types (no weak types)
    return jax.tree_util.tree_map(lambda v: jnp.array(v, dtype=jnp.asarray(v).dtype), values)


def _while_loop(loop: Callable, values: Any, max_iter: Any = None) -> Any:
    """The composed ``while_loop`` on jax.lax.while_loop (jit-compatible, values
    stop gradients): run ``values = loop(*values)`` while ``any(values[0])``;
    ``max_iter`` an int limits the iterations, a sequence of increasing checkpoints
    stacks the values after each count (one lax loop per checkpoint segment)."""
    init = _loop_types(tuple(values))
    dtypes = jax.tree_util.tree_map(lambda v: v.dtype, init)

    def body(state: tuple) -> tuple:
        i, v = state
        out = tuple(loop(*v))
        out = jax.tree_util.tree_map(lambda o, dt: jax.lax.convert_element_type(o, dt),
                                     out, dtypes)
        return i + 1, out

    def run(i: Any, v: tuple, limit: Any) -> tuple:
        def cond(state: tuple) -> Any:
            n, vals = state
            go = jnp.any(vals[0])
            return go if limit is None else go & (n < limit)

        return jax.lax.while_loop(cond, body, (i, v))

    zero = jnp.zeros((), int)
    if isinstance(max_iter, (tuple, list)) or hasattr(max_iter, "shape"):
        checkpoints = [int(c) for c in np.asarray(max_iter).reshape(-1)]
        trajectory, i, v = [], zero, init
        for c in checkpoints:
            i, v = run(i, v, c)
            trajectory.append(v)
        stacked = jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *trajectory)
        return jax.lax.stop_gradient(stacked)
    _, v = run(zero, init, None if max_iter is None else int(max_iter))
    return jax.lax.stop_gradient(v)


def _vectorized_call(f: Callable, *args: Any, output_dtypes: Any = None,
                     **aux_args: Any) -> Any:
    # jax.vmap over axis 0 (arguments of size 1 there are shared); functions vmap cannot
    # run (Python control flow on values, host calls) fall back to the composed loop,
    # which re-raises their genuine errors
    if not args:
        raise ValueError("vectorized_call needs at least one batched argument")
    sizes = [v.shape[0] if hasattr(v, "shape") and np.ndim(v) else None for v in args]
    big = {s for s in sizes if s is not None and s != 1}
    if len(big) <= 1 and all(s is not None for s in sizes):
        batch = big.pop() if big else 1
        in_axes = tuple(0 if s == batch else None for s in sizes)
        shared = [jnp.asarray(a) if s == batch else jnp.asarray(a)[0]
                  for a, s in zip(args, sizes, strict=True)]
        try:
            out = jax.vmap(functools.partial(f, **aux_args), in_axes=in_axes)(*shared)
        except Exception:  # the loop below raises the real error, if there is one
            pass
        else:
            return _cast_outputs(out, output_dtypes)
    return _vectorized_call_composed(f, *args, output_dtypes=output_dtypes, **aux_args)


def _cast_outputs(out: Any, output_dtypes: Any) -> Any:
    if output_dtypes is None:
        return out
    if isinstance(out, (tuple, list)):
        many = isinstance(output_dtypes, (tuple, list))
        dts = output_dtypes if many else [output_dtypes] * len(out)
        return type(out)(o.astype(jnp.dtype(dt)) for o, dt in zip(out, dts, strict=True))
    return out.astype(jnp.dtype(output_dtypes))


def _is_shape(s: Any) -> bool:
    return isinstance(s, (tuple, list)) and all(isinstance(d, (int, np.integer)) for d in s)


def _numpy_call(f: Callable, output_shapes: Any, output_dtypes: Any, *args: Any,
                **aux_args: Any) -> Any:
    # jax.pure_callback: a host call on numpy copies that also runs inside jit and vmap
    # (vmap calls it once per batch entry); not differentiable. Non-array arguments stay
    # in Python. Declared dtypes follow jax's x64 setting (float64 -> float32 without).
    several = not _is_shape(output_shapes)
    shapes = list(output_shapes) if several else [output_shapes]
    many = isinstance(output_dtypes, (tuple, list))
    dts = list(output_dtypes) if many else [output_dtypes] * len(shapes)
    if any(dt is None for dt in dts):
        raise ValueError("numpy_call on jax needs output_dtypes (the host call's result "
                         "types must be known before it runs)")
    dtypes = [jax.dtypes.canonicalize_dtype(np.dtype(dt)) for dt in dts]
    structs = [jax.ShapeDtypeStruct(tuple(int(d) for d in s), dt)
               for s, dt in zip(shapes, dtypes, strict=True)]
    is_arr = [isinstance(a, (jax.Array, np.ndarray)) for a in args]
    arrays = [a for a, k in zip(args, is_arr, strict=True) if k]

    def host(*arrs: Any) -> Any:
        it = iter(arrs)
        full = [np.asarray(next(it)) if k else a for a, k in zip(args, is_arr, strict=True)]
        out = f(*full, **aux_args)
        outs = list(out) if several else [out]
        res = [np.asarray(o, dtype=dt) for o, dt in zip(outs, dtypes, strict=True)]
        return tuple(res) if several else res[0]

    out = jax.pure_callback(host, tuple(structs) if several else structs[0], *arrays,
                            vmap_method="sequential")
    return list(out) if several and isinstance(output_shapes, list) else out


def _requires_fixed_shapes_when_tracing() -> bool:
    return True  # jax.jit traces with static shapes; value-dependent shapes need size=


def _cond(pred: Any, true_fun: Callable, false_fun: Callable, *operands: Any) -> Any:
    """jax.lax.cond: ``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``.

    Both branches are traced (under jit, or when ``pred`` is traced) and must return
    the same structure, shapes and dtypes.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> float(do("cond", jnp.array(False), jnp.sin, jnp.cos, jnp.array(0.0)))
    1.0
    """
    require_callable("cond", "true_fun", true_fun)
    require_callable("cond", "false_fun", false_fun)
    return jax.lax.cond(pred, true_fun, false_fun, *operands)


def _switch(index: Any, branches: Any, *operands: Any) -> Any:
    """jax.lax.switch: ``branches[index](*operands)``, the index clamped to the branches.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> do("switch", jnp.array(5), [jnp.sin, jnp.cos], jnp.zeros(1)).tolist()
    [1.0]
    """
    # jax.lax.switch clamps the index itself
    branches = _branches("switch", branches)
    branch_index("switch", index, len(branches))
    return jax.lax.switch(index, branches, *operands)


def _fori_loop(lower: Any, upper: Any, body_fun: Callable, init_val: Any) -> Any:
    """jax.lax.fori_loop: ``val = body_fun(i, val)`` for ``i`` in ``range(lower, upper)``.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> do("fori_loop", 0, 4, lambda i, v: v * 2 + i, jnp.array([1.0])).tolist()
    [27.0]
    """
    # jax.lax.fori_loop (a scan when the bounds are concrete: reverse-differentiable)
    require_callable("fori_loop", "body_fun", body_fun)

    def body(i: Any, val: Any) -> Any:
        new = body_fun(i, val)
        check_carry("fori_loop", "body_fun", val, new)
        return new

    return jax.lax.fori_loop(lower, upper, body, init_val)


def _scan(f: Callable, init: Any, xs: Any = None, length: int | None = None,
          reverse: bool = False) -> tuple[Any, Any]:
    """jax.lax.scan: ``(carry, ys)`` of ``f(carry, x) -> (carry, y)`` over ``xs``.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> c, ys = do("scan", lambda c, x: (c + x, c * x), jnp.array(0.0), jnp.arange(1.0, 5.0))
    >>> float(c), ys.tolist()
    (10.0, [0.0, 2.0, 9.0, 24.0])
    """
    require_callable("scan", "f", f)

    def step(carry: Any, x: Any) -> Any:
        out = f(carry, x)
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise TypeError(f"scan: f must return a pair (carry, y), got {type(out).__name__}")
        check_carry("scan", "f", carry, out[0])
        return out

    return jax.lax.scan(step, init, xs, length=length, reverse=reverse)


def _map(f: Callable, xs: Any) -> Any:
    """jax.lax.map: ``f`` over the leading axis of ``xs``, sequentially.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> do("map", lambda r: r @ r, jnp.arange(4.0).reshape(2, 2)).tolist()
    [1.0, 13.0]
    """
    require_callable("map", "f", f)
    return jax.lax.map(f, xs)


def _associative_scan(fn: Callable, elems: Any, reverse: bool = False, axis: int = 0) -> Any:
    """jax.lax.associative_scan: the inclusive prefix of an associative ``fn``.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> do("associative_scan", jnp.add, jnp.arange(1, 5)).tolist()
    [1, 3, 6, 10]
    """
    require_callable("associative_scan", "fn", fn)
    return jax.lax.associative_scan(fn, elems, reverse=reverse, axis=axis)


def _apply_along_axis(func1d: Callable, axis: int, arr: Any, *args: Any, **kwargs: Any) -> Any:
    # jax's vmaps func1d over the slices (it must be traceable; the results are numpy's)
    # and maps it over no slice at all where numpy refuses: numpy's error first
    shape = jnp.shape(arr)
    rest = shape[: axis % len(shape)] + shape[axis % len(shape) + 1:] if shape else ()
    if shape and 0 in rest:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    return jnp.apply_along_axis(func1d, axis, arr, *args, **kwargs)


TABLE = {
    # numpy's apply_along_axis: jax's maps the function over the slices with vmap;
    # not jax's apply_over_axes, which takes no single int axis: the composed one
    "apply_along_axis": _apply_along_axis,
    "cond": _cond,
    "switch": _switch,
    "fori_loop": _fori_loop,
    "scan": _scan,
    "map": _map,
    "associative_scan": _associative_scan,
    "jit_compile": _jit_compile,
    "while_loop": _while_loop,
    "vectorized_call": _vectorized_call,
    "numpy_call": _numpy_call,
    "requires_fixed_shapes_when_tracing": _requires_fixed_shapes_when_tracing,
}
