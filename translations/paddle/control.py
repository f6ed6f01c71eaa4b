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
import itertools
from collections.abc import Callable
from typing import Any

import paddle


class _JitFunction:
    """``f`` compiled by ``paddle.jit.to_static``, once per call signature.

    ``to_static`` counts a function's named parameters and refuses ``*args``
    (every derivative ``do`` builds takes ``*args``): each number of positional
    arguments and set of keywords gets a wrapper that names them.

    The first call of a signature runs ``f`` eagerly, as torch's ``jit_compile``
    does: it fills dispatch's caches, so the translation meets no cache miss. A
    miss raises a ``KeyError`` inside ``do``, which the translator cannot follow:
    it runs the whole function eagerly instead and keeps that choice for the code
    object without a guard, for good. A signature whose compiled call raises runs
    eagerly from then on (a genuine error is raised again by the plain call): paddle
    3.3's translator hands a lambda defined in the compiled function and called from
    a function it inlines the closure's cell instead of its value (``fori_loop``
    with a body that reads a local variable).
    """

    __slots__ = ("__wrapped__", "_compiled")

    def __init__(self, f: Callable):
        self.__wrapped__ = f
        self._compiled: dict[tuple, Any] = {}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        key = (len(args), tuple(kwargs))
        compiled = self._compiled.get(key, _EAGER)
        if compiled is _EAGER:  # the signature's first call
            self._compiled[key] = None
            return self.__wrapped__(*args, **kwargs)
        if compiled is _PLAIN:
            return self.__wrapped__(*args, **kwargs)
        if compiled is None:
            compiled = paddle.jit.to_static(_named(self.__wrapped__, *key), full_graph=False)
            self._compiled[key] = compiled
        try:
            return compiled(*args, *kwargs.values())
        except Exception:
            self._compiled[key] = _PLAIN
            return self.__wrapped__(*args, **kwargs)


_EAGER = object()  # a signature not called yet
_PLAIN = object()  # a signature that runs eagerly for good
_WRAPPERS = itertools.count()


def _named(f: Callable, n: int, names: tuple) -> Callable:
    """``f`` called with ``n`` positional arguments and the keywords ``names``, as a
    function whose signature names each of them.

    Each wrapper gets a code object of its own: the translator keys what it learns
    (a fallback to eager included) on the code object, and one function it cannot
    translate must not turn the compilation of every other wrapper off. (No
    ``zip`` and no comprehension in the wrapper: the translator follows neither.)
    """
    if names:
        def call(*values: Any) -> Any:
            return f(*values[:n], **_keywords(names, values[n:]))
    else:
        def call(*values: Any) -> Any:
            return f(*values)

    call.__code__ = call.__code__.replace(co_name=f"jit_compile_{next(_WRAPPERS)}")
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter(f"arg{i}", kind) for i in range(n)]
    params += [inspect.Parameter(k, kind) for k in names]
    call.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    return call


def _keywords(names: tuple, values: tuple) -> dict:
    out = {}
    for i in range(len(names)):
        out[names[i]] = values[i]
    return out


def _jit_compile(f: Callable) -> Callable:
    """The list's ``jit_compile``: ``f`` compiled by ``paddle.jit.to_static``."""
    return f if isinstance(f, _JitFunction) else _JitFunction(f)


def _requires_fixed_shapes_when_tracing() -> bool:
    return False


TABLE = {
    "jit_compile": _jit_compile,
    "requires_fixed_shapes_when_tracing": _requires_fixed_shapes_when_tracing,
}
