"""paddle: the backend method list's derivatives through ``paddle.grad``.

paddle differentiates eagerly, by tape: the arguments to differentiate become
tensors with ``stop_gradient=False``, ``f`` runs once, and ``paddle.grad`` takes
one reverse pass per component of the output (``create_graph=True`` where an outer
derivative needs the graph, as for Hessians). Integer arguments to differentiate
are made float64 first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import paddle
from dispatch.translations._adapters import argnums as _argnums
from dispatch.translations._adapters import check_primals, hessian_result, require_callable
from dispatch.translations._adapters import first_output as _first
from dispatch.translations._composed._bound import checkpoint_pass_through
from dispatch.translations._composed.autodiff import gradient as _np_gradient
from dispatch.translations.paddle._common import promote
from paddle import Tensor


def _leaves(args: tuple, argnums: tuple[int, ...]) -> tuple[list, list, bool]:
    """The arguments, those to differentiate made tape leaves (or kept, where they are
    already part of a graph: an outer derivative then sees through this one)."""
    full = list(args)
    nested = False
    xs = []
    for i in argnums:
        a = full[i] if isinstance(full[i], Tensor) else promote(full[i])[0]
        if not (a.is_floating_point() or a.is_complex()):
            a = a.astype("float64")
        if a.stop_gradient:
            a = a.detach()
            a.stop_gradient = False
        else:
            nested = True
        full[i] = a
        xs.append(a)
    return full, xs, nested


def _grads(y: Tensor, xs: list, create_graph: bool) -> tuple:
    """d y / d xs for ``y`` of any shape, each of shape y.shape + x.shape."""
    if y.size == 1:
        raw = paddle.grad(y.reshape([]), xs, create_graph=create_graph, retain_graph=True,
                          allow_unused=True)
        gs = [paddle.zeros_like(x) if g is None else g for g, x in zip(raw, xs, strict=True)]
        return tuple(g.reshape([*y.shape, *x.shape]) for g, x in zip(gs, xs, strict=True))
    flat = y.reshape([-1])
    rows = [_grads(flat[k], xs, create_graph) for k in range(flat.shape[0])]
    return tuple(
        paddle.stack([r[j] for r in rows]).reshape([*y.shape, *x.shape]) if rows
        else paddle.zeros([*y.shape, *x.shape], dtype=x.dtype)
        for j, x in enumerate(xs)
    )


def _detach(out: Any) -> Any:
    if isinstance(out, Tensor):
        return out.detach()
    if isinstance(out, (tuple, list)):
        return type(out)(_detach(o) for o in out)
    if isinstance(out, dict):
        return {k: _detach(v) for k, v in out.items()}
    return out


def _jacobian(f: Callable, wrt: Any = (0,), get_output: bool = True,
              is_f_scalar: bool = False) -> Callable:
    """The list's ``jacobian``: a function returning the derivatives of ``f``.

    ``f(*args)`` returns an array, or a tuple/list whose first entry is the array to
    differentiate. The derivative with respect to ``args[i]`` has shape
    ``first.shape + args[i].shape``; the returned function gives ``(output, grads)``
    with ``get_output``, else ``grads`` (one array for an int ``wrt``).
    """
    argnums, single = _argnums(wrt)

    @functools.wraps(f)
    def jacobian_of_f(*args: Any, **kwargs: Any) -> Any:
        full, xs, nested = _leaves(args, argnums)
        out = f(*full, **kwargs)
        grads = _grads(_first(out), xs, create_graph=nested)
        if not nested:
            out, grads = _detach(out), _detach(grads)
        result = grads[0] if single else grads
        return (out, result) if get_output else result

    return jacobian_of_f


def _gradient(f: Any, *args: Any, **kwargs: Any) -> Any:
    """The list's ``gradient(f, wrt=(0,), get_output=False)`` of a scalar function;
    numpy's ``gradient`` (finite differences) of an array."""
    if not callable(f):
        return _np_gradient(f, *args, **kwargs)
    return _jacobian(f, *args, is_f_scalar=True, **{"get_output": False, **kwargs})


def _grad(f: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """jax's ``grad``: the gradient of a scalar ``f`` with respect to ``argnums``."""
    require_callable("grad", "fun", f)
    nums, single = _argnums(argnums)

    @functools.wraps(f)
    def grad_of_f(*args: Any, **kwargs: Any) -> Any:
        full, xs, nested = _leaves(args, nums)
        out = f(*full, **kwargs)
        value, aux = (out[0], out[1]) if has_aux else (out, None)
        g = _grads(value, xs, create_graph=nested)
        if not nested:
            g, aux = _detach(g), _detach(aux)
        g = g[0] if single else g
        return (g, aux) if has_aux else g

    return grad_of_f


def _value_and_grad(f: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """jax's ``value_and_grad``."""
    require_callable("value_and_grad", "fun", f)
    nums, single = _argnums(argnums)

    @functools.wraps(f)
    def value_and_grad_of_f(*args: Any, **kwargs: Any) -> Any:
        full, xs, nested = _leaves(args, nums)
        out = f(*full, **kwargs)
        value = out[0] if has_aux else out
        g = _grads(value, xs, create_graph=nested)
        if not nested:
            g, out = _detach(g), _detach(out)
        return out, (g[0] if single else g)

    return value_and_grad_of_f


def _hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
             get_gradient: bool = True) -> Callable:
    """The list's ``hessian``: per-batch-entry Hessians of ``f``'s first output.

    Axis 0 of every argument is a batch axis; ``hessians[i][j]`` has shape
    (batch, *args[i].shape[1:], *args[j].shape[1:]). One reverse pass per component of
    an argument's batch entry (the batch entries share the passes).
    """
    argnums, single = _argnums(wrt)

    @functools.wraps(f)
    def hessian_of_f(*args: Any, **kwargs: Any) -> tuple:
        full, xs, nested = _leaves(args, argnums)
        out = f(*full, **kwargs)
        raw = paddle.grad(paddle.sum(_first(out)), xs, create_graph=True, allow_unused=True)
        g = [paddle.zeros_like(x) if gi is None else gi for gi, x in zip(raw, xs, strict=True)]
        hess = []
        for gi, xi in zip(g, xs, strict=True):
            rows = _grads(paddle.sum(gi, axis=0), xs, create_graph=nested)
            hess.append(tuple(paddle.moveaxis(r, xi.ndim - 1, 0) for r in rows))
        if not nested:
            out, g, hess = _detach(out), _detach(g), _detach(hess)
        return hessian_result(out, g, hess, single, get_output, get_gradient)

    return hessian_of_f


def _vjp(fun: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """jax's ``vjp``: ``fun``'s output and a function of a cotangent giving the
    cotangents of the primals (one reverse pass each call)."""
    require_callable("vjp", "fun", fun)
    full, xs, nested = _leaves(primals, tuple(range(len(primals))))
    out = fun(*full)
    value, aux = (out[0], out[1]) if has_aux else (out, None)

    def vjp_fn(cotangent: Any) -> tuple:
        ct = cotangent if isinstance(cotangent, Tensor) else promote(cotangent)[0]
        raw = paddle.grad(value, xs, grad_outputs=ct.astype(value.dtype), retain_graph=True,
                          create_graph=nested, allow_unused=True)
        gs = tuple(paddle.zeros_like(x) if g is None else g for g, x in zip(raw, xs,
                                                                           strict=True))
        return gs if nested else _detach(gs)

    primal_out = value if nested else _detach(value)
    return (primal_out, vjp_fn, aux) if has_aux else (primal_out, vjp_fn)


def _jvp(fun: Callable, primals: Any, tangents: Any) -> tuple:
    """jax's ``jvp``: ``(fun(*primals), J @ tangents)``, by the derivative of a
    vector-Jacobian product with respect to its cotangent (two reverse passes)."""
    require_callable("jvp", "fun", fun)
    check_primals("jvp", primals, tangents)
    full, xs, _ = _leaves(tuple(primals), tuple(range(len(primals))))
    out = fun(*full)
    u = paddle.zeros_like(out)
    u.stop_gradient = False
    raw = paddle.grad(out, xs, grad_outputs=u, create_graph=True, allow_unused=True)
    pairs = [(g, t) for g, t in zip(raw, tangents, strict=True) if g is not None]
    total = sum(paddle.sum(g * (t if isinstance(t, Tensor) else promote(t)[0]).astype(g.dtype))
                for g, t in pairs)
    if not pairs:
        return out.detach(), paddle.zeros_like(out).detach()
    (tangent_out,) = paddle.grad(total, [u], allow_unused=True)
    tangent_out = paddle.zeros_like(out) if tangent_out is None else tangent_out
    return out.detach(), tangent_out.detach()


def _variable(x: Any) -> Any:
    """A trainable copy of ``x``: a paddle parameter (``stop_gradient=False``); integers
    and bools become float64.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do
    >>> v = do("variable", np.array([1, 2]), like="paddle")
    >>> str(v.dtype), v.stop_gradient
    ('paddle.float64', False)
    """
    t = (x if isinstance(x, Tensor) else promote(x)[0]).detach().clone()
    if not (t.is_floating_point() or t.is_complex()):
        t = t.astype("float64")
    p = paddle.create_parameter(t.shape, t.dtype,
                                default_initializer=paddle.nn.initializer.Assign(t))
    return p


def _is_module(obj: Any) -> bool:
    return isinstance(obj, paddle.nn.Layer)


def _module(variables: Any, forward: Callable) -> Any:
    """A ``paddle.nn.Layer`` holding ``variables`` (a dict or sequence) as parameters,
    whose ``forward(*args)`` is ``forward(*args)``; ``forward`` should use the
    parameters themselves (made by ``variable``): other tensors are copied into new
    parameters.

    Examples
    --------
    >>> import paddle
    >>> from dispatch import do
    >>> w = do("variable", paddle.ones([2], dtype="float64"))
    >>> net = do("module", {"w": w}, lambda x: (x * w).sum(), like="paddle")
    >>> float(net(paddle.to_tensor([1.0, 2.0], dtype="float64")))
    3.0
    >>> [name for name, _ in net.named_parameters()], do("is_module", net, like="paddle")
    (['w'], True)
    """
    require_callable("module", "forward", forward)
    items = list(variables.items() if isinstance(variables, dict) else enumerate(variables))

    class FunctionLayer(paddle.nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            for k, v in items:
                param = v if isinstance(v, paddle.base.framework.EagerParamBase) else _variable(v)
                self.add_parameter(str(k), param)

        def forward(self, *args: Any) -> Any:
            return forward(*args)

    return FunctionLayer()


def _custom_gradient(f: Callable, gradient: Callable, get_external_cache: Any = None,
                     on_call_skipped: Any = None) -> Callable:
    """The list's ``custom_gradient``: ``f`` with the derivative ``gradient``, through
    ``paddle.autograd.PyLayer`` (so ``backward``, ``paddle.grad`` and the list's
    derivatives use it).

    ``gradient(x, y, dy)`` gets the tuple of inputs, ``f``'s output and its cotangent
    (of the output's structure) and returns one gradient (or None: zero) per input.
    ``f`` runs on every call: ``get_external_cache`` and ``on_call_skipped`` are
    accepted and never needed.

    Examples
    --------
    >>> import paddle
    >>> from dispatch import do
    >>> f = do("custom_gradient", paddle.sin, lambda x, y, dy: 2 * dy, like="paddle")
    >>> x = paddle.to_tensor([0.0, 1.0], stop_gradient=False)
    >>> f(x).sum().backward()
    >>> x.grad.tolist()
    [2.0, 2.0]
    """
    require_callable("custom_gradient", "f", f)
    require_callable("custom_gradient", "gradient", gradient)

    class CustomGradient(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx: Any, *args: Any) -> Any:
            out = f(*args)
            outs = out if isinstance(out, tuple) else (out,)
            tensors = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
            ctx.save_for_backward(*(args[i] for i in tensors), *outs)
            others = tuple(None if isinstance(a, Tensor) else a for a in args)
            ctx.layout = (others, tensors, isinstance(out, tuple))
            return out

        @staticmethod
        def backward(ctx: Any, *dy: Any) -> Any:
            others, tensors, is_tuple = ctx.layout
            saved = ctx.saved_tensor()
            x = list(others)
            for i, t in zip(tensors, saved[:len(tensors)], strict=True):
                x[i] = t
            y = tuple(saved[len(tensors):]) if is_tuple else saved[len(tensors)]
            dx = gradient(tuple(x), y, tuple(dy) if is_tuple else dy[0])
            dx = tuple(dx) if isinstance(dx, (tuple, list)) else (dx,)
            # paddle takes one gradient per tensor input; None where it needs none
            grads = tuple(
                paddle.zeros_like(x[i]) if dx[i] is None and not x[i].stop_gradient
                else dx[i] for i in tensors)
            return grads[0] if len(grads) == 1 else grads

    @functools.wraps(f)
    def with_custom_gradient(*args: Any) -> Any:
        return CustomGradient.apply(*args)

    return with_custom_gradient


def _stop_gradient(x: Any) -> Any:
    return x.detach() if isinstance(x, Tensor) else x


TABLE = {
    "jacobian": _jacobian,
    "gradient": _gradient,
    "grad": _grad,
    "value_and_grad": _value_and_grad,
    "hessian": _hessian,
    "stop_gradient": _stop_gradient,
    "vjp": _vjp,
    "jvp": _jvp,
    "variable": _variable,
    "is_module": _is_module,
    "module": _module,
    "custom_gradient": _custom_gradient,
    # paddle's convolutions and layers are channels first (NCHW) by default
    "prefers_channels_last": lambda: False,
    # a checkpoint changes only what a backward pass keeps in memory: f itself has the
    # values and derivatives it asks for (paddle's recompute needs a Layer and a program)
    "checkpoint": checkpoint_pass_through,
}
