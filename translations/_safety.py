"""What a name may reach, the facts that two or more tables share (docs/safety.md).

Each table states, next to ``MODULES``, the data the resolver enforces:
``SUBMODULES`` (the modules below its roots that hold array functions),
``CAPABILITY_MODULES`` (module prefix -> why nothing defined or reached there is
served), ``REFUSED`` (dotted path of an object -> why), ``IN_PLACE_SUFFIX`` and
``GUARDED`` (keyword values ``do`` pins, such as ``allow_pickle=False``).
"""

from __future__ import annotations

GLOBAL = "global configuration of the whole process"
PYTEST = "the test runner (it runs pytest)"


def in_place(alternative: str) -> str:
    """The reason given for a function that writes into its input."""
    return f"it writes into its input, and do never mutates its inputs: {alternative}"


# scipy's array modules, below ``scipy`` (numpy's table) or ``cupyx.scipy`` (cupy's)
SCIPY_SUBMODULES = (
    "special",
    "linalg",
    "signal",
    "signal.windows",
    "stats",
    "stats.qmc",
    "stats.mstats",
    "sparse",
    "sparse.linalg",
    "sparse.csgraph",
    "fft",
    "ndimage",
    "integrate",
    "interpolate",
    "optimize",
    "spatial",
    "spatial.distance",
    "spatial.transform",
    "cluster",
    "cluster.vq",
    "cluster.hierarchy",
    "differentiate",
    "constants",
)

SCIPY_REFUSED = {
    "scipy._lib._testutils.PytestTester": PYTEST,
    **dict.fromkeys(
        (
            "scipy.fft.register_backend",
            "scipy.fft.set_global_backend",
            "scipy.fft.set_backend",
            "scipy.fft.skip_backend",
            "scipy.fft.set_workers",
            "scipy.special.seterr",
            "scipy.cluster.hierarchy.set_link_color_palette",
        ),
        GLOBAL,
    ),
}

SCIPY_CAPABILITY = {
    "scipy._lib._testutils": PYTEST,
    "scipy._lib._ccallback": "a native function pointer (LowLevelCallable runs native code)",
    "scipy.datasets": "a data set download",
    "scipy.io": "file formats outside array computing",
    "scipy.linalg.blas": "raw BLAS wrappers (overwrite_* arguments write into their inputs)",
    "scipy.linalg.lapack": "raw LAPACK wrappers (overwrite_* arguments write into their inputs)",
}


def assertions(module: str, names: str) -> dict:
    """``TABLE`` entries ``"testing.<name>"`` for the array assertions of a test module.

    A library's test module is a capability module as a whole (numpy's builds and
    imports C extensions, runs code strings and measures processes); its assertion
    functions only compare arrays, so each is served by name here (the module is
    imported on the first call, not when the table loads).
    """
    import importlib

    def entry(name: str):
        found: list = []

        def assertion(*args, **kwargs):
            if not found:
                found.append(getattr(importlib.import_module(module), name))
            return found[0](*args, **kwargs)

        assertion.__name__ = assertion.__qualname__ = name
        assertion.__doc__ = f"``{module}.{name}``: it compares arrays and raises on a mismatch."
        return assertion

    return {f"testing.{n}": entry(n) for n in names.split()}
