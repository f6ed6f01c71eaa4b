"""Control flow and function-calling methods of the backend method list.

Python-level defaults that any library can run eagerly: ``while_loop`` is a
Python loop, ``vectorized_call`` a loop over the batch followed by ``stack``,
``numpy_call`` a direct call on host copies; jax.lax's ``cond``, ``switch``,
``fori_loop``, ``scan``, ``map`` and ``associative_scan`` are Python branches and
loops (``associative_scan`` a parallel prefix of ``log2(n)`` vectorized calls).
Libraries with a native way (``jax.lax.while_loop``, ``torch.vmap``,
``jax.pure_callback``, ``tf.py_function``, ``tf.cond``...) override these names in
their tables, which is what makes them work inside jit-compiled code.
``jit_compile`` and the autodiff names (``grad``, ``vjp``, ``jvp``...) have no
composed fallback: they are table entries (a documented pass-through or
``unsupported`` where a library has no compiler or no autodiff).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from dispatch.translations._adapters import branch_index, check_carry, require_callable

from dispatch.engine import (
    composed,
    do,
    get_lib_fn,
    infer_backend,
    is_array,
    tree_flatten,
    tree_iter,
    tree_map,
    tree_unflatten,
)


@composed("call")
def call(f: Callable, *args: Any, name: str | None = None) -> Any:
    """``f(*args)``; ``name`` labels the call for profilers (unused here).

    ``do("call", f, x, name=...)`` clashes with ``do``'s own first parameter;
    pass the label through :func:`dispatch.get_lib_fn` until ``do`` takes
    ``name`` positionally only.

    Examples
    --------
    >>> import numpy as np
    >>> do("call", np.sum, np.ones(3))
    np.float64(3.0)
    """
    return f(*args)


@composed("block_until_ready")
def block_until_ready(values: Any) -> Any:
    """Wait until every array in ``values`` is computed; returns ``values``.

    Calls ``block_until_ready()`` on the leaves that have it (asynchronous
    libraries); a no-op for eager ones.

    Examples
    --------
    >>> import numpy as np
    >>> do("block_until_ready", np.ones(2))
    array([1., 1.])
    """
    for leaf in tree_iter(values, is_leaf=lambda v: hasattr(v, "block_until_ready")):
        leaf.block_until_ready()
    return values


def settler(values: Any) -> Callable[[Any], Any] | None:
    """The library's ``block_until_ready`` for the arrays in ``values`` where it
    does more than wait (dask persists the loop state, so that a Python loop
    reading one value per step does not recompute the state's whole history
    each step), or None where it is the no-op above (eager libraries)."""
    first = next((v for v in tree_iter(values) if is_array(v)), None)
    if first is None:
        return None
    fn = get_lib_fn(infer_backend(first), "block_until_ready")
    return None if fn is block_until_ready else fn


@composed("stop_gradient_tree")
def stop_gradient_tree(tree: Any) -> Any:
    """``stop_gradient`` of every array leaf of a nested tuple/list/dict.

    Examples
    --------
    >>> import numpy as np
    >>> do("stop_gradient_tree", (np.ones(1), [np.zeros(1)]))
    (array([1.]), [array([0.])])
    """
    return tree_map(lambda x: do("stop_gradient", x), tree)


def _any(x: Any) -> bool:
    return bool(do("any", x)) if is_array(x) else bool(np.any(x))


@composed("while_loop")
def while_loop(
    loop: Callable[..., Sequence[Any]], values: Sequence[Any], max_iter: Any = None
) -> Any:
    """Run ``values = loop(*values)`` while ``any(values[0])``.

    Parameters
    ----------
    loop : callable
        Returns a tuple like ``values`` (same shapes and dtypes).
    values : tuple
        Initial loop variables; ``values[0]`` is the condition.
    max_iter : int, sequence of ints, or None
        None: no limit. An int: at most that many iterations. A sequence of
        checkpoints: the variables after each of those iteration counts are
        stacked along a new first axis; checkpoints after the loop ended repeat
        the final variables.

    Returns
    -------
    tuple of the final (or stacked) loop variables.

    Notes
    -----
    Eager Python loop, not differentiable (gradients are stopped). jax,
    torch and tensorflow override it with their own loops for jit.

    Examples
    --------
    >>> import numpy as np
    >>> step = lambda go, x: (x + 1 < 3, x + 1)
    >>> do("while_loop", step, (np.array([True]), np.array([0])))
    (array([False]), array([3]))
    >>> do("while_loop", step, (np.array([True]), np.array([0])), [0, 1, 5])[1][:, 0]
    array([0, 1, 3])
    """
    values = tuple(do("stop_gradient_tree", tuple(values)))
    settle = settler(values)
    if isinstance(max_iter, (tuple, list)) or is_array(max_iter):
        raw = do("to_numpy", max_iter) if is_array(max_iter) else max_iter
        checkpoints = [int(c) for c in raw]
        trajectory = [do("copy_leaves", values)] if 0 in checkpoints else []
        for i in range(1, max(checkpoints, default=0) + 1):
            if not _any(values[0]):
                break
            values = tuple(loop(*values))
            if settle is not None:
                values = tuple(settle(values))
            if i in checkpoints:
                trajectory.append(do("copy_leaves", values))
        final = do("copy_leaves", values)
        trajectory.extend([final] * (len(checkpoints) - len(trajectory)))
        return do("stop_gradient_tree", do("stack_leaves", trajectory))
    i = 0
    while (max_iter is None or i < max_iter) and _any(values[0]):
        values = tuple(loop(*values))
        if settle is not None:
            values = tuple(settle(values))
        i += 1
    return do("stop_gradient_tree", values)


@composed("vectorized_call")
def vectorized_call(f: Callable, *args: Any, output_dtypes: Any = None, **aux_args: Any) -> Any:
    """Map ``f`` over the first axis of ``args`` and stack the results.

    Arguments of first-axis size 1 are reused for every entry. ``output_dtypes``
    (one dtype or one per output) casts the stacked results. A Python loop
    (libraries with ``vmap`` override it).

    Examples
    --------
    >>> import numpy as np
    >>> do("vectorized_call", lambda a, b: a @ b, np.ones((3, 2)), np.ones((1, 2)))
    array([2., 2., 2.])
    """
    if not args:
        raise ValueError("vectorized_call needs at least one batched argument")
    batch = do("determine_size", list(args), 0)
    if batch == 0:
        raise ValueError("vectorized_call cannot infer the outputs of a batch of size 0")
    sizes = [do("shape", a)[0] for a in args]
    results = [
        f(*[a[min(b, n - 1)] for a, n in zip(args, sizes, strict=True)], **aux_args)
        for b in range(batch)
    ]
    out = do("stack_leaves", results)
    if output_dtypes is None:
        return out
    if isinstance(out, (tuple, list)):
        several = isinstance(output_dtypes, (tuple, list))
        dts = output_dtypes if several else [output_dtypes] * len(out)
        return type(out)(do("cast", o, dt) for o, dt in zip(out, dts, strict=True))
    return do("cast", out, output_dtypes)


@composed("numpy_call")
def numpy_call(
    f: Callable, output_shapes: Any, output_dtypes: Any, *args: Any, **aux_args: Any
) -> Any:
    """Call a numpy function on host copies of ``args``; results come back as
    arrays of the arguments' library.

    ``output_shapes``/``output_dtypes`` declare the outputs (one shape and
    dtype, or one per output); the results are cast to the declared dtypes.
    Eager: inside jit, libraries override it with host callbacks. Not
    differentiable.

    Examples
    --------
    >>> import numpy as np
    >>> do("numpy_call", np.cumsum, (3,), "float64", np.ones(3))
    array([1., 2., 3.])
    """
    ref = next((a for a in args if is_array(a)), None)
    host = [do("to_numpy", a) if is_array(a) else a for a in args]
    out = f(*host, **aux_args)
    several = isinstance(out, (tuple, list))
    outs = list(out) if several else [out]
    if isinstance(output_dtypes, (tuple, list)) and several:
        dtypes = list(output_dtypes)
    else:
        dtypes = [output_dtypes] * len(outs)
    converted = []
    for o, dt in zip(outs, dtypes, strict=True):
        o = np.asarray(o) if dt is None else np.asarray(o, dtype=np.dtype(dt))
        converted.append(do("asarray", o) if ref is None else do("asarray", o, like=ref))
    return type(out)(converted) if several else converted[0]


@composed("jit_compile_grad")
def jit_compile_grad(f: Callable, wrt: Any = (0,), get_output: bool = True,
                     is_f_scalar: bool = False, *, backend: str) -> Callable:
    """The list's ``jit_compile_grad``: the library's ``jit_compile`` of its
    ``jacobian(f, wrt, get_output, is_f_scalar)``, written once for the libraries
    whose compiler can trace a derivative (a library that compiles only the forward
    pass, as torch's trace, has its own entry).

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> g = do("jit_compile_grad", lambda x: do("sum", x ** 2), like="jax")
    >>> out, (grad,) = g(jnp.array([1.0, 2.0]))
    >>> float(out), grad.tolist()
    (5.0, [2.0, 4.0])
    """
    jacobian = get_lib_fn(backend, "jacobian")
    return get_lib_fn(backend, "jit_compile")(jacobian(f, wrt, get_output, is_f_scalar))


@composed("jit_compile_hessian")
def jit_compile_hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
                        get_gradient: bool = True, *, backend: str) -> Callable:
    """The list's ``jit_compile_hessian``: the library's ``jit_compile`` of its
    ``hessian(f, wrt, get_output, get_gradient)`` (see ``jit_compile_grad``).

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> h = do("jit_compile_hessian", lambda x: do("sum", x ** 3, axis=-1), like="jax")
    >>> out, grads, hessians = h(jnp.array([[1.0, 2.0]]))
    >>> hessians[0][0][0].tolist()
    [[6.0, 0.0], [0.0, 12.0]]
    """
    hessian = get_lib_fn(backend, "hessian")
    return get_lib_fn(backend, "jit_compile")(hessian(f, wrt, get_output, get_gradient))


# ---------------------------------------------------------------- jax.lax's control flow


def _predicate(name: str, pred: Any) -> bool:
    """``pred`` as a Python bool: a bool, a number or a one-element array (jax's
    rule: a scalar)."""
    if is_array(pred):
        if int(np.prod(do("shape", pred))) != 1 or len(do("shape", pred)) != 0:
            raise TypeError(f"{name}: pred must be a scalar (0-d), got shape "
                            f"{tuple(do('shape', pred))}")
        return bool(do("to_numpy", pred))
    if isinstance(pred, (bool, int, float, np.bool_, np.number)):
        return bool(pred)
    raise TypeError(f"{name}: pred must be a boolean scalar, got {type(pred).__name__}")


@composed("cond")
def cond(pred: Any, true_fun: Callable, false_fun: Callable, *operands: Any) -> Any:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)`` (jax.lax.cond).

    Parameters
    ----------
    pred : bool or 0-d array
        The condition, a scalar.
    true_fun, false_fun : callable
        The branches; under a compiler both are traced and must return outputs of
        the same structure, shapes and dtypes.
    *operands
        Passed to the branch that runs.

    Returns
    -------
    The output of the branch that ran.

    Notes
    -----
    A Python ``if`` on the value of ``pred`` here (the value is read, which
    computes a dask array); jax, torch and tensorflow use ``jax.lax.cond``,
    ``torch.cond`` (inside torch.compile) and ``tf.cond``.

    Examples
    --------
    >>> import numpy as np
    >>> do("cond", np.array(True), lambda x: x + 1, lambda x: x - 1, np.array([1, 2]))
    array([2, 3])
    >>> do("cond", 0, lambda x: x + 1, lambda x: x - 1, np.array([1, 2]))
    array([0, 1])
    """
    require_callable("cond", "true_fun", true_fun)
    require_callable("cond", "false_fun", false_fun)
    return (true_fun if _predicate("cond", pred) else false_fun)(*operands)


@composed("switch")
def switch(index: Any, branches: Sequence[Callable], *operands: Any) -> Any:
    """``branches[index](*operands)``, the index clamped to the branches (jax.lax.switch).

    Parameters
    ----------
    index : int or 0-d integer array
        Which branch runs; below 0 runs the first, past the end the last.
    branches : sequence of callables
        The branches; under a compiler all are traced and must return outputs of
        the same structure, shapes and dtypes.
    *operands
        Passed to the branch that runs.

    Returns
    -------
    The output of the branch that ran.

    Raises
    ------
    TypeError
        ``index`` is not an integer scalar, or a branch is not callable.

    Examples
    --------
    >>> import numpy as np
    >>> branches = [lambda x: x, lambda x: 2 * x, lambda x: -x]
    >>> do("switch", np.array(1), branches, np.array([1, 2]))
    array([2, 4])
    >>> do("switch", 7, branches, np.array([1, 2]))
    array([-1, -2])
    """
    branches = _branches("switch", branches)
    i = branch_index("switch", index, len(branches))
    if i is None:
        i = min(max(int(do("to_numpy", index)), 0), len(branches) - 1)
    return branches[i](*operands)


def _branches(name: str, branches: Any) -> list[Callable]:
    if callable(branches) or not isinstance(branches, (list, tuple)):
        raise TypeError(f"{name}: branches must be a sequence of callables, got "
                        f"{type(branches).__name__}")
    for k, b in enumerate(branches):
        require_callable(name, f"branches[{k}]", b)
    return list(branches)


def _bound(name: str, role: str, v: Any) -> int:
    if is_array(v):
        v = do("to_numpy", v)
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer, np.ndarray)) or (
            isinstance(v, np.ndarray) and (v.ndim or v.dtype.kind not in "iu")):
        raise TypeError(f"{name}: {role} must be an integer scalar, got "
                        f"{type(v).__name__} {v!r:.60}")
    return int(v)


@composed("fori_loop")
def fori_loop(lower: Any, upper: Any, body_fun: Callable, init_val: Any) -> Any:
    """``val = body_fun(i, val)`` for ``i`` in ``range(lower, upper)`` (jax.lax.fori_loop).

    Parameters
    ----------
    lower, upper : int or 0-d integer array
        The loop bounds.
    body_fun : callable
        ``body_fun(i, val)`` returns the next value, of ``val``'s structure.
    init_val : array or nested tuple/list/dict of arrays
        The initial loop value.

    Returns
    -------
    The final value (``init_val`` when ``upper <= lower``).

    Raises
    ------
    TypeError
        ``body_fun`` returns a value of another structure than ``init_val``.

    Notes
    -----
    ``i`` is a Python int here; inside jax's, tensorflow's and compiled torch
    loops it is a 0-d integer array.

    Examples
    --------
    >>> import numpy as np
    >>> do("fori_loop", 0, 4, lambda i, v: v * 2 + i, np.array([1.0]))
    array([27.])
    """
    require_callable("fori_loop", "body_fun", body_fun)
    lo, hi = _bound("fori_loop", "lower", lower), _bound("fori_loop", "upper", upper)
    val = init_val
    for i in range(lo, hi):
        new = body_fun(i, val)
        check_carry("fori_loop", "body_fun", val, new)
        val = new
    return val


def _leading(name: str, xs: Any, length: Any) -> int:
    """The common length of the leading axes of the leaves of ``xs``."""
    sizes = {int(do("shape", x)[0]) for x in tree_iter(xs)}
    if length is not None:
        sizes.add(int(length))
    if len(sizes) > 1:
        raise ValueError(f"{name}: the leading axes of xs (and length) differ: "
                         f"{sorted(sizes)}")
    if not sizes:
        raise ValueError(f"{name}: pass xs with a leading axis, or length= when xs is None")
    return sizes.pop()


def stack_outputs(name: str, ys: list) -> Any:
    """The per-step outputs of a scan or map stacked along a new first axis (None
    leaves stay None)."""
    if not ys:
        raise ValueError(f"{name}: cannot infer the outputs of a scan of length 0")
    flat = [tree_flatten(y, is_leaf=_leaf_or_none, get_ref=True) for y in ys]
    ref = flat[0][1]
    stacked = [None if leaves[0] is None else do("stack", list(leaves))
               for leaves in zip(*(f[0] for f in flat), strict=True)]
    return tree_unflatten(stacked, ref)


def _leaf_or_none(v: Any) -> bool:
    return v is None or not isinstance(v, (list, tuple, dict))


@composed("scan")
def scan(f: Callable, init: Any, xs: Any = None, length: int | None = None,
         reverse: bool = False) -> tuple[Any, Any]:
    """Scan ``f`` over the leading axis of ``xs``, carrying a value (jax.lax.scan).

    Parameters
    ----------
    f : callable
        ``f(carry, x)`` returns ``(carry, y)``; the carry keeps its structure.
    init : array or nested tuple/list/dict of arrays
        The initial carry.
    xs : array, nested tuple/list/dict of arrays, or None
        Scanned along their leading axis; None gives ``x = None`` at every step
        (then ``length`` says how many).
    length : int, optional
        The number of steps (checked against ``xs``).
    reverse : bool
        Scan from the last entry to the first; ``ys[i]`` still belongs to ``xs[i]``.

    Returns
    -------
    (carry, ys)
        The final carry and the outputs ``y`` stacked along a new first axis.

    Examples
    --------
    >>> import numpy as np
    >>> do("scan", lambda c, x: (c + x, c * x), np.array(0.0), np.arange(1.0, 5.0))
    (np.float64(10.0), array([ 0.,  2.,  9., 24.]))
    """
    require_callable("scan", "f", f)
    n = _leading("scan", xs, length)
    steps = range(n - 1, -1, -1) if reverse else range(n)
    carry, ys = init, []
    for i in steps:
        x = None if xs is None else tree_map(lambda a, i=i: a[i], xs)
        out = f(carry, x)
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise TypeError(f"scan: f must return a pair (carry, y), got {type(out).__name__}")
        check_carry("scan", "f", carry, out[0])
        carry = out[0]
        ys.append(out[1])
    if reverse:
        ys.reverse()
    return carry, stack_outputs("scan", ys)


@composed("map")
def map_(f: Callable, xs: Any) -> Any:
    """``f`` applied to every entry along the leading axis of ``xs``, the results
    stacked (jax.lax.map: sequential, one call per entry).

    Examples
    --------
    >>> import numpy as np
    >>> do("map", lambda r: r @ r, np.arange(6.0).reshape(3, 2))
    array([ 1., 13., 41.])
    """
    require_callable("map", "f", f)
    n = _leading("map", xs, None)
    return stack_outputs("map", [f(tree_map(lambda a, i=i: a[i], xs)) for i in range(n)])


@composed("associative_scan")
def associative_scan(fn: Callable, elems: Any, reverse: bool = False, axis: int = 0) -> Any:
    """The inclusive prefix of an associative ``fn`` along ``axis`` (jax.lax.associative_scan).

    ``out[i] = fn(... fn(fn(elems[0], elems[1]), elems[2]) ..., elems[i])``, with
    ``fn`` applied to whole slices at once (it must be vectorized). ``reverse``
    runs from the end: ``flip(associative_scan(fn, flip(elems)))``.

    Parameters
    ----------
    fn : callable
        An associative function of two arrays (or trees of the structure of
        ``elems``) of the same shape.
    elems : array or nested tuple/list/dict of arrays
        Scanned along ``axis`` (the same length for every leaf).
    reverse : bool
        Scan from the last entry.
    axis : int
        The scanned axis.

    Notes
    -----
    A parallel prefix (Hillis and Steele): ``ceil(log2(n))`` calls of ``fn`` on
    shifted slices; with a non-associative ``fn`` the result is not a sequential
    fold.

    Examples
    --------
    >>> import numpy as np
    >>> do("associative_scan", lambda a, b: a + b, np.arange(1, 6))
    array([ 1,  3,  6, 10, 15])
    >>> do("associative_scan", np.maximum, np.array([1, 3, 2, 5, 4]), reverse=True)
    array([5, 5, 5, 5, 4])
    """
    require_callable("associative_scan", "fn", fn)
    leaves, ref = tree_flatten(elems, get_ref=True)
    if not leaves:
        raise ValueError("associative_scan: elems has no arrays")
    leaves = [do("moveaxis", a, axis, 0) for a in leaves]
    if reverse:
        leaves = [do("flip", a, axis=0) for a in leaves]
    n = _leading("associative_scan", leaves, None)
    shift = 1
    while shift < n:
        earlier = tree_unflatten([a[:-shift] for a in leaves], ref)
        later = tree_unflatten([a[shift:] for a in leaves], ref)
        combined = tree_flatten(fn(earlier, later))
        if len(combined) != len(leaves):
            raise TypeError("associative_scan: fn must return a value of the structure "
                            "of elems")
        leaves = [do("concatenate", [a[:shift], c], axis=0)
                  for a, c in zip(leaves, combined, strict=True)]
        shift *= 2
    if reverse:
        leaves = [do("flip", a, axis=0) for a in leaves]
    return tree_unflatten([do("moveaxis", a, 0, axis) for a in leaves], ref)


# ---------------------------------------------------------------- numpy's functional helpers


def _ndim(x: Any) -> int:
    return len(tuple(do("shape", x)))


@composed("apply_along_axis")
def apply_along_axis(func1d: Callable, axis: int, arr: Any, *args: Any, **kwargs: Any) -> Any:
    """``func1d`` applied to every 1-d slice of ``arr`` along ``axis``, numpy's
    ``apply_along_axis``: the dimensions of its result replace ``axis``, and every
    result takes the dtype of the first. A Python loop over the slices.

    Examples
    --------
    >>> import numpy as np
    >>> do("apply_along_axis", lambda v: v[::-1].cumsum(), 1, np.arange(6).reshape(2, 3))
    array([[ 2,  3,  3],
           [ 5,  9, 12]])
    """
    shape = tuple(do("shape", arr))
    nd = len(shape)
    if not -nd <= axis < nd:
        raise np.exceptions.AxisError(axis, nd)
    axis %= nd
    lead = shape[:axis] + shape[axis + 1:]
    count = int(np.prod(lead, dtype=np.int64))
    if count == 0:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    rows = do("reshape", do("moveaxis", arr, axis, -1), (count, shape[axis]))
    outs = [do("asarray", func1d(rows[i], *args, **kwargs), like=arr) for i in range(count)]
    dtype = do("get_dtype_name", outs[0])
    res_shape = tuple(do("shape", outs[0]))
    out = do("reshape", do("stack", [do("astype", o, dtype) for o in outs]), lead + res_shape)
    k = len(res_shape)
    if k:
        out = do("moveaxis", out, list(range(nd - 1, nd - 1 + k)), list(range(axis, axis + k)))
    return out


@composed("apply_over_axes")
def apply_over_axes(func: Callable, a: Any, axes: Any) -> Any:
    """``func(a, axis)`` applied axis after axis, each result given back the reduced
    axis (numpy's ``expand_dims``) when it lost it, numpy's ``apply_over_axes``.

    Examples
    --------
    >>> import numpy as np
    >>> do("apply_over_axes", np.sum, np.arange(24).reshape(2, 3, 4), [0, 2])
    array([[[ 60],
            [ 92],
            [124]]])
    """
    val = a
    n = _ndim(a)
    for axis in (axes,) if np.ndim(axes) == 0 else axes:
        axis = int(axis)
        if axis < 0:
            axis += n
        res = func(val, axis)
        if not is_array(res):
            res = do("asarray", res, like=a)
        if _ndim(res) != _ndim(val):
            res = do("expand_dims", res, axis)
            if _ndim(res) != _ndim(val):
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def condition_list(condlist: Any, nd: int) -> list:
    """numpy's reading of ``condlist``: one condition or a sequence of them."""
    if (is_array(condlist) and _ndim(condlist) == 0) or np.isscalar(condlist):
        return [condlist]
    first = condlist[0]
    sequence = isinstance(first, (list, np.ndarray)) or (is_array(first) and _ndim(first) > 0)
    if not sequence and nd != 0:
        return [condlist]
    return [condlist[i] for i in range(len(condlist))]


@composed("piecewise")
def piecewise(x: Any, condlist: Any, funclist: Sequence, *args: Any, backend: str,
              **kw: Any) -> Any:
    """numpy's ``piecewise``: where ``condlist[i]`` holds, the result is
    ``funclist[i](x[condlist[i]], *args, **kw)`` (or ``funclist[i]`` itself, a
    value); a last extra function applies where no condition holds, later
    conditions win, and elsewhere the result is 0. The dtype is ``x``'s. Each
    function gets the selected elements only (a 1-d array), as in numpy.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.linspace(-2.0, 2.0, 5)
    >>> do("piecewise", x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 10])
    array([ 2.,  1.,  0., 10., 20.])
    """
    x = do("asarray", x, like=backend)
    shape = tuple(do("shape", x))
    conds = [do("broadcast_to", do("astype", do("asarray", c, like=x), "bool"), shape)
             for c in condition_list(condlist, len(shape))]
    n, n2 = len(conds), len(funclist)
    if n == n2 - 1:  # the "otherwise" function
        held = conds[0]
        for c in conds[1:]:
            held = do("logical_or", held, c)
        conds.append(do("logical_not", held))
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    dtype = do("get_dtype_name", x)
    flat = do("reshape", x, (-1,))
    y = do("zeros_like", flat)
    for cond, func in zip(conds, funclist, strict=True):
        c = do("reshape", cond, (-1,))
        if not callable(func):
            y = do("where", c, do("astype", do("asarray", func, like=x), dtype), y)
            continue
        where = do("nonzero", c)[0]
        if int(do("shape", where)[0]) == 0:
            continue  # numpy calls no function on nothing
        vals = do("astype", do("asarray", func(do("take", flat, where), *args, **kw), like=x),
                  dtype)
        if _ndim(vals) == 0:
            y = do("where", c, vals, y)
            continue
        last = max(int(do("shape", vals)[0]) - 1, 0)
        pos = do("clip", do("cumsum", do("astype", c, "int64")) - 1, 0, last)
        y = do("where", c, do("take", vals, pos), y)
    return do("reshape", y, shape)
