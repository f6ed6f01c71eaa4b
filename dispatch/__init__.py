"""dispatch: write array code once, run it on any array library.

``do(name, *args, like=None, **kwargs)`` finds the library that owns the
arguments, resolves ``name`` in that library's translation table (or a composed
fallback), caches the resolved callable per argument types, and calls it.

>>> import numpy as np
>>> from dispatch import do
>>> do("linalg.norm", np.array([3.0, 4.0]))
np.float64(5.0)
"""

from __future__ import annotations

from math import e, inf, nan, pi

from dispatch._compose import compose
from dispatch._do import do
from dispatch._errors import (
    BackendNotInstalledError,
    DispatchError,
    MixedBackendError,
    RefusedNameError,
    UnknownBackendError,
    UnknownFunctionError,
    UnsupportedError,
)
from dispatch._helpers import (
    astype,
    backend_like,
    convert,
    coverage,
    from_numpy,
    get_backend,
    get_common_dtype,
    get_dtype_name,
    get_lib_fn,
    get_precision,
    is_array,
    is_scalar,
    ndim,
    precision,
    set_backend,
    set_precision,
    shape,
    size,
    supports,
    to_backend_dtype,
    to_device,
    to_numpy,
)
from dispatch._infer import infer_backend, infer_backend_multi
from dispatch._namespace import array_namespace, get_namespace
from dispatch._registry import (
    clear_caches,
    register_backend,
    register_function,
    register_translation,
    unregister_function,
)
from dispatch._shortcuts import (
    DoFunc,
    conj,
    dag,
    imag,
    infer_backend_device_dtype,
    real,
    reshape,
    stop_gradient,
    to,
    transpose,
    tree_apply,
)
from dispatch._tree import tree_flatten, tree_iter, tree_map, tree_unflatten

__version__ = "0.1.0"

__all__ = [
    "BackendNotInstalledError",
    "DispatchError",
    "DoFunc",
    "MixedBackendError",
    "RefusedNameError",
    "UnknownBackendError",
    "UnknownFunctionError",
    "UnsupportedError",
    "array_namespace",
    "astype",
    "autojit",
    "backend_like",
    "clear_caches",
    "compose",
    "conj",
    "convert",
    "coverage",
    "dag",
    "do",
    "e",
    "from_numpy",
    "get_backend",
    "get_common_dtype",
    "get_dtype_name",
    "get_lib_fn",
    "get_namespace",
    "get_precision",
    "imag",
    "inf",
    "infer_backend",
    "infer_backend_device_dtype",
    "infer_backend_multi",
    "is_array",
    "is_scalar",
    "lazy",
    "nan",
    "ndim",
    "numpy",
    "pi",
    "precision",
    "real",
    "register_backend",
    "register_function",
    "register_translation",
    "reshape",
    "set_backend",
    "set_precision",
    "shape",
    "size",
    "stop_gradient",
    "supports",
    "to",
    "to_backend_dtype",
    "to_device",
    "to_numpy",
    "transpose",
    "tree_apply",
    "tree_flatten",
    "tree_iter",
    "tree_map",
    "tree_unflatten",
    "unregister_function",
]


# Submodules reached as attributes (``dispatch.lazy.Variable``) without importing them
# first; loaded on first access so that ``import dispatch`` stays light.
_SUBMODULES = frozenset({"lazy", "numpy", "autoray", "compat"})
_ON_ACCESS = frozenset({"autojit", "lazy", "numpy"})  # names of __all__ made by __getattr__


def __getattr__(name: str) -> object:
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    if name == "autojit":
        from dispatch.lazy import autojit

        return autojit
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def _mark_plain_python() -> None:
    # Source-rewriting tracers (tensorflow's autograph) call objects carrying this
    # attribute as plain Python instead of converting them and everything they call
    # (down to importlib on a first resolution): see dispatch/_do.py.
    import types

    for _name in __all__:
        _obj = globals().get(_name)
        if isinstance(_obj, types.FunctionType):
            _obj.autograph_info__ = None  # type: ignore[attr-defined]


_mark_plain_python()

