"""Which dask calls compute: ``GATHERS`` in translations/dask/__init__.py is exact.

Every call of the function tests (the ``Case`` lists of ``tests/functions/``)
plus the calls below (the names those tests exercise without ``Case`` objects:
solvers, control flow, random, helpers) runs on dask arrays under a scheduler
that counts the graphs it is handed. A name outside ``GATHERS`` must never
compute; each name in ``GATHERS`` must compute in at least one call, so the
dict cannot go stale. The counting scheduler runs the graph (synchronously)
instead of raising: a translation that caught the error and went on would
otherwise hide its compute. Calls that dask does not support are skipped.
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")

from conftest import Case, case, known_gap, params, to_backend  # noqa: E402
from dispatch.translations.dask import GATHERS  # noqa: E402

from dispatch import do  # noqa: E402
from dispatch._errors import UnsupportedError  # noqa: E402

FUNCTIONS = pathlib.Path(__file__).parent.parent / "functions"


def _cases_in(obj: Any, depth: int = 0) -> Iterator[Case]:
    if isinstance(obj, Case):
        yield obj
    elif isinstance(obj, (list, tuple, dict)) and depth < 3:
        for v in obj.values() if isinstance(obj, dict) else obj:
            yield from _cases_in(v, depth + 1)


def function_test_cases() -> list[Case]:
    """Every ``Case`` held at module level by the function tests."""
    out: dict[int, Case] = {}
    # the function tests import one another by module name, as pytest's rootdir
    # import mode lets them: their folder is on the path while they load
    if str(FUNCTIONS) not in sys.path:
        sys.path.append(str(FUNCTIONS))
    for path in sorted(FUNCTIONS.glob("test_*.py")):
        # a private module name: pytest's own import of the file stays untouched
        spec = importlib.util.spec_from_file_location(f"_gathers_{path.stem}", path)
        assert spec is not None
        assert spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod  # dataclasses look their module up while it loads
        spec.loader.exec_module(mod)
        for name, value in vars(mod).items():
            if not name.startswith("_"):
                out.update((id(c), c) for c in _cases_in(value))
    return list(out.values())


class Unknown:
    """An argument that becomes a 1-D dask array of unknown chunk sizes."""

    def __init__(self, values: np.ndarray):
        self.values = values

    def __repr__(self) -> str:
        return "unknown_chunks"


def _dask(x: Any) -> Any:
    if isinstance(x, Unknown):
        a = to_backend(x.values, "dask")
        return a[a > 0]  # boolean indexing: the length is only known once computed
    if isinstance(x, (list, tuple)):
        return type(x)(_dask(v) for v in x)
    if isinstance(x, dict):
        return {k: _dask(v) for k, v in x.items()}
    return to_backend(x, "dask")


# ---------------------------------------------------------------- calls beyond the Case lists

rng = np.random.default_rng(5)
A = rng.standard_normal((3, 4))
AN = np.where(rng.random((3, 4)) > 0.7, np.nan, A)
AI = rng.integers(0, 5, (3, 4))
V = rng.standard_normal(6)
B = rng.random((3, 4)) > 0.5
C = A + 1j * rng.standard_normal((3, 4))
SQ = rng.standard_normal((4, 4)) + 4 * np.eye(4)
SPD = SQ @ SQ.T
LOW = np.tril(SQ)
Y = rng.standard_normal((2, 4))
X0 = np.array([6, 7, 1])


def collatz(go: Any, x: Any, n: Any) -> tuple:
    nxt = do("where", do("equal", do("mod", x, 2), 0), x // 2, 3 * x + 1)
    x = do("where", go, nxt, x)
    return x != 1, x, n + do("astype", go, "int64")


def quadratic(x: Any) -> Any:
    d = do("subtract", x, np.array([1.0, -2.0]))
    return do("sum", d * d, axis=-1)


NAN_REDUCTIONS = ("nanargmax", "nanargmin", "nancumsum", "nanmax", "nanmean", "nanmin",
                  "nanprod", "nanstd", "nansum", "nanvar")
RANDOM = [("normal", ()), ("standard_normal", ()), ("uniform", ()), ("integers", (0, 5)),
          ("randint", (0, 5)), ("random", ()), ("exponential", ()), ("gamma", (2.0,)),
          ("beta", (1.0, 2.0)), ("poisson", ()), ("binomial", (4, 0.5)), ("choice", (5,)),
          # numpy's other distributions (translations/_composed/_distributions.py)
          ("chisquare", (3.0,)), ("dirichlet", ([1.0, 2.0],)), ("f", (3.0, 4.0)),
          ("geometric", (0.3,)), ("gumbel", ()), ("hypergeometric", (5, 6, 4)),
          ("laplace", ()), ("logistic", ()), ("lognormal", ()), ("logseries", (0.5,)),
          ("multinomial", (5, [0.2, 0.8])), ("multivariate_hypergeometric", ([3, 4], 5)),
          ("multivariate_normal", ([0.0, 1.0], [[1.0, 0.2], [0.2, 1.0]])),
          ("negative_binomial", (2.0, 0.5)), ("noncentral_chisquare", (3.0, 1.0)),
          ("noncentral_f", (3.0, 4.0, 1.0)), ("pareto", (3.0,)), ("power", (2.0,)),
          ("rayleigh", ()), ("standard_cauchy", ()), ("standard_exponential", ()),
          ("standard_gamma", (2.0,)), ("standard_t", (4.0,)), ("triangular", (0.0, 1.0, 2.0)),
          ("vonmises", (0.0, 1.0)), ("wald", (1.0, 2.0)), ("weibull", (1.5,)), ("zipf", (2.0,))]
EXTRA = [
    *[case(n, A, axis=0) for n in ("amax", "amin", "average", "ptp")],
    *[case(n, AN, axis=1) for n in NAN_REDUCTIONS],
    case("nanpercentile", AN, 30, axis=1), case("nanquantile", AN, 0.3, axis=1),
    case("percentile", A, 30), case("quantile", A, [0.2, 0.5], axis=0),
    case("array_equal", A, A), case("array_split", V, 4), case("hsplit", A, 2),
    case("vsplit", A, 3), case("atleast_1d", V), case("atleast_2d", V), case("atleast_3d", A),
    case("broadcast_arrays", A, V[:4]), case("choose", AI % 2, [A, -A]),
    case("compress", np.array([True, False, True]), A, axis=0),
    case("cross", A[:, :3], A[::-1, :3]), case("diagflat", V), case("diff", A, axis=1),
    case("digitize", V, np.array([-1.0, 0.0, 1.0])), case("dstack", [A, A]),
    case("ediff1d", V), case("flatnonzero", B), case("fliplr", A), case("flipud", A),
    case("histogram", V, bins=4, range=(-3.0, 3.0)),
    case("histogram", V, bins=np.array([-3.0, 0.0, 3.0])),
    case("bincount", AI.ravel()), case("bincount", AI.ravel(), minlength=7),
    case("inner", V, V), case("isin", AI, np.array([1, 3])), case("rot90", A),
    case("select", [A > 0, A < -1], [A, -A]), case("vdot", V, V),
    case("linalg.cond", SQ), case("linalg.multi_dot", [A, A.T, A]),
    case("linalg.lstsq", A.T, V[:4]), case("linalg.matrix_rank", A),
    case("fft.hfft", V), case("fft.ihfft", V), case("fft.rfft2", A), case("fft.irfft2", C),
    case("astype", AI, "float32"), case("cast", AI, "float32"), case("as_tensor", A),
    case("from_numpy", A), case("complex", A, A), case("pow", A, 2), case("bitwise_invert", AI),
    case("to_complex", A), case("to_float", AI), case("to_int32", A), case("to_int64", A),
    case("auto_cast", A, AI), case("auto_cast1", AI), case("combine_types", A),
    case("float_type", like="dask"), case("complex_type", like="dask"),
    case("dtype_of", A), case("get_dtype_name", A),
    case("shape", A), case("size", A), case("ndim", A), case("ndims", A), case("staticshape", A),
    case("shape", Unknown(V)), case("size", Unknown(V)), case("min_scalar_type", np.array(300)),
    case("sizeof", A), case("to_numpy", A), case("numpy", A), case("is_tensor", A),
    case("is_sparse", A), case("get_sparse_format", A), case("is_available", A),
    case("get_device", A), case("to_device", A, "cpu"), case("allocate_on_device", A, "cpu"),
    case("stop_gradient", A), case("stop_gradient_tree", {"a": A}), case("copy_leaves", [A]),
    case("stack_leaves", [{"a": A}, {"a": A}]), case("block_until_ready", A),
    case("flatten", A), case("unstack", A, 1), case("meshgrid_ij", V[:3], V[3:]),
    case("pad_stack", [V[:2], V]), case("disassemble", A),
    case("unique", AI), case("nonzero", B), case("argwhere", B), case("extract", B, A),
    case("repeat", V, np.full(6, 2)), case("repeat_n", V, np.full(6, 2), 0),
    case("digitize", V, np.array([-1.0, 0.0, 1.0])),
    case("scipy.special.gammainc", np.abs(A), 1.5),
    case("scipy.special.gammaincc", np.abs(A), 1.5),
    case("scipy.linalg.cho_factor", SPD),
    case("scipy.linalg.cho_solve", (np.tril(SQ), True), V[:4]),
    case("solve_triangular", LOW, Y.T, True), case("solve_triangular_sparse", LOW, Y, True),
    case("eig", SPD), case("eigvals", SPD), case("svd", A),
    case("fft_axes", C, (0,)), case("ifft_axes", C, (1,)),
    case("conv", rng.standard_normal((1, 1, 8)), rng.standard_normal((1, 1, 1, 3))),
    case("grid_sample", rng.standard_normal((1, 4, 5, 1)), rng.uniform(0, 3, (1, 2, 2)), "zeros"),
    case("conjugate_gradient", SPD, Y, rtol=1e-8),
    case("conjugate_gradient_adaptive", SPD, Y, rtol=1e-8),
    case("bi_conjugate_gradient", SPD, Y, rtol=1e-8),
    *[case("linear_solve", m, SPD, Y, rtol=1e-8) for m in ("CG", "auto", "scipy-direct")],
    case("minimize", "GD", quadratic, np.zeros((2, 2)), 1e-6, 20),
    case("minimize", "L-BFGS-B", quadratic, np.zeros((2, 2)), 1e-6, 20),
    case("while_loop", collatz, (X0 != 1, X0, np.zeros(3, "int64")), 4),
    case("vectorized_call", lambda u, v: do("sum", u * v), A, np.ones((1, 4))),
    case("numpy_call", np.sort, (6,), "float64", V),
    case("call", lambda a, b: a + b, A, A),
    case("jit_compile", lambda a: a * 2),
    case("sparse_coo_tensor_batched", np.array([[[0, 1], [2, 0]]]), np.ones((1, 2, 1)), (3, 2)),
    case("tri", 3, 4, _like=True), case("range", 5, _like=True),
    case("linspace_without_last", 0.0, 1.0, 4, _like=True),
    case("random_normal", (3,), _like=True), case("random_uniform", (3,), _like=True),
    case("random_permutations", 2, 5, _like=True),
    case("random_subsets", 8, 3, 2, False, _like=True),
    case("seed", 3, _like=True),
    *[case(f"random.{n}", *a, size=3, _like=True) for n, a in RANDOM],
    case("random.permutation", 5, _like=True), case("random.seed", 4, _like=True),
    case("random.permuted", np.arange(6.0).reshape(2, 3), axis=1),
    case("random.bytes", 5, _like=True),
    case("random.default_rng", 4, _like=True), case("to_backend_dtype", "float32", _like=True),
    case("get_default_device", _like=True), case("list_devices", _like=True),
    case("prefers_channels_last", _like=True),
    case("requires_fixed_shapes_when_tracing", _like=True),
]

CASES = function_test_cases() + EXTRA
LAZY = [c for c in CASES if c.name not in GATHERS]


def computes(c: Case) -> bool:
    """Run ``c`` on dask arrays; whether any graph was computed."""
    args, kwargs = _dask(c.args), _dask(c.kwargs)
    if c.like:
        kwargs["like"] = "dask"
    graphs = []

    def counting(dsk: Any, keys: Any, **kw: Any) -> Any:
        graphs.append(keys)
        return dask.get(dsk, keys, **kw)

    with dask.config.set(scheduler=counting):
        do(c.name, *args, **kwargs)
    return bool(graphs)


def _gaps(cases: list[Case]) -> list:
    """``params``, with the names dask's table marks ``unsupported`` as strict xfails
    (raising UnsupportedError), so that an entry that starts working must go."""
    out = []
    for p in params(cases):
        name = p.values[0]
        reason = known_gap("dask", name)
        marks = (*p.marks, pytest.mark.xfail(raises=UnsupportedError, reason=reason,
                                              strict=True)) if reason else p.marks
        out.append(pytest.param(*p.values, id=p.id, marks=marks))
    return out


@pytest.mark.parametrize(("name", "c"), _gaps(LAZY))
def test_stays_lazy(name, c):
    assert not computes(c), (
        f"do({name!r}) computed a dask graph: keep it lazy, or add it to GATHERS in "
        "translations/dask/__init__.py with the reason"
    )


@pytest.mark.parametrize("name", sorted(GATHERS))
def test_gathers_entry_is_current(name):
    mine = [c for c in CASES if c.name == name]
    assert mine, f"GATHERS[{name!r}]: no call of it here; add one to EXTRA"
    assert any(computes(c) for c in mine), (
        f"do({name!r}) no longer computes on dask: remove it from GATHERS"
    )


def test_gathers_reasons_are_sentences():
    for name, why in GATHERS.items():
        assert isinstance(why, str), name
        assert len(why) > 20, name
