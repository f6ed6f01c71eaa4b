"""The engine's surface for translation tables: the one module of ``dispatch`` they import.

A table (``translations/<library>/``) and a composed fallback
(``translations/_composed/``) take from the engine only what is re-exported
here, so that the engine's private modules can change without touching the
knowledge. ``tests/dispatch/test_layout.py`` fails when a table imports anything
else from ``dispatch`` (``dispatch.translations`` aside), and when an engine
module imports a table.

What is here:

* the entry markers of :mod:`dispatch.spec`: :data:`NATIVE`, :func:`alias`,
  :func:`unsupported`, and :func:`kernels` (an adapter's own-library function for
  exact argument types);
* :func:`merge_tables`: a package's table, assembled from its topic modules,
  refusing a name defined twice;
* the calls a composed fallback is written with: :func:`do`, :func:`composed`
  and the helpers (:func:`is_array`, :func:`infer_backend`, ``tree_*``...);
* the errors a translation raises.

>>> from dispatch.engine import merge_tables, unsupported
>>> table = merge_tables({"sum": "sum"}, {"fft.fft": unsupported("no fft")})
>>> sorted(table)
['fft.fft', 'sum']
>>> merge_tables({"sum": "sum"}, {"sum": "add.reduce"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: 'sum' is defined twice: in topic 1 and topic 2 (a later entry would silently win; ...
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from dispatch._compose import composed
from dispatch._do import do
from dispatch._errors import (
    DispatchError,
    MixedBackendError,
    RefusedNameError,
    UnknownFunctionError,
    UnsupportedError,
)
from dispatch._helpers import convert, get_lib_fn, get_precision, infer_backend, is_array
from dispatch._infer import backend_of_type, infer_backend_multi, scalar_backend
from dispatch._registry import root_module
from dispatch._tree import tree_flatten, tree_iter, tree_map, tree_unflatten
from dispatch.spec import NATIVE, Alias, Unsupported, alias, kernels, unsupported

__all__ = [
    "NATIVE",
    "Alias",
    "DispatchError",
    "MixedBackendError",
    "RefusedNameError",
    "UnknownFunctionError",
    "Unsupported",
    "UnsupportedError",
    "alias",
    "backend_module",
    "backend_of_type",
    "composed",
    "convert",
    "do",
    "get_lib_fn",
    "get_precision",
    "infer_backend",
    "infer_backend_multi",
    "is_array",
    "kernels",
    "merge_tables",
    "root_module",
    "scalar_backend",
    "tree_flatten",
    "tree_iter",
    "tree_map",
    "tree_unflatten",
    "unsupported",
]


def backend_module(backend: str) -> ModuleType:
    """The module that holds ``backend``'s numpy-like names (its table's root, or the
    module of that name for a backend known only by the module rule), imported.

    >>> backend_module("numpy").__name__
    'numpy'
    """
    from dispatch import _registry

    return importlib.import_module(_registry.root_module(backend))


def merge_tables(*parts: Mapping[str, Any], names: tuple[str, ...] = ()) -> dict[str, Any]:
    """One table from the per-topic tables of a library package.

    Parameters
    ----------
    *parts
        The ``TABLE`` dicts of the package's topic modules, in any order.
    names
        The topic modules' names, in the order of ``parts``, for the error
        message (default: ``topic 1``, ``topic 2``...).

    Returns
    -------
    dict
        Every entry of every part.

    Raises
    ------
    ValueError
        When a name is defined in two parts: a dict update would keep the later
        one silently, which is how a table loses an entry without anyone noticing.
    """
    labels = names or tuple(f"topic {i + 1}" for i in range(len(parts)))
    table: dict[str, Any] = {}
    where: dict[str, str] = {}
    for label, part in zip(labels, parts, strict=True):
        for name, entry in part.items():
            if name in table:
                raise ValueError(
                    f"{name!r} is defined twice: in {where[name]} and {label} "
                    "(a later entry would silently win; keep one)"
                )
            table[name] = entry
            where[name] = label
    return table
