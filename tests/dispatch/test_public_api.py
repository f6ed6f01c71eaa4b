"""The public surface: ``__all__`` is exactly what ``dispatch/__init__.py`` defines."""

from __future__ import annotations
import __future__

import inspect
import types

import dispatch


def _public_definitions() -> set[str]:
    return {
        name
        for name, value in vars(dispatch).items()
        if not name.startswith("_")
        and not isinstance(value, (types.ModuleType, __future__._Feature))
    }


def test_all_equals_public_definitions():
    # submodules and autojit are made on first access, so that importing stays light
    assert set(dispatch.__all__) == _public_definitions() | dispatch._ON_ACCESS
    assert len(dispatch.__all__) == len(set(dispatch.__all__))


def test_all_is_sorted():
    assert list(dispatch.__all__) == sorted(dispatch.__all__)


def test_public_functions_have_docstrings():
    for name in dispatch.__all__:
        obj = getattr(dispatch, name)
        if callable(obj) and not inspect.isclass(obj):
            assert (obj.__doc__ or "").strip(), f"{name} has no docstring"


def test_autoray_helper_names_present():
    """The helper names autoray users know, so switching is a one-line import change."""
    names = [
        "do",
        "infer_backend",
        "infer_backend_multi",
        "get_lib_fn",
        "get_namespace",
        "register_function",
        "register_backend",
        "compose",
        "backend_like",
        "set_backend",
        "get_backend",
        "shape",
        "ndim",
        "size",
        "to_numpy",
        "from_numpy",
        "astype",
        "get_dtype_name",
        "to_backend_dtype",
        "get_common_dtype",
        "to_device",
        "is_array",
        "is_scalar",
        "tree_map",
        "tree_flatten",
        "tree_unflatten",
        "tree_iter",
        "convert",
        "supports",
        "coverage",
    ]
    missing = [n for n in names if n not in dispatch.__all__]
    assert not missing


def test_dispatch_numpy_is_importable():
    import numpy as np

    from dispatch import numpy as xp

    assert float(xp.sum(np.arange(4.0))) == 6.0
    assert float(xp.linalg.norm(np.array([3.0, 4.0]))) == 5.0


def test_spec_all():
    import dispatch.spec as spec

    public = {
        n
        for n, v in vars(spec).items()
        if not n.startswith("_")
        and not isinstance(v, (types.ModuleType, __future__._Feature))
        and getattr(v, "__module__", spec.__name__) == spec.__name__
    }
    assert set(spec.__all__) == public
