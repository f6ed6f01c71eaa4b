"""No table drops a keyword that numpy's (scipy's) function takes.

The promise is numpy's result or a clear, typed error, never a silent wrong result:
an adapter that takes ``**kwargs`` and never reads them (or reads a few keys and
drops the rest) turns ``do("matmul", x, x, dtype="float32")`` into a float64 product
without a word. Two rules:

1. A walk over every module of ``translations/``: a function that takes ``**kwargs``
   reads the dict whole (passes it on, checks it, iterates it); never reading it, or
   reading only some keys (``.get``, ``.pop``, ``[...]``, ``in``), is refused.
   :data:`ALLOWED` would name an exception with its reason (a signature a protocol
   dictates); there is none today: the DLPack capsule takes the protocol's keywords
   by name.
2. A walk over the same modules: a function that names a keyword (a parameter with
   a default) reads it: honours it, checks it, or refuses a value it cannot honour.
   ``def _sum(a, axis=None, out=None)`` that never reads ``out`` returns a result and
   leaves the caller's buffer as it was. :data:`HINTS` names the keywords whose value
   cannot change a result (an allowance such as ``overwrite_a``, a performance hint
   such as ``optimize``), each with its reason; :data:`UNREAD` names single
   parameters of single functions, each with its reason.
3. Behaviour on every installed library: each keyword the tables honour gives
   numpy's result (values and dtype); where numpy refuses a call, every library
   raises a typed error; refused keywords (``out=``, a device the library lacks)
   raise the typed error that names the function, the library and the keyword.
"""

from __future__ import annotations

import ast
import copy
import pathlib

import numpy as np
import pytest

from dispatch import UnsupportedError, do
from tests.conftest import assert_close, reference_function, to_backend, to_np

ROOT = pathlib.Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"

# "path::function" -> why its **kwargs may stay unread (none today)
ALLOWED: dict[str, str] = {}

_PARTIAL = ("get", "pop", "setdefault")


def _read_whole(use: ast.Name, parents: dict) -> bool:
    """Whether this use of the ``**kwargs`` name reads every key (a pass-on, a check,
    an iteration), as opposed to a store or a look-up of one key."""
    if isinstance(use.ctx, ast.Store):
        return False
    parent = parents.get(use)
    if isinstance(parent, ast.Attribute) and parent.attr in _PARTIAL:
        return False
    if isinstance(parent, ast.Subscript) and parent.value is use:
        return False
    return not (isinstance(parent, ast.Compare) and use in parent.comparators)


def swallowed(source: str, where: str) -> list[str]:
    """``where:line name(**kw)`` of each function in ``source`` whose ``**kw`` is never
    read whole."""
    tree = ast.parse(source)
    parents = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if fn.args.kwarg is None:
            continue
        kw = fn.args.kwarg.arg
        uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == kw]
        if not any(_read_whole(u, parents) for u in uses):
            found.append(f"{where}:{fn.lineno} {getattr(fn, 'name', '<lambda>')}(**{kw})")
    return found


def test_no_table_swallows_keywords() -> None:
    found = []
    for path in sorted(TRANSLATIONS.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        found += [f for f in swallowed(path.read_text(), rel)
                  if f"{rel}::{f.split()[1].split('(')[0]}" not in ALLOWED]
    assert not found, "keywords taken and dropped (read each one, or refuse it):\n" + "\n".join(
        found)


# keyword -> why no table needs to read it: its value cannot change a result
HINTS: dict[str, str] = {
    "subok": "keeps numpy's ndarray subclasses; no other library has array subclasses, "
             "and numpy's own table passes it on",
    "overwrite_a": "allows scipy to reuse the input's memory, never requires it",
    "overwrite_b": "allows scipy to reuse the input's memory, never requires it",
    "overwrite_x": "allows scipy to reuse the input's memory, never requires it",
    "overwrite_input": "allows numpy to reuse the input's memory, never requires it",
    "check_finite": "scipy's pass over the data for infinities and NaNs; it changes no "
                    "finite result (jax.scipy documents it as unused), and where a table "
                    "can read values cheaply (scipy, sparse, cupy) it raises scipy's error",
    "hermitian": "allows numpy to assume a Hermitian input; the general routine gives the "
                 "same result for one",
    "assume_unique": "a promise of the caller that lets numpy skip a pass; the full pass "
                     "gives the same result",
    "x_sorted": "a promise of the caller that lets a kernel skip sorting",
    "sorted": "allows an unsorted answer (unique, top_k) or promises sorted ids "
              "(segment_*); a sorted answer is always a right one",
    "optimize": "the contraction order of einsum: every order gives the same product",
    "kind": "the sorting algorithm: every algorithm gives the same sorted values "
            "(argsort reads it: tests/functions/test_named_keywords.py)",
    "prevent_cse": "a compiler hint of checkpoint: it changes no value",
    "policy": "which intermediates checkpoint saves: memory, not values",
    "get_external_cache": "a hook of custom_gradient for a caller that skips f; f runs on "
                          "every call here",
    "on_call_skipped": "a hook of custom_gradient for a caller that skips f; f runs on "
                       "every call here",
}

# "path::function.parameter" -> why this one function may leave it unread
UNREAD: dict[str, str] = {
    # shared modules (_composed, _adapters, _array_api, _numpy_methods)
    "translations/_adapters.py::__dlpack__.max_version": (
        "a bare capsule made elsewhere has the version it has; a consumer reads older "
        "versions too"),
    "translations/_array_api/_core.py::default_dtypes.device": (
        "the inspection namespace reports one set of default dtypes, the library's on "
        "every device it runs on here"),
    "translations/_array_api/_core.py::dtypes.device": (
        "the inspection namespace reports the library's dtypes, the same on every device "
        "it runs on here"),
    "translations/_composed/_distributions.py::standard_exponential.method": (
        "numpy's choice of algorithm (ziggurat or inversion, and numpy takes any other "
        "string for inversion): the same distribution, and a library's stream is its own"),
    "translations/_composed/control.py::call.name": (
        "a label for profilers in the method list's signature; the call is f(*args)"),
    "translations/_composed/creation.py::copy_leaves.only_mutable": (
        "every leaf is copied: a copy of an immutable leaf is a right answer too"),
    "translations/_numpy_methods.py::_copy.only_mutable": (
        "numpy arrays are all mutable: every one is copied whatever the flag"),
    "translations/_composed/nn.py::dot_product_attention.flash_attention": (
        "a request for a fused kernel; the composed attention gives the same values"),
    # (end of shared modules)
    # numpy, scipy, cupy
    # (end of numpy)
    # torch
    "translations/torch/creation.py::_copy.only_mutable":
        "torch tensors are all mutable: every one is copied whatever the flag",
    "translations/torch/random.py::choice.shuffle":
        "shuffle=False only lets numpy skip shuffling a sample drawn without replacement; "
        "numpy promises no order then, so a shuffled sample is one of its answers",
    # (end of torch)
    # jax
    # (end of jax)
    # tensorflow
    "translations/tensorflow/creation.py::_meshgrid.copy":
        "numpy's copy=False only allows the grids to be views of the inputs; the copies "
        "made here have the same values, and tensors are immutable",
    "translations/tensorflow/random.py::choice.shuffle":
        "shuffle=False only lets numpy skip shuffling a sample drawn without replacement; "
        "numpy promises no order then, so a shuffled sample is one of its answers",
    # (end of tensorflow)
    # dask
    "translations/dask/devices.py::_astype.copy":
        "numpy's astype(copy=False) only allows returning the input when no cast is "
        "needed, never refuses; dask arrays are immutable, so a copy cannot be told apart",
    # (end of dask)
    # sparse
    "translations/sparse/creation.py::_meshgrid.copy":
        "numpy's copy=False only allows the grids to be views of the inputs; the copies "
        "made here have the same values",
    "translations/sparse/shape.py::_pad_sparse.reflect_type":
        "_pad's pad_keywords refuses 'odd' before calling this; 'even', the only value "
        "left, is the extension built here",
    # (end of sparse)
    # mlx
    "translations/mlx/creation.py::_meshgrid.copy": "copy=False only allows numpy to return "
        "views of the inputs; mlx arrays are immutable, so a view and a copy give the same "
        "values",
    "translations/mlx/autodiff.py::_checkpoint.static_argnums": "mx.checkpoint passes a "
        "non-array argument through as it is (a Python value steering control flow "
        "works), which is what jax's static_argnums asks for",
    # (end of mlx)
    # paddle
    "translations/paddle/autodiff.py::_jacobian.is_f_scalar": "the list's promise that f "
        "returns a scalar; paddle.grad takes one reverse pass per output component, one "
        "pass for a scalar either way, so the derivatives are the same",
    "translations/paddle/reductions.py::_sum.out": "refused by _masked before the call "
        "(it keeps numpy's positional order, which empty_axes reads from the signature)",
    "translations/paddle/reductions.py::_prod.out": "refused by _masked before the call "
        "(it keeps numpy's positional order, which empty_axes reads from the signature)",
    "translations/paddle/reductions.py::_mean.out": "refused by _masked before the call "
        "(it keeps numpy's positional order, which empty_axes reads from the signature)",
    "translations/paddle/reductions.py::_var.out": "refused by _masked before the call "
        "(it keeps numpy's positional order, which empty_axes reads from the signature)",
    "translations/paddle/reductions.py::_std.out": "refused by _masked before the call "
        "(it keeps numpy's positional order, which empty_axes reads from the signature)",
    # (end of paddle)
    # autograd
    "translations/autograd/shape.py::_meshgrid.copy": "copy=False only allows numpy to "
        "return views of the inputs; a box is never written into, so a view and a copy "
        "give the same values",
    "translations/autograd/devices.py::_asarray.like": "numpy's signature; do() takes "
        "like= itself to choose the backend, so it never reaches the adapter",
    "translations/autograd/devices.py::_same_box.like": "numpy's signature; do() takes "
        "like= itself to choose the backend, so it never reaches the adapter",
    "translations/autograd/devices.py::_laid_out.like": "numpy's signature; do() takes "
        "like= itself to choose the backend, so it never reaches the adapter",
    # (end of autograd)
}


def _stub(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> bool:
    """A protocol stub (``def f(...): ...``, a docstring at most beside it)."""
    if isinstance(fn, ast.Lambda):
        return False
    body = [b for b in fn.body
            if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)
                    and isinstance(b.value.value, str))]
    return all(isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)
               and b.value.value is Ellipsis for b in body)


def unread_keywords(source: str, where: str) -> list[str]:
    """``where:line function(parameter=)`` of each keyword (a parameter with a default)
    that a function of ``source`` names and never reads, beside :data:`HINTS`."""
    found = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if _stub(fn):
            continue
        a = fn.args
        positional = a.posonlyargs + a.args
        named = positional[len(positional) - len(a.defaults):] + [
            p for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None]
        read = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Load)}
        name = getattr(fn, "name", "<lambda>")
        for p in named:
            key = p.arg
            if key in read or key.startswith("_"):
                continue
            if key in HINTS and not (key == "kind" and "argsort" in name):
                continue
            found.append(f"{where}:{fn.lineno} {name}({key}=)")
    return found


def test_no_table_names_a_keyword_and_drops_it() -> None:
    found = []
    for path in sorted(TRANSLATIONS.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for f in unread_keywords(path.read_text(), rel):
            fn, key = f.split()[1].rstrip("=)").split("(")
            if f"{rel}::{fn}.{key}" not in UNREAD:
                found.append(f)
    stale = [k for k in UNREAD if not k.split("::")[0] or not (ROOT / k.split("::")[0]).exists()]
    assert not stale, stale
    assert not found, (f"{len(found)} keywords named and never read (honour it, check it "
                       "as numpy does, or refuse a value the library cannot honour: "
                       "translations/_keywords.py has the shared checks):\n" + "\n".join(found))


def test_the_keyword_rule_tells_a_dropped_keyword_from_a_read_one() -> None:
    source = """
def dropped(a, axis=None, out=None):
    return f(a, axis)

def read(a, axis=None, out=None, subok=True):
    no_out(out)
    return f(a, axis)

def nested(a, order="K"):
    def inner():
        return g(a, order)
    return inner

def stub(a, out=None):
    \"\"\"A protocol.\"\"\"
    ...

def _argsort(a, kind=None):
    return h(a)

def _sort(a, kind=None):
    return h(a)

short = lambda a, dtype=None: a
"""
    names = [f.split()[1] for f in unread_keywords(source, "m.py")]
    assert names == ["dropped(out=)", "_argsort(kind=)", "<lambda>(dtype=)"]


def test_every_hint_and_exception_says_why() -> None:
    for key, why in [*HINTS.items(), *UNREAD.items()]:
        assert isinstance(why, str), key
        assert len(why) > 25, key


def test_the_rule_tells_a_dropped_keyword_from_a_read_one() -> None:
    source = """
def never(a, **kwargs):
    return a

def some(a, **kwargs):
    return a + kwargs.get("b", 0) + kwargs.pop("c", 0) + ("d" in kwargs) + kwargs["e"]

def passed_on(a, **kwargs):
    return f(a, **kwargs)

def checked(a, **kwargs):
    if kwargs:
        raise TypeError(sorted(kwargs))
    return a

def rebound(a, **kwargs):
    kwargs = check(kwargs)
    return g(a, **kwargs)

short = lambda a, **kw: a
"""
    names = [f.split()[1] for f in swallowed(source, "m.py")]
    assert names == ["never(**kwargs)", "some(**kwargs)", "<lambda>(**kw)"]


# ---------------------------------------------------------------- behaviour

A = np.arange(1.0, 7.0).reshape(2, 3) ** 1.5
S = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
M = np.array([[1.0, 2, 0, 0], [0, 1, 5, 0], [7, 0, 1, 0], [0, 0, 2, 9]])  # a 3-cycle pivot
F32 = np.arange(3, dtype=np.float32)
F64 = np.arange(3.0)
I64 = np.arange(6).reshape(2, 3)
W = np.array([[True, False, True], [True, True, False]])
V = np.array([1.0, np.nan, 2.0, np.nan, 1.0])

# the library's own function takes no such keyword: its TypeError (with do's note
# naming the function and backend) rather than a result that ignored it
_OWN_MATMUL = "the library's own matmul (the hot path calls it directly) takes no {}"
_MATMUL_REFUSED = {b: _OWN_MATMUL for b in ("torch", "jax", "dask")}

# id -> (name, args, kwargs, like, {backend: why it refuses})
HONOURED = {
    "matmul dtype": ("matmul", (A, A.T), {"dtype": "float32"}, False, _MATMUL_REFUSED),
    "matmul int dtype": ("matmul", (I64, I64.T), {"dtype": "float64"}, False, _MATMUL_REFUSED),
    "matmul unsafe cast": ("matmul", (A, A.T), {"dtype": "int64", "casting": "unsafe"}, False,
                           _MATMUL_REFUSED),
    "matmul order": ("matmul", (A, A.T), {"order": "F", "subok": True}, False, _MATMUL_REFUSED),
    "array ndmin": ("array", ([1.0, 2.0],), {"ndmin": 3}, True, {}),
    "array ndmin order": ("array", (A,), {"ndmin": 3, "order": "F"}, False,
                          {"jax": "jax's asfortranarray is unsupported (one layout)"}),
    "concatenate dtype": ("concatenate", ([F64, F32],), {"dtype": "float32"}, False,
                          {"dask": "dask's concatenate takes no dtype"}),
    "stack dtype": ("stack", ([F64, F32],), {"dtype": "float32"}, False,
                    {"torch": "torch's stack takes no dtype", "dask": "dask's neither"}),
    "hstack dtype": ("hstack", ([F64, F32],), {"dtype": "float32"}, False,
                     {"torch": "torch's hstack takes no dtype", "dask": "dask's neither"}),
    "meshgrid sparse": ("meshgrid", (F64, F32), {"sparse": True}, False, {}),
    "unique equal_nan": ("unique", (V,), {"equal_nan": False}, False,
                         {"dask": "dask's unique takes no equal_nan"}),
    "unique sorted": ("unique", (V,), {"sorted": True, "return_counts": True}, False,
                      {"dask": "dask's unique takes no sorted"}),
    "var positional ddof where": ("var", (A, 1, None, None, 1), {"where": W}, False, {}),
    "var positional ddof": ("var", (A, 1, None, None, 1, True), {}, False, {}),
    "var correction": ("var", (A, 1), {"correction": 1}, False, {}),
    "std mean": ("std", (A, 1), {"mean": A.mean(1, keepdims=True) + 1.0}, False, {}),
    "nanvar mean": ("nanvar", (V,), {"mean": np.float64(1.5)}, False, {}),
    "nanstd correction": ("nanstd", (A, 1), {"correction": 1}, False, {}),
    "max initial": ("max", (A, 1), {"initial": 20.0}, False,
                    {"dask": "dask's max takes no initial"}),
    "std ddof keepdims where": ("std", (A,), {"axis": 1, "ddof": 1, "keepdims": True,
                                              "where": W}, False, {}),
    "mean positional keepdims where": ("mean", (A, 1, None, None, True), {"where": W}, False, {}),
    "trace dtype": ("trace", (S,), {"dtype": "float32"}, False, {}),
    "pad constant_values": ("pad", (A, 1), {"mode": "constant", "constant_values": 3.0},
                            False, {}),
    "einsum dtype": ("einsum", ("ij->", A), {"dtype": "float32", "casting": "same_kind"},
                     False, {"torch": "torch's einsum takes no dtype", "jax": "nor jax's"}),
    "einsum order": ("einsum", ("ij,kj->ik", A, A), {"order": "F", "optimize": True}, False,
                     {"torch": "torch's einsum takes no order", "jax": "nor jax's"}),
    "reshape copy": ("reshape", (A, (3, 2)), {"copy": True}, False, {}),
    "lu p_indices": ("scipy.linalg.lu", (M,), {"p_indices": True}, False, {}),
    "lu overwrite check_finite": ("scipy.linalg.lu", (M,), {"overwrite_a": True,
                                                             "check_finite": True}, False, {}),
    "solve_triangular overwrite": ("scipy.linalg.solve_triangular", (np.triu(S), F64),
                                   {"overwrite_b": True, "check_finite": True}, False, {}),
    "full order": ("full", ((2, 3), 2.5), {"order": "F", "dtype": "float64"}, True,
                   {"jax": "jax's full takes no order"}),
    "arange dtype": ("arange", (4,), {"dtype": "float32"}, True, {}),
    "asarray order": ("asarray", ([1.0, 2.0],), {"order": "C"}, True,
                      {"jax": "jax's asarray refuses order='C' (one layout)"}),
}


def _call(name: str, args: tuple, kwargs: dict, like: bool, backend: str):
    if like:
        return do(name, *copy.deepcopy(args), like=backend, **kwargs)
    return do(name, *to_backend(copy.deepcopy(args), backend), **kwargs)


@pytest.mark.parametrize("case", list(HONOURED))
def test_a_keyword_numpy_takes_gives_numpys_result(backend: str, case: str) -> None:
    name, args, kwargs, like, refused_by = HONOURED[case]
    expected = reference_function(name)(*copy.deepcopy(args), **kwargs)
    if backend in refused_by:
        # listed: the library says no, with a typed error; honouring it fails here,
        # so that the entry goes
        with pytest.raises((TypeError, NotImplementedError)):  # UnsupportedError is one
            to_np(_call(name, args, kwargs, like, backend))  # a lazy library's, computed
        return
    got = to_np(_call(name, args, kwargs, like, backend))
    assert_close(got, expected, name=name, backend=backend)


# id -> (name, args, kwargs, like, the error numpy raises)
NUMPY_REFUSES = {
    "matmul same_kind cast": ("matmul", (A, A.T), {"dtype": "int64"}, False, TypeError),
    "matmul casting no": ("matmul", (A.astype(np.float32), A.T), {"casting": "no"}, False,
                          TypeError),
    "array deeper than ndmax": ("array", ([[1.0, 2.0]],), {"ndmax": 1}, True, ValueError),
    "pad keyword of another mode": ("pad", (A, 1), {"mode": "edge", "constant_values": 3.0},
                                    False, ValueError),
    "einsum safe cast": ("einsum", ("ij->", A), {"dtype": "float32"}, False, TypeError),
}
# a library that returns a result where numpy refuses (a named parameter accepted
# and not checked), each with why it is left
ACCEPTS = {
    "einsum safe cast": {"dask": "dask's einsum casts without numpy's 'safe' check",
                         "sparse": "pydata's einsum casts without numpy's 'safe' check"},
}


@pytest.mark.parametrize("case", list(NUMPY_REFUSES))
def test_a_call_numpy_refuses_is_refused(backend: str, case: str) -> None:
    name, args, kwargs, like, error = NUMPY_REFUSES[case]
    with pytest.raises(error):
        reference_function(name)(*copy.deepcopy(args), **kwargs)
    if backend in ACCEPTS.get(case, {}):
        pytest.skip(ACCEPTS[case][backend])
    # numpy's error, or the library's refusal of the keyword itself
    with pytest.raises((error, TypeError, NotImplementedError)):
        to_np(_call(name, args, kwargs, like, backend))


# the adapters that refuse numpy's out= (do never writes into an argument); the
# libraries' own functions answer for the others (numpy's and torch's write into it)
OUT_REFUSED = [
    (b, "matmul", (S, S)) for b in ("mlx", "paddle", "tensorflow", "sparse")
] + [
    ("sparse", n, a) for n, a in (("trace", (S,)), ("ptp", (A,)), ("max", (A,)),
                                  ("var", (A,)), ("concatenate", ([F64, F64],)))
] + [
    ("paddle", n, (A,)) for n in ("sum", "mean", "var")
] + [
    (b, "einsum", ("ij->", A)) for b in ("mlx", "paddle", "tensorflow")
]


@pytest.mark.parametrize(("backend", "name", "args"), OUT_REFUSED)
def test_out_is_refused_naming_the_function_the_library_and_the_keyword(
    backend: str, name: str, args: tuple
) -> None:
    pytest.importorskip({"mlx": "mlx.core"}.get(backend, backend))
    x = to_backend(copy.deepcopy(args), backend)
    out = do("zeros_like", to_backend(reference_function(name)(*copy.deepcopy(args)), backend))
    with pytest.raises(UnsupportedError, match=rf"do\('{name}'\) on backend '{backend}': out="):
        do(name, *x, out=out)


def test_a_refusal_names_the_function_the_library_and_the_keyword(backend: str) -> None:
    x = to_backend(S, backend)
    axes = [(-2, -1)] * 3
    if backend == "numpy":  # numpy's matmul takes axes=
        do("matmul", x, x, axes=axes)
        return
    # the table's refusal, or the library's own TypeError with do's note naming the call
    with pytest.raises((TypeError, UnsupportedError)) as info:
        do("matmul", x, x, axes=axes)
    text = " ".join([str(info.value), *getattr(info.value, "__notes__", [])])
    assert "axes" in str(info.value)
    assert "do('matmul')" in text or "dispatch.do('matmul')" in text
    assert repr(backend) in text


# ---------------------------------------------------------------- devices


# the adapters that take numpy's device= (the libraries' own functions answer for the
# other names: dask's creation refuses a device itself, scipy.sparse has no arange)
DEVICE_ADAPTERS = [
    ("sparse", "zeros", ((2,),)), ("sparse", "asarray", ([1.0],)), ("sparse", "arange", (3,)),
    ("sparse", "full", ((2,), 1.0)), ("sparse", "eye", (2,)), ("dask", "asarray", ([1.0],)),
    ("scipy", "zeros", ((2,),)), ("scipy", "asarray", ([1.0],)), ("scipy", "eye", (2,)),
    ("tensorflow", "asarray", ([1.0],)), ("tensorflow", "arange", (3,)),
    ("tensorflow", "full", ((2,), 1.0)),
]


@pytest.mark.parametrize(("backend", "name", "args"), DEVICE_ADAPTERS)
def test_a_device_the_library_lacks_is_refused(backend: str, name: str, args: tuple) -> None:
    pytest.importorskip({"dask": "dask.array", "scipy": "scipy.sparse"}.get(backend, backend))
    if backend == "tensorflow":
        import tensorflow as tf

        if tf.config.list_logical_devices("GPU"):
            pytest.skip("this machine has a GPU: device='cuda' is honoured there")
    with pytest.raises(ValueError, match=rf"do\('{name}'\) on backend '{backend}'.*device="):
        do(name, *args, like=backend, device="cuda")
    do(name, *args, like=backend, device="cpu")  # the host device is the library's own


# ---------------------------------------------------------------- one library's adapters


def test_scipy_sparse_lu_and_conversions_keep_numpys_keywords() -> None:
    ss = pytest.importorskip("scipy.sparse")
    sl = pytest.importorskip("scipy.linalg")
    x = ss.csr_array(M)
    p, lo, up = do("scipy.linalg.lu", x)
    P, _, _ = sl.lu(M)
    np.testing.assert_allclose((p @ lo @ up).toarray(), M)  # P was Pr, not Pr^T
    np.testing.assert_allclose(p.toarray(), P)
    pi = do("scipy.linalg.lu", x, p_indices=True)[0]
    np.testing.assert_array_equal(pi, sl.lu(M, p_indices=True)[0])
    assert pi.dtype == np.int32
    with pytest.raises(ValueError, match="infs or NaNs"):
        do("scipy.linalg.lu", ss.csr_array(np.array([[np.nan, 1.0], [1.0, 1.0]])))
    assert do("asarray", x, copy=True) is not x
    assert do("array", x) is not x
    assert do("zeros_like", x, shape=(2, 2)).shape == (2, 2)
    assert do("array", [[1.0, 2.0]], like="scipy", ndmin=2).shape == (1, 2)


def test_tensorflow_creation_takes_numpys_positional_order() -> None:
    tf = pytest.importorskip("tensorflow")
    x = tf.constant([1.0, 2.0])
    # numpy's full_like(a, fill_value, dtype, order, subok, shape): order fourth
    got = do("full_like", x, 3.0, None, "K", True, (2, 2))
    np.testing.assert_array_equal(to_np(got), np.full((2, 2), 3.0))
    # numpy's asarray(a, dtype, order): order third
    assert do("asarray", x, None, "F") is x


@pytest.mark.parametrize("backend", ["numpy", "dask", "sparse"])
def test_from_dlpack_of_a_bare_capsule_copies_when_asked(backend: str) -> None:
    pytest.importorskip({"dask": "dask.array"}.get(backend, backend))
    src = np.arange(3.0)
    got = do("from_dlpack", src.__dlpack__(), like=backend, copy=True)
    src[0] = 9.0
    assert to_np(got)[0] == 0.0  # the capsule's memory was shared: 9.0
