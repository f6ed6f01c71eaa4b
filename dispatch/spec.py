"""Value types that translation tables use to describe a translation.

A ``TABLE`` in ``translations/<lib>/`` maps a canonical (numpy) name to one of:

* a string: a dotted path relative to the library's root module
  (``"linalg.matrix_exp"``);
* :func:`alias`: a path, optionally in another module, with keyword renames;
* a callable: a direct implementation (an adapter written in that file);
* :data:`NATIVE`: use the library's same-named function even though a composed
  fallback exists;
* :func:`unsupported`: a known gap, with the reason shown to users and used as a
  strict xfail by the tests.

An adapter may also name, with :func:`kernels`, the library's own function it
reduces to for some exact argument types: ``do`` then caches that function for
those types, one Python frame less per call; where that function raises, ``do``
calls the adapter instead (it answers the calls the library refuses).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = ["NATIVE", "Alias", "Unsupported", "alias", "kernels", "unsupported"]


class _Native:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NATIVE"


NATIVE: Any = _Native()
"""Marker: prefer the library's own function of this name over a composed fallback."""


class Alias:
    """A relocated or renamed function, with keyword arguments renamed."""

    __slots__ = ("module", "path", "renames")

    def __init__(self, path: str, module: str | None, renames: dict[str, str]):
        self.path = path
        self.module = module
        self.renames = renames

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.renames.items())
        mod = f", module={self.module!r}" if self.module else ""
        return f"alias({self.path!r}{mod}{extra})"


def alias(path: str, *, module: str | None = None, **renames: str) -> Alias:
    """Describe a translation to ``module.path`` with keyword renames.

    Parameters
    ----------
    path : str
        Dotted path of the target, relative to ``module``.
    module : str, optional
        Absolute module to look ``path`` up in; default: the library's root.
    **renames : str
        ``numpy_keyword="library_keyword"`` pairs, e.g. ``axis="dim"``.

    Examples
    --------
    >>> alias("cat", axis="dim")
    alias('cat', axis='dim')
    """
    return Alias(path, module, renames)


class Unsupported:
    """A known gap of one library, with the reason."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason

    def __repr__(self) -> str:
        return f"unsupported({self.reason!r})"


def unsupported(reason: str) -> Unsupported:
    """Mark a name as unavailable on a library, saying why.

    Examples
    --------
    >>> unsupported("torch has no Schur decomposition")
    unsupported('torch has no Schur decomposition')
    """
    return Unsupported(reason)


_KERNELS_ATTRIBUTE = "_dispatch_kernels"


def kernels(adapter: _F, by_types: Mapping[tuple[type, ...], Callable[..., Any]]) -> _F:
    """Name the library function that ``adapter`` reduces to for exact argument types.

    ``by_types`` maps a tuple of positional argument types (exact types, as ``do``'s
    cache keys them) to a callable that, for *every* call made of arguments of
    those types and no keyword, gives the same result as ``adapter`` or raises.
    ``do`` caches that callable for those types instead of the adapter, which saves
    the adapter's frame and checks (60-280 ns on a small array); where it raises,
    ``do`` calls the adapter with the same arguments, and the adapter's answer (or
    error) is the call's. So a kernel may refuse what the adapter computes (torch's
    subtraction refuses booleans, which the adapter computes as numpy does), at no
    cost to the calls it takes. Only claims that hold whatever the values are may
    be written: a kernel that *returns* something else than the adapter for some
    dtype (rather than raising) does not belong here. A wrapper of
    ``adapter`` (``functools.wraps`` copies its attributes) does not inherit the
    kernels: they belong to ``adapter`` itself.

    Returns ``adapter``, marked.

    Examples
    --------
    >>> import numpy as np
    >>> def transpose(a, axes=None):
    ...     return np.transpose(a, axes)
    >>> transpose = kernels(transpose, {(np.ndarray,): np.transpose})
    >>> transpose._dispatch_kernels[1][(np.ndarray,)] is np.transpose
    True
    """
    for types, fn in by_types.items():
        if not (isinstance(types, tuple) and all(isinstance(t, type) for t in types)):
            raise TypeError(f"kernels: a key must be a tuple of types, got {types!r}")
        if not callable(fn):
            raise TypeError(f"kernels: the kernel for {types!r} is not callable: {fn!r}")
    setattr(adapter, _KERNELS_ATTRIBUTE, (adapter, dict(by_types)))
    return adapter


# (name, *types) -> (kernel, adapter): the adapter that answers a call of ``name`` with
# positional arguments of those types where the kernel cached for them raises
_ADAPTERS: dict[tuple, tuple[Callable[..., Any], Callable[..., Any]]] = {}


def _kernel_for(
    impl: Callable[..., Any], types: tuple[type, ...], name: str = ""
) -> Callable[..., Any]:
    """The kernel ``impl`` names for positional ``types`` (see :func:`kernels`), else
    ``impl``; the adapter that answers where that kernel raises is kept under
    ``name`` and ``types``."""
    marked = getattr(impl, _KERNELS_ATTRIBUTE, None)
    if marked is None or marked[0] is not impl:  # a wrapper copied the mark: not its own
        return impl
    kernel = marked[1].get(types, impl)
    if kernel is not impl:
        key = (name, *types)
        _ADAPTERS[key] = (kernel, impl)
    return kernel


def _adapter_of(fn: Callable[..., Any], name: str, args: tuple) -> Callable[..., Any] | None:
    """The adapter whose kernel ``fn`` is, for a call of ``name`` with ``args``
    (failure path only), else None."""
    key = (name, *map(type, args))
    known = _ADAPTERS.get(key)
    return known[1] if known is not None and known[0] is fn else None
