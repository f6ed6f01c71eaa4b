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
"""

from __future__ import annotations

from typing import Any

__all__ = ["NATIVE", "Alias", "Unsupported", "alias", "unsupported"]


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
