"""mlx: derivatives through mlx's own transforms (``mx.vjp``, ``mx.jvp``,
``mx.grad``), under the method list's names and jax's conventions.

The list's ``jacobian`` pulls back one basis cotangent per output entry with
``mx.vjp`` (reverse mode, as jax.jacrev); ``gradient`` of a scalar is one pass.
mlx differentiates floats only: integer arguments to differentiate become mlx's
default float32. numpy's ``gradient`` of an array (finite differences) keeps
numpy's name and is the composed one.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

import mlx.core as mx
from dispatch.translations._adapters import argnums as _argnums
from dispatch.translations._adapters import (
    check_primals,
    functional_hessian,
    functional_jacobian,
    require_callable,
)
from dispatch.translations._composed.autodiff import gradient as finite_differences
from dispatch.translations.mlx.devices import _asarray

from dispatch.engine import unsupported


def _inexact_args(args: tuple, argnums: tuple[int, ...]) -> tuple:
    out = list(args)
    for i in argnums:
        a = out[i] if isinstance(out[i], mx.array) else _asarray(out[i])
        out[i] = a if mx.issubdtype(a.dtype, mx.inexact) else a.astype(mx.float32)
    return tuple(out)


def _pullback(g: Callable, args: tuple, argnums: tuple[int, ...]) -> tuple:
    """``(g's first output, aux, vjp_fn)``: ``vjp_fn(cotangent)`` gives one array per
    index of ``argnums``."""
    value, aux = g(*args)

    def first(*diff: Any) -> Any:
        full = list(args)
        for i, d in zip(argnums, diff, strict=True):
            full[i] = d
        return g(*full)[0]

    def vjp_fn(ct: Any) -> list:
        return mx.vjp(first, [args[i] for i in argnums], [ct])[1]

    return value, aux, vjp_fn


def _without_aux(transform: Callable, g: Callable, argnums: Any) -> Callable:
    """jax's ``has_aux=False`` for a ``transform`` written for ``has_aux=True``: ``g``
    returns its value alone, and the derivative comes without an aux."""
    derivative = transform(lambda *a: (g(*a), None), argnums)
    return lambda *args: derivative(*args)[0]


def _transform(scalar: bool) -> Callable:
    def transform(g: Callable, argnums: Any, has_aux: bool = True) -> Callable:
        if not has_aux:
            return _without_aux(transform, g, argnums)
        nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

        def derivative(*args: Any) -> tuple:
            value, aux, vjp_fn = _pullback(g, args, nums)
            if scalar:
                return vjp_fn(mx.ones_like(value)), aux
            rows = []
            for k in range(value.size):
                ct = mx.zeros((value.size,), value.dtype)
                ct = mx.where(mx.arange(value.size) == k, 1, ct).reshape(value.shape)
                rows.append(vjp_fn(ct))
            grads = []
            for j, i in enumerate(nums):
                stacked = mx.stack([r[j] for r in rows]) if rows else mx.zeros(
                    (0, *args[i].shape), value.dtype)
                grads.append(stacked.reshape(value.shape + args[i].shape))
            return grads, aux

        return derivative

    return transform


def _jacobian(f: Callable, wrt: Any = (0,), get_output: bool = True,
              is_f_scalar: bool = False) -> Callable:
    """The list's ``jacobian`` through ``mx.vjp`` (see the module docstring)."""
    argnums, single = _argnums(wrt)
    return functional_jacobian(f, argnums, single, get_output, _transform(is_f_scalar),
                               _inexact_args)


def _tuple_jacobian(g: Callable, argnums: Any, has_aux: bool = True) -> Callable:
    """jax.jacrev's form for a ``g`` whose value is a tuple of arrays: ``raw[i][j]`` is
    the Jacobian of value ``i`` with respect to argument ``argnums[j]``, each
    pulled back through ``mx.vjp`` (which nests: this differentiates gradients)."""
    if not has_aux:
        return _without_aux(_tuple_jacobian, g, argnums)
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def derivative(*args: Any) -> tuple:
        values, aux = g(*args)
        raw = []
        for i in range(len(values)):

            def component(*a: Any, i: int = i) -> tuple:
                v, inner_aux = g(*a)
                return v[i], inner_aux

            grads, _ = _transform(False)(component, nums)(*args)
            raw.append(tuple(grads))
        return tuple(raw), aux

    return derivative


def _hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
             get_gradient: bool = True) -> Callable:
    """The list's ``hessian`` (per-batch-entry Hessians of ``f``'s first output, as
    jax's): reverse over reverse, ``mx.vjp`` of the summed gradients, one pull-back per
    component of a batch entry's gradient."""
    argnums, single = _argnums(wrt)
    return functional_hessian(f, argnums, single, get_output, get_gradient,
                              _transform(True), _tuple_jacobian, _inexact_args, mx)


def _gradient(f: Any, *args: Any, **kwargs: Any) -> Any:
    if not callable(f):  # numpy's finite differences keep numpy's name
        return finite_differences(f, *args, **kwargs)
    wrt = kwargs.get("wrt", args[0] if args else (0,))
    get_output = kwargs.get("get_output", args[1] if len(args) > 1 else False)
    return _jacobian(f, wrt, get_output, is_f_scalar=True)


def _grad(fun: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """jax.grad's conventions on ``mx.vjp``: the gradient of a scalar ``fun``."""
    require_callable("grad", "fun", fun)
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def grad_of(*args: Any) -> Any:
        args = _inexact_args(args, nums)
        value, aux, vjp_fn = _pullback(
            (lambda *a: fun(*a)) if has_aux else (lambda *a: (fun(*a), None)), args, nums)
        grads = vjp_fn(mx.ones_like(value))
        g = grads[0] if isinstance(argnums, int) else tuple(grads)
        return (g, aux) if has_aux else g

    return grad_of


def _value_and_grad(fun: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """jax.value_and_grad's conventions: ``(value, gradient)``."""
    require_callable("value_and_grad", "fun", fun)
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def value_and_grad_of(*args: Any) -> Any:
        args = _inexact_args(args, nums)
        value, aux, vjp_fn = _pullback(
            (lambda *a: fun(*a)) if has_aux else (lambda *a: (fun(*a), None)), args, nums)
        grads = vjp_fn(mx.ones_like(value))
        g = grads[0] if isinstance(argnums, int) else tuple(grads)
        return ((value, aux), g) if has_aux else (value, g)

    return value_and_grad_of


def _vjp(fun: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """jax.vjp's conventions: ``(fun(*primals), vjp_fn)``; ``vjp_fn(cotangent)``
    gives one cotangent per primal (a tuple)."""
    require_callable("vjp", "fun", fun)
    primals = _inexact_args(primals, tuple(range(len(primals))))
    res = fun(*primals)
    out, aux = res if has_aux else (res, None)

    def first(*p: Any) -> Any:
        r = fun(*p)
        return r[0] if has_aux else r

    def vjp_fn(ct: Any) -> tuple:
        return tuple(mx.vjp(first, list(primals), [ct])[1])

    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def _jvp(fun: Callable, primals: Any, tangents: Any, has_aux: bool = False) -> tuple:
    """jax.jvp's conventions: ``(fun(*primals), tangent of the output)``; with
    ``has_aux`` ``fun`` returns ``(out, aux)`` and the result is ``(out, tangent, aux)``."""
    require_callable("jvp", "fun", fun)
    check_primals("jvp", primals, tangents)
    primals = _inexact_args(tuple(primals), tuple(range(len(primals))))
    tangents = [t if isinstance(t, mx.array) else _asarray(t) for t in tangents]
    if not has_aux:
        outs, touts = mx.jvp(lambda *p: fun(*p), list(primals), tangents)
        return outs[0], touts[0]
    aux: list = []

    def value(*p: Any) -> Any:
        # mx.jvp differentiates arrays only: the aux is kept aside, from the same call
        out, extra = fun(*p)
        aux.append(extra)
        return out

    outs, touts = mx.jvp(value, list(primals), tangents)
    return outs[0], touts[0], aux[-1]


def _checkpoint(fun: Callable, *, prevent_cse: bool = True, policy: Any = None,
                static_argnums: Any = ()) -> Callable:
    """``mx.checkpoint``: ``fun`` recomputed in the backward pass. jax's keywords change
    no value here: ``prevent_cse`` and ``policy`` (what to save) steer jax's compiler,
    which has no mlx counterpart, and mlx's checkpoint passes non-array (static)
    arguments through as they are."""
    require_callable("checkpoint", "fun", fun)
    return mx.checkpoint(fun)


def _custom_gradient(f: Callable, gradient: Callable, get_external_cache: Any = None,
                     on_call_skipped: Any = None) -> Callable:
    """The list's ``custom_gradient``: ``f`` with the derivative ``gradient``, through
    ``mx.custom_function`` (so ``mx.grad``, ``mx.vjp`` and ``mx.compile`` use it).

    ``gradient(x, y, dy)`` gets the tuple of inputs, ``f``'s output and its cotangent
    (of the output's structure) and returns one gradient (or None: zero) per input.
    ``f`` runs on every call: ``get_external_cache`` and ``on_call_skipped`` are
    accepted and never needed.

    Examples
    --------
    >>> import mlx.core as mx
    >>> from dispatch import do
    >>> f = do("custom_gradient", mx.sin, lambda x, y, dy: 2 * dy, like="mlx")
    >>> mx.grad(lambda x: f(x).sum())(mx.array([0.0, 1.0])).tolist()
    [2.0, 2.0]
    """
    require_callable("custom_gradient", "f", f)
    require_callable("custom_gradient", "gradient", gradient)
    custom = mx.custom_function(f)

    @custom.vjp
    def vjp(primals: tuple, cotangent: Any, output: Any) -> tuple:
        dx = gradient(tuple(primals), output, cotangent)
        return tuple(dx) if isinstance(dx, (tuple, list)) else (dx,)

    @functools.wraps(f)
    def with_custom_gradient(*args: Any) -> Any:
        return custom(*args)

    return with_custom_gradient


def _is_module(obj: Any) -> bool:
    """Whether ``obj`` is an ``mlx.nn.Module`` (mlx.nn is imported only when
    ``obj`` comes from it)."""
    nn = sys.modules.get("mlx.nn")
    return nn is not None and isinstance(obj, nn.Module)


TABLE = {
    "custom_gradient": _custom_gradient,
    "is_module": _is_module,
    "module": unsupported("mlx has no variables: an mlx.nn.Module's parameters are arrays "
                          "that its training step replaces (model.update), so a forward "
                          "function closing over arrays would never see new values"),
    "checkpoint": _checkpoint,
    "grad": _grad,
    "value_and_grad": _value_and_grad,
    "vjp": _vjp,
    "jvp": _jvp,
    "jacobian": _jacobian,
    "hessian": _hessian,
    "gradient": _gradient,
    "variable": unsupported("mlx has no variables: parameters are immutable arrays passed "
                            "to the function that mx.grad differentiates"),
}
