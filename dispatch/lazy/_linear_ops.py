"""The namespace the engine resolves names in for the linear tracer backend.

Supported names map to their tracer implementations; any other name, dotted
ones included, resolves to a function that raises
:class:`~dispatch.lazy.NonLinearError` naming the operation when called.
"""

from types import ModuleType as _ModuleType
from typing import Any as _Any

from dispatch.lazy import _linear_trace as _trace


class _Namespace(_ModuleType):
    """``linalg``, ``scipy.special``...: a module, as the resolver walks only through
    modules (docs/safety.md), named as the submodule it stands for."""

    def __init__(self, prefix: str):
        super().__init__(f"{__name__}.{prefix}")
        self._prefix = prefix

    def __getattr__(self, attr: str) -> _Any:
        if attr.startswith("_"):
            raise AttributeError(attr)
        return _lookup(f"{self._prefix}.{attr}", attr)

    def __call__(self, *args: _Any, **kwargs: _Any) -> _Any:
        return _lookup(self._prefix, "")(*args, **kwargs)


_NAMESPACES = frozenset({"linalg", "fft", "random", "scipy", "special", "sparse"})


def _lookup(full: str, last: str) -> _Any:
    if last in _NAMESPACES:
        return _Namespace(full)
    return _trace.OPS.get(full) or _trace.unsupported_op(full)


_HOOKS = frozenset({"setup_module", "teardown_module", "setup_function", "teardown_function",
                    "setup", "teardown", "load_tests"})


def __getattr__(name: str) -> _Any:
    # tools probe modules for hooks (``pytest_plugins``, ``setup_module``...): those are
    # not array functions, whose names are lowercase
    if name.startswith(("_", "pytest")) or name in _HOOKS or not name.islower():
        raise AttributeError(name)
    return _lookup(name, name)


def shape(x: _Any) -> tuple:
    return x.shape


def ndim(x: _Any) -> int:
    return x.ndim


def size(x: _Any) -> int:
    return x.size


def get_dtype_name(x: _Any) -> str:
    return x.dtype.name
