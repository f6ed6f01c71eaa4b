"""Control flow and function-calling methods of the backend method list.

Python-level defaults that any library can run eagerly: ``while_loop`` is a
Python loop, ``vectorized_call`` a loop over the batch followed by ``stack``,
``numpy_call`` a direct call on host copies. Libraries with a native way
(``jax.lax.while_loop``, ``torch.vmap``, ``jax.pure_callback``,
``tf.py_function``) override these names in their tables, which is what makes
them work inside jit-compiled code. ``jit_compile`` and the autodiff names have
no composed fallback: they are table entries (a documented pass-through or
``unsupported`` where a library has no compiler or no autodiff).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from dispatch.engine import composed, do, get_lib_fn, infer_backend, is_array, tree_iter, tree_map


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
