"""Differentiation on jax: ``stop_gradient``, numpy's ``gradient`` of an array
(finite differences) beside the backend method list's ``gradient`` of a
function, ``jacobian``, ``hessian`` and ``custom_gradient`` on jax's transforms,
jax's own ``grad``, ``value_and_grad``, ``vjp``, ``jvp`` and ``checkpoint`` (with
dispatch's error for a non-callable function), and the names of other libraries'
trainable state, which jax does not have."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from dispatch.translations._adapters import argnums as _argnums
from dispatch.translations._adapters import (
    check_primals,
    functional_hessian,
    functional_jacobian,
    require_callable,
)
from dispatch.translations._composed.autodiff import gradient as finite_differences

from dispatch.engine import alias, unsupported


def _float_type() -> Any:
    from dispatch.engine import get_precision

    bits = get_precision()
    return jax.dtypes.canonicalize_dtype(float if bits is None else f"float{bits}")


def _inexact_args(args: tuple, argnums: tuple[int, ...]) -> tuple:
    # jax differentiates only floats: integer and bool arguments to differentiate
    # become floats of the current precision
    out = list(args)
    for i in argnums:
        a = jnp.asarray(out[i])
        out[i] = a if jnp.issubdtype(a.dtype, jnp.inexact) else a.astype(_float_type())
    return tuple(out)


def _jacobian(f: Callable, wrt: Any = (0,), get_output: bool = True,
              is_f_scalar: bool = False) -> Callable:
    """The list's ``jacobian``: a function returning the derivatives of ``f``.

    ``f(*args)`` returns an array, or a tuple/list whose first entry is the array to
    differentiate (the others are auxiliary outputs). The derivative with respect to
    ``args[i]`` for ``i`` in ``wrt`` has shape ``first.shape + args[i].shape``. The
    returned function gives ``(output, grads)`` with ``get_output``, else ``grads``;
    ``grads`` is a tuple with one entry per index of ``wrt``, or one array when ``wrt``
    is an int. ``is_f_scalar`` takes one reverse pass (jax.grad) instead of a
    Jacobian (jax.jacrev).

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> _jacobian(lambda x: x ** 2, wrt=0, get_output=False)(jnp.array([1.0, 2.0])).tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """
    argnums, single = _argnums(wrt)

    transform = jax.grad if is_f_scalar else jax.jacrev
    return functional_jacobian(f, argnums, single, get_output, transform, _inexact_args)


def _gradient(f: Any, *args: Any, **kwargs: Any) -> Any:
    """The list's ``gradient(f, wrt=(0,), get_output=False)`` of a scalar ``f``
    (``jacobian`` with ``is_f_scalar=True``); numpy's ``gradient`` of an array."""
    if not callable(f):  # numpy's finite differences keep numpy's name
        if kwargs.get("edge_order", 1) != 1:  # jnp.gradient has first-order edges only
            out = finite_differences(f, *args, **kwargs)
        else:
            out = jnp.gradient(f, *args, **kwargs)
        return tuple(out) if isinstance(out, list) else out  # numpy: a tuple per axis
    return _gradient_of(f, *args, **kwargs)


def _gradient_of(f: Callable, wrt: Any = (0,), get_output: bool = False) -> Callable:
    return _jacobian(f, wrt, get_output, is_f_scalar=True)


def _hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
             get_gradient: bool = True) -> Callable:
    """The list's ``hessian``: per-batch-entry Hessians of ``f``'s first output.

    Axis 0 of every argument is a batch axis whose entries are independent; the first
    output of ``f`` is a loss per batch entry or its sum. The returned function gives
    ``(output, gradients, hessians)`` without the output or gradients unless asked
    for. Gradients (of the summed loss) have the arguments' shapes;
    ``hessians[i][j]`` has shape (batch, *args[i].shape[1:], *args[j].shape[1:]). With
    an int ``wrt``: one gradient and one Hessian. Forward over reverse (as
    jax.hessian), one forward pass per component of a batch entry.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> h = do("hessian", lambda x: (x ** 3).sum(-1), wrt=0, like="jax")
    >>> loss, grad, hess = h(jnp.array([[1.0, 2.0]]))  # a batch of one entry
    >>> loss.tolist(), grad.tolist(), hess.tolist()
    ([9.0], [[3.0, 12.0]], [[[6.0, 0.0], [0.0, 12.0]]])
    """
    argnums, single = _argnums(wrt)
    return functional_hessian(f, argnums, single, get_output, get_gradient, jax.grad,
                              jax.jacfwd, _inexact_args, jnp)


def _custom_gradient(f: Callable, gradient: Callable, get_external_cache: Any = None,
                     on_call_skipped: Any = None) -> Callable:
    """The list's ``custom_gradient``: ``f`` with the derivative ``gradient``.

    ``gradient(x, y, dy)`` gets the tuple of inputs, ``f``'s output and its cotangent
    and returns one gradient (or None: zero) per input. Built on jax.custom_vjp, so
    every jax transform and jit uses it; ``f`` runs on every call, so
    ``get_external_cache`` and ``on_call_skipped`` are accepted and never needed.

    Examples
    --------
    >>> import jax, jax.numpy as jnp
    >>> from dispatch import do
    >>> f = do("custom_gradient", jnp.sin, lambda x, y, dy: 2 * dy, like="jax")
    >>> f(jnp.array([0.0])).tolist()
    [0.0]
    >>> jax.grad(lambda x: f(x).sum())(jnp.array([0.0, 1.0])).tolist()
    [2.0, 2.0]
    """

    def fwd(*args: Any) -> tuple[Any, Any]:
        y = f(*args)
        return y, (args, y)

    def bwd(res: Any, dy: Any) -> tuple:
        args, y = res
        dx = gradient(args, y, dy)
        dx = tuple(dx) if isinstance(dx, (tuple, list)) else (dx,)
        return tuple(_zero_cotangent(a) if d is None else jnp.asarray(d).astype(jnp.result_type(a))
                     for d, a in zip(dx, args, strict=True))

    custom = jax.custom_vjp(f)
    custom.defvjp(fwd, bwd)
    return functools.wraps(f)(lambda *args: custom(*args))


def _zero_cotangent(a: Any) -> Any:
    # integer inputs take float0 cotangents
    a = jnp.asarray(a)
    if jnp.issubdtype(a.dtype, jnp.inexact):
        return jnp.zeros_like(a)
    return np.zeros(a.shape, jax.dtypes.float0)


def _argnums_tuple(argnums: Any) -> Any:
    return tuple(argnums) if isinstance(argnums, list) else argnums


def _grad(fun: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """jax.grad: the gradient of a scalar ``fun`` with respect to the arguments
    ``argnums``; with ``has_aux`` ``fun`` returns ``(value, aux)`` and the result
    ``(gradient, aux)``.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> do("grad", lambda x: (x * x).sum(), like="jax")(jnp.array([1.0, 2.0])).tolist()
    [2.0, 4.0]
    """
    require_callable("grad", "fun", fun)
    return jax.grad(fun, argnums=_argnums_tuple(argnums), has_aux=has_aux)


def _value_and_grad(fun: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """jax.value_and_grad: ``(value, gradient)``, with ``has_aux`` ``((value, aux),
    gradient)``.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> f = do("value_and_grad", lambda x: (x * x).sum(), like="jax")
    >>> value, g = f(jnp.array([1.0, 2.0]))
    >>> float(value), g.tolist()
    (5.0, [2.0, 4.0])
    """
    require_callable("value_and_grad", "fun", fun)
    return jax.value_and_grad(fun, argnums=_argnums_tuple(argnums), has_aux=has_aux)


def _vjp(fun: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """jax.vjp: ``(fun(*primals), vjp_fn)``, ``vjp_fn(cotangent)`` giving one cotangent
    per primal (a tuple); with ``has_aux`` ``(out, vjp_fn, aux)``.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> out, vjp_fn = do("vjp", lambda x: x * x, jnp.array([1.0, 3.0]))
    >>> vjp_fn(jnp.ones(2))[0].tolist()
    [2.0, 6.0]
    """
    require_callable("vjp", "fun", fun)
    return jax.vjp(fun, *primals, has_aux=has_aux)


def _jvp(fun: Callable, primals: Any, tangents: Any, has_aux: bool = False) -> tuple:
    """jax.jvp: ``(fun(*primals), tangent_out)``, the derivative along ``tangents``
    (one per primal); with ``has_aux`` ``(out, tangent_out, aux)``.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> out, t = do("jvp", lambda x: x * x, (jnp.array([3.0]),), (jnp.array([1.0]),))
    >>> t.tolist()
    [6.0]
    """
    require_callable("jvp", "fun", fun)
    check_primals("jvp", primals, tangents)
    return jax.jvp(fun, primals, tangents, has_aux=has_aux)


def _checkpoint(fun: Callable) -> Callable:
    """jax.checkpoint: ``fun`` whose intermediates the backward pass recomputes
    instead of storing.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> from dispatch import do
    >>> f = do("checkpoint", lambda x: (jnp.sin(x) * x).sum(), like="jax")
    >>> round(float(do("grad", f, like="jax")(jnp.array(1.0))), 4)
    1.3818
    """
    require_callable("checkpoint", "fun", fun)
    return jax.checkpoint(fun)


TABLE = {
    "grad": _grad,
    "value_and_grad": _value_and_grad,
    "vjp": _vjp,
    "jvp": _jvp,
    "checkpoint": _checkpoint,
    "stop_gradient": alias("stop_gradient", module="jax.lax"),
    "jacobian": _jacobian,
    "gradient": _gradient,
    "hessian": _hessian,
    "custom_gradient": _custom_gradient,
    "variable": unsupported("jax has no variables: parameters are immutable arrays "
                            "passed to the function that jax.grad differentiates"),
    "module": unsupported("jax has no module class (flax and equinox define their own)"),
    "is_module": lambda obj: False,
}
