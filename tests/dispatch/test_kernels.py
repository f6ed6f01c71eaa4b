"""An adapter's kernels (``dispatch.engine.kernels``): the rule and the engine's use of it.

The rule: for every call made of arguments of a kernel's exact types, the kernel
gives what its adapter gives (the same type, dtype and values) or raises; ``do``
then answers as the adapter does (its result, or an error of the same type).
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

_BINARY_SAMPLES = (
    {
        0: [_F, np.arange(6).reshape(2, 3), np.array([True, False, True]),
            np.ones(3, np.float32)],
        1: [_F - 1, np.array([[1], [0]]), np.array([False, False, True]), np.arange(3)],
    },
    {},
    {1: [2, -1, 2.5, 0.0]},
)
_INT_SAMPLES = (
    {
        0: [np.arange(6).reshape(2, 3), np.array([True, False, True]), np.arange(3, dtype=np.int8),
            _F],
        1: [np.array([[1], [0]]), np.array([False, True, True]), np.array([0, 9, 70]),
            np.array([-1, 2, 1])],
    },
    {},
    {},
)
_SAMPLES["subtract"] = _BINARY_SAMPLES
for _name in ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
              "bitwise_left_shift", "bitwise_right_shift"):
    _SAMPLES[_name] = _INT_SAMPLES
_SAMPLES["matmul"] = (
    {
        0: [_F, np.arange(6).reshape(3, 2), np.array([[True, False], [True, True]]),
            np.arange(3.0), np.ones(2, np.float32)],
        1: [_F.T, np.arange(6).reshape(2, 3), np.array([[True], [False]]), np.arange(2.0)],
    },
    {},
    {},
)

# the same adapters serve the standard's spellings
_SAMPLES["permute_dims"] = _SAMPLES["transpose"]
_SAMPLES["linalg.matmul"] = _SAMPLES["matmul"]


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
            own_kind, own = _outcome(kernel, args)
            if own_kind == "ok":  # the kernel's own answer, where it gives one, is the adapter's
                assert want_kind == "ok", f"{where}: the kernel answers where the adapter raises"
                assert type(own) is type(want), where
                assert to_np(own).dtype == to_np(want).dtype, where
                np.testing.assert_array_equal(to_np(own), to_np(want), err_msg=where)
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


def test_where_a_kernel_raises_its_adapter_answers() -> None:
    """A kernel may refuse what its adapter computes (torch's subtraction of booleans):
    ``do`` and the autoray face then call the adapter, and its answer or its error
    (not shown as raised while handling the kernel's) is the call's."""
    import dispatch.autoray as ar

    calls = []

    def kernel(a: Any, b: Any) -> Any:
        if a.dtype == bool:
            raise RuntimeError("the library has no boolean kernel")
        return np.subtract(a, b)

    def adapter(a: Any, b: Any) -> Any:
        calls.append(a.dtype)
        if a.dtype == bool and b.dtype == bool:
            raise TypeError("numpy refuses bool - bool")
        return np.subtract(a.astype(np.int64) if a.dtype == bool else a, b)

    kernels(adapter, {(np.ndarray, np.ndarray): kernel})
    ints, flags = np.array([3, 4]), np.array([True, False])
    with restored_registry():
        dispatch.register_function("numpy", "kernel_refusal_probe", adapter)
        for do in (dispatch.do, ar.do):
            calls.clear()
            np.testing.assert_array_equal(do("kernel_refusal_probe", ints, ints), [0, 0])
            assert calls == []  # the kernel answered
            np.testing.assert_array_equal(do("kernel_refusal_probe", flags, ints), [-2, -4])
            assert calls == [np.dtype(bool)]  # it refused: the adapter answered
            with pytest.raises(TypeError, match="numpy refuses") as err:
                do("kernel_refusal_probe", flags, flags)
            assert err.value.__context__ is None
        assert reg.CALLS2["kernel_refusal_probe"][np.ndarray][np.ndarray] is kernel
