"""Numpy arrays in parameters that are not array operands.

The multi-argument rule converts numpy constants to the winning library's
arrays; a numpy array given as an axis, a shape, a count or an offset is a list
of ints, not data, and becomes a Python value instead (``NON_ARRAY_PARAMETERS``
in ``translations/_vocabulary.py``). The property: replacing such a Python value by the
equal numpy array changes nothing, on every backend, positionally and by keyword.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from conftest import _usable, to_backend, to_np
from dispatch.translations._vocabulary import NAMES, NON_ARRAY_PARAMETERS

from dispatch import _registry as reg
from dispatch import do
from dispatch._do import _non_array_parameters
from dispatch._resolve import resolve


class P:
    """A parameter value of the example call: given as Python value or numpy array."""

    def __init__(self, value):
        self.value = value


X3 = np.arange(24.0).reshape(2, 3, 4)
X2 = np.arange(12.0).reshape(3, 4)
SQ = np.arange(9.0).reshape(3, 3) / 10 + np.eye(3)
X1 = np.arange(1.0, 5.0)
IDX = np.array([[0, 2, 1, 3], [3, 3, 0, 1], [1, 0, 0, 2]])

REDUCTIONS = (
    "all amax amin any argmax argmin average count_nonzero cumprod cumsum max mean median "
    "min nanargmax nanargmin nancumsum nanmax nanmean nanmin nanprod nansum prod ptp sum "
    "std var nanstd nanvar flip expand_dims squeeze unique compress cross repeat"
).split()

# one example call per name whose numpy signature has a non-array parameter after
# its array operands; ``P`` marks the parameters the test passes as numpy arrays
CASES: dict[str, tuple] = {
    **{n: ((X3, P(1)), {}) for n in REDUCTIONS},
    "squeeze": ((X3[:, :1], P(1)), {}),
    "unique": ((np.array([[1, 2], [1, 2], [0, 3]]), P(0)), {}),
    "compress": ((np.array([True, False, True]), X3, P(1)), {}),
    "cross": ((X2[:, :3], X2[::-1, :3].copy(), P(1)), {}),
    "repeat": ((X2, 2, P(1)), {}),
    "std": ((X3, P(1), None, None, P(1)), {}),
    "var": ((X3, P(1), None, None, P(1)), {}),
    "nanstd": ((X3, P(1), None, None, P(1)), {}),
    "nanvar": ((X3, P(1), None, None, P(1)), {}),
    "quantile": ((X3, 0.5, P(1)), {}),
    "nanquantile": ((X3, 0.5, P(1)), {}),
    "percentile": ((X3, 50.0, P(1)), {}),
    "nanpercentile": ((X3, 50.0, P(1)), {}),
    "transpose": ((X3, P((2, 0, 1))), {}),
    "reshape": ((X3, P((4, 6))), {}),
    "moveaxis": ((X3, P((0, 1)), P((2, 0))), {}),
    "swapaxes": ((X3, P(0), P(2)), {}),
    "split": ((X3, P((1,)), P(1)), {}),
    "array_split": ((X3, P(2), P(2)), {}),
    "hsplit": ((X3, P((1, 2))), {}),
    "vsplit": ((X3, P(2)), {}),
    "tile": ((X2, P((2, 1))), {}),
    "roll": ((X3, P((1, 2)), P((0, 2))), {}),
    "rot90": ((X3, P(1), P((1, 2))), {}),
    "pad": ((X2, P(((1, 0), (0, 2)))), {}),
    "broadcast_to": ((X1, P((3, 4))), {}),
    "diagonal": ((X3, P(1), P(1), P(2)), {}),
    "trace": ((X3, P(0), P(1), P(2)), {}),
    "take_along_axis": ((X2, IDX, P(1)), {}),
    "take": ((X2, np.array([0, 2]), P(1)), {}),
    "tensordot": ((X3, np.arange(24.0).reshape(3, 4, 2), P(((1, 2), (0, 1)))), {}),
    "diff": ((X3, P(2), P(2)), {}),
    "diag": ((SQ, P(1)), {}),
    "diagflat": ((X1, P(1)), {}),
    "tril": ((SQ, P(-1)), {}),
    "triu": ((SQ, P(1)), {}),
    "concatenate": (([X2, X2], P(1)), {}),
    "stack": (([X2, X2], P(1)), {}),
    "bincount": ((np.array([0, 1, 1, 3]), None, P(6)), {}),
    "round": ((X2 / 7, P(2)), {}),
    "linalg.matrix_power": ((SQ, P(3)), {}),
    "linalg.norm": ((X2, P(1), P(1)), {}),
    "linalg.tensorinv": ((np.eye(4).reshape(4, 2, 2) + 0.1, P(1)), {}),
    "linalg.tensorsolve": ((np.eye(4).reshape(2, 2, 2, 2) + 0.1, X2[:2, :2], P((0, 1))), {}),
    "scipy.special.logsumexp": ((X3, P(1)), {}),
    "scipy.special.softmax": ((X3, P(1)), {}),
    "scipy.special.log_softmax": ((X3, P(1)), {}),
    **{f"fft.{n}": ((X3, P(4), P(1)), {}) for n in "fft ifft rfft ihfft hfft irfft".split()},
    **{f"fft.{n}": ((X3, P((2, 4)), P((0, 2))), {}) for n in "fft2 ifft2 fftn ifftn".split()},
    **{f"fft.{n}": ((X3, P((2, 4)), P((0, 2))), {}) for n in "rfft2 irfft2 rfftn irfftn".split()},
    "fft.fftshift": ((X3, P((0, 2))), {}),
    "fft.ifftshift": ((X3, P((0, 2))), {}),
}
# parameters whose value is a string or a Python object, not a list of ints
STRING_PARAMETERS = frozenset({"mode", "side", "kind", "order"})
# names with no array operand before the parameter: run with like=, in test_creation
CREATION = {
    "zeros": ((P((2, 3)),), {}),
    "ones": ((P((2, 3)),), {}),
    "empty": ((P((2, 3)),), {}),
    "full": ((P((2, 3)), 1.5), {}),
    "eye": ((P(3), P(4), P(1)), {}),
    "identity": ((P(3),), {}),
    "tri": ((P(3), P(4), P(1)), {}),
    "linspace": ((0.0, 1.0, P(5)), {}),
    "logspace": ((0.0, 1.0, P(5)), {}),
    "geomspace": ((1.0, 8.0, P(4)), {}),
    "fft.fftfreq": ((P(5),), {}),
    "fft.rfftfreq": ((P(5),), {}),
}


def _has_size(name: str) -> bool:
    try:
        return "size" in inspect.signature(resolve("numpy", name)).parameters
    except Exception:
        return False


RANDOM = sorted(n for n in NAMES if n.startswith("random.") and _has_size(n))


def _walked_names() -> set[str]:
    """Vocabulary names with a non-array, non-string parameter at a known position."""
    out = set()
    for name in NAMES:
        positions, _ = _non_array_parameters(name)
        try:
            params = list(inspect.signature(resolve("numpy", name)).parameters)
        except Exception:
            continue
        if any(params[i] not in STRING_PARAMETERS for i in positions):
            out.add(name)
    return out


def test_every_name_with_such_a_parameter_has_an_example():
    missing = _walked_names() - set(CASES) - set(CREATION) - set(RANDOM)
    # string parameters only (order=, mode=, side=, kind=)
    missing -= {"asarray", "copy", "to_numpy", "ravel", "searchsorted", "choose", "convolve"}
    missing -= {"correlate", "sort", "argsort", "linalg.qr"}
    # a draw (its int ``x`` and ``axis`` are test_random.py's test_permutation)
    missing -= {"random.permutation"}
    # ``shape`` comes after numpy's ``order`` and ``subok``, which the libraries lack:
    # test_like_routines_take_a_numpy_shape passes it by keyword
    missing -= {"empty_like", "ones_like", "zeros_like", "full_like"}
    assert not missing, sorted(missing)


def _call(name: str, case: tuple, backend: str, as_numpy: bool, keyword: bool, like=None):
    args, kwargs = case
    sig_names = []
    try:
        sig_names = list(inspect.signature(resolve("numpy", name)).parameters)
    except Exception:
        keyword = False
    out_args, out_kwargs = [], dict(kwargs)
    for i, a in enumerate(args):
        if isinstance(a, P):
            v = np.array(a.value) if as_numpy else a.value
            if keyword and i > 0:
                out_kwargs[sig_names[i]] = v
                continue
            out_args.append(v)
        elif out_kwargs.keys() - kwargs.keys():  # after a keyword, the rest by keyword too
            out_kwargs[sig_names[i]] = to_backend(a, backend)
        else:
            out_args.append(to_backend(a, backend) if like is None else a)
    try:
        return ("ok", to_np(do(name, *out_args, like=like, **out_kwargs)))
    except Exception as err:
        return ("error", type(err))


def _same(a, b) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] == "error":
        return a[1] is b[1]
    x, y = a[1], b[1]
    if isinstance(x, (list, tuple)):
        return len(x) == len(y) and all(
            _same(("ok", u), ("ok", v)) for u, v in zip(x, y, strict=True)
        )
    return np.shape(x) == np.shape(y) and np.allclose(x, y, equal_nan=True)


WALK_BACKENDS = ["torch", "jax", "tensorflow", "dask", "sparse"]


@pytest.mark.parametrize("keyword", [False, True], ids=["positional", "keyword"])
@pytest.mark.parametrize("backend", WALK_BACKENDS)
def test_numpy_array_as_parameter_changes_nothing(backend, keyword):
    """Walk every example: the numpy-array form gives what the Python-value form gives
    (a result equal to numpy's, or the same error type), on a cold and a warm cache."""
    if not _usable(backend if backend != "dask" else "dask.array"):
        pytest.skip(f"{backend} is not installed")
    bad, checked = [], 0
    for name, case in sorted(CASES.items()):
        reg.clear_caches()
        want = _call(name, case, backend, as_numpy=False, keyword=keyword)
        for _ in range(2):  # cold, then warm
            got = _call(name, case, backend, as_numpy=True, keyword=keyword)
            if not _same(got, want):
                bad.append((name, got, want))
        if want[0] == "ok":
            checked += 1
            ref = _call(name, case, "numpy", as_numpy=False, keyword=keyword)
            if not _same(ref, want):
                bad.append((name, "numpy differs", ref, want))
    assert not bad, bad
    assert checked >= len(CASES) // 2  # most examples run (the others are known gaps)


@pytest.mark.parametrize("backend", WALK_BACKENDS)
def test_numpy_array_as_parameter_of_creation_routines(backend):
    if not _usable(backend if backend != "dask" else "dask.array"):
        pytest.skip(f"{backend} is not installed")
    bad = []
    for name, case in sorted(CREATION.items()):
        want = _call(name, case, backend, as_numpy=False, keyword=False, like=backend)
        got = _call(name, case, backend, as_numpy=True, keyword=False, like=backend)
        ref = _call(name, case, "numpy", as_numpy=False, keyword=False, like="numpy")
        if name == "empty":  # the values are whatever memory held: shapes only
            got, want, ref = (tuple((o[0], np.zeros(np.shape(o[1])))) for o in (got, want, ref))
        if not (_same(got, want) and (want[0] == "error" or _same(want, ref))):
            bad.append((name, got, want, ref))
    for name in RANDOM:
        sized = {"size": P((2, 3))}
        args = {"random.choice": (5,), "random.integers": (0, 5), "random.randint": (0, 5)}
        args.update({"random.beta": (2.0, 3.0), "random.binomial": (5, 0.5)})
        args.update({"random.gamma": (2.0,), "random.poisson": (3.0,)})
        case = (args.get(name, ()), {})
        pos = _call(name, case, backend, as_numpy=False, keyword=False, like=backend)
        if pos[0] != "ok":
            continue
        got = do(name, *case[0], size=np.array(sized["size"].value), like=backend)
        if tuple(np.shape(to_np(got))) != (2, 3):
            bad.append((name, np.shape(to_np(got))))
    assert not bad, bad


def test_transpose_with_numpy_axes_on_torch():
    """The case that motivated the rule: torch's permute takes no tensor of axes."""
    if not _usable("torch"):
        pytest.skip("torch is not installed")
    import torch

    t = torch.arange(6.0).reshape(2, 3)
    out = do("transpose", t, np.array([1, 0]))
    assert isinstance(out, torch.Tensor)
    np.testing.assert_array_equal(out.numpy(), np.arange(6.0).reshape(2, 3).T)
    out = do("transpose", t, axes=np.array([1, 0]))
    np.testing.assert_array_equal(out.numpy(), np.arange(6.0).reshape(2, 3).T)


def test_array_operands_of_the_same_names_are_still_converted():
    """``repeats`` and ``random.gamma``'s ``shape`` are array operands: not turned
    into tuples; the facts name only parameters that never hold data."""
    assert "repeats" not in NON_ARRAY_PARAMETERS
    positions, keywords = _non_array_parameters("random.gamma")
    assert "shape" not in keywords
    assert 0 not in positions
    if not _usable("torch"):
        pytest.skip("torch is not installed")
    import torch

    t = torch.arange(3.0)
    out = do("repeat", t, np.array([1, 2, 0]))
    np.testing.assert_array_equal(out.numpy(), np.repeat(np.arange(3.0), [1, 2, 0]))


@pytest.mark.parametrize("backend", WALK_BACKENDS)
@pytest.mark.parametrize("name", ["empty_like", "ones_like", "zeros_like", "full_like"])
def test_like_routines_take_a_numpy_shape(name, backend):
    if not _usable(backend if backend != "dask" else "dask.array"):
        pytest.skip(f"{backend} is not installed")
    x = to_backend(X2, backend)
    extra = (2.5,) if name == "full_like" else ()
    try:
        want = do(name, x, *extra, shape=(2, 5))
    except Exception as err:
        with pytest.raises(type(err)):
            do(name, x, *extra, shape=np.array([2, 5]))
        return
    got = do(name, x, *extra, shape=np.array([2, 5]))
    assert type(got) is type(want)
    assert np.shape(to_np(got)) == (2, 5)
    if name != "empty_like":
        np.testing.assert_array_equal(to_np(got), to_np(want))


@pytest.mark.parametrize("keyword", [False, True], ids=["positional", "keyword"])
@pytest.mark.parametrize("name", ["stack", "concatenate"])
def test_numpy_array_as_parameter_of_a_nested_sequence_call(name, keyword):
    """A sequence holding a sequence (``[d, [[5, 6], [7, 8]]]``) dispatches per call on
    the types one level down; there too a numpy array given as ``axis`` becomes a
    Python value. dask, which takes numpy constants as they are, refuses a numpy array
    as ``stack``'s axis."""
    if not _usable("dask"):
        pytest.skip("dask is not installed")
    import dask.array as da

    d = da.from_array(X2[:2, :2])
    seq = [d, [[5.0, 6.0], [7.0, 8.0]]]
    axis = np.array(1)
    expected = getattr(np, name)([X2[:2, :2], np.array(seq[1])], axis=1)
    for _ in range(2):
        out = do(name, seq, axis=axis) if keyword else do(name, seq, axis)
    assert isinstance(out, da.Array)
    np.testing.assert_array_equal(out.compute(), expected)
