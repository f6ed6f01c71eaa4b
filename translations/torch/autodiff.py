"""torch: the backend method list's derivatives, custom gradients and trainable modules.

``jacobian``, ``gradient`` and ``hessian`` of plain Python functions use
torch.func; functions made by ``jit_compile`` (and ``jit_compile_grad`` /
``jit_compile_hessian``) are differentiated with torch.autograd (see the notes
below). ``custom_gradient`` is a torch.autograd.Function; ``variable`` and
``module`` make ``torch.nn.Parameter`` and ``torch.nn.Module`` objects. numpy's
``gradient`` (finite differences of an array) shares the name ``gradient``.
jax's transforms ``grad``, ``value_and_grad``, ``vjp`` and ``jvp`` are torch.func's,
``checkpoint`` is torch.utils.checkpoint (non-reentrant).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import torch
from dispatch.translations._adapters import argnums as _argnums
from dispatch.translations._adapters import (
    check_primals,
    functional_hessian,
    functional_jacobian,
    hessian_result,
    require_callable,
)
from dispatch.translations._adapters import first_output as _first
from dispatch.translations.torch._common import (
    _axes,
    _detach_tree,
    _float_type,
    _functorch_wrapped,
    _inexact,
    _tensor,
)
from dispatch.translations.torch.control import _jit_compile, _JitFunction
from dispatch.translations.torch.devices import _asarray
from torch import Tensor

# Derivatives of plain Python functions use torch.func (functional, composable with vmap).
# Functions made by ``jit_compile`` (TorchScript traces) are differentiated with
# torch.autograd instead: higher-order torch.func transforms of a traced graph return
# wrong values once TorchScript's profiling executor has optimised it (seen with torch
# 2.13: jacrev(grad(traced)) is right on the first call and wrong from the second on).


def _inexact_args(args: tuple, argnums: tuple[int, ...]) -> tuple:
    # integer and bool arguments to differentiate become floats (of the current precision)
    out = list(args)
    for i in argnums:
        a = out[i]
        if not isinstance(a, Tensor):
            a = _tensor(a)
        if not (a.is_floating_point() or a.is_complex()):
            a = a.to(_float_type())
        out[i] = a
    return tuple(out)


def _jacobian(f: Callable, wrt: Any = (0,), get_output: bool = True,
              is_f_scalar: bool = False) -> Callable:
    """The list's ``jacobian``: a function returning the derivatives of ``f``.

    ``f(*args)`` returns an array, or a tuple/list whose first entry is the array to
    differentiate (the others are auxiliary outputs). The derivative with respect to
    ``args[i]`` for ``i`` in ``wrt`` has shape ``first.shape + args[i].shape``. The
    returned function gives ``(output, grads)`` with ``get_output`` (``output`` as ``f``
    returned it), else ``grads``; ``grads`` is a tuple, one entry per index of ``wrt``,
    or one array when ``wrt`` is an int. ``is_f_scalar`` selects one reverse pass
    (torch.func.grad) instead of a Jacobian (torch.func.jacrev).
    """
    argnums, single = _argnums(wrt)
    if isinstance(f, _JitFunction):
        return _autograd_jacobian(f, argnums, single, get_output, is_f_scalar)

    transform = torch.func.grad if is_f_scalar else torch.func.jacrev
    return functional_jacobian(f, argnums, single, get_output, transform, _inexact_args)


def _gradient(f: Any, *args: Any, **kwargs: Any) -> Any:
    """The list's ``gradient(f, wrt=(0,), get_output=False)`` of a scalar function
    (``jacobian`` with ``is_f_scalar=True``); numpy's ``gradient`` of an array."""
    if not callable(f):  # numpy's finite differences keep numpy's name
        out = _np_gradient(f, *args, **kwargs)
        return tuple(out) if isinstance(out, list) else out  # numpy: a tuple per axis
    return _jacobian(f, *args, is_f_scalar=True, **{"get_output": False, **kwargs})


def _np_gradient(f: Tensor, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    # torch.gradient names numpy's axis `dim`, its spacing `spacing`, and always
    # returns a tuple where numpy returns one array for one axis
    axes = tuple(range(f.ndim)) if axis is None else _axes(axis, f.ndim)
    spacing: Any = list(varargs) if varargs else 1
    if isinstance(spacing, list) and len(spacing) == 1:
        spacing = spacing[0]
    if isinstance(spacing, list) and all(isinstance(s, (int, float)) for s in spacing):
        # torch reads a list of scalars as coordinates; a tuple is one spacing per axis
        spacing = tuple(float(s) for s in spacing)
    if isinstance(spacing, list) and not all(isinstance(s, (int, float)) for s in spacing):
        # torch takes all scalars or all coordinate tensors: a scalar becomes coordinates
        spacing = [
            torch.arange(f.shape[ax], dtype=torch.float64, device=f.device) * s
            if isinstance(s, (int, float)) else _tensor(s, f)
            for s, ax in zip(spacing, axes, strict=True)
        ]
    elif not isinstance(spacing, (int, float, tuple)):
        spacing = [_tensor(spacing, f)] * len(axes)
    out = torch.gradient(_inexact(f), spacing=spacing, dim=list(axes), edge_order=edge_order)
    return out[0] if len(axes) == 1 else list(out)


def _leaves_for_grad(args: tuple, argnums: tuple[int, ...]) -> tuple[list, list, bool]:
    """Arguments with the differentiated ones made autograd leaves (unless they already
    take part in a graph, so that an outer derivative still sees them)."""
    full = list(_inexact_args(args, argnums))
    nested = any(full[i].requires_grad for i in argnums)
    xs = []
    for i in argnums:
        x = full[i] if full[i].requires_grad else full[i].detach().requires_grad_(True)
        full[i] = x
        xs.append(x)
    return full, xs, nested


def _grads(y: Tensor, xs: list[Tensor], create_graph: bool) -> tuple[Tensor, ...]:
    """d y / d xs of a tensor ``y`` of any shape, each y.shape + x.shape."""
    if y.numel() == 1:
        raw = torch.autograd.grad(y.reshape(()), xs, create_graph=create_graph,
                                  retain_graph=True, allow_unused=True)
        gs = [torch.zeros_like(x) if g is None else g for g, x in zip(raw, xs, strict=True)]
        return tuple(g.reshape(y.shape + x.shape) for g, x in zip(gs, xs, strict=True))
    flat = y.reshape(-1)
    rows = [_grads(flat[k], xs, create_graph) for k in range(flat.shape[0])]
    return tuple(
        torch.stack([r[j] for r in rows]).reshape(y.shape + x.shape) if rows
        else torch.zeros(y.shape + x.shape, dtype=x.dtype, device=x.device)
        for j, x in enumerate(xs)
    )


def _autograd_jacobian(f: Callable, argnums: tuple[int, ...], single: bool,
                       get_output: bool, is_f_scalar: bool) -> Callable:
    @functools.wraps(f)
    def jacobian_of_f(*args: Any, **kwargs: Any) -> Any:
        with torch.enable_grad():
            full, xs, nested = _leaves_for_grad(args, argnums)
            out = f(*full, **kwargs)
            grads = _grads(_first(out), xs, create_graph=nested)
        if not nested:
            out = _detach_tree(out)
        result = grads[0] if single else grads
        return (out, result) if get_output else result

    return jacobian_of_f


def _hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
             get_gradient: bool = True) -> Callable:
    """The list's ``hessian``: per-batch-entry Hessians of ``f``'s first output.

    Axis 0 of every argument is a batch axis, and batch entries are independent; the
    first output of ``f`` is a loss per batch entry (batch,) or its sum. The returned
    function gives the tuple ``(output, gradients, hessians)``, without the output or
    gradients unless asked for. Gradients (of the summed loss) have the arguments'
    shapes; ``hessians[i][j]`` has shape (batch, *args[i].shape[1:],
    *args[j].shape[1:]). With an int ``wrt``: one gradient and one Hessian, no tuples.
    Each Hessian costs one reverse pass per component of an argument's batch entry
    (the batch entries share the passes).
    """
    argnums, single = _argnums(wrt)
    if isinstance(f, _JitFunction):
        return _autograd_hessian(f, argnums, single, get_output, get_gradient)
    return functional_hessian(f, argnums, single, get_output, get_gradient, torch.func.grad,
                              torch.func.jacrev, _inexact_args, torch)


def _autograd_hessian(f: Callable, argnums: tuple[int, ...], single: bool,
                      get_output: bool, get_gradient: bool) -> Callable:
    @functools.wraps(f)
    def hessian_of_f(*args: Any, **kwargs: Any) -> tuple:
        with torch.enable_grad():
            full, xs, nested = _leaves_for_grad(args, argnums)
            out = f(*full, **kwargs)
            raw = torch.autograd.grad(_first(out).sum(), xs, create_graph=True,
                                      allow_unused=True)
            g = [torch.zeros_like(x) if gi is None else gi for gi, x in zip(raw, xs, strict=True)]
            hess = []
            for gi, xi in zip(g, xs, strict=True):
                # sum over the batch: row c of every entry's Hessian in one reverse pass
                rows = _grads(gi.sum(0), xs, create_graph=nested)  # (*si, batch, *sj)
                hess.append(tuple(r.movedim(xi.ndim - 1, 0) for r in rows))
        if not nested:
            out, g = _detach_tree(out), [gi.detach() for gi in g]
        return hessian_result(out, g, hess, single, get_output, get_gradient)

    return hessian_of_f


def _custom_gradient(f: Callable, gradient: Callable, get_external_cache: Any = None,
                     on_call_skipped: Any = None) -> Callable:
    """The list's ``custom_gradient``: ``f`` with the derivative ``gradient``.

    ``gradient(x, y, dy)`` gets the tuple of inputs, ``f``'s output and its cotangent (of
    the output's structure) and returns one gradient (or None) per input. Built on
    torch.autograd.Function with ``setup_context``, so torch.autograd and torch.func
    transforms use it; a ``jit_compile``d caller keeps it as a Python op, so ``f`` runs
    on every call and ``get_external_cache``/``on_call_skipped`` (hooks for callers
    that skip it) are accepted and never needed.
    """

    class CustomGradient(torch.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(*args: Any) -> Any:
            return f(*args)

        @staticmethod
        def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
            tensors = [i for i, a in enumerate(inputs) if isinstance(a, Tensor)]
            outs = output if isinstance(output, tuple) else (output,)
            ctx.save_for_backward(*(inputs[i] for i in tensors), *outs)
            others = tuple(None if isinstance(a, Tensor) else a for a in inputs)
            ctx.layout = (others, tensors, len(tensors), isinstance(output, tuple))

        @staticmethod
        def backward(ctx: Any, *dy: Any) -> Any:
            inputs, tensors, n, is_tuple = ctx.layout
            saved = ctx.saved_tensors
            x = list(inputs)
            for i, t in zip(tensors, saved[:n], strict=True):
                x[i] = t
            y = tuple(saved[n:]) if is_tuple else saved[n]
            dx = gradient(tuple(x), y, tuple(dy) if is_tuple else dy[0])
            dx = tuple(dx) if isinstance(dx, (tuple, list)) else (dx,)
            return dx[0] if len(dx) == 1 else dx

    @functools.wraps(f)
    def with_custom_gradient(*args: Any) -> Any:
        return CustomGradient.apply(*args)

    return with_custom_gradient


def _jit_compile_grad(f: Callable, wrt: Any = (0,), get_output: bool = True,
                      is_f_scalar: bool = False) -> Callable:
    """``jacobian`` of the traced ``f``: the forward pass runs as a trace, the
    derivatives through torch.autograd."""
    argnums, single = _argnums(wrt)
    return _autograd_jacobian(_jit_compile(f), argnums, single, get_output, is_f_scalar)


def _jit_compile_hessian(f: Callable, wrt: Any = (0,), get_output: bool = True,
                         get_gradient: bool = True) -> Callable:
    """``hessian`` of the traced ``f`` (forward traced, derivatives by torch.autograd)."""
    argnums, single = _argnums(wrt)
    return _autograd_hessian(_jit_compile(f), argnums, single, get_output, get_gradient)


def _variable(x: Any) -> Any:
    """A trainable copy of ``x``: a ``torch.nn.Parameter`` (tensorflow: a
    ``tf.Variable``) that derivatives are taken with respect to.

    The copy is of a float (or complex) dtype: integers and bools become floats of the
    current precision. numpy, dask and pydata sparse have no variables, nor has jax,
    whose parameters are plain arrays passed to the function it differentiates: they
    raise ``UnsupportedError``.

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> v = do("variable", torch.tensor([1, 2]))
    >>> type(v).__name__, v.dtype, v.requires_grad
    ('Parameter', torch.float32, True)
    """
    # a copy: training updates it in place
    t = _asarray(x).detach().clone()
    if not (t.is_floating_point() or t.is_complex()):
        t = t.to(_float_type())
    return torch.nn.Parameter(t)


def _module(variables: Any, forward: Callable) -> Any:
    """A torch.nn.Module holding ``variables`` (a dict or sequence) as parameters, whose
    ``forward(*args)`` is ``forward(*args)``; ``forward`` should use the Parameters
    themselves (made by ``variable``): other tensors are wrapped in new Parameters.

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> w = do("variable", torch.ones(2))
    >>> net = do("module", {"w": w}, lambda x: x @ w, like="torch")
    >>> net(torch.tensor([1.0, 2.0]))
    tensor(3., grad_fn=<DotBackward0>)
    >>> [name for name, _ in net.named_parameters()]
    ['params.w']
    >>> do("is_module", net, like="torch")
    True
    """
    items = variables.items() if isinstance(variables, dict) else enumerate(variables)

    class FunctionModule(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.params = torch.nn.ParameterDict(
                {str(k): v if isinstance(v, torch.nn.Parameter) else _variable(v)
                 for k, v in items}
            )

        def forward(self, *args: Any, **kwargs: Any) -> Any:
            return forward(*args, **kwargs)

    return FunctionModule()


def _is_module(obj: Any) -> bool:
    return isinstance(obj, torch.nn.Module)


# ---------------------------------------------------------------- jax's transforms


def _argnums_tuple(argnums: Any) -> Any:
    return tuple(argnums) if isinstance(argnums, list) else argnums


# how many functions given to torch.func by the entries below are running: a
# checkpoint there runs its function plainly (torch.func refuses saved tensor hooks),
# a test that torch.compile can trace (functorch's own wrapped-tensor test it cannot)
_IN_FUNC = [0]


def _marked(fun: Callable) -> Callable:
    @functools.wraps(fun)
    def inside_torch_func(*args: Any, **kwargs: Any) -> Any:
        _IN_FUNC[0] += 1
        try:
            return fun(*args, **kwargs)
        finally:
            _IN_FUNC[0] -= 1

    return inside_torch_func


def _grad(fun: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """jax.grad on torch.func.grad: the gradient of a scalar ``fun`` with respect to
    the arguments ``argnums`` (an int: one gradient; a tuple: a tuple of them).

    With ``has_aux``, ``fun`` returns ``(value, aux)`` and the function returned
    gives ``(gradient, aux)``.

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> do("grad", lambda x: (x * x).sum(), like="torch")(torch.tensor([1.0, 2.0]))
    tensor([2., 4.])
    """
    require_callable("grad", "fun", fun)
    return torch.func.grad(_marked(fun), argnums=_argnums_tuple(argnums), has_aux=has_aux)


def _value_and_grad(fun: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """jax.value_and_grad on torch.func.grad_and_value: ``(value, gradient)``, with
    ``has_aux`` ``((value, aux), gradient)`` (torch.func returns the gradient first).

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> f = do("value_and_grad", lambda x: (x * x).sum(), like="torch")
    >>> f(torch.tensor([1.0, 2.0]))
    (tensor(5.), tensor([2., 4.]))
    """
    require_callable("value_and_grad", "fun", fun)
    both = torch.func.grad_and_value(_marked(fun), argnums=_argnums_tuple(argnums), has_aux=has_aux)

    @functools.wraps(fun)
    def value_and_grad_of_fun(*args: Any, **kwargs: Any) -> tuple:
        g, value = both(*args, **kwargs)
        return value, g

    return value_and_grad_of_fun


def _vjp(fun: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """jax.vjp on torch.func.vjp: ``(fun(*primals), vjp_fn)``, ``vjp_fn(cotangent)``
    giving one cotangent per primal (a tuple); with ``has_aux`` ``(out, vjp_fn, aux)``.

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> out, vjp_fn = do("vjp", torch.sin, torch.tensor([0.0, 1.0]))
    >>> vjp_fn(torch.ones(2))
    (tensor([1.0000, 0.5403]),)
    """
    require_callable("vjp", "fun", fun)
    return torch.func.vjp(_marked(fun), *primals, has_aux=has_aux)


def _jvp(fun: Callable, primals: Any, tangents: Any, has_aux: bool = False) -> tuple:
    """jax.jvp on torch.func.jvp: ``(fun(*primals), tangent_out)``, the directional
    derivative along ``tangents`` (one per primal); with ``has_aux`` ``(out,
    tangent_out, aux)``.

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> do("jvp", torch.sin, (torch.tensor([0.0]),), (torch.tensor([2.0]),))
    (tensor([0.]), tensor([2.]))
    """
    require_callable("jvp", "fun", fun)
    check_primals("jvp", primals, tangents)
    return torch.func.jvp(_marked(fun), tuple(primals), tuple(tangents), has_aux=has_aux)


def _checkpoint(fun: Callable) -> Callable:
    """jax.checkpoint on torch.utils.checkpoint (``use_reentrant=False``): ``fun``
    whose intermediates are recomputed in the backward pass instead of stored.

    torch.func's transforms cannot run a checkpoint (torch 2.13 refuses saved
    tensor hooks there): inside them (``do("grad")`` and the other entries here, in
    torch.compile too; eagerly any torch.func transform) ``fun`` runs plainly, with
    the same values and no memory saved; torch.autograd (``backward``) uses the
    checkpoint, eagerly and inside torch.compile.

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> f = do("checkpoint", lambda x: (x.sin() * x).sum(), like="torch")
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> f(x).backward()
    >>> x.grad
    tensor([1.3818, 0.0770])
    """
    require_callable("checkpoint", "fun", fun)
    from torch.utils.checkpoint import checkpoint

    @functools.wraps(fun)
    def checkpointed(*args: Any, **kwargs: Any) -> Any:
        if _IN_FUNC[0]:
            return fun(*args, **kwargs)
        if not torch.compiler.is_compiling() and any(
                isinstance(t, Tensor) and _functorch_wrapped(t)
                for t in torch.utils._pytree.tree_leaves((args, kwargs))):
            return fun(*args, **kwargs)
        return checkpoint(fun, *args, use_reentrant=False, **kwargs)

    return checkpointed


TABLE = {
    "grad": _grad,
    "value_and_grad": _value_and_grad,
    "vjp": _vjp,
    "jvp": _jvp,
    "checkpoint": _checkpoint,
    "stop_gradient": "detach",
    "jacobian": _jacobian,
    "gradient": _gradient,
    "hessian": _hessian,
    "custom_gradient": _custom_gradient,
    "jit_compile_grad": _jit_compile_grad,
    "jit_compile_hessian": _jit_compile_hessian,
    "variable": _variable,
    "module": _module,
    "is_module": _is_module,
}
