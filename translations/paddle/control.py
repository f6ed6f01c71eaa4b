"""paddle: ``jit_compile`` through ``paddle.jit.to_static``.

``to_static`` with ``full_graph=False`` (paddle's symbolic opcode translator)
captures what it can of a Python function into a static program and runs the rest
of the function eagerly, so a function written with ``do`` compiles without
changes, and one whose control flow depends on values falls back to Python where it
must. (``full_graph=True``, the AST translator, needs the function's source file.)
``while_loop``, ``cond``, ``scan`` and ``fori_loop`` are the composed Python loops,
which the translator follows.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import paddle


class _JitFunction:
    """``f`` compiled by ``paddle.jit.to_static``, once per call signature.

    ``to_static`` counts a function's named parameters and refuses ``*args``
    (every derivative ``do`` builds takes ``*args``): each number of positional
    arguments and set of keywords gets a wrapper that names them.
    """

    __slots__ = ("__wrapped__", "_compiled")

    def __init__(self, f: Callable):
        self.__wrapped__ = f
        self._compiled: dict[tuple, Any] = {}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        key = (len(args), tuple(kwargs))
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = paddle.jit.to_static(_named(self.__wrapped__, *key), full_graph=False)
            self._compiled[key] = compiled
        return compiled(*args, *kwargs.values())


def _named(f: Callable, n: int, names: tuple) -> Callable:
    """``f`` called with ``n`` positional arguments and the keywords ``names``, as a
    function whose signature names each of them."""

    def call(*values: Any) -> Any:
        return f(*values[:n], **dict(zip(names, values[n:], strict=True)))

    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter(f"arg{i}", kind) for i in range(n)]
    params += [inspect.Parameter(k, kind) for k in names]
    call.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    return call


def _jit_compile(f: Callable) -> Callable:
    """The list's ``jit_compile``: ``f`` compiled by ``paddle.jit.to_static``."""
    return f if isinstance(f, _JitFunction) else _JitFunction(f)


def _requires_fixed_shapes_when_tracing() -> bool:
    return False


TABLE = {
    "jit_compile": _jit_compile,
    "requires_fixed_shapes_when_tracing": _requires_fixed_shapes_when_tracing,
}
