"""Composed fallbacks: library-independent implementations written with ``do``."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from dispatch import _registry as reg

__all__ = ["Composed", "compose", "composed"]


def composed(name: str, *, library_first: bool = False) -> Callable[[Callable], Callable]:
    """Register the decorated function as the composed fallback of ``name``.

    Used inside ``translations/_composed/``. A library uses the fallback unless
    its table has an entry for ``name`` (``NATIVE`` or a translation). A keyword
    parameter ``backend`` (or ``namespace``) is filled in by the resolution.
    With ``library_first``, a library's own public function of that name wins over
    the fallback (autoray's helpers, which a library without a table may define).
    """

    def deco(fn: Callable) -> Callable:
        _mark_wants(fn)
        if library_first:
            fn._dispatch_library_first = True  # type: ignore[attr-defined]
        reg.register_composed(name, fn)
        return fn

    return deco


def _mark_wants(fn: Callable) -> None:
    """Note the parameters the resolution fills in (``backend``, ``namespace``), as
    autoray's ``compose`` supplies them."""
    try:
        params: Any = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params = {}
    wants = frozenset({"backend", "namespace"} & set(params))
    if wants:
        fn._dispatch_wants = wants  # type: ignore[attr-defined]


class Composed:
    """A function available on every backend through ``do``, with overrides.

    Calling it calls ``do(name, ...)``, so per-backend registrations made with
    :meth:`register` win over the generic implementation.
    """

    def __init__(self, fn: Callable, name: str):
        # the generic implementation itself, whatever is registered for a backend
        # (autoray's name for it, which its clients call)
        self._default_fn = fn
        self.name = name
        _mark_wants(fn)
        functools.update_wrapper(self, fn)
        reg.register_composed(name, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from dispatch._do import do

        return do(self.name, *args, **kwargs)

    def register(self, backend: str, fn: Callable | None = None) -> Callable:
        """Register a backend-specific implementation (usable as a decorator)."""
        return reg.register_function(backend, self.name, fn)

    def __repr__(self) -> str:
        return f"<composed function {self.name!r}>"


def compose(fn: Callable | None = None, *, name: str | None = None) -> Any:
    """Turn a function written with ``do`` into a ``do`` name for every backend.

    Parameters
    ----------
    fn : callable
        The generic implementation.
    name : str, optional
        The ``do`` name; default ``fn.__name__``.

    Examples
    --------
    >>> import numpy as np
    >>> from dispatch import compose, do
    >>> @compose
    ... def softsign(x):
    ...     return x / (1 + do("abs", x))
    >>> softsign(np.array([-1.0, 3.0]))
    array([-0.5 ,  0.75])
    >>> do("softsign", np.array([1.0]))
    array([0.5])
    """
    if fn is None:
        return lambda f: compose(f, name=name)
    if not callable(fn):
        raise TypeError(f"compose(fn) needs a function, got {type(fn).__name__}")
    # a lambda's '<lambda>' is refused by the registry, which asks for a valid name=
    return Composed(fn, name if name is not None else getattr(fn, "__name__", ""))
