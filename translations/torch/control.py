"""torch: ``jit_compile`` (torch.jit.trace per input signature) and the method list's control flow.

``jit_compile`` traces a function once per signature and keeps signatures that
read tensor values eager (the notes below say why and how). ``while_loop`` runs
the composed loop without autograd graphs (torch's while_loop operator inside
torch.compile), ``vectorized_call`` is torch.vmap
(falling back to the composed loop), ``numpy_call`` a host call on numpy copies,
and ``block_until_ready`` waits for CUDA kernels. jax.lax's ``cond``, ``switch``,
``fori_loop`` and ``scan`` are the composed Python branches and loops eagerly (a
tensor's value decides, autograd sees the branch taken) and torch's operators inside
torch.compile: ``torch.cond`` (``switch``: nested ``torch.cond``), the scan and
while_loop operators of ``torch._higher_order_ops``; ``map`` and ``associative_scan``
are the composed ones everywhere (torch.compile unrolls ``map``'s loop).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
from dispatch.translations._adapters import branch_index, check_carry, require_callable
from dispatch.translations._composed import control as _control
from dispatch.translations._composed.control import vectorized_call as _vectorized_call_composed
from dispatch.translations._composed.control import while_loop as _while_loop_composed
from dispatch.translations.torch._common import _detach_tree, _dtype, _functorch_wrapped
from dispatch.translations.torch.devices import _asarray, _to_numpy
from torch import Tensor

# ``jit_compile`` traces with torch.jit.trace, once per input signature: the shapes,
# dtypes, devices and autograd flags of the tensor arguments and the values of the
# others. Python that depends on shapes runs at trace time and is right for every call
# of the signature. Python that depends on tensor *values* (``if x.sum() > 0``,
# ``.item()``, ``.numpy()``, host calls, value-driven loops, outputs whose shape
# depends on values such as ``nonzero`` or boolean masks) cannot be recorded by a trace
# (it would be frozen at the first call's values), and no tracer warning separates it
# from harmless shape arithmetic (traced shapes are tensors too). So the first call of
# each signature runs eagerly under a TorchFunctionMode that notes such value reads;
# a signature without any is traced on its second call, whose outputs come from that
# trace run, and runs as a TorchScript graph from then on (Python ``f`` runs on the
# first two calls only, as under any jit). A signature with value reads stays eager:
# slower, never wrong. torch.compile would keep Python control flow in its graphs, but
# on CPU it needs a C compiler and compiles for seconds per function; tracing needs
# neither and removes the Python and dispatch overhead (about 2.5x on a loop of small
# ``do`` calls). torch marks torch.jit.trace deprecated: if a later torch drops it,
# every signature simply stays eager. Beware (torch 2.13): an error raised by a torch
# call and caught inside the traced function crashes the process, so adapters that try
# a fast kernel and catch its error check ``_jit_in_progress()`` first.

_EAGER = object()  # a signature that runs f eagerly
_TRACE_NEXT = object()  # a signature whose next call traces f
_POSITIONAL = object()  # arguments that are all dense tensors

# calls that read tensor values into Python or make shapes depend on values
_VALUE_READS = frozenset({
    "__bool__", "__int__", "__float__", "__complex__", "__index__", "__contains__", "item",
    "tolist", "numpy", "__array__", "nonzero", "argwhere", "unique", "unique_consecutive",
    "masked_select", "bincount", "backward", "grad",
})


class _Watching(threading.local):
    """The ``_ValueReads`` of a first call in progress, per thread (None: none; a class
    attribute, so reading it where no call set it costs no AttributeError)."""

    mode: Any = None


_WATCHING = _Watching()


def _jit_in_progress() -> bool:
    """Inside jit_compile's first (watched) call of a signature or its trace.

    ``torch.jit.is_tracing`` rather than the C function it calls: torch.compile's
    tracer knows the former and refuses the latter (a torch call returning a bool)."""
    return torch.jit.is_tracing() or _WATCHING.mode is not None


def _note_value_read() -> None:
    """Keep the signature being watched eager (for errors caught around torch calls)."""
    watch = _WATCHING.mode
    if watch is not None:
        watch.seen = True


class _ValueReads(torch.overrides.TorchFunctionMode):
    """Notes calls whose result a trace could not record (see the notes above)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = False

    def __torch_function__(self, func: Any, types: Any, args: tuple = (),
                           kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        if name in _VALUE_READS or (
            name == "__getitem__" and _has_bool_tensor(args[1:])
        ) or (name == "where" and len(args) + len(kwargs) == 1) or (
            name == "repeat_interleave" and any(isinstance(a, Tensor) for a in args[1:])
        ):
            self.seen = True
        try:
            return func(*args, **kwargs)
        except Exception:
            # f may catch it and go on; the same error inside torch.jit.trace crashes
            # the process (torch 2.13): never trace such a signature
            self.seen = True
            raise


def _has_bool_tensor(tree: Any) -> bool:
    if isinstance(tree, Tensor):
        return tree.dtype is torch.bool
    if isinstance(tree, (tuple, list)):
        return any(_has_bool_tensor(t) for t in tree)
    return False


class _NotTraceable(Exception):
    pass


class _Slot:
    __slots__ = ("i",)

    def __init__(self, i: int):
        self.i = i


def _flatten(tree: Any, tensors: list, key: list) -> Any:
    """``tree`` with tensors replaced by slots; appends the tensors and a hashable key."""
    if isinstance(tree, Tensor):
        if _functorch_wrapped(tree) or tree.layout is not torch.strided:
            raise _NotTraceable
        key.append((tree.shape, tree.dtype, tree.device, tree.requires_grad))
        tensors.append(tree)
        return _Slot(len(tensors) - 1)
    if isinstance(tree, np.ndarray):
        return _flatten(_asarray(tree), tensors, key)
    if isinstance(tree, (tuple, list)):
        key.append((type(tree), len(tree)))
        parts = [_flatten(t, tensors, key) for t in tree]
        return type(tree)(*parts) if hasattr(tree, "_fields") else type(tree)(parts)
    if isinstance(tree, dict):
        key.append((dict, tuple(tree)))
        return {k: _flatten(v, tensors, key) for k, v in tree.items()}
    try:
        hash(tree)
    except TypeError:
        raise _NotTraceable from None
    key.append((type(tree), tree))
    return tree


def _fill(tree: Any, tensors: Sequence[Tensor]) -> Any:
    if isinstance(tree, _Slot):
        return tensors[tree.i]
    if isinstance(tree, (tuple, list)):
        parts = [_fill(t, tensors) for t in tree]
        return type(tree)(*parts) if hasattr(tree, "_fields") else type(tree)(parts)
    if isinstance(tree, dict):
        return {k: _fill(v, tensors) for k, v in tree.items()}
    return tree


class _JitFunction:
    """``f`` traced with torch.jit.trace per input signature (see the notes above)."""

    def __init__(self, f: Callable):
        self.f = f
        self.traces: dict[tuple, Any] = {}
        functools.update_wrapper(self, f)

    def __repr__(self) -> str:
        return f"<torch jit of {getattr(self.f, '__qualname__', self.f)!r}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not kwargs and all(type(a) is Tensor and a.layout is torch.strided
                              and not _functorch_wrapped(a) for a in args):
            # the common call: dense tensors only
            spec, tensors = _POSITIONAL, args
            k = (torch.is_grad_enabled(),
                 *[(a.shape, a.dtype, a.device, a.requires_grad) for a in args])
        else:
            flat: list[Tensor] = []
            key: list = [torch.is_grad_enabled()]
            try:
                spec = _flatten((args, kwargs), flat, key)
            except _NotTraceable:  # inside torch.func transforms, sparse, unhashable args
                return self.f(*args, **kwargs)
            k, tensors = tuple(key), tuple(flat)
        if not tensors or torch.jit.is_tracing() or torch.compiler.is_compiling():
            return self.f(*args, **kwargs)  # nothing to trace, or inside an outer trace
        entry = self.traces.get(k)
        if entry is None:
            watch = _ValueReads()
            outer, _WATCHING.mode = _WATCHING.mode, watch
            try:
                with watch:
                    out = self.f(*args, **kwargs)
            except Exception:  # let a plain call raise the genuine error, if any
                self.traces[k] = _EAGER
                return self.f(*args, **kwargs)
            finally:
                _WATCHING.mode = outer
            if outer is not None and watch.seen:
                outer.seen = True
            self.traces[k] = _EAGER if watch.seen else _TRACE_NEXT
            return out
        if entry is _EAGER:
            return self.f(*args, **kwargs)
        if entry is _TRACE_NEXT:
            traced = self._trace(spec, tensors)
            if traced is None:
                self.traces[k] = _EAGER
                return self.f(*args, **kwargs)
            self.traces[k] = traced[:2]
            return _fill(traced[1], traced[2])
        graph, out_spec = entry
        return _fill(out_spec, graph(*tensors))

    def _trace(self, spec: Any, tensors: Sequence[Tensor]) -> tuple | None:
        """(graph, output structure, this call's outputs), or None if untraceable."""
        import warnings

        runs: list = []

        def flat_f(*ts: Tensor) -> tuple[Tensor, ...]:
            a, kw = (ts, {}) if spec is _POSITIONAL else _fill(spec, ts)
            outs: list[Tensor] = []
            out_spec = _flatten(self.f(*a, **kw), outs, [])
            runs.append((out_spec, tuple(outs)))
            return tuple(outs)

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", torch.jit.TracerWarning)
                warnings.filterwarnings("ignore", message=".*torch.jit.trace. is deprecated")
                graph = torch.jit.trace(flat_f, tuple(tensors), check_trace=False,
                                        strict=False)
        except Exception:  # ops or outputs TorchScript cannot record: stay eager
            return None
        if len(runs) != 1:
            return None
        return graph, runs[0][0], runs[0][1]


def _jit_compile(f: Callable) -> Callable:
    """The list's ``jit_compile``: ``f`` traced per input signature (see above)."""
    return f if isinstance(f, _JitFunction) else _JitFunction(f)


def _while_loop(loop: Callable, values: Sequence[Any], max_iter: Any = None) -> Any:
    # the composed loop's semantics (see ``while_loop`` there), run without building
    # autograd graphs (the result is not differentiable). Reading the condition needs
    # its value: a jit_compile signature that loops runs eagerly instead of traced,
    # and a trace of torch.compile runs torch's while_loop operator instead.
    if torch.compiler.is_compiling():
        return _while_loop_compiled(loop, tuple(values), max_iter)
    with torch.no_grad():
        return _while_loop_composed(loop, tuple(_detach_tree(tuple(values))), max_iter)


def _while_loop_compiled(loop: Callable, values: tuple, max_iter: Any) -> Any:
    """``_while_loop`` inside torch.compile: torch's while_loop operator, whose
    carried values are tensors of fixed shapes and dtypes that the body returns
    new (never one of its inputs); an int ``max_iter`` limits the iterations, a
    sequence of checkpoints stacks the values after each count (one loop per
    checkpoint segment)."""
    from torch._higher_order_ops.while_loop import while_loop

    flat, spec = torch.utils._pytree.tree_flatten(values)
    init = tuple(v.detach() if isinstance(v, Tensor) else torch.as_tensor(v) for v in flat)
    metas = tuple((v.dtype, v.shape) for v in init)

    def body(i: Tensor, *vals: Tensor) -> tuple:
        out = loop(*torch.utils._pytree.tree_unflatten(list(vals), spec))
        outs = torch.utils._pytree.tree_leaves(tuple(out))
        new = []
        for o, (dtype, shape) in zip(outs, metas, strict=True):
            o = torch.as_tensor(o).to(dtype).broadcast_to(shape)
            new.append(o.clone() if any(o is w for w in vals) else o)
        return (i + 1, *new)

    def run(i: Tensor, vals: tuple, limit: int | None) -> tuple:
        def cond(n: Tensor, *v: Tensor) -> Tensor:
            go = torch.any(v[0])
            return go if limit is None else go & (n < limit)

        out = while_loop(cond, body, (i, *vals))
        return out[0], tuple(out[1:])

    zero = torch.zeros((), dtype=torch.int64, device=init[0].device)
    if isinstance(max_iter, (tuple, list, Tensor, np.ndarray)):
        checkpoints = [int(c) for c in (max_iter.tolist() if hasattr(max_iter, "tolist")
                                        else max_iter)]
        trajectory, i, vals = [], zero, init
        for c in checkpoints:
            i, vals = run(i, vals, c)
            trajectory.append(vals)
        stacked = [torch.stack(leaves) for leaves in zip(*trajectory, strict=True)]
        return torch.utils._pytree.tree_unflatten([t.detach() for t in stacked], spec)
    _, vals = run(zero, init, None if max_iter is None else int(max_iter))
    return torch.utils._pytree.tree_unflatten([v.detach() for v in vals], spec)


def _vectorized_call(f: Callable, *args: Any, output_dtypes: Any = None,
                     **aux_args: Any) -> Any:
    # torch.vmap over axis 0 (arguments of size 1 there are shared); functions vmap
    # cannot run (data-dependent Python control flow, host calls, in-place updates of
    # captured tensors, random draws) fall back to the composed loop, which re-raises
    # their genuine errors
    if not args:
        raise ValueError("vectorized_call needs at least one batched argument")
    sizes = [int(a.shape[0]) if isinstance(a, Tensor) and a.ndim else None for a in args]
    big = {s for s in sizes if s is not None and s != 1}
    if len(big) == 1 and all(s is not None for s in sizes):
        batch = big.pop()
        in_dims = tuple(0 if s == batch else None for s in sizes)
        shared = [a if s == batch else a[0] for a, s in zip(args, sizes, strict=True)]
        if not torch.jit.is_tracing():  # functorch transforms do not trace: loop there
            try:
                out = torch.vmap(functools.partial(f, **aux_args), in_dims=in_dims)(*shared)
            except Exception:  # the loop below raises the real error, if there is one
                _note_value_read()
            else:
                return _cast_outputs(out, output_dtypes)
    return _vectorized_call_composed(f, *args, output_dtypes=output_dtypes, **aux_args)


def _cast_outputs(out: Any, output_dtypes: Any) -> Any:
    if output_dtypes is None:
        return out
    if isinstance(out, (tuple, list)):
        many = isinstance(output_dtypes, (tuple, list))
        dts = output_dtypes if many else [output_dtypes] * len(out)
        return type(out)(o.to(_dtype(dt)) for o, dt in zip(out, dts, strict=True))
    return out.to(_dtype(output_dtypes))


def _numpy_call(f: Callable, output_shapes: Any, output_dtypes: Any, *args: Any,
                **aux_args: Any) -> Any:
    # a host call on numpy copies, results back on the arguments' device (not
    # differentiable); a trace could only keep its result as a constant, so a
    # jit_compile signature that calls it runs eagerly
    ref = next((a for a in args if isinstance(a, Tensor)), None)
    device = None if ref is None else ref.device
    out = f(*[_to_numpy(a) if isinstance(a, Tensor) else a for a in args], **aux_args)
    several = isinstance(out, (tuple, list))
    outs = list(out) if several else [out]
    if several and isinstance(output_dtypes, (tuple, list)):
        dtypes = list(output_dtypes)
    else:
        dtypes = [output_dtypes] * len(outs)
    res = [_asarray(np.asarray(o), dt, device=device) for o, dt in zip(outs, dtypes, strict=True)]
    return type(out)(res) if several else res[0]


def _block_until_ready(values: Any) -> Any:
    # CUDA kernels run asynchronously: wait for the devices the values live on
    from dispatch.engine import tree_iter

    devices = {t.device for t in tree_iter(values, is_leaf=lambda v: isinstance(v, Tensor))
               if t.device.type == "cuda"}
    for dev in devices:
        torch.cuda.synchronize(dev)
    return values


def _requires_fixed_shapes_when_tracing() -> bool:
    return False  # jit_compile traces once per shape signature


def _cond(pred: Any, true_fun: Callable, false_fun: Callable, *operands: Any) -> Any:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)`` (jax.lax.cond).

    Eagerly the value of ``pred`` picks the branch (torch.cond would compile the
    call each time); inside torch.compile it is ``torch.cond``, whose branches
    take tensor operands and return tensors of the same shapes and dtypes.

    Examples
    --------
    >>> import torch
    >>> from dispatch import do
    >>> do("cond", torch.tensor(1) > 0, torch.sin, torch.cos, torch.zeros(2))
    tensor([0., 0.])
    """
    if not torch.compiler.is_compiling():
        return _control.cond(pred, true_fun, false_fun, *operands)
    require_callable("cond", "true_fun", true_fun)
    require_callable("cond", "false_fun", false_fun)
    if not isinstance(pred, Tensor):
        return (true_fun if pred else false_fun)(*operands)
    return torch.cond(pred, _fresh(true_fun, operands), _fresh(false_fun, operands),
                      tuple(operands))


def _fresh(f: Callable, operands: tuple) -> Callable:
    """``f`` returning no operand itself (torch's operators refuse aliased outputs)."""

    def run(*ops: Any) -> Any:
        return torch.utils._pytree.tree_map(
            lambda o: o.clone() if isinstance(o, Tensor) and any(o is p for p in ops) else o,
            f(*ops))

    return run


def _switch(index: Any, branches: Any, *operands: Any) -> Any:
    # eagerly the composed switch; inside torch.compile, a traced index chooses
    # through nested torch.cond calls (the index clamped as jax.lax.switch does)
    if not torch.compiler.is_compiling():
        return _control.switch(index, branches, *operands)
    branches = _control._branches("switch", branches)
    i = branch_index("switch", index, len(branches))
    if i is not None:
        return branches[i](*operands)
    index = index.clamp(0, len(branches) - 1)

    def pick(k: int) -> Callable:
        if k == len(branches) - 1:
            return _fresh(branches[k], operands)
        return lambda *ops: torch.cond(index == k, _fresh(branches[k], ops), pick(k + 1),
                                       tuple(ops))

    return pick(0)(*operands)


def _fori_loop(lower: Any, upper: Any, body_fun: Callable, init_val: Any) -> Any:
    # the composed Python loop (autograd flows through it; torch.compile unrolls it for
    # int bounds); tensor bounds inside torch.compile: torch's while_loop operator
    if not (torch.compiler.is_compiling() and (isinstance(lower, Tensor)
                                               or isinstance(upper, Tensor))):
        return _control.fori_loop(lower, upper, body_fun, init_val)
    from torch._higher_order_ops.while_loop import while_loop

    require_callable("fori_loop", "body_fun", body_fun)
    flat, spec = torch.utils._pytree.tree_flatten(init_val)
    lo = torch.as_tensor(lower, dtype=torch.int64)
    hi = torch.as_tensor(upper, dtype=torch.int64)

    def body(i: Tensor, *vals: Tensor) -> tuple:
        val = torch.utils._pytree.tree_unflatten(list(vals), spec)
        new = body_fun(i, val)
        check_carry("fori_loop", "body_fun", val, new)
        outs = torch.utils._pytree.tree_leaves(new)
        outs = [torch.as_tensor(o).to(v.dtype) for o, v in zip(outs, vals, strict=True)]
        return (i + 1, *[o.clone() if any(o is v for v in vals) else o for o in outs])

    out = while_loop(lambda i, *v: i < hi, body, (lo, *flat))
    return torch.utils._pytree.tree_unflatten(list(out[1:]), spec)


def _scan(f: Callable, init: Any, xs: Any = None, length: int | None = None,
          reverse: bool = False) -> tuple[Any, Any]:
    # the composed loop eagerly; torch's scan operator inside torch.compile
    if not torch.compiler.is_compiling():
        return _control.scan(f, init, xs, length, reverse)
    from torch._higher_order_ops.scan import scan

    require_callable("scan", "f", f)
    n = _control._leading("scan", xs, length)
    none = xs is None
    if none:
        xs = torch.arange(n)

    def step(carry: Any, x: Any) -> Any:
        out = f(carry, None if none else x)
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise TypeError(f"scan: f must return a pair (carry, y), got {type(out).__name__}")
        check_carry("scan", "f", carry, out[0])
        ins = torch.utils._pytree.tree_leaves((carry, x))
        return torch.utils._pytree.tree_map(
            lambda o: o.clone() if isinstance(o, Tensor) and any(o is v for v in ins) else o,
            tuple(out))

    return scan(step, init, xs, reverse=reverse)


TABLE = {
    "cond": _cond,
    "switch": _switch,
    "fori_loop": _fori_loop,
    "scan": _scan,
    "jit_compile": _jit_compile,
    # control flow and host calls
    "while_loop": _while_loop,
    "vectorized_call": _vectorized_call,
    "numpy_call": _numpy_call,
    "block_until_ready": _block_until_ready,
    "requires_fixed_shapes_when_tracing": _requires_fixed_shapes_when_tracing,
}
