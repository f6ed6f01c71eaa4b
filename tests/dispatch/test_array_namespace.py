"""array_namespace: the array API standard's names, signatures and semantics on every
backend, checked against numpy (whose 2.x namespace follows the standard) and the
standard's own tables written out here.

The official suite (array-api-tests) runs in benchmarks/array_api_conformance.py;
these tests hold the rules it relies on, so that a change that breaks one fails
here without the suite.
"""

from __future__ import annotations

import inspect
import itertools
import math

import numpy as np
import pytest
from conftest import to_np
from dispatch.translations import _array_api as spec

import dispatch

LIBRARIES = ["numpy", "torch", "jax", "tensorflow", "dask"]

# The standard's 2025.12 names (written from the specification's function list,
# independent of the namespace's own tables).
STANDARD = """
abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift
bitwise_invert bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos
cosh divide equal exp expm1 floor floor_divide greater greater_equal hypot imag isfinite
isinf isnan less less_equal log log1p log2 log10 logaddexp logical_and logical_not
logical_or logical_xor maximum minimum multiply negative nextafter not_equal positive pow
real reciprocal remainder round sign signbit sin sinh square sqrt subtract tan tanh trunc
arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones
ones_like tril triu zeros zeros_like astype can_cast finfo iinfo isdtype result_type
take take_along_axis matmul matrix_transpose tensordot vecdot broadcast_arrays
broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape roll squeeze
stack tile unstack argmax argmin count_nonzero nonzero searchsorted where unique_all
unique_counts unique_inverse unique_values argsort sort cumulative_sum cumulative_prod
max mean min prod std sum var all any diff __array_namespace_info__
broadcast_shapes isin
""".split()
LINALG = """cholesky cross det diagonal eig eigh eigvals eigvalsh inv matmul matrix_norm
matrix_power matrix_rank matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace
vecdot vector_norm""".split()
FFT = """fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift
ifftshift""".split()
DTYPES = """bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64
complex64 complex128""".split()


@pytest.fixture(params=LIBRARIES)
def xp(request):
    pytest.importorskip({"tensorflow": "tensorflow", "dask": "dask.array"}.get(
        request.param, request.param))
    return dispatch.array_namespace(request.param)


def test_every_standard_name_is_a_member():
    """Every name of the standard has a member (whether the library computes it is
    the conformance suite's question)."""
    members = set(spec.FACTORIES)
    missing = [n for n in STANDARD if n not in members]
    missing += [f"linalg.{n}" for n in LINALG if f"linalg.{n}" not in members]
    missing += [f"fft.{n}" for n in FFT if f"fft.{n}" not in members]
    assert not missing


def test_every_member_is_a_standard_name():
    allowed = set(STANDARD) | {f"linalg.{n}" for n in LINALG} | {f"fft.{n}" for n in FFT}
    assert set(spec.FACTORIES) <= allowed


def test_version_and_name(xp):
    assert xp.__array_api_version__ == "2025.12"
    assert isinstance(xp.__name__, str)
    # every published version gets the newest namespace, as array-api-compat's does
    for version in ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12"):
        assert dispatch.array_namespace(np.zeros(1), api_version=version).__name__ == (
            dispatch.array_namespace("numpy").__name__
        )
    with pytest.raises(ValueError, match=r"2025\.12"):
        dispatch.array_namespace(np.zeros(1), api_version="2020.10")


@pytest.mark.parametrize("name", ["no_such_function", "_private", "einsum", "arccos",
                                  "concatenate", "newaxis_"])
def test_names_outside_the_standard_raise_attribute_error(xp, name):
    """numpy's own names (``arccos``, ``concatenate``) are not the standard's."""
    assert not hasattr(xp, name)
    with pytest.raises(AttributeError):
        getattr(xp, name)


def test_the_namespace_is_read_only(xp):
    with pytest.raises(AttributeError):
        xp.sum = None


def test_constants(xp):
    assert (xp.e, xp.pi, xp.inf) == (np.e, np.pi, np.inf)
    assert np.isnan(xp.nan)
    assert xp.newaxis is None


def test_dtypes_are_the_librarys_own_and_creation_keeps_them(xp):
    offered = [n for n in DTYPES if hasattr(xp, n)]
    assert {"bool", "int8", "int32", "uint8", "float32", "complex64"} <= set(offered)
    if "float64" not in offered:  # jax outside its 64-bit mode computes in 32 bits
        assert "jax" in xp.__name__
        assert xp.__array_namespace_info__().default_dtypes()["real floating"] == xp.float32
    info = xp.__array_namespace_info__()
    assert set(info.dtypes()) == set(offered)
    for n in offered:
        dt = getattr(xp, n)
        assert not callable(dt) or isinstance(dt, type)
        assert info.dtypes()[n] == dt
        x = xp.asarray([0, 1], dtype=dt)
        assert x.dtype == dt, n
        assert xp.isdtype(dt, "numeric") == (n != "bool")
    assert set(info.dtypes(kind="real floating")) == {"float32", "float64"}
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64",
                                                                    "complex128"}


def test_default_dtypes_agree_across_creation_routines(xp):
    """``asarray(1.0)``, ``ones``, ``arange(3.0)``, ``linspace``, ``full(., 1.0)``,
    ``eye`` and ``empty`` give one default float; integers one default int."""
    d = xp.__array_namespace_info__().default_dtypes()
    real, integral = d["real floating"], d["integral"]
    for made in (xp.asarray(1.0), xp.asarray([[1.0, 2]]), xp.ones(2), xp.zeros((1, 2)),
                 xp.empty(3), xp.arange(3.0), xp.arange(0, 1, 0.5), xp.linspace(0, 1, 3),
                 xp.full(2, 1.0), xp.eye(2), xp.fft.fftfreq(4)):
        assert made.dtype == real
    for made in (xp.asarray(1), xp.asarray([1, 2]), xp.arange(3), xp.full((2,), 7)):
        assert made.dtype == integral
    assert xp.asarray(True).dtype == xp.bool
    assert xp.asarray(1j).dtype == d["complex floating"]
    assert xp.full(2, 1 + 1j).dtype == d["complex floating"]


# -- type promotion ---------------------------------------------------------------

_NUMERIC = [n for n in DTYPES if n != "bool"]


def _standard_defines(a: str, b: str) -> bool:
    kinds = {a[0] if a[0] in "iuc" else "f", b[0] if b[0] in "iuc" else "f"}
    if "bool" in (a, b):
        return a == b
    if kinds <= {"i", "u"}:
        return not ({a, b} & {"uint64"} and kinds == {"i", "u"})
    return kinds <= {"f", "c"}


@pytest.mark.parametrize(("a", "b"), list(itertools.product(DTYPES, DTYPES)))
def test_promotion_table_is_numpys_where_the_standard_defines_one(a, b):
    """Where the standard defines a result (same-kind pairs, mixed signedness below
    64 bits), it is numpy's; elsewhere ``promote`` raises TypeError."""
    if _standard_defines(a, b):
        assert spec.promote(a, b) == np.promote_types(a, b).name
    else:
        with pytest.raises(TypeError):
            spec.promote(a, b)


@pytest.mark.parametrize("library", ["torch", "tensorflow", "jax", "numpy", "dask"])
def test_binary_functions_promote_by_the_standard_with_0d_arrays_too(library):
    """torch keeps a 1-d float32 with a 0-d float64 in float32; the standard (and
    numpy) say float64: the namespace promotes first, for each pair it defines."""
    pytest.importorskip({"dask": "dask.array"}.get(library, library))
    xp = dispatch.array_namespace(library)
    # torch has the dtypes uint16, uint32 and uint64 but no arithmetic on them
    names = [n for n in _NUMERIC if hasattr(xp, n)
             and not (library == "torch" and n in ("uint16", "uint32", "uint64"))]
    for a, b in itertools.product(names, names):
        if not _standard_defines(a, b):
            continue
        x1 = xp.asarray([1, 2], dtype=getattr(xp, a))
        x2 = xp.asarray(1, dtype=getattr(xp, b))  # 0-d
        want = np.promote_types(a, b).name
        outs = [xp.add(x1, x2), xp.multiply(x2, x1)]
        if "complex" not in want:  # maximum is defined on real numbers
            outs.append(xp.maximum(x1, x2))
        for got in outs:
            assert spec.dtype_name(got.dtype) == want, (a, b)


def test_result_type_and_can_cast(xp):
    assert xp.result_type(xp.int8, xp.uint8) == xp.int16
    assert xp.result_type(xp.float32, xp.asarray(1.0, dtype=xp.float64)) == xp.float64
    assert xp.result_type(xp.float32, 1.0) == xp.float32
    assert xp.result_type(xp.float32, 1j) == xp.complex64
    # the standard has no answer across kinds: the library's own (as
    # array-api-compat defers to it), a floating dtype
    assert xp.isdtype(xp.result_type(xp.int32, 1.5), "real floating")
    assert xp.result_type(xp.int32, xp.float64) == xp.float64
    assert xp.can_cast(xp.int8, xp.int16)
    assert not xp.can_cast(xp.int16, xp.int8)
    assert not xp.can_cast(xp.float64, xp.int64)
    assert xp.can_cast(xp.bool, xp.bool)
    assert not xp.can_cast(xp.bool, xp.int8)


@pytest.mark.parametrize("library", ["numpy", "torch"])
def test_a_dtype_beyond_the_standards_gets_the_librarys_own_answers(library):
    """float16 (and numpy's longdouble) are not the standard's, but the libraries have
    them and code passes them: the namespace answers as the library does, as
    array-api-compat does (scipy's bracket and signal tests found every such call
    refused with "not one of the array API's dtypes")."""
    lib = pytest.importorskip(library)
    xp = dispatch.array_namespace(library)
    half = xp.asarray([1.0, 2.0], dtype=lib.float16)  # the namespace has no float16
    assert xp.result_type(half, 2.0) == half.dtype
    assert xp.result_type(half, xp.float32) == xp.float32  # the library's promotion
    assert xp.sum(half).dtype == half.dtype  # a float keeps its dtype in a sum
    assert xp.finfo(half).bits == 16
    if library == "numpy":
        wide = np.ones(2, dtype=np.longdouble)
        assert xp.result_type(wide, np.ones(2)) == np.longdouble
        assert xp.sum(wide).dtype == np.longdouble


# -- adapters over numpy's semantics ------------------------------------------------

RNG = np.random.default_rng(7)


def test_sort_and_argsort_descending_stable(xp):
    """Descending and stable: equal keys keep their order (numpy's stable sort of
    the negated keys is the reference)."""
    keys = RNG.integers(0, 4, size=(3, 11))
    x = xp.asarray(keys.astype(np.int64))
    for axis in (-1, 0):
        want_idx = np.argsort(-keys, axis=axis, kind="stable")
        got_idx = to_np(xp.argsort(x, axis=axis, descending=True, stable=True))
        np.testing.assert_array_equal(got_idx, want_idx)
        np.testing.assert_array_equal(
            to_np(xp.sort(x, axis=axis, descending=True)), -np.sort(-keys, axis=axis)
        )
        np.testing.assert_array_equal(to_np(xp.argsort(x, axis=axis)),
                                      np.argsort(keys, axis=axis, kind="stable"))


@pytest.mark.parametrize("correction", [0, 1, 2.5])
def test_var_and_std_correction(xp, correction):
    a = RNG.normal(size=(4, 6))
    x = xp.asarray(a)
    np.testing.assert_allclose(to_np(xp.var(x, axis=1, correction=correction)),
                               np.var(a, axis=1, ddof=correction), rtol=1e-5)
    np.testing.assert_allclose(to_np(xp.std(x, correction=correction, keepdims=True)),
                               np.std(a, ddof=correction, keepdims=True), rtol=1e-5)


def test_sum_and_prod_of_integers_use_the_default_integer(xp):
    integral = xp.__array_namespace_info__().default_dtypes()["integral"]
    x = xp.asarray([100, 100, 100], dtype=xp.int8)
    assert xp.sum(x).dtype == integral
    assert int(to_np(xp.sum(x))) == 300
    assert xp.prod(x).dtype == integral
    assert int(to_np(xp.prod(x))) == 10**6
    assert xp.cumulative_sum(x).dtype == integral
    f = xp.asarray([1.0, 2.0], dtype=xp.float32)
    assert xp.sum(f).dtype == xp.float32
    assert xp.sum(x, dtype=xp.int16).dtype == xp.int16


def test_concat_stack_and_where_promote(xp):
    a = xp.asarray([1, 2], dtype=xp.int8)
    b = xp.asarray([3], dtype=xp.int32)
    out = xp.concat([a, b])
    assert out.dtype == xp.int32
    np.testing.assert_array_equal(to_np(out), [1, 2, 3])
    m = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(to_np(xp.concat([m, m], axis=None)), [1, 2, 3, 4] * 2)
    w = xp.where(xp.asarray([True, False]), a, xp.asarray([9, 9], dtype=xp.int16))
    assert w.dtype == xp.int16


def test_clip_keeps_the_dtype_and_accepts_arrays(xp):
    x = xp.asarray([1, 5, 9], dtype=xp.int16)
    got = xp.clip(x, 2, 6)
    assert got.dtype == xp.int16
    np.testing.assert_array_equal(to_np(got), [2, 5, 6])
    f = xp.asarray([0.5, 2.5])
    np.testing.assert_array_equal(
        to_np(xp.clip(f, max=xp.asarray([1.0, 2.0]))), [0.5, 2.0])
    np.testing.assert_array_equal(to_np(xp.clip(f)), [0.5, 2.5])


def test_rounding_integers_keeps_them(xp):
    x = xp.asarray([-3, 4], dtype=xp.int32)
    for f in (xp.ceil, xp.floor, xp.trunc, xp.round):
        out = f(x)
        assert out.dtype == xp.int32
        np.testing.assert_array_equal(to_np(out), [-3, 4])


def test_linalg_results_are_named(xp):
    a = RNG.normal(size=(3, 3))
    s = a @ a.T + 3 * np.eye(3)
    x = xp.asarray(s)
    if hasattr(xp.linalg, "eigh"):  # dask has no eigensolver: no member, as for any name
        e = xp.linalg.eigh(x)
        np.testing.assert_allclose(to_np(e.eigenvalues), np.linalg.eigvalsh(s), rtol=1e-4)
    q = xp.linalg.qr(x)
    np.testing.assert_allclose(to_np(q.Q) @ to_np(q.R), s, rtol=1e-4, atol=1e-4)
    u = xp.linalg.svd(x, full_matrices=False)
    np.testing.assert_allclose(to_np(u.S), np.linalg.svd(s, compute_uv=False), rtol=1e-4)
    d = xp.linalg.slogdet(x)
    np.testing.assert_allclose(to_np(d.logabsdet), np.linalg.slogdet(s).logabsdet, rtol=1e-4)
    up = xp.linalg.cholesky(x, upper=True)
    np.testing.assert_allclose(to_np(up), np.linalg.cholesky(s).T, rtol=1e-4, atol=1e-6)


def test_matrix_rank_and_pinv_take_rtol(xp):
    a = np.diag([1.0, 1e-3, 1e-9])
    x = xp.asarray(a)
    assert int(to_np(xp.linalg.matrix_rank(x, rtol=1e-2))) == 1
    assert int(to_np(xp.linalg.matrix_rank(x, rtol=1e-6))) == 2
    np.testing.assert_allclose(to_np(xp.linalg.pinv(x, rtol=1e-2)), np.diag([1.0, 0, 0]),
                               atol=1e-6)


SIGNATURES = {
    # name: the parameters a caller may pass by keyword, as the standard names them
    "sort": {"axis", "descending", "stable"},
    "var": {"axis", "correction", "keepdims"},
    "sum": {"axis", "dtype", "keepdims"},
    "asarray": {"dtype", "device", "copy"},
    "arange": {"stop", "step", "dtype", "device"},
    "reshape": {"shape", "copy"},
    "squeeze": {"axis"},
    "clip": {"min", "max"},
    "astype": {"copy", "device"},
    "full_like": {"fill_value", "dtype", "device"},
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signatures_name_the_standards_keywords(name):
    sig = inspect.signature(getattr(dispatch.array_namespace("numpy"), name))
    keywords = {p.name for p in sig.parameters.values()
                if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    assert SIGNATURES[name] <= keywords
    first = next(iter(sig.parameters.values()))
    assert first.kind == first.POSITIONAL_ONLY


def test_array_namespace_refuses_mixed_libraries_and_nothing():
    torch = pytest.importorskip("torch")
    with pytest.raises(dispatch.MixedBackendError, match="several libraries") as err:
        dispatch.array_namespace(np.zeros(1), torch.zeros(1))
    assert isinstance(err.value, TypeError)  # what array-api-compat raises, and code catches
    with pytest.raises(TypeError, match="at least one array"):
        dispatch.array_namespace(1.0, None)
    assert dispatch.array_namespace(np.zeros(1), 2.0, None) is dispatch.array_namespace("numpy")


def test_do_keeps_numpys_names_and_semantics():
    """The standard's face does not change ``do``: numpy's names and numpy's
    ``sort`` still answer through ``do`` and ``get_namespace``."""
    a = np.array([3.0, 1.0, 2.0])
    np.testing.assert_array_equal(dispatch.do("sort", a), [1.0, 2.0, 3.0])
    assert dispatch.get_namespace(a).arccos is not None
    assert not hasattr(dispatch.array_namespace(a), "arccos")


def test_torch_default_float_is_read_at_each_call():
    """torch's default float is settable: creation follows it, and so does the info."""
    torch = pytest.importorskip("torch")
    xp = dispatch.array_namespace("torch")
    before = torch.get_default_dtype()
    try:
        torch.set_default_dtype(torch.float64)
        assert xp.ones(2).dtype == torch.float64
        assert xp.asarray(1.0).dtype == torch.float64
        assert xp.__array_namespace_info__().default_dtypes()["complex floating"] == (
            torch.complex128)
    finally:
        torch.set_default_dtype(before)
    assert xp.ones(2).dtype == before


# -- where libraries differ from the standard (found by array-api-tests) -------------

_UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]


def test_unsigned_dtypes_in_creation_flip_sorting_and_trace(xp):
    """torch stores uint16/32/64 but has no arange, eye, flip, tril/triu or sum
    kernels for them: every namespace computes them as numpy does."""
    for n in (u for u in _UNSIGNED if hasattr(xp, u)):
        dt = getattr(xp, n)
        assert to_np(xp.arange(2, 5, dtype=dt)).tolist() == [2, 3, 4]
        eye = xp.eye(2, 3, k=1, dtype=dt)
        assert eye.dtype == dt
        np.testing.assert_array_equal(to_np(eye), np.eye(2, 3, k=1, dtype=n))
        keys = np.array([[3, 1, 3], [0, 2, 200]], dtype=n)
        x = xp.asarray(keys)
        np.testing.assert_array_equal(to_np(xp.flip(x, axis=1)), np.flip(keys, axis=1))
        np.testing.assert_array_equal(to_np(xp.tril(x)), np.tril(keys))
        np.testing.assert_array_equal(to_np(xp.triu(x, k=1)), np.triu(keys, k=1))
        np.testing.assert_array_equal(to_np(xp.argsort(x, descending=True)),
                                      np.argsort(-keys.astype(np.int64), kind="stable"))
        trace = xp.linalg.trace(x)
        assert int(to_np(trace)) == 3 + 2
        assert xp.sum(x, dtype=dt).dtype == dt
        assert int(to_np(xp.sum(x, dtype=dt))) == int(keys.sum(dtype=n))


def test_do_on_torch_computes_the_unsigned_dtypes_as_numpy():
    """The same fixes are ``do``'s on torch (numpy's semantics), not the namespace's:
    uint16/32/64 in arange, eye, tri, flip, tril/triu, sums, products and traces."""
    torch = pytest.importorskip("torch")
    do = dispatch.do
    for n in ("uint16", "uint32", "uint64"):
        keys = np.array([[3, 1], [2 ** 15, 7]], dtype=n)
        t = torch.from_numpy(keys.astype(np.int64)).to(getattr(torch, n))
        assert do("arange", 1, 4, dtype=n, like="torch").tolist() == [1, 2, 3]
        assert do("eye", 2, k=-1, dtype=n, like="torch").tolist() == [[0, 0], [1, 0]]
        assert do("tri", 2, dtype=n, like="torch").tolist() == np.tri(2, dtype=n).tolist()
        assert do("flip", t).tolist() == np.flip(keys).tolist()
        assert do("fliplr", t).tolist() == np.fliplr(keys).tolist()
        assert do("tril", t, k=-1).tolist() == np.tril(keys, k=-1).tolist()
        for name in ("sum", "prod", "cumsum", "cumprod"):
            got = do(name, t, dtype=n)
            assert got.dtype == t.dtype
            assert got.tolist() == getattr(np, name)(keys, dtype=n).tolist(), name
        assert int(do("trace", t, dtype=n)) == int(np.trace(keys, dtype=n))
    big = do("arange", 2 ** 64 - 3, 2 ** 64 - 1, dtype="uint64", like="torch")
    assert big.tolist() == [2 ** 64 - 3, 2 ** 64 - 2]


def test_arange_of_an_empty_range_is_empty(xp):
    """A range empty by its step's sign is an empty array (torch raises), in both
    directions and with a dtype."""
    for args in [(1, 0), (0, 5, -1), (2.5, 1.0), (3, 3)]:
        out = xp.arange(*args)
        assert out.shape == (0,), args
    assert xp.arange(1, 0, 1, dtype=xp.uint8).dtype == xp.uint8
    assert to_np(xp.arange(5, 0, -2)).tolist() == [5, 3, 1]
    if "torch" in xp.__name__:
        assert dispatch.do("arange", 4, 1, like="torch").shape == (0,)


def test_repeat_takes_counts_of_any_integer_dtype(xp):
    x = xp.asarray([1.0, 2.0, 3.0])
    for n in ("int8", "int16", "uint8", "int32", "int64"):
        counts = xp.asarray([2, 0, 1], dtype=getattr(xp, n))
        assert to_np(xp.repeat(x, counts)).tolist() == [1.0, 1.0, 3.0], n


def test_linspace_without_endpoint_and_in_the_dtype_asked_for(xp):
    """``endpoint=False`` gives the first ``num`` points of ``num + 1`` with the
    endpoint, exactly (the standard's definition), and a float64 linspace is
    computed in float64 whatever the default float."""
    for start, stop, num in [(0.0, 1.0, 3), (-2.0, 7.5, 6), (1.0, 0.0, 4)]:
        want = xp.linspace(start, stop, num + 1)[:-1]
        np.testing.assert_array_equal(to_np(xp.linspace(start, stop, num, endpoint=False)),
                                      to_np(want))
    if hasattr(xp, "float64"):
        start = 4.5860098989617354e-11
        out = xp.linspace(start, 0.0, 1, endpoint=False, dtype=xp.float64)
        assert float(to_np(out)[0]) == start


def _parts(z) -> list[tuple[float, bool, float, bool]]:
    z = np.asarray(z)
    return [(float(v.real), bool(np.signbit(v.real)), float(v.imag), bool(np.signbit(v.imag)))
            for v in z.ravel()]


def test_expm1_tanh_log1p_take_the_standards_complex_special_cases(xp):
    """The standard's special cases of complex ``expm1``, ``tanh``, ``log1p`` (with signed
    zeros), conjugate symmetry and oddness included; numpy computes several of them
    otherwise. Real input is numpy's."""
    inf, nan = math.inf, math.nan
    cases = {  # input -> (real, imag) of the standard's result; None: sign left open
        "expm1": [
            (complex(-0.0, 0.0), (0.0, 0.0)), (complex(-0.0, -0.0), (0.0, -0.0)),
            (complex(0.0, -0.0), (0.0, -0.0)), (complex(inf, 0.0), (inf, 0.0)),
            (complex(inf, -0.0), (inf, -0.0)), (complex(nan, 0.0), (nan, 0.0)),
            (complex(-inf, 2.0), (-1.0, 0.0)), (complex(-inf, -2.0), (-1.0, -0.0)),
            (complex(-inf, 4.0), (-1.0, -0.0)), (complex(-inf, inf), (-1.0, 0.0)),
            (complex(-inf, -inf), (-1.0, -0.0)), (complex(inf, inf), (inf, nan)),
            (complex(inf, nan), (inf, nan)), (complex(1.5, inf), (nan, nan)),
            (complex(nan, 1.0), (nan, nan)), (complex(1.0, 0.0), (math.expm1(1.0), 0.0)),
        ],
        "tanh": [
            (complex(inf, 3.0), (1.0, 0.0)), (complex(inf, -3.0), (1.0, -0.0)),
            (complex(-inf, 3.0), (-1.0, 0.0)), (complex(-inf, -3.0), (-1.0, -0.0)),
            (complex(inf, 1.0), (1.0, 0.0)), (complex(inf, -0.0), (1.0, -0.0)),
            (complex(0.0, 0.0), (0.0, 0.0)), (complex(nan, 0.0), (nan, 0.0)),
        ],
        "log1p": [  # an infinite part with a nan: the modulus is infinite
            (complex(inf, nan), (inf, nan)), (complex(-inf, nan), (inf, nan)),
            (complex(nan, inf), (inf, nan)), (complex(nan, 1.0), (nan, nan)),
            (complex(-1.0, 0.0), (-inf, 0.0)), (complex(-1.0, -0.0), (-inf, -0.0)),
        ],
    }
    for name, rows in cases.items():
        x = xp.asarray([z for z, _ in rows], dtype=xp.complex64)
        got = _parts(to_np(getattr(xp, name)(x)))
        for (z, (re, im)), (gr, gr_neg, gi, gi_neg) in zip(rows, got, strict=True):
            for want, value, negative in ((re, gr, gr_neg), (im, gi, gi_neg)):
                if math.isnan(want):
                    assert math.isnan(value), (name, z, got)
                else:
                    assert value == want or abs(value - want) < 1e-6 * abs(want), (name, z)
                    assert negative == (math.copysign(1.0, want) < 0), (name, z, value)
    real = np.array([-0.0, 0.0, -inf, 1.0], dtype=np.float32)
    for name in cases:
        got = to_np(getattr(xp, name)(xp.asarray(real)))
        np.testing.assert_array_equal(np.signbit(got), np.signbit(getattr(np, name)(real)))


# -- what real code relies on beyond the letter of the standard ----------------------


def test_library_scalars_are_arrays_of_their_library(xp):
    """A reduction's result (numpy's ``float64`` on numpy) names its namespace, and
    ``is_array`` counts it, as array-api-compat takes every ``numpy.generic``."""
    assert dispatch.array_namespace(np.float64(1.0)).__name__.endswith("(numpy)")
    assert dispatch.array_namespace(np.bool_(True), None, 2).__name__.endswith("(numpy)")
    assert dispatch.is_array(np.float32(1))
    assert not dispatch.is_array(1.0)
    total = xp.sum(xp.asarray([1.0, 2.0]))
    assert dispatch.array_namespace(total).__name__ == xp.__name__


def test_dtype_answers_are_the_librarys_dtype_objects(xp):
    """``result_type``, ``finfo(...).dtype`` and the inspection's dtypes hash as
    ``x.dtype`` does (numpy's ``np.dtype('float64')``, not ``np.float64``)."""
    x = xp.asarray([1.0], dtype=xp.float64)
    keyed = {x.dtype: "found"}
    info = xp.__array_namespace_info__()
    assert keyed.get(info.dtypes()["float64"]) == "found"
    assert keyed.get(info.dtypes(kind="real floating")["float64"]) == "found"
    assert keyed.get(info.default_dtypes()["real floating"]) in ("found", None)
    assert keyed.get(xp.result_type(x, xp.float32)) == "found"
    assert keyed.get(xp.finfo(xp.float64).dtype) == "found"
    assert keyed.get(xp.finfo(xp.complex128).dtype) == "found"
    ints = {xp.asarray([1], dtype=xp.int32).dtype: "found"}
    assert ints.get(xp.iinfo(xp.int32).dtype) == "found"


@pytest.mark.parametrize("name", ["unique_values", "unique_counts", "unique_inverse",
                                  "unique_all"])
def test_unique_values_are_sorted(xp, name):
    """Sorted on every library (the standard permits any order; numpy 2.3's
    ``unique_values`` hashes), with the other outputs following the values."""
    data = np.array([7, -1, 4, 5, 2, 10, 1, 3, 7, 1, -1, 30, 8] * 3)
    out = getattr(xp, name)(xp.asarray(data))
    values = to_np(out if name == "unique_values" else out[0])
    assert values.tolist() == sorted(set(data.tolist()))
    if name == "unique_counts":
        assert to_np(out.counts).tolist() == [int((data == v).sum()) for v in values]
    if name in ("unique_inverse", "unique_all"):
        assert (values[to_np(out.inverse_indices)] == data).all()


def test_mixed_kinds_promote_as_the_library_does(xp):
    """Integers with floats: the standard leaves it open, the library decides (what
    array-api-compat does, and scipy's ``logsumexp`` relies on)."""
    i = xp.asarray([1, 2], dtype=xp.int32)
    f = xp.asarray([0.5, 1.5], dtype=xp.float64)
    for out in (xp.stack([i, f]), xp.add(i, f), xp.concat([i, f]), xp.where(i > 1, i, f)):
        assert out.dtype == xp.float64
    np.testing.assert_allclose(to_np(xp.add(i, f)), [1.5, 3.5])


# every binary function of the standard that takes floats, with numpy's scalars among
# their arguments
_TWO = sorted(
    n for n in __import__("dispatch.translations._array_api.elementwise",
                          fromlist=["_BINARY"])._BINARY
    if not n.startswith(("bitwise_", "logical_"))
)


@pytest.mark.parametrize("name", _TWO)
def test_numpy_scalars_are_python_scalars_in_another_librarys_call(xp, name):
    """``xp.where(torch.tensor([False]), np.float64(-72.0), torch.tensor([0j]))``:
    array-api-compat takes a numpy scalar beside another library's arrays as the
    Python scalar it subclasses. numpy's own namespace keeps numpy's rule."""
    x = xp.asarray([1.5, -2.0, 3.0])
    f = getattr(xp, name)
    for scalar in (np.float64(0.75), np.float32(0.75)):
        got, want = to_np(f(x, scalar)), to_np(f(x, 0.75))
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64))
        got, want = to_np(f(scalar, x)), to_np(f(0.75, x))
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64))


def test_numpy_scalars_in_where_clip_and_result_type(xp):
    x = xp.asarray([-3.0, 0.5, 9.0])
    np.testing.assert_allclose(to_np(xp.clip(x, np.float64(-1.0), np.float32(2.0))),
                               [-1.0, 0.5, 2.0])
    cond = xp.asarray([False, True])
    z = xp.asarray([0j, 1j])
    out = xp.where(cond, np.float64(-72.0), z)
    np.testing.assert_allclose(to_np(out), [0j, -72.0])
    assert xp.result_type(xp.asarray([1.0], dtype=xp.float32), np.float64(1.0)) in (
        xp.float32, xp.float64)


def test_new_in_2025_12(xp):
    """2025.12: tuples from meshgrid, broadcast_arrays and devices(), broadcast_shapes,
    isin, linalg.eig and eigvals (always complex), expand_dims with several axes."""
    a = xp.asarray([1.0, 2.0])
    assert type(xp.meshgrid(a, a)) is tuple
    assert type(xp.broadcast_arrays(a, a)) is tuple
    devices = xp.__array_namespace_info__().devices()
    assert isinstance(devices, tuple)
    assert devices + [None] == [*devices, None]  # noqa: RUF005 (what 2024.12 code writes)
    assert xp.broadcast_shapes((2, 1), (3,), ()) == (2, 3) == np.broadcast_shapes((2, 1), (3,))
    assert xp.broadcast_shapes() == ()
    assert xp.broadcast_shapes((None, 1), (1, 4)) == (None, 4)
    with pytest.raises(ValueError, match="broadcast"):
        xp.broadcast_shapes((2,), (3,))
    got = xp.isin(xp.asarray([1, 2, 3]), xp.asarray([2, 5]))
    assert to_np(got).tolist() == [False, True, False]
    assert to_np(xp.isin(xp.asarray([1, 2, 3]), xp.asarray([2]), invert=True)).tolist() == [
        True, False, True]
    assert bool(to_np(xp.isin(2, xp.asarray([2, 5]))))
    assert tuple(xp.expand_dims(a, axis=(0, 2)).shape) == (1, 2, 1)


def test_eig_and_eigvals_are_complex(xp):
    if xp.__name__.endswith("(dask)"):
        pytest.skip("dask has no general eigensolver (unsupported in its table)")
    m = np.array([[2.0, 1.0], [0.0, 3.0]])
    w, v = xp.linalg.eig(xp.asarray(m))
    assert w.dtype == xp.complex128
    assert v.dtype == xp.complex128
    np.testing.assert_allclose(sorted(to_np(w).real), [2.0, 3.0])
    np.testing.assert_allclose(to_np(xp.asarray(m, dtype=xp.complex128)) @ to_np(v),
                               to_np(v) * to_np(w)[None, :], atol=1e-12)
    assert xp.linalg.eigvals(xp.asarray(m, dtype=xp.float32)).dtype == xp.complex64


@pytest.mark.parametrize("bad", ["a duck", b"bytes", [1.0, "two"]])
def test_asarray_of_bad_data_raises_the_librarys_own_error(xp, bad):
    """The library's message for data it cannot hold (torch's "invalid data type
    'str'"), not the message of a numpy conversion on the way."""
    import importlib

    from dispatch import _registry as reg

    backend = xp.__name__.partition("(")[2].rstrip(")")
    native = importlib.import_module(reg.root_module(backend)).asarray
    theirs = None
    try:
        native(bad)
    except (TypeError, ValueError) as err:
        theirs = err
    if theirs is None:
        pytest.skip(f"{backend} holds {bad!r}")
    with pytest.raises(type(theirs)) as ours:
        xp.asarray(bad)
    assert str(ours.value) == str(theirs)
