"""The autoray face: the module that ``import autoray`` becomes.

``sys.modules["autoray"] = dispatch.autoray`` (with each ``autoray.X`` as
``dispatch.autoray.X``, see :func:`dispatch.autoray.modules`) runs a library
written against autoray 0.11.0 on dispatch's engine, unchanged. The public
names are those of ``autoray.__all__``; the submodules are those autoray ships
(``autoray``, the core with its alias tables and ``AutoNamespace``; ``lazy`` with
``core``, ``linalg`` and ``draw``; ``compiler``; ``grad``; ``experimental``).
Where autoray's conventions differ from numpy's (``do``'s), this face follows
autoray's: the departures are stated once, in :mod:`dispatch.autoray._departures`,
and listed in docs/migrating.md. Everything else (inference, resolution, tables,
composed fallbacks, the caches) is the engine's.

Examples
--------
>>> import numpy as np
>>> from dispatch import autoray as ar
>>> u, s, vh = ar.do("linalg.svd", np.ones((4, 2)))   # thin factors, as autoray's
>>> u.shape
(4, 2)
>>> ar.infer_backend(1.0)
'builtins'
"""

from __future__ import annotations

import importlib
import sys
from math import e, inf, nan, pi
from types import ModuleType

from dispatch.autoray import lazy
from dispatch.autoray.autoray import (
    DoFunc,
    astype,
    autojit,
    backend_like,
    compose,
    conj,
    dag,
    do,
    from_numpy,
    get_backend,
    get_common_dtype,
    get_dtype_name,
    get_lib_fn,
    get_namespace,
    imag,
    infer_backend,
    infer_backend_device_dtype,
    infer_backend_multi,
    is_array,
    is_scalar,
    ndim,
    numpy,
    real,
    register_backend,
    register_function,
    reshape,
    set_backend,
    shape,
    size,
    stop_gradient,
    to,
    to_backend_dtype,
    to_device,
    to_numpy,
    transpose,
    tree_apply,
    tree_flatten,
    tree_iter,
    tree_map,
    tree_unflatten,
)

# the version of autoray whose surface this face serves
__version__ = "0.11.0"

__all__ = (
    "astype",
    "autojit",
    "backend_like",
    "compose",
    "conj",
    "dag",
    "do",
    "DoFunc",
    "e",
    "from_numpy",
    "get_backend",
    "get_common_dtype",
    "get_dtype_name",
    "get_lib_fn",
    "get_namespace",
    "imag",
    "inf",
    "infer_backend_device_dtype",
    "infer_backend_multi",
    "infer_backend",
    "is_array",
    "is_scalar",
    "lazy",
    "nan",
    "ndim",
    "numpy",
    "pi",
    "real",
    "register_backend",
    "register_function",
    "reshape",
    "set_backend",
    "shape",
    "size",
    "stop_gradient",
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
)

# the submodules autoray ships, under their names below ``autoray``
SUBMODULES = (
    "autoray",
    "compiler",
    "grad",
    "lazy",
    "lazy.core",
    "lazy.linalg",
    "lazy.draw",
    "experimental",
    "experimental.complexity_tracing",
)


def modules(name: str = "autoray") -> dict[str, ModuleType]:
    """The ``sys.modules`` entries that make ``import name`` give this face.

    Parameters
    ----------
    name : str
        The module name to answer, ``"autoray"`` for the swap.

    Returns
    -------
    dict
        ``name`` -> this package and ``name.X`` -> ``dispatch.autoray.X`` for each
        submodule autoray ships, so that every ``autoray.X`` is the same object as
        ``dispatch.autoray.X``.

    Examples
    --------
    >>> import sys
    >>> from dispatch import autoray as ar
    >>> entries = ar.modules()
    >>> entries["autoray.lazy"] is ar.lazy
    True
    """
    out: dict[str, ModuleType] = {name: sys.modules[__name__]}
    for sub in SUBMODULES:
        out[f"{name}.{sub}"] = importlib.import_module(f"{__name__}.{sub}")
    return out
