"""tensorflow's compilation and control flow of the backend method list:
``jit_compile`` (tf.function), ``while_loop`` (tf.while_loop), ``vectorized_call``
(tf.vectorized_map), ``numpy_call`` (tf.numpy_function) and ``is_available``;
jax.lax's ``cond`` (tf.cond), ``switch`` (tf.switch_case, the index clamped),
``fori_loop`` (tf.while_loop for tensor bounds), ``scan`` and ``map`` (tf.scan).
Eagerly, ``cond`` and ``switch`` are the composed Python branches (tf.cond would run
the same), and ``associative_scan`` is the composed parallel prefix everywhere.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import tensorflow as tf
from dispatch.translations._adapters import branch_index, check_carry, require_callable
from dispatch.translations._composed import control as _control
from dispatch.translations._composed._common import _combined as _combined_size
from dispatch.translations._composed.control import numpy_call as _numpy_call_composed
from dispatch.translations.tensorflow._common import (
    _SPARSE,
    _TENSOR,
    _dt,
    _t,
    _to,
)

# ``jit_compile(f)`` is a tf.function over the tensor arguments of ``f``. Every other
# argument is a constant of the trace, as numpy arrays are in the method list: a
# numpy array (keyed by its content, and copied, so that later changes to the caller's
# array cannot leak into a retrace), a Python number (keyed by value, as tf.function
# does) or any other object (keyed by identity). Code on those constants (``do`` calls
# on numpy arrays) runs once per trace, at trace time; the graph holds its results.
# One tf.function per combination of constants; each retraces per tensor signature
# itself. XLA compilation (``tf.function(jit_compile=True)``) is off by default: it
# compiles for seconds, helps only large fused graphs, and refuses ops without XLA
# kernels (strings, some sparse ops, host callbacks); ``xla=True`` turns it on.


_TRACEABLE = (tf.Tensor, tf.Variable, tf.SparseTensor, tf.RaggedTensor)


def _flatten(tree: Any, leaves: list) -> Any:
    """Leaves of nested tuples/lists/dicts appended to ``leaves``; returns a hashable
    description of the structure."""
    if isinstance(tree, (tuple, list)):
        kind = type(tree)
        return (kind, tuple(_flatten(t, leaves) for t in tree))
    if isinstance(tree, dict):
        keys = tuple(tree)
        return (dict, keys, tuple(_flatten(tree[k], leaves) for k in keys))
    leaves.append(tree)
    return None


def _unflatten(struct: Any, leaves: Any) -> Any:
    if struct is None:
        return next(leaves)
    if struct[0] is dict:
        return {k: _unflatten(s, leaves) for k, s in zip(struct[1], struct[2], strict=True)}
    kind, items = struct
    out = [_unflatten(s, leaves) for s in items]
    return kind(*out) if hasattr(kind, "_fields") else kind(out)


def _constant_key(x: Any) -> Any:
    if isinstance(x, np.ndarray) and x.dtype != object:
        import hashlib

        digest = hashlib.blake2b(np.ascontiguousarray(x).tobytes(), digest_size=16).digest()
        return ("array", x.dtype.str, x.shape, digest)
    if isinstance(x, np.generic):
        return ("scalar", x.dtype.str, x.item())
    try:
        hash(x)
    except TypeError:
        return ("id", id(x))
    return (type(x), x)


class _JitFunction:
    """``f`` as tf.functions, one per combination of constant arguments (see above)."""

    def __init__(self, f: Callable, xla: bool):
        self.f = f
        self.xla = xla
        self.traces: dict = {}
        functools.update_wrapper(self, f)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        leaves: list = []
        struct = _flatten((args, kwargs), leaves)
        dynamic = tuple(i for i, v in enumerate(leaves) if isinstance(v, _TRACEABLE))
        key = (struct, dynamic,
               tuple(_constant_key(v) for i, v in enumerate(leaves) if i not in dynamic))
        fn = self.traces.get(key)
        if fn is None:
            fn = self.traces[key] = self._trace(struct, leaves, dynamic)
        return fn(*[leaves[i] for i in dynamic])

    def _trace(self, struct: Any, leaves: list, dynamic: tuple) -> Callable:
        constants = [np.array(v, copy=True) if isinstance(v, np.ndarray) else v for v in leaves]
        f = self.f

        def run(*tensors: Any) -> Any:
            full = list(constants)
            for i, t in zip(dynamic, tensors, strict=True):
                full[i] = t
            args, kwargs = _unflatten(struct, iter(full))
            return f(*args, **kwargs)

        return tf.function(run, jit_compile=self.xla or None)

    def __repr__(self) -> str:
        return f"<jit_compile'd {getattr(self.f, '__name__', 'function')} (tf.function)>"


def _jit_compile(f: Callable, xla: bool = False) -> Callable:
    """``f`` compiled with tf.function, numpy arrays and Python values as constants;
    ``xla=True`` compiles the graphs with XLA (tf.function's ``jit_compile``)."""
    return _JitFunction(f, xla)


def _loop_var(v: Any) -> Any:
    return tf.stop_gradient(v if isinstance(v, tf.Tensor) else _t(v))


def _while_loop(loop: Callable, values: Sequence[Any], max_iter: Any = None) -> Any:
    # tf.while_loop: a Python loop when eager, a graph loop inside tf.function. The
    # composed loop's semantics (see ``while_loop`` there); checkpoints run one loop
    # per segment between them, so the trajectory needs no unrolling. Loop outputs are
    # cast to the loop variables' dtypes (tf.while_loop demands equal dtypes).
    values = tuple(tf.nest.map_structure(_loop_var, tuple(values)))

    def body(*v: Any) -> tuple:
        out = tuple(loop(*v))
        return tuple(tf.nest.map_structure(lambda o, r: _to(o, r.dtype), out, v))

    def run(v: tuple, i: Any, limit: Any) -> tuple:
        if limit is None:
            return tuple(tf.while_loop(lambda *w: tf.reduce_any(w[0]), body, v)), i
        out = tf.while_loop(lambda j, *w: tf.logical_and(j < limit, tf.reduce_any(w[0])),
                            lambda j, *w: (j + 1, *body(*w)), (i, *v))
        return tuple(out[1:]), out[0]

    start = tf.constant(0, tf.int64)
    if max_iter is None or np.ndim(max_iter) == 0:
        out, _ = run(values, start, None if max_iter is None else _to(max_iter, tf.int64))
        return tuple(tf.nest.map_structure(tf.stop_gradient, out))
    checkpoints = [int(c) for c in np.asarray(
        max_iter.numpy() if isinstance(max_iter, tf.Tensor) else max_iter).reshape(-1)]
    states, v, i = {}, values, start
    for c in sorted(set(checkpoints)):
        if c > 0:
            v, i = run(v, i, tf.constant(c, tf.int64))
        states[c] = v
    trajectory = [states[c] for c in checkpoints]
    stacked = tf.nest.map_structure(lambda *xs: tf.stop_gradient(tf.stack(xs)), *trajectory)
    return tuple(stacked)


def _vectorized_call(f: Callable, *args: Any, output_dtypes: Any = None,
                     **aux_args: Any) -> Any:
    # tf.vectorized_map over axis 0 (arguments of size 1 there are shared, not tiled);
    # functions it cannot convert (Python control flow on values, host calls) run in
    # tf.map_fn, eagerly one entry at a time or as a graph loop inside tf.function
    if not args:
        raise ValueError("vectorized_call needs at least one batched argument")
    args = tuple(_t(a) for a in args)
    sizes = [a.shape[0] if a.shape.rank else None for a in args]
    if None in sizes:
        raise ValueError("vectorized_call needs arguments with a static first axis")
    batch = _combined_size(*sizes)
    if batch == 0:
        raise ValueError("vectorized_call cannot infer the outputs of a batch of size 0")
    mapped = [i for i, s in enumerate(sizes) if s == batch]
    shared = {i: a[0] for i, (a, s) in enumerate(zip(args, sizes, strict=True)) if s != batch}

    def one(elems: tuple) -> Any:
        full = [shared.get(i) for i in range(len(args))]
        for i, e in zip(mapped, elems, strict=True):
            full[i] = e
        return f(*full, **aux_args)

    elems = tuple(args[i] for i in mapped)
    try:
        out = tf.vectorized_map(one, elems)
    except Exception:  # map_fn below raises the function's own error, if it has one
        trial = one(tuple(e[0] for e in elems))
        spec = tf.nest.map_structure(lambda o: tf.TensorSpec(_t(o).shape, _t(o).dtype), trial)
        out = tf.map_fn(one, elems, fn_output_signature=spec)
    return _cast_outputs(out, output_dtypes)


def _cast_outputs(out: Any, output_dtypes: Any) -> Any:
    if output_dtypes is None:
        return out
    if isinstance(out, (tuple, list)):
        many = isinstance(output_dtypes, (tuple, list))
        dts = output_dtypes if many else [output_dtypes] * len(out)
        return type(out)(o if dt is None else tf.cast(o, _dt(dt))
                         for o, dt in zip(out, dts, strict=True))
    return tf.cast(out, _dt(output_dtypes))


def _several_outputs(output_shapes: Any, output_dtypes: Any) -> bool:
    """Whether numpy_call declares several outputs: a sequence of shapes or dtypes."""
    if isinstance(output_dtypes, (tuple, list)):
        return True
    return isinstance(output_shapes, (tuple, list)) and any(
        isinstance(s, (tuple, list, tf.TensorShape)) for s in output_shapes)


def _numpy_call(f: Callable, output_shapes: Any, output_dtypes: Any, *args: Any,
                **aux_args: Any) -> Any:
    # eagerly a direct call on host copies; inside tf.function a tf.numpy_function op,
    # declared with the output dtypes and shapes (not differentiable either way)
    tensors = [i for i, a in enumerate(args) if isinstance(a, (*_TENSOR, *_SPARSE))]
    if all(_is_available(args[i]) for i in tensors):
        return _numpy_call_composed(f, output_shapes, output_dtypes, *args, **aux_args)
    several = _several_outputs(output_shapes, output_dtypes)
    shapes = list(output_shapes) if several else [output_shapes]
    dts = list(output_dtypes) if isinstance(output_dtypes, (tuple, list)) else (
        [output_dtypes] * len(shapes))
    if any(dt is None for dt in dts):
        raise ValueError("numpy_call inside tf.function needs the output dtypes")
    tout = [_dt(dt) for dt in dts]

    def host(*arrays: Any) -> list:
        full = list(args)
        for i, a in zip(tensors, arrays, strict=True):
            full[i] = a
        out = f(*full, **aux_args)
        outs = list(out) if several else [out]
        return [np.asarray(o, dtype=t.as_numpy_dtype) for o, t in zip(outs, tout, strict=True)]

    res = tf.numpy_function(host, [args[i] for i in tensors], tout, stateful=True)
    for r, shape in zip(res, shapes, strict=True):
        r.set_shape(shape)
    return tuple(res) if several else res[0]


def _is_available(x: Any) -> bool:
    # symbolic tensors (inside tf.function) have no value; variables read there neither
    if isinstance(x, _SPARSE):
        x = x.values
    if isinstance(x, tf.Variable):
        return tf.executing_eagerly()
    if isinstance(x, tf.Tensor):
        return not tf.is_symbolic_tensor(x)
    return True


def _cond(pred: Any, true_fun: Callable, false_fun: Callable, *operands: Any) -> Any:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)`` (jax.lax.cond).

    tf.cond inside tf.function (both branches traced: the same structure and
    dtypes); eagerly the value of ``pred`` picks the branch.

    Examples
    --------
    >>> import tensorflow as tf
    >>> from dispatch import do
    >>> do("cond", tf.constant(2) > 3, lambda x: x + 1, lambda x: x - 1, tf.constant([1, 2]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 1], dtype=int32)>
    """
    if _is_available(pred):
        return _control.cond(pred, true_fun, false_fun, *operands)
    require_callable("cond", "true_fun", true_fun)
    require_callable("cond", "false_fun", false_fun)
    if pred.shape.rank != 0:
        raise TypeError(f"cond: pred must be a scalar (0-d), got shape {pred.shape}")
    return tf.cond(tf.cast(pred, tf.bool), lambda: true_fun(*operands),
                   lambda: false_fun(*operands))


def _switch(index: Any, branches: Any, *operands: Any) -> Any:
    # tf.switch_case on the index clamped to the branches (jax.lax.switch's rule)
    if _is_available(index):
        return _control.switch(index, branches, *operands)
    branches = _control._branches("switch", branches)
    branch_index("switch", index, len(branches))
    i = tf.clip_by_value(tf.cast(index, tf.int32), 0, len(branches) - 1)
    return tf.switch_case(i, [functools.partial(b, *operands) for b in branches])


def _fori_loop(lower: Any, upper: Any, body_fun: Callable, init_val: Any) -> Any:
    # int bounds: the composed Python loop, i a Python int (tensorflow adds no int
    # tensor to a float one; inside tf.function the loop unrolls, as autograph unrolls
    # ``for i in range(n)``); tensor bounds: tf.while_loop over (i, val), i a tensor of
    # the bounds' dtype and the body's values cast to the carry's dtypes
    if not (isinstance(lower, tf.Tensor) or isinstance(upper, tf.Tensor)):
        return _control.fori_loop(lower, upper, body_fun, init_val)
    require_callable("fori_loop", "body_fun", body_fun)
    lo = lower if isinstance(lower, tf.Tensor) else _to(lower, upper.dtype)
    hi = _to(upper, lo.dtype)
    init = tf.nest.map_structure(_t, init_val)

    def body(i: Any, val: Any) -> tuple:
        new = body_fun(i, val)
        check_carry("fori_loop", "body_fun", val, new)
        return i + 1, tf.nest.map_structure(lambda o, v: _to(o, v.dtype), new, val)

    return tf.while_loop(lambda i, val: i < hi, body, (lo, init))[1]


def _scan(f: Callable, init: Any, xs: Any = None, length: int | None = None,
          reverse: bool = False) -> tuple[Any, Any]:
    """``f(carry, x) -> (carry, y)`` scanned over the leading axis of ``xs``
    (jax.lax.scan) on tf.scan.

    tf.scan's ``fn(acc, x)`` returns only the accumulator: here the accumulator is
    the pair ``(carry, y)``; the first step runs before tf.scan (its ``y`` sets the
    accumulator's shapes and dtypes) and the final carry is the last stacked one.

    Examples
    --------
    >>> import tensorflow as tf
    >>> from dispatch import do
    >>> carry, ys = do("scan", lambda c, x: (c + x, c * x), tf.constant(0.0),
    ...                tf.constant([1.0, 2.0, 3.0, 4.0]))
    >>> float(carry), ys.numpy().tolist()
    (10.0, [0.0, 2.0, 9.0, 24.0])
    """
    require_callable("scan", "f", f)
    n = _control._leading("scan", xs, length)
    if n == 0:
        raise ValueError("scan: cannot infer the outputs of a scan of length 0")
    none = xs is None
    elems = tf.range(n) if none else tf.nest.map_structure(_t, xs)
    carry0 = tf.nest.map_structure(_t, init)
    dtypes = tf.nest.map_structure(lambda c: c.dtype, carry0)

    def step(carry: Any, x: Any) -> tuple:
        out = f(carry, None if none else x)
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise TypeError(f"scan: f must return a pair (carry, y), got {type(out).__name__}")
        check_carry("scan", "f", carry, out[0])
        return (tf.nest.map_structure(_to, out[0], dtypes),
                tf.nest.map_structure(_t, out[1]))

    first = n - 1 if reverse else 0
    carry, y = step(carry0, tf.nest.map_structure(lambda a: a[first], elems))
    if n == 1:
        return carry, tf.nest.map_structure(lambda v: v[None], y)
    rest = tf.nest.map_structure(lambda a: a[:-1] if reverse else a[1:], elems)
    carries, ys = tf.scan(lambda acc, x: step(acc[0], x), rest, initializer=(carry, y),
                          reverse=reverse)
    last = 0 if reverse else -1
    final = tf.nest.map_structure(lambda c: c[last], carries)
    ys = tf.nest.map_structure(
        lambda y0, s: tf.concat([s, y0[None]] if reverse else [y0[None], s], 0), y, ys)
    return final, ys


def _map(f: Callable, xs: Any) -> Any:
    # tf.scan with an empty carry (lax.map's sequential semantics)
    require_callable("map", "f", f)
    return _scan(lambda c, x: (c, f(x)), (), xs)[1]


TABLE = {
    "cond": _cond,
    "switch": _switch,
    "fori_loop": _fori_loop,
    "scan": _scan,
    "map": _map,
    "jit_compile": _jit_compile,
    "requires_fixed_shapes_when_tracing": lambda: False,  # tf.function retraces per shape
    "while_loop": _while_loop,
    "vectorized_call": _vectorized_call,
    "numpy_call": _numpy_call,
    "is_available": _is_available,
}
