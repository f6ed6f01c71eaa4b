"""How much of numpy's computing API and of keras.ops the vocabulary covers, per library.

numpy's computing functions are counted as installed numpy lists them: the callable
public names of ``numpy``, ``numpy.linalg`` and ``numpy.fft`` that are not classes or
modules, and the methods of ``numpy.random.Generator``, less the groups in
:data:`EXCLUDED` (each with its reason). keras.ops' ops are the public callables of
``keras.ops`` less its three submodules; an op counts when the vocabulary has its
name or the documented alias in :data:`KERAS_ALIASES` (docs/vocabulary.md, "Coverage").
A name counts on a library when ``dispatch.supports(name, library)`` says it resolves
there (native, composed or registered); an ``unsupported`` entry does not count.

Usage::

    python benchmarks/vocabulary_census.py                 # the table
    python benchmarks/vocabulary_census.py --missing torch # and what torch lacks
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import types
import warnings

import numpy as np

import dispatch

LIBRARIES = ("numpy", "torch", "jax", "tensorflow", "dask")
# libraries counted where they are installed (no CI platform is promised to have them)
LIBRARIES += tuple(lib for lib in ("mlx", "paddle", "autograd") if importlib.util.find_spec(lib))

# groups left out of numpy's count: not computing on arrays, or writing into them
EXCLUDED = {
    "file and buffer I/O (arrays come from the library's own loaders)": (
        "load loadtxt save savetxt savez savez_compressed genfromtxt fromfile frombuffer "
        "fromregex fromstring"
    ),
    "printing and string formatting": (
        "array2string array_repr array_str format_float_positional format_float_scientific "
        "set_printoptions get_printoptions printoptions base_repr binary_repr typename"
    ),
    "datetime and business days": (
        "busday_count busday_offset is_busday datetime_as_string datetime_data isnat"
    ),
    "floating-point error state and buffer sizes (numpy's global settings)": (
        "seterr geterr seterrcall geterrcall setbufsize getbufsize"
    ),
    "the matrix class": "asmatrix bmat",
    "in-place mutators (they write into their argument; the vocabulary never mutates)": (
        "copyto place put putmask fill_diagonal put_along_axis random.shuffle"
    ),
    "numpy's own build, test and introspection helpers": (
        "get_include show_config show_runtime test info linalg.test fft.test nested_iters "
        "frompyfunc"
    ),
    "generator plumbing (child generators)": "random.spawn",
}
EXCLUDED_NAMES = frozenset(n for names in EXCLUDED.values() for n in names.split())

# keras.ops names whose vocabulary name differs, with the same semantics
# (keras's linear algebra ops are numpy's linalg.*, its special functions scipy's)
KERAS_ALIASES = {
    **{n: f"linalg.{n}" for n in (
        "cholesky det eig eigh inv lstsq matrix_rank norm pinv qr slogdet solve").split()},
    "lu_factor": "scipy.linalg.lu_factor",
    "erfc": "scipy.special.erfc",
    "erfinv": "scipy.special.erfinv",
    "logsumexp": "scipy.special.logsumexp",
    "convert_to_numpy": "to_numpy",
    "convert_to_tensor": "asarray",
    "dtype": "get_dtype_name",
}
KERAS_SUBMODULES = ("image", "linalg", "nn")


def numpy_names() -> list[str]:
    names = []
    for prefix, module in (("", np), ("linalg.", np.linalg), ("fft.", np.fft)):
        for n in dir(module):
            v = getattr(module, n)
            if n.startswith("_") or isinstance(v, (types.ModuleType, type)) or not callable(v):
                continue
            names.append(prefix + n)
    gen = np.random.default_rng()
    names += [f"random.{n}" for n in dir(gen) if not n.startswith("_")
              and callable(getattr(gen, n))]
    return sorted(n for n in names if n not in EXCLUDED_NAMES)


def keras_names() -> list[str]:
    import keras.ops as ops

    return sorted(n for n in dir(ops) if not n.startswith("_") and n not in KERAS_SUBMODULES)


def covered(names: list[str], library: str, aliases: dict[str, str] | None = None) -> list[str]:
    aliases = aliases or {}
    return [n for n in names if dispatch.supports(aliases.get(n, n), library) is not None]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--missing", nargs="*", default=(), help="list what these libraries lack")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    if importlib.util.find_spec("paddle") is not None:
        import paddle  # noqa: F401  (paddle 3.3 crashes when imported after tensorflow)
    groups = {"numpy": (numpy_names(), None)}
    try:
        groups["keras.ops"] = (keras_names(), KERAS_ALIASES)
    except ImportError:
        print("keras is not installed: keras.ops is not counted")
    print(f"| API | names | {' | '.join(LIBRARIES)} |")
    print(f"|---|---:|{'---:|' * len(LIBRARIES)}")
    missing: dict[tuple[str, str], list[str]] = {}
    for label, (names, aliases) in groups.items():
        cells = []
        for lib in LIBRARIES:
            have = covered(names, lib, aliases)
            missing[label, lib] = sorted(set(names) - set(have))
            cells.append(f"{len(have)} ({len(have) / len(names):.1%})")
        print(f"| {label} | {len(names)} | {' | '.join(cells)} |")
    for lib in args.missing:
        for label in groups:
            print(f"\n{label} on {lib}, missing: {' '.join(missing[label, lib]) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
