"""autograd: the backend method list's ``gradient``, ``jacobian`` and ``hessian``
through ``autograd.grad`` and ``autograd.jacobian``, numpy's ``gradient`` of an
array (finite differences, composed) beside them, and autograd's own ``grad``,
``jacobian``, ``hessian`` and ``stop_gradient`` (a box's value)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import autograd
import autograd.numpy as anp
import numpy as np
from autograd.tracer import getval
from dispatch.translations._adapters import argnums as _argnums
from dispatch.translations._adapters import (
    functional_hessian,
    functional_jacobian,
    require_callable,
)
from dispatch.translations._composed.autodiff import gradient as finite_differences

from dispatch.engine import tree_map


def _value(tree: Any) -> Any:
    """Auxiliary outputs of a differentiated function, their boxes unwrapped."""
    return tree_map(getval, tree, is_leaf=lambda x: hasattr(x, "_value"))


def _transform(make: Callable, each: bool) -> Callable:
    """jax's calling convention, ``transform(g, argnums=, has_aux=True)``, for
    autograd's ``grad`` or ``jacobian`` (``make``), which take one argument index;
    ``each``: one transform per argument (a Jacobian's shape needs an array), else one
    transform of the tuple of them (a gradient of a tuple is a tuple)."""

    def transform(g: Callable, argnums: tuple[int, ...], has_aux: bool = True) -> Callable:
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


TABLE = {
    "grad": _grad,
    "value_and_grad": _value_and_grad,
    "jacobian": _jacobian,
    "gradient": _gradient,
    "hessian": _hessian,
    "stop_gradient": getval,
}
