"""An adapter's kernels (``dispatch.engine.kernels``): the rule and the engine's use of it.

The rule: for every call made of arguments of a kernel's exact types, the kernel
gives what its adapter gives (the same type, dtype and values, or the same error).
The walk below checks it for every kernel of every installed table, with argument
values of each name's own kind (valid and invalid ones); a table that marks a new
name must give it samples here, or the walk fails.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np
import pytest

import dispatch
from dispatch import _registry as reg
from dispatch.engine import kernels
from dispatch.spec import _KERNELS_ATTRIBUTE, _kernel_for
from tests.conftest import VOCABULARY_BACKENDS, _usable, backend_array, restored_registry, to_np

# name -> (the arrays passed where a kernel takes the library's array, per position;
#          the Python values passed where it takes a tuple or list, per position;
#          the Python numbers passed where it takes a number, per position)
_F = np.arange(6.0).reshape(2, 3)
_SAMPLES: dict[str, tuple[dict[int, list], dict[int, list], dict[int, list]]] = {
    "reshape": (
        {0: [_F, np.arange(6).reshape(3, 2), np.arange(6.0), np.ones((1, 6), bool)]},
        {1: [(3, 2), (-1,), (6,), (2, -1), (4,), (6, 1, 1), ()]},
        {},
    ),
    "transpose": (
        {0: [_F, np.arange(24).reshape(2, 3, 4), np.float32(2.5) * np.ones((4,))]},
        {1: [(1, 0), (0, 1), (2, 0, 1), (-1, 0), (0,), (0, 0), (0, 1, 2, 3)]},
        {},
    ),
    "where": (
        {
            0: [_F > 2, np.array([0.0, np.nan, 1.0]), np.array([[True], [False]])],
            1: [_F, np.ones(3, np.float32), np.arange(3)],
            2: [-_F, np.zeros((2, 1), np.int32), np.array(1.5)],
        },
        {},
        {1: [1, 2.5, True], 2: [0, -1.5, False]},
    ),
}

# the same adapters serve the standard's spelling
_SAMPLES["permute_dims"] = _SAMPLES["transpose"]


def _marked(backend: str) -> list[tuple[str, Any, tuple[type, ...], Any]]:
    """(name, adapter, types, kernel) of every kernel in ``backend``'s table."""
    found = []
    for name, entry in reg.record(backend).table.items():
        mark = getattr(entry, _KERNELS_ATTRIBUTE, None)
        if callable(entry) and mark is not None and mark[0] is entry:
            found.extend((name, entry, types, k) for types, k in mark[1].items())
    return found


def _candidates(name: str, backend: str, types: tuple[type, ...]) -> list[tuple]:
    arrays, sequences, numbers = _SAMPLES[name]
    per_position = []
    for i, t in enumerate(types):
        if issubclass(t, (tuple, list)):  # torch.Size too
            values = [t(v) for v in sequences.get(i, [])]
        elif t in (bool, int, float):
            values = [v for v in numbers.get(i, []) if type(v) is t]
        else:
            values = [a for x in arrays.get(i, []) if type(a := backend_array(x, backend)) is t]
        per_position.append(values)
    return list(itertools.product(*per_position))


def _outcome(fn: Any, args: tuple) -> tuple[str, Any]:
    try:
        return "ok", fn(*args)
    except Exception as err:  # the error's type is what the rule compares
        return "error", err


def _cached(name: str, args: tuple) -> Any:
    ts = [type(a) for a in args]
    if len(ts) == 1:
        return reg.CALLS1[name][ts[0]]
    if len(ts) == 2:
        return reg.CALLS2[name][ts[0]][ts[1]]
    key = (name, *ts)
    return reg.CALLS[key]


@pytest.mark.parametrize("backend", VOCABULARY_BACKENDS)
def test_every_kernel_gives_what_its_adapter_gives(backend: str) -> None:
    if not _usable(backend):
        pytest.skip(f"{backend} is not installed")
    marked = _marked(backend)
    checked = 0
    for name, adapter, types, kernel in marked:
        assert name in _SAMPLES, f"{backend} marks kernels for {name!r}: give it samples here"
        calls = _candidates(name, backend, types)
        assert calls, f"{backend}/{name}: no sample call of types {types}"
        for args in calls:
            kind, got = _outcome(functools.partial(dispatch.do, name), args)
            assert _cached(name, args) is kernel, (backend, name, types)
            want_kind, want = _outcome(adapter, args)
            where = f"{backend}/{name}{tuple(getattr(a, 'shape', a) for a in args)}"
            assert kind == want_kind, f"{where}: do {kind} ({got!r}), adapter {want_kind}"
            if kind == "error":
                assert type(got) is type(want), f"{where}: {got!r} vs {want!r}"
            else:
                assert type(got) is type(want), where
                g, w = to_np(got), to_np(want)
                assert g.dtype == w.dtype, where
                assert g.shape == w.shape, where
                np.testing.assert_array_equal(g, w, err_msg=where)
            checked += 1
    # the libraries that mark kernels today; a table that drops its marks loses speed
    if backend in ("torch", "mlx", "paddle", "autograd"):
        assert checked > 0, f"{backend}: no kernel was checked"


def test_a_registered_adapter_gets_its_kernel_for_its_types_only() -> None:
    calls = []

    def adapter(a: Any, axes: Any = None) -> Any:
        calls.append(axes)
        return np.transpose(a, axes)

    marked = kernels(adapter, {(np.ndarray, tuple): np.transpose})
    assert marked is adapter
    x = np.arange(6.0).reshape(2, 3)
    with restored_registry():
        dispatch.register_function("numpy", "kernels_probe", adapter)
        # the exact types: the kernel, cached, and the adapter is not called
        assert dispatch.do("kernels_probe", x, (1, 0)).shape == (3, 2)
        assert reg.CALLS2["kernels_probe"][np.ndarray][tuple] is np.transpose
        assert calls == []
        # other types, a keyword, a call with a constant to convert: the adapter
        assert dispatch.do("kernels_probe", x, [1, 0]).shape == (3, 2)
        assert dispatch.do("kernels_probe", x, axes=(1, 0)).shape == (3, 2)
        assert dispatch.do("kernels_probe", x).shape == (3, 2)
        assert calls == [[1, 0], (1, 0), None]


def test_a_wrapper_does_not_inherit_the_kernels_of_what_it_wraps() -> None:
    def adapter(a: Any, axes: Any = None) -> Any:
        return np.transpose(a, axes)

    kernels(adapter, {(np.ndarray, tuple): np.transpose})

    @functools.wraps(adapter)  # copies __dict__, the mark included
    def wrapper(a: Any, axes: Any = None) -> Any:
        return adapter(a, axes) + 1

    assert _kernel_for(adapter, (np.ndarray, tuple)) is np.transpose
    assert _kernel_for(wrapper, (np.ndarray, tuple)) is wrapper
    with restored_registry():
        dispatch.register_function("numpy", "kernels_probe", wrapper)
        x = np.zeros((2, 3))
        assert (dispatch.do("kernels_probe", x, (1, 0)) == 1).all()


@pytest.mark.parametrize(
    ("by_types", "message"),
    [({np.ndarray: np.sum}, "tuple of types"), ({(np.ndarray,): 3}, "not callable"),
     ({("x",): np.sum}, "tuple of types")],
)
def test_a_malformed_kernel_table_is_refused(by_types: dict, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        kernels(lambda a: a, by_types)
