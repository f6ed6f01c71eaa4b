"""autograd: the backend method list's ``gradient``, ``jacobian`` and ``hessian``
through ``autograd.grad`` and ``autograd.jacobian``, numpy's ``gradient`` of an
array (finite differences, composed) beside them, and autograd's own ``grad``,
``jacobian``, ``hessian`` and ``stop_gradient`` (a box's value)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import autograd
import autograd.differential_operators
import autograd.numpy as anp
import numpy as np
from autograd.extend import defvjp_argnum, primitive
from autograd.tracer import getval
from dispatch.translations._adapters import argnums as _argnums
from dispatch.translations._adapters import (
    check_primals,
    functional_hessian,
    functional_jacobian,
    require_callable,
)
from dispatch.translations._composed.autodiff import gradient as finite_differences

from dispatch.engine import tree_map, unsupported


def _value(tree: Any) -> Any:
    """Auxiliary outputs of a differentiated function, their boxes unwrapped."""
    return tree_map(getval, tree, is_leaf=lambda x: hasattr(x, "_value"))


def _transform(make: Callable, each: bool) -> Callable:
    """jax's calling convention, ``transform(g, argnums=, has_aux=True)``, for
    autograd's ``grad`` or ``jacobian`` (``make``), which take one argument index;
    ``each``: one transform per argument (a Jacobian's shape needs an array), else one
    transform of the tuple of them (a gradient of a tuple is a tuple)."""

    def transform(g: Callable, argnums: tuple[int, ...], has_aux: bool = True) -> Callable:
        if not has_aux:  # jax's has_aux=False: g returns its value alone
            with_aux = transform(lambda *a, **k: (g(*a, **k), None), argnums)
            return lambda *args, **kwargs: with_aux(*args, **kwargs)[0]

        def run(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
            aux: list = []

            def at(xs: tuple) -> Any:
                full = list(args)
                for i, x in zip(argnums, xs, strict=True):
                    full[i] = x
                value, extra = g(*full, **kwargs)
                aux.append(extra)
                return value

            if each:
                xs = tuple(args[i] for i in argnums)

                def one(k: int, out: int | None) -> Any:
                    def part(xi: Any) -> Any:
                        value = at((*xs[:k], xi, *xs[k + 1:]))
                        return value if out is None else value[out]

                    return make(part)(xs[k])

                value, _ = g(*args, **kwargs)
                if isinstance(value, (tuple, list)):  # one block per output and argument
                    grads = tuple(tuple(one(k, i) for k in range(len(argnums)))
                                  for i in range(len(value)))
                else:
                    grads = tuple(one(k, None) for k in range(len(argnums)))
            else:
                grads = tuple(make(at)(tuple(args[i] for i in argnums)))
            return grads, _value(aux[-1])

        return run

    return transform


def _inexact(args: tuple, argnums: tuple[int, ...]) -> tuple:
    # autograd differentiates floats: integer and bool arguments become float64
    out = list(args)
    for i in argnums:
        a = out[i]
        if not np.issubdtype(anp.result_type(getval(a)), np.inexact):
            out[i] = anp.asarray(a, dtype=np.float64)
    return tuple(out)


def _jacobian(f: Callable, wrt: Any = (0,), get_output: bool = True,
              is_f_scalar: bool = False) -> Callable:
    """The list's ``jacobian`` of ``f`` (see jax's table for the contract), through
    ``autograd.grad`` (a scalar ``f``) or ``autograd.jacobian``.

    >>> import numpy as np
    >>> _jacobian(lambda x: x ** 2, wrt=0, get_output=False)(np.array([1.0, 2.0])).tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """
    require_callable("jacobian", "f", f)
    argnums, single = _argnums(wrt)
    transform = (_transform(autograd.grad, each=False) if is_f_scalar
                 else _transform(autograd.jacobian, each=True))
    return functional_jacobian(f, argnums, single, get_output, transform, _inexact)


def _gradient(f: Any, *args: Any, **kwargs: Any) -> Any:
    """The list's ``gradient(f, wrt=(0,), get_output=False)`` of a scalar ``f``;
    numpy's ``gradient`` of an array (finite differences).

    >>> import numpy as np
    >>> _gradient(lambda x: (x ** 2).sum(), wrt=0)(np.array([1.0, 2.0])).tolist()
    [2.0, 4.0]
    """
    if not callable(f):
        return finite_differences(f, *args, **kwargs)
    return _gradient_of(f, *args, **kwargs)


def _gradient_of(f: Callable, wrt: Any = (0,), get_output: bool = False) -> Callable:
    return _jacobian(f, wrt, get_output, is_f_scalar=True)


def _hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
             get_gradient: bool = True) -> Callable:
    """The list's ``hessian``: per-batch-entry Hessians of ``f``'s first output
    (see jax's table for the contract), reverse over reverse with autograd.

    >>> import numpy as np
    >>> h = _hessian(lambda x: (x ** 3).sum(-1), wrt=0)
    >>> loss, grad, hess = h(np.array([[1.0, 2.0]]))
    >>> loss.tolist(), grad.tolist(), hess.tolist()
    ([9.0], [[3.0, 12.0]], [[[6.0, 0.0], [0.0, 12.0]]])
    """
    require_callable("hessian", "f", f)
    argnums, single = _argnums(wrt)
    return functional_hessian(f, argnums, single, get_output, get_gradient,
                              _transform(autograd.grad, each=False),
                              _transform(autograd.jacobian, each=True), _inexact, anp)


def _grad(fun: Callable, argnum: int = 0) -> Callable:
    """autograd.grad: the gradient of a scalar ``fun`` with respect to ``argnum``.

    >>> import numpy as np
    >>> _grad(lambda x: (x ** 2).sum())(np.array([1.0, 2.0])).tolist()
    [2.0, 4.0]
    """
    require_callable("grad", "fun", fun)
    return functools.wraps(fun)(autograd.grad(fun, argnum))


def _value_and_grad(fun: Callable, argnum: int = 0) -> Callable:
    """autograd.value_and_grad: ``fun``'s value and its gradient with respect to ``argnum``.

    >>> import numpy as np
    >>> value, grad = _value_and_grad(lambda x: (x ** 2).sum())(np.array([1.0, 2.0]))
    >>> float(value), grad.tolist()
    (5.0, [2.0, 4.0])
    """
    require_callable("value_and_grad", "fun", fun)
    return functools.wraps(fun)(autograd.value_and_grad(fun, argnum))


def _packed(fun: Callable, has_aux: bool, aux: list) -> Callable:
    """``fun`` of one tuple of arguments (autograd differentiates one argument), its
    auxiliary output set aside in ``aux``."""

    def packed(xs: Any) -> Any:
        res = fun(*xs)
        if not has_aux:
            return res
        out, extra = res
        aux.append(_value(extra))
        return out

    return packed


def _vjp(fun: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """jax.vjp's conventions on ``autograd.make_vjp``: ``(fun(*primals), vjp_fn)``,
    ``vjp_fn(cotangent)`` giving one cotangent per primal (a tuple); with ``has_aux``
    ``(out, vjp_fn, aux)``.

    >>> import numpy as np
    >>> out, vjp_fn = _vjp(np.sin, np.array([0.0, 1.0]))
    >>> [g.round(4).tolist() for g in vjp_fn(np.ones(2))]
    [[1.0, 0.5403]]
    """
    require_callable("vjp", "fun", fun)
    aux: list = []
    pullback, out = autograd.make_vjp(_packed(fun, has_aux, aux))(
        _inexact(tuple(primals), tuple(range(len(primals)))))

    def vjp_fn(cotangent: Any) -> tuple:
        return tuple(pullback(cotangent))

    return (out, vjp_fn, aux[0]) if has_aux else (out, vjp_fn)


def _jvp(fun: Callable, primals: Any, tangents: Any, has_aux: bool = False) -> tuple:
    """jax.jvp's conventions on autograd's forward mode (``make_jvp``):
    ``(fun(*primals), tangent_out)``, the derivative along ``tangents`` (one per
    primal); with ``has_aux`` ``(out, tangent_out, aux)``.

    >>> import numpy as np
    >>> out, tangent = _jvp(np.sin, (np.array([0.0]),), (np.array([2.0]),))
    >>> out.tolist(), tangent.tolist()
    ([0.0], [2.0])
    """
    require_callable("jvp", "fun", fun)
    check_primals("jvp", primals, tangents)
    aux: list = []
    primals = _inexact(tuple(primals), tuple(range(len(primals))))
    # a tangent takes its primal's dtype (a box, inside an outer trace, is kept)
    tangents = tuple(t if hasattr(t, "_value") else np.asarray(t, np.result_type(getval(p)))
                     for t, p in zip(tangents, primals, strict=True))
    out, tangent = autograd.differential_operators.make_jvp(
        _packed(fun, has_aux, aux))(primals)(tangents)
    return (out, tangent, aux[0]) if has_aux else (out, tangent)


def _checkpoint(fun: Callable) -> Callable:
    """``autograd.checkpoint``: ``fun`` whose intermediates the backward pass recomputes
    instead of storing (the same values and derivatives).

    >>> import autograd, numpy as np
    >>> f = _checkpoint(lambda x: (np.sin(x) * x).sum())
    >>> autograd.grad(f)(np.array([1.0])).round(4).tolist()
    [1.3818]
    """
    require_callable("checkpoint", "fun", fun)
    return functools.wraps(fun)(autograd.differential_operators.checkpoint(fun))


def _custom_gradient(f: Callable, gradient: Callable, get_external_cache: Any = None,
                     on_call_skipped: Any = None) -> Callable:
    """The list's ``custom_gradient``: ``f`` with the derivative ``gradient``, as an
    autograd primitive.

    ``gradient(x, y, dy)`` gets the tuple of inputs, ``f``'s output and its cotangent
    and returns one gradient (or None: zero) per input. ``f`` runs on every call, so
    ``get_external_cache`` and ``on_call_skipped`` (hooks for callers that skip it)
    are accepted and never needed.

    >>> import autograd, numpy as np
    >>> f = _custom_gradient(np.sin, lambda x, y, dy: 2 * dy)
    >>> autograd.grad(lambda x: f(x).sum())(np.array([0.0, 1.0])).tolist()
    [2.0, 2.0]
    """
    require_callable("custom_gradient", "f", f)
    require_callable("custom_gradient", "gradient", gradient)

    @primitive
    def custom(*args: Any) -> Any:
        return f(*args)

    def vjp_maker(argnum: int, ans: Any, args: tuple, kwargs: dict) -> Callable:
        def vjp(dy: Any) -> Any:
            dx = gradient(args, ans, dy)
            dx = tuple(dx) if isinstance(dx, (tuple, list)) else (dx,)
            if len(dx) != len(args):
                raise ValueError(f"custom_gradient: gradient returned {len(dx)} gradients "
                                 f"for {len(args)} inputs")
            d = dx[argnum]
            a = np.asarray(args[argnum])
            return np.zeros_like(a) if d is None else np.asarray(d, dtype=a.dtype)

        return vjp

    defvjp_argnum(custom, vjp_maker)
    return functools.wraps(f)(custom)


TABLE = {
    "vjp": _vjp,
    "jvp": _jvp,
    "checkpoint": _checkpoint,
    "custom_gradient": _custom_gradient,
    "variable": unsupported("autograd has no variables: autograd.grad differentiates "
                            "functions of arrays, which are passed to them"),
    "grad": _grad,
    "value_and_grad": _value_and_grad,
    "jacobian": _jacobian,
    "gradient": _gradient,
    "hessian": _hessian,
    "stop_gradient": getval,
}
