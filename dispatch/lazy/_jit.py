"""Lazy graphs handed to a library's own compiler, and ``autojit``.

A :class:`~dispatch.lazy.Function` is plain Python calling ``do``; under
``jax.jit``, ``torch.compile`` (or ``torch.jit.trace``) or ``tf.function`` those
calls are traced like any other code of that library. Because the graph was
folded first, everything that depended only on numpy arrays is already a
constant: the compiled program holds only the operations on the inputs (the
rule of numpy constants).
"""

from __future__ import annotations

import functools
import hashlib
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from dispatch.lazy._array import LazyArray, Variable
from dispatch.lazy._bind import bind
from dispatch.lazy._shapes import dtype_name
from dispatch.lazy._source import Function


def jit_function(function: Function, backend: str | None = None, **options: Any) -> Callable:
    """``function`` compiled by the library ``backend`` (default: that of its inputs).

    Parameters
    ----------
    function : Function
    backend : {"jax", "torch", "tensorflow", "numpy"}, optional
        numpy has no compiler: the function itself is returned.
    **options
        Passed to ``jax.jit``, ``tf.function`` or ``torch.compile``. For torch,
        ``mode="trace"`` uses ``torch.jit.trace`` on the first call instead, and
        ``torch_backend`` is torch.compile's own ``backend`` argument.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> x = lazy.Variable((2,))
    >>> f = lazy.Function(x, do("exp", x)).jit()    # numpy: no compiler, f itself
    >>> f(np.zeros(2))
    array([1., 1.])
    """
    backend = backend or function.backend
    if backend in (None, "numpy"):
        return function

    # compilers see flat inputs and a tuple of outputs; the structure is restored outside
    def lazy_function(*args: Any) -> Any:
        return function.flat(*args)

    compiled: Callable
    if backend == "jax":
        import jax

        compiled = jax.jit(lazy_function, **options)
    elif backend == "tensorflow":
        import tensorflow as tf

        # generated code has no source file for AutoGraph to parse: plain tracing
        options.setdefault("autograph", False)
        compiled = tf.function(lazy_function, **options)
    elif backend == "torch":
        compiled = _torch_jit(function, **options)
    else:
        raise NotImplementedError(
            f"no compiler known for backend {backend!r}; use backend='jax', 'torch' or "
            "'tensorflow', or call the Function itself"
        )
    unflatten = function.unflatten

    def jitted(*args: Any) -> Any:
        return unflatten(compiled(*args))

    jitted.compiled = compiled  # type: ignore[attr-defined]
    return jitted


def _torch_jit(function: Function, mode: str = "compile", torch_backend: Any = None,
               **options: Any) -> Callable:
    """torch.compile (or torch.jit.trace) of ``function``'s code bound, for the types of
    the first inputs, to the callables ``do`` takes (``_bind``): the compiler traces
    torch's functions, not ``do``'s lookups."""
    import torch

    if mode not in ("compile", "trace"):
        raise ValueError(f"torch mode must be 'compile' or 'trace', not {mode!r}")
    if mode == "compile" and torch_backend is not None:
        options["backend"] = torch_backend
    compiled: dict = {}

    def run(*args: Any) -> Any:
        # compile: the types decide the binding, torch.compile guards shapes itself;
        # trace: a trace holds for one set of shapes, dtypes and devices
        key = tuple(type(a) for a in args) if mode == "compile" else tuple(
            (type(a), tuple(a.shape), a.dtype, a.device) for a in args)
        fn = compiled.get(key)
        if fn is None:
            bound = bind(function, args)
            if mode == "compile":
                fn = torch.compile(bound, **options)
            else:
                with warnings.catch_warnings():
                    # torch.jit is deprecated in favour of torch.compile, but traces
                    # in a fraction of the time
                    warnings.simplefilter("ignore", DeprecationWarning)
                    # numpy constants become constants of the trace: that is the intent
                    warnings.simplefilter("ignore", torch.jit.TracerWarning)
                    fn = torch.jit.trace(bound, args, **options)
            compiled[key] = fn
        return fn(*args)

    return run


# ---------------------------------------------------------------- autojit


def autojit(fn: Callable | None = None, *, backend: str | None = None,
            fold_constants: bool = True, **options: Any) -> Any:
    """Compile a function written with ``do`` by tracing it into a lazy graph.

    On the first call for each combination of argument shapes and dtypes, the
    arrays of torch, jax or tensorflow among the arguments (nested in lists,
    tuples and dicts too) become :func:`Variable` s and ``fn`` runs once on them,
    recording a graph. numpy arrays and Python scalars are constants: they are
    folded into the graph together with everything computed from them alone
    (a different numpy value, compared by content, traces again). The graph,
    as a :class:`Function`, is then compiled by that library's jit and cached.
    A call whose arguments are all numpy runs ``fn`` eagerly.

    Parameters
    ----------
    fn : callable
    backend : str, optional
        Force the compiler; default: the library of the traced arguments.
    fold_constants : bool, default True
    **options
        Passed to the library's jit (see :func:`dispatch.lazy.Function.jit`).

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import do, lazy
    >>> @lazy.autojit
    ... def f(x, w):
    ...     return do("tanh", do("matmul", x, w))
    >>> f(np.zeros((1, 2)), np.ones((2, 2)))     # numpy only: eager
    array([[0., 0.]])
    """
    if fn is None:
        return lambda f: autojit(f, backend=backend, fold_constants=fold_constants, **options)
    cache: dict = {}
    functions: dict = {}
    func = fn

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        leaves: list = []
        spec = _split((args, kwargs), leaves)
        traced = [i for i, (kind, _) in enumerate(leaves) if kind == "var"]
        if not traced:
            return func(*args, **kwargs)
        key = (_freeze(spec), tuple(sig for _, sig in leaves))
        compiled = cache.get(key)
        if compiled is None:
            graph, compiled = _trace(func, spec, traced, args, kwargs, backend,
                                     fold_constants, options)
            cache[key] = compiled
            functions[key] = graph
        values = _values_in_order(args, kwargs)
        return compiled(*[values[i] for i in traced])

    wrapper.cache = cache  # type: ignore[attr-defined]
    wrapper.functions = functions  # type: ignore[attr-defined]
    return wrapper


def _trace(fn: Callable, spec: Any, traced: list, args: tuple, kwargs: dict,
           backend: str | None, fold: bool, options: dict) -> tuple[Function, Callable]:
    """Run ``fn`` on variables for the traced leaves; the graph and its compiled form."""
    from dispatch._infer import backend_of_type

    values = _values_in_order(args, kwargs)
    variables = {}
    for i in traced:
        x = values[i]
        lib = backend_of_type(type(x)) or "numpy"
        variables[i] = Variable(tuple(x.shape), dtype_name(x.dtype), lib)
    filled = [variables.get(i, values[i]) for i in range(len(values))]
    it = iter(filled)
    a, k = _rebuild(spec, it)
    outputs = fn(*a, **k)
    func = Function([variables[i] for i in traced], outputs, fold_constants=fold)
    b = backend or func.backend
    return func, jit_function(func, b, **options)


def _kind(x: Any) -> tuple[str, Any]:
    """How a leaf takes part: a traced input ("var"), or a constant with its key."""
    from dispatch._infer import backend_of_type

    if isinstance(x, np.ndarray):
        digest = hashlib.blake2b(np.ascontiguousarray(x).tobytes(), digest_size=16)
        return "const", ("ndarray", x.shape, x.dtype.str, digest.hexdigest())
    b = backend_of_type(type(x))
    if b is not None and b != "numpy" and hasattr(x, "shape") and type(x) is not LazyArray:
        return "var", (b, tuple(x.shape), dtype_name(x.dtype))
    try:
        hash(x)
        return "const", (type(x), x)
    except TypeError:
        return "const", (type(x), id(x))


class _Leaf:
    __slots__ = ("i",)

    def __init__(self, i: int):
        self.i = i


def _split(tree: Any, leaves: list) -> Any:
    if isinstance(tree, dict):
        return {k: _split(v, leaves) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)) and not hasattr(tree, "_fields"):
        return type(tree)(_split(v, leaves) for v in tree)
    leaves.append(_kind(tree))
    return _Leaf(len(leaves) - 1)


def _freeze(spec: Any) -> Any:
    if isinstance(spec, dict):
        return ("dict", tuple((k, _freeze(v)) for k, v in spec.items()))
    if isinstance(spec, (list, tuple)):
        return (type(spec).__name__, tuple(_freeze(v) for v in spec))
    return "*"


def _values_in_order(args: tuple, kwargs: dict) -> list:
    out: list = []

    def go(t: Any) -> None:
        if isinstance(t, dict):
            for v in t.values():
                go(v)
        elif isinstance(t, (list, tuple)) and not hasattr(t, "_fields"):
            for v in t:
                go(v)
        else:
            out.append(t)

    go((args, kwargs))
    return out


def _rebuild(spec: Any, it: Any) -> Any:
    if isinstance(spec, _Leaf):
        return next(it)
    if isinstance(spec, dict):
        return {k: _rebuild(v, it) for k, v in spec.items()}
    return type(spec)(_rebuild(v, it) for v in spec)
