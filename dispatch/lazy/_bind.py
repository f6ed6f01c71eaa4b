"""A Function's code bound, call by call, to what ``do`` takes for one set of input types.

``do`` finds the callable of a call from the types of its arguments. Under a tracing
compiler (``torch.compile``'s dynamo) that lookup is Python the compiler has to trace
too, with its caches, locks and error handling: graph breaks and recompilations.
:func:`bind` runs a :class:`~dispatch.lazy.Function` once on example inputs, each call
site recording the callable ``do`` takes there, and returns the same code with every
site calling that callable directly, so that the compiler sees the library's own
functions only. A numpy constant that ``do`` would convert to the inputs' library on
every call is converted once, here. The bound code is valid for inputs of the same
types as the examples (the compiler guards shapes and dtypes itself).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from dispatch import _registry as reg
from dispatch._do import _converter, _miss, _non_array_parameters, do
from dispatch._infer import decide, decide_owner


def call_target(name: str, args: tuple, kwargs: dict) -> Callable | None:
    """The callable ``do(name, *args, **kwargs)`` calls (None for a call with ``like=``).

    Found in ``do``'s own cache under ``do``'s own key, or made by ``do``'s miss path,
    which caches it.
    """
    if "like" in kwargs:
        return None
    types = tuple(map(type, args))
    if kwargs:
        key = types
        for k, v in kwargs.items():
            key += (k, type(v))
        fn = reg.CALLS.get((name, *key))
        return fn if fn is not None else _miss(name, key, True)
    fn = reg.cached_call(name, *types)
    return fn if fn is not None else _miss(name, types, False)


def bind(function: Any, args: tuple) -> Callable:
    """``function``'s flat code with each call bound to the callable ``do`` takes for
    arguments of the types met when running it on ``args``."""
    tree = ast.parse(function.get_source())
    callees = function.functions
    sites: list[tuple[Any, ast.Call]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in callees:
            sites.append((callees[node.func.id], node))
            node.func.id = f"_s{len(sites) - 1}"
    consts = function.constants
    numpy_consts = {id(v): k for k, v in consts.items() if type(v) is np.ndarray}
    found: dict[int, tuple[Callable, list]] = {}

    def recorder(k: int, name: str) -> Callable:
        def record(*a: Any, **kw: Any) -> Any:
            target = call_target(name, a, kw)
            if target is not None:
                found[k] = _converted_constants(name, sites[k][1], target, a, kw, numpy_consts)
            return do(name, *a, **kw)

        return record

    namespace = {"__name__": __name__, "do": do, **consts}
    for k, (fn, _) in enumerate(sites):
        namespace[f"_s{k}"] = recorder(k, fn) if isinstance(fn, str) else fn
    exec(compile(tree, "<dispatch.lazy.Function>", "exec"), namespace)
    namespace["lazy_function"](*args)

    bound: dict = {"__name__": __name__, "do": do, **consts}
    for k, (fn, _) in enumerate(sites):
        if k in found:
            target, converted = found[k]
            bound[f"_s{k}"] = target
            for expr, value in converted:
                bound[f"_{expr.id}"] = value
                expr.id = f"_{expr.id}"  # the operand converted once, here
        else:
            bound[f"_s{k}"] = functools.partial(do, fn) if isinstance(fn, str) else fn
    exec(compile(tree, "<dispatch.lazy.Function>", "exec"), bound)
    return bound["lazy_function"]


def _converted_constants(name: str, node: ast.Call, target: Callable, args: tuple,
                         kwargs: dict, numpy_consts: dict) -> tuple[Callable, list]:
    """The callable to bind at a site, and its operands that are numpy constants,
    converted as ``do`` converts them on every call: none, unless converting all of
    them leaves exactly the implementation ``do`` wraps with those conversions."""
    impl: Callable | None = getattr(target, "__wrapped__", None)
    if impl is None:
        return target, []
    positions, keywords = _non_array_parameters(name)
    types = [type(a) for a in args] + [type(v) for v in kwargs.values()]
    backend = decide(types, name) or decide_owner(types)
    if backend is None or not reg.converts_constants(backend):
        return target, []
    convert = _converter(backend, np.ndarray)
    converted: list = []  # (the Name node in the source, the converted value)
    new_args = list(args)
    for i, expr in enumerate(node.args[:len(args)]):
        if i not in positions and _is_constant(args[i], expr, numpy_consts):
            new_args[i] = convert(args[i])
            converted.append((expr, new_args[i]))
    new_kwargs = dict(kwargs)
    for kw in node.keywords:
        if kw.arg is not None and kw.arg not in keywords and kw.arg in kwargs \
                and _is_constant(kwargs[kw.arg], kw.value, numpy_consts):
            new_kwargs[kw.arg] = convert(kwargs[kw.arg])
            converted.append((kw.value, new_kwargs[kw.arg]))
    if not converted or call_target(name, tuple(new_args), new_kwargs) is not impl:
        return target, []
    return impl, converted  # impl is the callable do wraps (not None here)


def _is_constant(value: Any, expr: ast.expr, numpy_consts: dict) -> bool:
    """Whether the source passes the numpy constant ``value`` by its name."""
    if type(value) is not np.ndarray:
        return False
    name = numpy_consts.get(id(value))
    return name is not None and isinstance(expr, ast.Name) and expr.id == name
