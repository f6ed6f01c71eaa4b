"""The bad-input matrix: every row is one wrong call, run on every installed backend.

A row names the call, the exception type it must raise and the substrings its
message must contain (``{b}`` is the backend): the function, the backend, what
was wrong and, where there is one, the fix. Errors raised by dispatch itself are
of the documented types (``dispatch.DispatchError`` and its subclasses, or
``TypeError``/``ValueError`` for arguments of dispatch's own functions, whose
message starts with the call). Errors raised inside a library keep the library's
type and carry dispatch's note naming the ``do`` call and the backend.

After each bad input: the registry is unchanged (same registrations, same
generation), no cache entry was made for the failed call, every cache entry
for the names involved equals a fresh resolution, and a good call afterwards
returns the right value.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import ARRAY_BACKENDS, _usable, to_backend, to_np

import dispatch
from dispatch import (
    BackendNotInstalledError,
    DispatchError,
    MixedBackendError,
    UnknownBackendError,
    UnknownFunctionError,
    UnsupportedError,
    do,
)
from dispatch import _registry as reg

from .consistency import cache_keys, cached, check_caches, is_dispatcher, registry_state

X = np.arange(4.0)
M23 = np.arange(6.0).reshape(2, 3)
NON_NUMPY = ("torch", "jax", "tensorflow", "dask", "sparse")


class Thing:
    """An object no backend owns."""


class Box:
    """A would-be array type for register_backend."""


# ``exc`` of a row whose error comes from inside the library: the library's own
# type (numpy's ValueError, torch's RuntimeError, tensorflow's InvalidArgumentError...)
# with dispatch's note, or an UnsupportedError naming the function and backend
LIBRARY = "library error with dispatch's note"


@dataclasses.dataclass(frozen=True)
class Bad:
    desc: str
    call: Callable[[str, Path], Any]  # (backend, tmp_path) -> the bad call
    exc: type[BaseException] | tuple[type[BaseException], ...] | str
    says: tuple[str, ...] = ()  # substrings of the message and notes; {b} = backend
    name: str | None = None  # the do() name involved (cache checks, library notes)
    only: Callable[[str], bool] = lambda b: True  # the row applies to this backend


def partner(b: str) -> str | None:
    """Another non-numpy library to mix with ``b`` (None: no second one here)."""
    if b == "numpy":
        return None
    return next((p for p in NON_NUMPY if p != b and _usable(p)), None)


def arr(b: str, a: np.ndarray = X) -> Any:
    return to_backend(a, b)


def other(b: str, a: np.ndarray = X) -> Any:
    return to_backend(a, partner(b))  # type: ignore[arg-type]


def _quiet(fn: Callable, *args: Any) -> Any:
    """``fn(*args)`` without the warning a registration on a misspelt backend gives."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return fn(*args)


def typo(b: str) -> str:
    """A misspelt backend name whose closest match is ``b``."""
    return b + b[-1]


def cupy_missing(b: str) -> bool:
    return not _usable("cupy")


def mixable(b: str) -> bool:
    return partner(b) is not None


def shell(tmp: Path) -> str:
    """A command that leaves a marker file if anything ever runs it."""
    return f"touch {tmp / 'ran'}"


def _probe(x: Any) -> Any:
    return x


ROWS: list[Bad] = []


def row(*args: Any, **kwargs: Any) -> None:
    ROWS.append(Bad(*args, **kwargs))


# ---------------------------------------------------------------- unknown names

row("unknown name", lambda b, t: do("frobnicate", arr(b)), UnknownFunctionError,
    ("do('frobnicate')", "'{b}'", "no registration", "register_function('{b}', 'frobnicate'"),
    name="frobnicate")
row("unknown name, keywords", lambda b, t: do("frobnicate", arr(b), axis=0),
    UnknownFunctionError, ("do('frobnicate')", "'{b}'"), name="frobnicate")
row("unknown name, like=", lambda b, t: do("frobnicate", (2,), like=b), UnknownFunctionError,
    ("do('frobnicate')", "'{b}'"), name="frobnicate")
row("unknown name, two arrays", lambda b, t: do("frobnicate", arr(b), arr(b)),
    UnknownFunctionError, ("do('frobnicate')", "'{b}'"), name="frobnicate")
row("unknown name, list argument", lambda b, t: do("frobnicate", [arr(b), arr(b)]),
    UnknownFunctionError, ("do('frobnicate')", "'{b}'"), name="frobnicate")
row("unknown submodule", lambda b, t: do("nosuchmodule.sum", arr(b)), UnknownFunctionError,
    ("do('nosuchmodule.sum')", "'{b}'"), name="nosuchmodule.sum")
row("a module, not a function", lambda b, t: do("linalg", arr(b)), UnknownFunctionError,
    ("do('linalg')", "'{b}'", "Did you mean 'linalg."), name="linalg")
row("a constant, not a function", lambda b, t: do("pi", arr(b)), UnknownFunctionError,
    ("do('pi')", "'{b}'"), name="pi",
    only=lambda b: b in ("numpy", "torch", "jax", "tensorflow"))
for _typo, _right in [
    ("sumn", "sum"),
    ("lnalg.qr", "linalg.qr"),
    ("linalg.qrr", "linalg.qr"),
    ("concatenat", "concatenate"),
    ("argmx", "argmax"),
    ("SUM", "sum"),
    ("Reshape", "reshape"),
]:
    row(f"misspelt {_typo!r}", lambda b, t, n=_typo: do(n, arr(b)), UnknownFunctionError,
        (f"do({_typo!r})", "'{b}'", f"Did you mean {_right!r}", "Did you mean"), name=_typo)

# ---------------------------------------------------------------- private, dunder, foreign

for _name in [
    "_foo",
    "__class__",
    "__import__",
    "__builtins__",
    "linalg._umath_linalg",
    "linalg.__name__",
    "random.__builtins__",
    "sum.__call__",
    "sum.__globals__",
    "_private.sum",
]:
    row(f"private {_name!r}", lambda b, t, n=_name: do(n, shell(t), like=b),
        UnknownFunctionError, (f"do({_name!r})", "'{b}'", "private"), name=_name)
for _name in ["", ".sum", "sum.", "linalg..qr", "../os", "sum ", "sum\x00"]:
    row(f"malformed {_name!r}", lambda b, t, n=_name: do(n, arr(b)), UnknownFunctionError,
        (f"do({_name!r})", "'{b}'"), name=_name)
for _name in [
    "os.system",
    "sys.exit",
    "builtins.eval",
    "subprocess.run",
    "importlib.import_module",
    "shutil.rmtree",
]:
    row(f"foreign {_name!r}", lambda b, t, n=_name: do(n, shell(t), like=b),
        UnknownFunctionError,
        (f"do({_name!r})", "'{b}'", "standard library module, not part of '{b}'"), name=_name)
for _name in [
    "numpy.os.system",
    "testing.os.system",
    "lib.npyio.os.system",
    "hub.os.system",
    "serialization.os.system",
    "core.np.os.system",
    "linalg.os.getcwd",
    "random.os.getcwd",
    "ctypeslib.ctypes.CDLL",
    "core.np.sum",
]:
    row(f"leaving the package {_name!r}", lambda b, t, n=_name: do(n, shell(t), like=b),
        UnknownFunctionError, (f"do({_name!r})", "'{b}'"), name=_name)
# ---------------------------------------------------------------- beyond array computing
# (docs/safety.md: methods of objects, capability modules, global setters, in-place names)

for _lib, _name, _args, _why in [
    ("numpy", "sctypeDict.update", lambda t: ({"evil": np.float16},), "walks only through modules"),
    ("numpy", "typecodes.clear", lambda t: (), "walks only through modules"),
    ("numpy", "ctypeslib.load_library", lambda t: ("libc", str(t)), "native-code"),
    ("numpy", "set_printoptions", lambda t: (), "global configuration"),
    ("numpy", "put", lambda t: (np.zeros(3), [0], 1.0), "do never mutates its inputs"),
    ("numpy", "add.at", lambda t: (np.zeros(3), [0], 1.0), "do never mutates its inputs"),
    ("torch", "utils.collect_env.run", lambda t: (shell(t),), "shell commands"),
    ("torch", "ops.load_library", lambda t: (str(t / "x.so"),), "native"),
    ("torch", "set_default_dtype", lambda t: (), "global configuration"),
    ("torch", "exp_", lambda t: (to_backend(np.ones(2), "torch"),), "call 'exp' instead"),
    ("jax", "set_printoptions", lambda t: (), "global configuration"),
    ("dask", "from_npy_stack", lambda t: (str(t),), "unpickles"),
    ("dask", "core.config.set", lambda t: (), "SUBMODULES"),
    ("tensorflow", "experimental_enable_numpy_behavior", lambda t: (), "global configuration"),
]:
    row(f"beyond array computing {_name!r}",
        lambda b, t, n=_name, a=_args: do(n, *a(t), like=b), dispatch.RefusedNameError,
        (f"do({_name!r})", "'{b}'", "is refused", _why, "docs/safety.md"), name=_name,
        only=lambda b, lib=_lib: b == lib)
row("library name as prefix", lambda b, t: do(f"{b}.sum", arr(b)), UnknownFunctionError,
    ("do('{b}.sum')", "'{b}'"),
    only=lambda b: b not in ("torch", "paddle"))  # torch.torch is torch, paddle.paddle paddle

# ---------------------------------------------------------------- non-string names

for _label, _name in [("int", 3), ("None", None), ("bytes", b"sum"), ("tuple", ("sum",)),
                      ("float", 1.5)]:
    row(f"{_label} as name", lambda b, t, n=_name: do(n, arr(b)), TypeError,
        ("do(", "must be a string", type(_name).__name__))
    row(f"{_label} as name, like=", lambda b, t, n=_name: do(n, (2,), like=b), TypeError,
        ("do(", "must be a string"))
for _label, _name in [("list", ["sum"]), ("dict", {"sum": 1}), ("set", {"sum"})]:
    row(f"unhashable {_label} as name", lambda b, t, n=_name: do(n, arr(b)), TypeError,
        ("do(", "must be a string", _label))
    row(f"unhashable {_label} as name, keywords",
        lambda b, t, n=_name: do(n, arr(b), axis=0), TypeError, ("do(", "must be a string"))
    row(f"unhashable {_label} as name, like=", lambda b, t, n=_name: do(n, (2,), like=b),
        TypeError, ("do(", "must be a string"))
    row(f"unhashable {_label} as name, like=array",
        lambda b, t, n=_name: do(n, (2,), like=arr(b)), TypeError, ("do(", "must be a string"))
row("non-string name, get_lib_fn", lambda b, t: dispatch.get_lib_fn(b, 3), TypeError,
    ("do(3", "'{b}'", "must be a string"))

# ---------------------------------------------------------------- wrong argument types

row("str where an array goes", lambda b, t: do("sum", "abc", like=b), LIBRARY, name="sum",
    only=lambda b: b in ("numpy", "torch", "jax", "tensorflow"))
row("dict where an array goes", lambda b, t: do("matmul", arr(b), {"a": 1}), LIBRARY,
    name="matmul")
row("object where an array goes", lambda b, t: do("linalg.inv", Thing(), like=b), LIBRARY,
    name="linalg.inv", only=lambda b: b in ("numpy", "torch", "jax", "tensorflow", "dask"))
row("str as a shape", lambda b, t: do("reshape", arr(b), "abc"), LIBRARY, name="reshape")
row("str as an axis", lambda b, t: do("sum", arr(b), axis="zero"), LIBRARY, name="sum")
row("str added to an array", lambda b, t: do("add", arr(b), "abc"), LIBRARY, name="add",
    only=lambda b: b in ("numpy", "torch", "jax", "tensorflow"))
row("unknown keyword", lambda b, t: do("sum", arr(b), no_such_keyword=1), LIBRARY,
    name="sum")

# ---------------------------------------------------------------- control flow and transforms

row("cond: a branch that is not callable", lambda b, t: do("cond", True, _probe, 3, arr(b)),
    LIBRARY, ("cond: false_fun must be callable",), name="cond")
row("switch: a float index", lambda b, t: do("switch", 1.5, [_probe], arr(b)), LIBRARY,
    ("switch: index must be an integer",), name="switch")
row("switch: an index array of floats",
    lambda b, t: do("switch", arr(b, np.array(1.0)), [_probe], arr(b)), LIBRARY,
    ("switch: index must be an integer",), name="switch")
row("fori_loop: the body changes the carry's structure",
    lambda b, t: do("fori_loop", 0, 2, lambda i, v: (v, v), arr(b)), LIBRARY,
    ("fori_loop: body_fun must return a carry of the same structure",), name="fori_loop")
row("scan: f changes the carry's structure",
    lambda b, t: do("scan", lambda c, x: ((c, c), x), arr(b), arr(b)), LIBRARY,
    ("scan: f must return a carry of the same structure",), name="scan")
row("map: not callable", lambda b, t: do("map", "f", arr(b)), LIBRARY,
    ("map: f must be callable",), name="map")
row("grad: not callable", lambda b, t: do("grad", 3, like=b), LIBRARY, ("grad",), name="grad")
row("vjp: not callable", lambda b, t: do("vjp", None, arr(b)), LIBRARY, ("vjp",), name="vjp")

# ---------------------------------------------------------------- wrong shapes

row("matmul shape mismatch", lambda b, t: do("matmul", arr(b, M23), arr(b, M23)), LIBRARY,
    name="matmul")
row("reshape to the wrong size", lambda b, t: do("reshape", arr(b), (3, 3)), LIBRARY,
    name="reshape")
row("solve on a non-square matrix",
    lambda b, t: do("linalg.solve", arr(b, M23), arr(b, np.ones(2))), LIBRARY,
    name="linalg.solve")
row("inv of a non-square matrix", lambda b, t: do("linalg.inv", arr(b, M23)), LIBRARY,
    name="linalg.inv")
row("shapes that do not broadcast", lambda b, t: do("add", arr(b, M23), arr(b, X)), LIBRARY,
    name="add")
row("axis out of range", lambda b, t: do("sum", arr(b), axis=3), LIBRARY, name="sum")
row("concatenate of mismatched ranks",
    lambda b, t: do("concatenate", [arr(b, M23), arr(b, X)], axis=0), LIBRARY,
    name="concatenate")
for _name in ("cumulative_sum", "cumulative_prod"):
    row(f"{_name} of a matrix without an axis", lambda b, t, n=_name: do(n, arr(b, M23)),
        LIBRARY, ("axis",), name=_name)
row("vecdot of mismatched core dimensions",
    lambda b, t: do("vecdot", arr(b, M23), arr(b, np.ones((2, 1)))), LIBRARY,
    ("vecdot",), name="vecdot")
row("matvec of a vector as the matrix", lambda b, t: do("matvec", arr(b), arr(b)), LIBRARY,
    name="matvec")
row("fabs of complex input", lambda b, t: do("fabs", arr(b, X + 1j)), LIBRARY, name="fabs")
row("linalg.outer of a matrix", lambda b, t: do("linalg.outer", arr(b, M23), arr(b)), LIBRARY,
    ("linalg.outer",), name="linalg.outer")
row("linalg.cross of 2-element vectors",
    lambda b, t: do("linalg.cross", arr(b, M23[:, :2]), arr(b, M23[:, :2])), LIBRARY,
    ("linalg.cross",), name="linalg.cross")
row("linalg.trace of a vector", lambda b, t: do("linalg.trace", arr(b)), LIBRARY,
    ("linalg.trace",), name="linalg.trace")
row("linalg.matrix_norm of a vector", lambda b, t: do("linalg.matrix_norm", arr(b)), LIBRARY,
    ("linalg.matrix_norm",), name="linalg.matrix_norm")
for _name in ("partition", "argpartition"):
    row(f"{_name} with kth out of bounds", lambda b, t, n=_name: do(n, arr(b), 7), LIBRARY,
        ("out of bounds",), name=_name)
row("lexsort of no keys", lambda b, t: do("lexsort", [arr(b)][:0], like=b), LIBRARY,
    name="lexsort")
row("divmod of complex input", lambda b, t: do("divmod", arr(b, X + 1j), arr(b)), LIBRARY,
    name="divmod")
for _name in ("modf", "frexp"):
    row(f"{_name} of complex input", lambda b, t, n=_name: do(n, arr(b, X + 1j)), LIBRARY,
        name=_name)
row("trim_zeros with an unknown trim", lambda b, t: do("trim_zeros", arr(b), "x"), LIBRARY,
    ("trim",), name="trim_zeros")
row("rollaxis of an axis out of bounds", lambda b, t: do("rollaxis", arr(b, M23), 5), LIBRARY,
    name="rollaxis")
row("resize to a negative shape", lambda b, t: do("resize", arr(b), (-1, 2)), LIBRARY,
    ("non-negative",), name="resize")
row("block with an empty list", lambda b, t: do("block", [[arr(b)], []]), LIBRARY,
    name="block")
row("bitwise_count of floats", lambda b, t: do("bitwise_count", arr(b)), LIBRARY,
    name="bitwise_count")
row("ix_ of a matrix", lambda b, t: do("ix_", arr(b, M23)), LIBRARY, ("1 dimensional",),
    name="ix_")
row("diag_indices_from of a non-square matrix",
    lambda b, t: do("diag_indices_from", arr(b, M23)), LIBRARY, name="diag_indices_from")
row("histogram_bin_edges of decreasing edges",
    lambda b, t: do("histogram_bin_edges", arr(b), [3.0, 1.0]), LIBRARY,
    ("monotonically",), name="histogram_bin_edges")
# dask checks the indices when the result is computed, not at the call
row("unravel_index out of bounds",
    lambda b, t: do("unravel_index", arr(b, np.array([1, 9])), (2, 3)), LIBRARY,
    ("out of bounds",), name="unravel_index", only=lambda b: b != "dask")
row("ravel_multi_index out of bounds",
    lambda b, t: do("ravel_multi_index", (arr(b, np.array([1, 3])),), (3,)), LIBRARY,
    name="ravel_multi_index")
row("packbits of floats", lambda b, t: do("packbits", arr(b)), LIBRARY, name="packbits")
row("unpackbits of int64", lambda b, t: do("unpackbits", arr(b, np.arange(3))), LIBRARY,
    name="unpackbits")
for _name in ("unique_values", "unique_counts", "unique_inverse", "unique_all"):
    row(f"{_name} with unique's axis keyword",
        lambda b, t, n=_name: do(n, arr(b, M23), axis=0), LIBRARY, (_name,), name=_name)
row("delete an index out of bounds", lambda b, t: do("delete", arr(b), 7), LIBRARY,
    ("delete", "out of bounds"), name="delete")
row("insert at an index out of bounds", lambda b, t: do("insert", arr(b), -9, 1.0), LIBRARY,
    ("insert", "out of bounds"), name="insert")
row("trapezoid with x of another length", lambda b, t: do("trapezoid", arr(b, M23), x=X),
    LIBRARY, name="trapezoid")
row("trapezoid along an axis out of range", lambda b, t: do("trapezoid", arr(b, M23), axis=2),
    LIBRARY, name="trapezoid")
row("dsplit of a matrix", lambda b, t: do("dsplit", arr(b, M23), 3), LIBRARY,
    ("dsplit only works on arrays of 3 or more dimensions",), name="dsplit")
# numpy's and torch's tables alias vstack; elsewhere the composed row_stack calls vstack,
# whose note names it
row("row_stack of mismatched widths", lambda b, t: do("row_stack", [arr(b, M23), arr(b)]),
    LIBRARY, name="row_stack", only=lambda b: b in ("numpy", "torch"))
row("row_stack of mismatched widths (composed)",
    lambda b, t: do("row_stack", [arr(b, M23), arr(b)]), LIBRARY, name="vstack",
    only=lambda b: b not in ("numpy", "torch"))
row("get_item out of bounds", lambda b, t: do("get_item", arr(b, M23), (1, [0, 3])), LIBRARY,
    ("out of bounds",), name="get_item")
row("get_item with a float", lambda b, t: do("get_item", arr(b), 1.5), LIBRARY,
    ("only integers, slices",), name="get_item")
row("get_item with too many indices", lambda b, t: do("get_item", arr(b), (0, 1)), LIBRARY,
    ("too many indices",), name="get_item")
for _name in ("tril_indices_from", "triu_indices_from"):
    row(f"{_name} of a vector", lambda b, t, n=_name: do(n, arr(b)), LIBRARY,
        (_name, "2-d"), name=_name)

# numpy's dtype routines, predicates, conversions and functional helpers
row("isdtype with an unknown kind", lambda b, t: do("isdtype", "float32", "floating", like=b),
    LIBRARY, ("isdtype: kind 'floating' is not one of",), name="isdtype")
row("isdtype of an array", lambda b, t: do("isdtype", arr(b), "numeric"), LIBRARY,
    ("isdtype: dtype must be a dtype, not an array",), name="isdtype")
row("can_cast from a Python scalar", lambda b, t: do("can_cast", 1.5, "float32", like=b),
    LIBRARY, ("can_cast: Python scalars are not supported",), name="can_cast")
row("result_type of nothing", lambda b, t: do("result_type", like=b), LIBRARY,
    ("result_type: at least one array or dtype is required",), name="result_type")
row("result_type of a non-dtype", lambda b, t: do("result_type", arr(b), object()), LIBRARY,
    name="result_type")
row("broadcast_shapes of mismatched shapes",
    lambda b, t: do("broadcast_shapes", (3,), (4,), like=b), LIBRARY, ("shape mismatch",),
    name="broadcast_shapes")
row("asarray_chkfinite of a NaN", lambda b, t: do("asarray_chkfinite", arr(b, X / 0.0)),
    LIBRARY, ("array must not contain infs or NaNs",), name="asarray_chkfinite")
row("require both C and Fortran order", lambda b, t: do("require", arr(b), None, "CF"),
    LIBRARY, ('Cannot specify both "C" and "F" order',), name="require")
row("piecewise with too many functions",
    lambda b, t: do("piecewise", arr(b), [arr(b) > 1], [abs, abs, abs]), LIBRARY,
    ("with 1 condition(s), either 1 or 2 functions are expected",), name="piecewise")
row("apply_over_axes of a function dropping two axes",
    lambda b, t: do("apply_over_axes", lambda a, axis: do("sum", a), arr(b, M23), 0), LIBRARY,
    name="apply_over_axes")
row("mintypecode of an unknown type", lambda b, t: do("mintypecode", [object()], like=b),
    LIBRARY, ("mintypecode",), name="mintypecode")
# numpy's polynomials: numpy's errors from the composed checks
row("polyder of a negative order", lambda b, t: do("polyder", arr(b), -1), LIBRARY,
    ("Order of derivative must be positive",), name="polyder")
row("polyint with too few constants", lambda b, t: do("polyint", arr(b), 3, [1.0, 2.0]),
    LIBRARY, ("k must be a scalar or a rank-1 array",), name="polyint")
row("polyfit of x and y of different lengths",
    lambda b, t: do("polyfit", arr(b), arr(b, np.arange(3.0)), 1), LIBRARY,
    ("expected x and y to have same length",), name="polyfit")
row("roots of a matrix", lambda b, t: do("roots", arr(b, M23)), LIBRARY, ("roots",),
    name="roots")
row("vander of a matrix", lambda b, t: do("vander", arr(b, M23)), LIBRARY,
    ("one-dimensional",), name="vander")

# numpy's Generator distributions: numpy's ValueError from the parameter checks
row("gumbel of a negative scale",
    lambda b, t: do("random.gumbel", 0.0, -1.0, size=3, like=b), LIBRARY, ("scale < 0",),
    name="random.gumbel")
row("chisquare of zero degrees of freedom",
    lambda b, t: do("random.chisquare", 0.0, size=3, like=b), LIBRARY, ("df <= 0",),
    name="random.chisquare")
row("geometric with p > 1", lambda b, t: do("random.geometric", 1.5, size=3, like=b),
    LIBRARY, ("p <= 0, p > 1",), name="random.geometric")
row("dirichlet of a negative alpha",
    lambda b, t: do("random.dirichlet", [1.0, -0.5], like=b), LIBRARY, ("alpha < 0",),
    name="random.dirichlet")
row("hypergeometric sample larger than the population",
    lambda b, t: do("random.hypergeometric", 3, 2, 9, like=b), LIBRARY,
    ("ngood + nbad < nsample",), name="random.hypergeometric")
row("zipf of a <= 1", lambda b, t: do("random.zipf", 1.0, size=2, like=b), LIBRARY,
    ("a <= 1",), name="random.zipf")
row("triangular with left > mode",
    lambda b, t: do("random.triangular", 2.0, 1.0, 3.0, like=b), LIBRARY, ("left > mode",),
    name="random.triangular")
row("multivariate_normal of a non-square covariance",
    lambda b, t: do("random.multivariate_normal", np.zeros(2), np.ones((2, 3)), like=b),
    LIBRARY, ("cov must be 2 dimensional and square",), name="random.multivariate_normal")

# the ML ops of keras.ops (docs/vocabulary.md): typed errors from the composed checks
row("glu of an odd axis", lambda b, t: do("glu", arr(b, np.arange(3.0))), LIBRARY,
    ("glu splits axis -1 in two halves", "odd"), name="glu")
row("one_hot of float indices", lambda b, t: do("one_hot", arr(b), 3), LIBRARY,
    ("one_hot takes integer class indices",), name="one_hot")
row("top_k with k past the axis", lambda b, t: do("top_k", arr(b), 7), LIBRARY,
    ("top_k: k=7 is outside [0, 4]",), name="top_k")
row("normalize with order 0", lambda b, t: do("normalize", arr(b), order=0), LIBRARY,
    ("normalize: order must be an int >= 1",), name="normalize")
row("segment_sum with float ids", lambda b, t: do("segment_sum", arr(b), arr(b)), LIBRARY,
    ("segment_sum: segment_ids must be integers",), name="segment_sum")
for _name in ("hard_tanh", "hard_shrink", "soft_shrink", "tanh_shrink", "sparse_plus",
              "sparse_sigmoid", "squareplus", "sparsemax"):
    row(f"{_name} of complex input", lambda b, t, n=_name: do(n, arr(b, X + 1j)), LIBRARY,
        (f"{_name} takes real numbers",), name=_name)
for _name in ("segment_min", "segment_prod"):
    row(f"{_name} with float ids", lambda b, t, n=_name: do(n, arr(b), arr(b)), LIBRARY,
        (f"{_name}: segment_ids must be integers",), name=_name)
row("in_top_k of float targets", lambda b, t: do("in_top_k", arr(b), arr(b, M23), 1), LIBRARY,
    ("in_top_k takes integer class indices",), name="in_top_k")
row("multi_hot of float indices", lambda b, t: do("multi_hot", arr(b), 3), LIBRARY,
    ("multi_hot takes integer class indices",), name="multi_hot")
row("slice past the end", lambda b, t: do("slice", arr(b, M23), (1, 2), (2, 2)), LIBRARY,
    ("slice: a slice of shape (2, 2) at [1, 2] does not fit",), name="slice")
row("slice_update past the end",
    lambda b, t: do("slice_update", arr(b, M23), (1, 0), arr(b, M23)), LIBRARY,
    ("slice_update: a slice of shape (2, 3) at [1, 0] does not fit",), name="slice_update")
row("scatter_update with a bad reduction",
    lambda b, t: do("scatter_update", arr(b, M23), [[0, 0]], [1.0], reduction="mean"), LIBRARY,
    ("scatter_update: reduction must be one of",), name="scatter_update")
row("saturate_cast to complex", lambda b, t: do("saturate_cast", arr(b), "complex64"), LIBRARY,
    ("saturate_cast takes real or boolean dtypes",), name="saturate_cast")
row("psnr of different shapes", lambda b, t: do("psnr", arr(b), arr(b, M23), 1.0), LIBRARY,
    ("psnr: x1 and x2 must have the same shape",), name="psnr")
row("extract_sequences with stride 0",
    lambda b, t: do("extract_sequences", arr(b), 2, 0), LIBRARY,
    ("extract_sequences: sequence_length and sequence_stride must be >= 1",),
    name="extract_sequences")

# the neural-network layer ops of keras.ops (docs/vocabulary.md): the composed checks
_X3 = np.arange(24.0).reshape(2, 4, 3)
row("max_pool with an unknown padding",
    lambda b, t: do("max_pool", arr(b, _X3), 2, padding="full"), LIBRARY,
    ("max_pool: padding must be 'valid' or 'same'",), name="max_pool")
row("average_pool of a vector", lambda b, t: do("average_pool", arr(b), 2), LIBRARY,
    ("average_pool takes (batch, spatial..., channels) inputs of rank >= 3",),
    name="average_pool")
row("adaptive_max_pool with a bad data_format",
    lambda b, t: do("adaptive_max_pool", arr(b, _X3), 2, data_format="NWC"), LIBRARY,
    ("adaptive_max_pool: data_format must be",), name="adaptive_max_pool")
row("categorical_crossentropy of mismatched shapes",
    lambda b, t: do("categorical_crossentropy", arr(b, M23), arr(b, _X3)), LIBRARY,
    ("categorical_crossentropy: target and output must have the same shape",),
    name="categorical_crossentropy")
row("sparse_categorical_crossentropy of float targets",
    lambda b, t: do("sparse_categorical_crossentropy", arr(b, X[:2]), arr(b, M23)), LIBRARY,
    ("sparse_categorical_crossentropy takes integer class indices",),
    name="sparse_categorical_crossentropy")
row("dot_product_attention of 3-D inputs",
    lambda b, t: do("dot_product_attention", arr(b, _X3), arr(b, _X3), arr(b, _X3)), LIBRARY,
    ("dot_product_attention takes 4-D",), name="dot_product_attention")
row("depth_to_space of channels that do not split",
    lambda b, t: do("depth_to_space", arr(b, _X3.reshape(2, 2, 2, 3)), 2), LIBRARY,
    ("depth_to_space: 3 channels are not a multiple of block_size**2 = 4",),
    name="depth_to_space")
row("unfold of a vector", lambda b, t: do("unfold", arr(b), 2), LIBRARY,
    ("unfold takes (N, C, H, W) inputs",), name="unfold")
row("depthwise_conv with a kernel of other channels",
    lambda b, t: do("depthwise_conv", arr(b, _X3), arr(b, np.ones((2, 2, 1)))), LIBRARY,
    ("depthwise_conv: the input has 3 channels, the kernel expects 2",),
    name="depthwise_conv")
row("conv_transpose with a negative output_padding",
    lambda b, t: do("conv_transpose", arr(b, _X3), arr(b, np.ones((2, 1, 3))), 2,
                    output_padding=-1), LIBRARY,
    ("conv_transpose: output_padding must be None, an int >= 0",), name="conv_transpose")

# ---------------------------------------------------------------- mixed libraries

row("mixed, positional", lambda b, t: do("add", arr(b), other(b)), MixedBackendError,
    ("do('add')", "'{b}'", "convert"), only=mixable)
row("mixed, positional reversed", lambda b, t: do("add", other(b), arr(b)), MixedBackendError,
    ("do('add')", "'{b}'", "convert"), only=mixable)
row("mixed, keyword", lambda b, t: do("where", arr(b) > 1, arr(b), y=other(b)),
    MixedBackendError, ("do('where')", "'{b}'"), only=mixable)
row("mixed, list", lambda b, t: do("stack", [arr(b), other(b)]), MixedBackendError,
    ("do('stack')", "'{b}'"), only=mixable)
row("mixed, list with numpy", lambda b, t: do("stack", [X, arr(b), other(b)]),
    MixedBackendError, ("do('stack')", "'{b}'"), only=mixable)
row("mixed, long list and keyword",
    lambda b, t: do("concatenate", [arr(b), arr(b), arr(b), other(b)], axis=0),
    MixedBackendError, ("do('concatenate')", "'{b}'"), only=mixable)
row("mixed, nested sequences", lambda b, t: do("stack", ([arr(b)], [other(b)])),
    MixedBackendError, ("do('stack')", "'{b}'"), only=mixable)
row("mixed, infer_backend_multi", lambda b, t: dispatch.infer_backend_multi(arr(b), other(b)),
    MixedBackendError, ("'{b}'", "convert"), only=mixable)

# ---------------------------------------------------------------- like=

row("like= an uninstalled library", lambda b, t: do("sum", arr(b), like="cupy"),
    BackendNotInstalledError, ("do('sum')", "'cupy'", "pip install"), only=cupy_missing)
row("like= an uninstalled library, creation", lambda b, t: do("zeros", (2,), like="cupy"),
    BackendNotInstalledError, ("do('zeros')", "'cupy'", "pip install"), only=cupy_missing)
row("like= a misspelt library", lambda b, t: do("sum", arr(b), like=typo(b)),
    UnknownBackendError, ("do('sum', like=", "Did you mean '{b}'", "register_backend"))
row("like='nmupy'", lambda b, t: do("zeros", (2,), like="nmupy"), UnknownBackendError,
    ("do('zeros', like='nmupy')", "Did you mean 'numpy'"))
row("like= in capitals", lambda b, t: do("sum", arr(b), like=b.upper()), UnknownBackendError,
    ("do('sum', like=", "Did you mean '{b}'"))
row("like= empty name", lambda b, t: do("sum", arr(b), like=""), UnknownBackendError,
    ("do('sum', like='')", "Known backends"))
row("like= an object of an unknown type", lambda b, t: do("sum", arr(b), like=Thing()),
    UnknownBackendError, ("do('sum', like=...)", "Thing", "register_backend"))
# like= a Python number means numpy (autoray's 'builtins'): tests/dispatch/test_infer_rules.py
row("an object no library owns, nothing else deciding", lambda b, t: do("sum", Thing()),
    UnknownBackendError, ("do('sum')", "Thing", "like=", "register_backend"))
row("like= a list", lambda b, t: do("zeros", (2,), like=[arr(b)]), UnknownBackendError,
    ("do('zeros', like=...)", "'list'"))
row("set_backend misspelt", lambda b, t: dispatch.set_backend(typo(b)), UnknownBackendError,
    ("set_backend(", "Did you mean '{b}'"))
row("set_backend object", lambda b, t: dispatch.set_backend(Thing()), UnknownBackendError,
    ("Thing",))
row("backend_like misspelt", lambda b, t: dispatch.backend_like(typo(b)).__enter__(),
    UnknownBackendError, ("backend_like(", "Did you mean '{b}'"))
row("get_lib_fn misspelt backend", lambda b, t: dispatch.get_lib_fn(typo(b), "sum"),
    UnknownBackendError, ("get_lib_fn(", "Did you mean '{b}'"))
row("get_lib_fn misspelt name", lambda b, t: dispatch.get_lib_fn(b, "sumn"),
    UnknownFunctionError, ("do('sumn')", "'{b}'", "Did you mean 'sum'"), name="sumn")
row("get_lib_fn private name", lambda b, t: dispatch.get_lib_fn(b, "__class__"),
    UnknownFunctionError, ("do('__class__')", "'{b}'", "private"), name="__class__")
row("supports with a non-string name", lambda b, t: dispatch.supports(3, b), TypeError,
    ("supports(3, '{b}')", "must be a string"))
row("set_backend to an uninstalled library", lambda b, t: dispatch.set_backend("cupy"),
    BackendNotInstalledError, ("set_backend('cupy')", "pip install array-dispatch[cupy]"),
    only=cupy_missing)
row("backend_like an uninstalled library",
    lambda b, t: dispatch.backend_like("cupy").__enter__(), BackendNotInstalledError,
    ("backend_like('cupy')", "pip install array-dispatch[cupy]"), only=cupy_missing)
row("namespace attribute that does not exist",
    lambda b, t: dispatch.get_namespace(arr(b)).sumn, UnknownFunctionError,
    ("has no attribute 'sumn'", "'{b}'", "Did you mean 'sum'"))
row("supports misspelt backend", lambda b, t: dispatch.supports("sum", typo(b)),
    UnknownBackendError, ("supports('sum'", "Did you mean '{b}'"))
row("convert to a misspelt backend", lambda b, t: dispatch.convert(arr(b), typo(b)),
    UnknownBackendError, ("convert(x,", "Did you mean '{b}'"))
row("convert to an uninstalled library", lambda b, t: dispatch.convert(arr(b), "cupy"),
    BackendNotInstalledError, ("'cupy'", "pip install"), only=cupy_missing)
row("get_namespace misspelt", lambda b, t: dispatch.get_namespace(typo(b)),
    UnknownBackendError, ("Did you mean '{b}'",))

# ---------------------------------------------------------------- registration

row("register_function: not callable", lambda b, t: dispatch.register_function(b, "probe", 3),
    TypeError, ("register_function('{b}', 'probe'", "callable", "int"))
row("register_function: None via decorator",
    lambda b, t: dispatch.register_function(b, "probe")(None), TypeError,
    ("register_function('{b}', 'probe'", "callable"))
row("register_function: non-string name",
    lambda b, t: dispatch.register_function(b, 3, _probe), TypeError,
    ("register_function('{b}', 3", "string"))
row("register_function: non-string backend",
    lambda b, t: dispatch.register_function(None, "probe", _probe), TypeError,
    ("register_function(None", "backend"))
# any module name is a backend in registrations (autoray's rule; a misspelt one is
# kept with a warning: tests/dispatch/test_registry.py), but not the standard
# library and not a name that cannot name a module
row("register_function: standard library module as backend",
    lambda b, t: dispatch.register_function("os", "probe", _probe), UnknownBackendError,
    ("register_function('os'", "not an array library", "register_backend"))
row("register_function: backend that is no module name",
    lambda b, t: dispatch.register_function(f"{b} x", "probe", _probe), UnknownBackendError,
    ("register_function(", "module name such as", "register_backend"))
for _name in ["", "_probe", "__call__", "linalg._probe", "a..b", "probe ", "pro-be", "1probe"]:
    row(f"register_function: bad name {_name!r}",
        lambda b, t, n=_name: dispatch.register_function(b, n, _probe), ValueError,
        ("register_function('{b}',", repr(_name), "not a valid function name", "'linalg.qr'"))
row("register_function: bad name, decorator form",
    lambda b, t: dispatch.register_function(b, "_probe"), ValueError,
    ("register_function('{b}', '_probe'", "not a valid function name"))
row("register_function: wrapper returns a non-callable",
    lambda b, t: dispatch.register_function(b, "sum", lambda fn: 3, wrap=True), TypeError,
    ("register_function('{b}', 'sum'", "wrap=True", "callable"), name="sum")
row("register_function: wrap of an unknown name",
    lambda b, t: dispatch.register_function(b, "frobnicate", lambda fn: fn, wrap=True),
    UnknownFunctionError, ("do('frobnicate')", "'{b}'"), name="frobnicate")
row("register_function: uninstalled library, wrap",
    lambda b, t: dispatch.register_function("cupy", "sum", lambda fn: fn, wrap=True),
    BackendNotInstalledError, ("'cupy'", "pip install"), only=cupy_missing)
row("unregister_function: non-string",
    lambda b, t: dispatch.unregister_function(b, ["sum"]), TypeError,
    ("unregister_function('{b}'", "strings"))
row("register_translation: missing target",
    lambda b, t: dispatch.register_translation(b, "probe", "no_such_target"),
    UnknownFunctionError, ("register_translation('{b}', 'probe', 'no_such_target')", "'{b}'"),
    name="probe")
row("register_translation: misspelt target",
    lambda b, t: dispatch.register_translation(b, "probe", "sumn"), UnknownFunctionError,
    ("register_translation('{b}', 'probe', 'sumn')", "Did you mean 'sum'"), name="probe")
row("register_translation: foreign target",
    lambda b, t: dispatch.register_translation(b, "probe", "os.system"), UnknownFunctionError,
    ("register_translation('{b}', 'probe', 'os.system')", "not part of '{b}'"), name="probe")
row("register_translation: private target",
    lambda b, t: dispatch.register_translation(b, "probe", "linalg._umath_linalg"),
    UnknownFunctionError, ("register_translation('{b}', 'probe'", "private"), name="probe")
row("register_translation: function of a foreign module",
    lambda b, t: dispatch.register_translation(b, "probe", "system", module="os"),
    UnknownFunctionError, ("register_translation('{b}', 'probe', 'system')", "outside"),
    name="probe")
row("register_translation: module that does not exist",
    lambda b, t: dispatch.register_translation(b, "probe", "f", module="no_such_module_xyz"),
    UnknownFunctionError, ("register_translation('{b}', 'probe', 'f')", "no_such_module_xyz"),
    name="probe")
row("register_translation: non-string target",
    lambda b, t: dispatch.register_translation(b, "probe", 3), TypeError,
    ("register_translation('{b}', 'probe', 3)", "target"))
row("register_translation: non-string rename",
    lambda b, t: dispatch.register_translation(b, "probe", "sum", axis=3), TypeError,
    ("register_translation('{b}', 'probe', 'sum')", "renames"))
row("register_translation: bad name",
    lambda b, t: dispatch.register_translation(b, "_probe", "sum"), ValueError,
    ("register_translation('{b}', '_probe', 'sum')", "not a valid function name"))
row("register_translation: misspelt backend",
    lambda b, t: _quiet(dispatch.register_translation, typo(b), "probe", "sum"),
    UnknownBackendError, ("register_translation(", "Did you mean '{b}'"))
row("register_translation: uninstalled library",
    lambda b, t: dispatch.register_translation("cupy", "probe", "sum"),
    BackendNotInstalledError, ("register_translation('cupy', 'probe', 'sum')", "pip install"),
    only=cupy_missing)
row("register_backend: not a type", lambda b, t: dispatch.register_backend(3, "mylib"),
    TypeError, ("register_backend(3, 'mylib')", "type or a module prefix"))
row("register_backend: array instance", lambda b, t: dispatch.register_backend(arr(b), "mylib"),
    TypeError, ("register_backend(", "type or a module prefix"))
row("register_backend: empty prefix", lambda b, t: dispatch.register_backend("", "mylib"),
    ValueError, ("register_backend('', 'mylib')", "module prefix"))
row("register_backend: non-string name", lambda b, t: dispatch.register_backend(Box, 3),
    TypeError, ("register_backend(", "Box", "string"))
row("register_backend: empty name", lambda b, t: dispatch.register_backend(Box, ""),
    ValueError, ("register_backend(", "not a valid backend name"))
row("register_backend: private name", lambda b, t: dispatch.register_backend(Box, "_mylib"),
    ValueError, ("register_backend(", "'_mylib'", "not a valid backend name"))
row("register_backend: non-string module",
    lambda b, t: dispatch.register_backend(Box, "mylib", module=3), TypeError,
    ("register_backend(", "module"))
row("register_backend: bad module name",
    lambda b, t: dispatch.register_backend(Box, "mylib", module="my lib"), ValueError,
    ("register_backend(", "'my lib'"))
for _p in [float("nan"), float("inf"), -float("inf")]:
    row(f"register_backend: priority {_p!r}",
        lambda b, t, p=_p: dispatch.register_backend(Box, "mylib", priority=p), ValueError,
        ("register_backend(", "priority must be a finite number", repr(_p)))
row("register_backend: priority not a number",
    lambda b, t: dispatch.register_backend(Box, "mylib", priority="high"), TypeError,
    ("register_backend(", "priority"))
row("register_backend: resolver not callable",
    lambda b, t: dispatch.register_backend(Box, "mylib", resolver=3), TypeError,
    ("register_backend(", "resolver"))
row("register_backend: onto an uninstalled library",
    lambda b, t: dispatch.register_backend(Box, "cupy"), BackendNotInstalledError,
    ("'cupy'", "pip install"), only=cupy_missing)
row("compose: not callable", lambda b, t: dispatch.compose(3), TypeError,
    ("compose(fn)", "int"))
row("compose: a lambda without name=", lambda b, t: dispatch.compose(lambda x: x),
    ValueError, ("compose(", "'<lambda>'", "not a valid function name"))
row("compose: non-string name", lambda b, t: dispatch.compose(_probe, name=3), TypeError,
    ("compose(..., name=3)", "string"))
row("compose: private name", lambda b, t: dispatch.compose(_probe, name="_probe"), ValueError,
    ("compose(..., name='_probe')", "not a valid function name"))
row("compose: decorator with a bad name", lambda b, t: dispatch.compose(name="a..b")(_probe),
    ValueError, ("compose(..., name='a..b')", "not a valid function name"))


@pytest.fixture(scope="module", autouse=True)
def loaded():
    """Load tables and composed fallbacks first: loading registers, which a bad input must not."""
    reg.composed()
    for b in ARRAY_BACKENDS:
        if _usable(b):
            reg.table(b)
    yield
    check_caches()


def good_call(b: str) -> None:
    """A correct call on ``b`` works and gives the right value."""
    x = arr(b)
    if mixable(b):
        other(b)  # the partner's conversion is set-up work, not part of a bad call
    np.testing.assert_allclose(to_np(do("sum", x)), 6.0)
    np.testing.assert_allclose(to_np(do("add", x, x)), 2 * X)
    np.testing.assert_allclose(to_np(do("zeros", (2,), like=b)), np.zeros(2))
    # building a namespace resolves what it reads of the array (its dtype's name): set-up
    # of the rows that ask a namespace for a bad attribute, not part of the bad call
    np.testing.assert_allclose(to_np(dispatch.get_namespace(x).sum(x)), 6.0)


def fmt(text: str, b: str) -> str:
    return text.replace("{b}", b)


def check_error(bad: Bad, b: str, err: BaseException) -> None:
    notes = getattr(err, "__notes__", [])
    text = "\n".join([str(err), *notes])
    if bad.exc == LIBRARY:
        if isinstance(err, UnsupportedError):
            assert repr(bad.name) in str(err), text
            assert repr(b) in str(err), text
            return
        assert not isinstance(err, DispatchError), text
        note = f"(raised inside dispatch.do({bad.name!r}) on backend {b!r})"
        assert note in notes, f"{type(err).__name__}: {text}"
    else:
        assert isinstance(err, bad.exc), f"{type(err).__name__}: {text}"  # type: ignore[arg-type]
        if not isinstance(err, DispatchError):
            # dispatch's own TypeError/ValueError names the call it rejects
            assert type(err) in (TypeError, ValueError), type(err)
            assert not notes, notes
    for s in bad.says:
        assert fmt(s, b) in text, f"{fmt(s, b)!r} not in {text!r}"


def params() -> Iterator[Any]:
    for bad in ROWS:
        yield pytest.param(bad, id=bad.desc.replace(" ", "-"))


@pytest.mark.parametrize("bad", list(params()))
def test_bad_input(bad: Bad, backend: str, tmp_path: Path, record_property) -> None:
    if not bad.only(backend):
        pytest.skip(f"does not apply to {backend}")
    good_call(backend)  # warm the caches a bad input must not disturb
    state = registry_state()
    before = cache_keys()
    try:
        result = bad.call(backend, tmp_path)
    except Exception as err:  # checked against the row below
        error = err
    else:
        pytest.fail(f"{bad.desc}: no error, returned {type(result).__name__}")
    record_property("bad_inputs", 1)
    check_error(bad, backend, error)
    assert not (tmp_path / "ran").exists(), "a refused name ran a shell command"
    assert registry_state() == state
    new = cache_keys() - before
    if bad.exc != LIBRARY:  # the failed call resolved nothing: nothing cached for it
        assert all(is_dispatcher(cached(k)) for k in new), new
    check_caches({bad.name, "sum", "add", "zeros", "stack", "concatenate", "where"})
    good_call(backend)
