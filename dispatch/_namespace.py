"""Namespaces: attribute access instead of ``do("name", ...)``."""

from __future__ import annotations

from typing import Any

from dispatch._do import do
from dispatch._infer import check_backend_name, like_backend
from dispatch._resolve import resolve


class Namespace:
    """A numpy-like namespace bound to one backend.

    ``ns.sum`` is the resolved implementation itself (no inference on call), and
    ``ns.linalg`` a sub-namespace. Registrations take effect on the next
    attribute access.
    """

    __slots__ = ("_backend", "_prefix")

    def __init__(self, backend: str, prefix: str = ""):
        self._backend = backend
        self._prefix = prefix

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        full = self._prefix + name
        try:
            return resolve(self._backend, full)
        except AttributeError:
            return Namespace(self._backend, full + ".")

    def __repr__(self) -> str:
        where = f":{self._prefix[:-1]}" if self._prefix else ""
        return f"<dispatch namespace {self._backend}{where}>"

    def __dir__(self) -> list[str]:
        from dispatch._resolve import known_names

        depth = self._prefix.count(".")
        return sorted(
            {n.split(".")[depth] for n in known_names(self._backend) if n.startswith(self._prefix)}
        )


def get_namespace(like: Any) -> Namespace:
    """A numpy-like namespace for the backend of ``like`` (a name or an array).

    Examples
    --------
    >>> import numpy as np
    >>> xp = get_namespace(np.ones(2))
    >>> xp.sum(np.arange(3))
    np.int64(3)
    >>> xp.linalg.det(np.eye(2))
    np.float64(1.0)
    """
    return Namespace(check_backend_name(like_backend(like)))


class DoNamespace:
    """Module-like object whose attributes call ``do`` with inference."""

    __slots__ = ("__dict__", "_prefix")

    def __init__(self, prefix: str = ""):
        self._prefix = prefix

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        fn = _DoFunction(self._prefix + name)
        self.__dict__[name] = fn
        return fn


class _DoFunction:
    """``do`` bound to a name; also a namespace for dotted names (``xp.linalg.qr``)."""

    __slots__ = ("__dict__", "name")

    def __init__(self, name: str):
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return do(self.name, *args, **kwargs)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):
            raise AttributeError(attr)
        fn = _DoFunction(f"{self.name}.{attr}")
        self.__dict__[attr] = fn
        return fn

    def __repr__(self) -> str:
        return f"<dispatch function {self.name!r}>"
