"""The namespace the engine resolves names in for the lazy backend.

``dispatch.register_backend(LazyArray, "lazy", module="dispatch.lazy._ops")``
makes every ``do(name, lazy_array, ...)`` look ``name`` up here. A module
``__getattr__`` answers any public name with a recorder, so that every name,
dotted ones included (``"linalg.qr"``, ``"scipy.special.erf"``), records a node
without code per name. The few functions defined here are the exceptions:
introspection answered from the node, and conversions that must compute.
"""

from typing import Any as _Any

from dispatch.lazy import _record as _record

# first components of dotted names that are namespaces rather than functions
_NAMESPACES = frozenset(
    {"linalg", "fft", "random", "scipy", "special", "sparse", "signal", "ndimage", "stats",
     "emath", "ma", "polynomial", "integrate", "interpolate", "optimize", "spatial"}
)


class _Namespace:
    """A dotted prefix such as ``linalg``: attributes are recorders, calls record."""

    __slots__ = ("_prefix",)

    def __init__(self, prefix: str):
        self._prefix = prefix

    def __getattr__(self, attr: str) -> _Any:
        if attr.startswith("_"):
            raise AttributeError(attr)
        return _lookup(f"{self._prefix}.{attr}", attr)

    def __call__(self, *args: _Any, **kwargs: _Any) -> _Any:
        return _recorder(self._prefix)(*args, **kwargs)


_recorder = _record.recorder


def _lookup(full: str, last: str) -> _Any:
    return _Namespace(full) if last in _NAMESPACES else _recorder(full)


_HOOKS = frozenset({"setup_module", "teardown_module", "setup_function", "teardown_function",
                    "setup", "teardown", "load_tests"})


def __getattr__(name: str) -> _Any:
    # tools probe modules for hooks (``pytest_plugins``, ``setup_module``...): those are
    # not array functions, whose names are lowercase
    if name.startswith(("_", "pytest")) or name in _HOOKS or not name.islower():
        raise AttributeError(name)
    return _lookup(name, name)


# ---------------------------------------------------------------- exceptions


def shape(x: _Any) -> tuple:
    return x.shape


def ndim(x: _Any) -> int:
    return len(x.shape)


def size(x: _Any) -> int:
    return x.size


def get_dtype_name(x: _Any) -> str:
    return x.dtype


def to_numpy(x: _Any) -> _Any:
    """Compute, then convert to numpy."""
    from dispatch import do

    return do("to_numpy", x.compute())


def is_array(x: _Any) -> bool:
    return True

