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
