"""Shared fixtures: one ``backend`` fixture over every shipped translation table.

Known gaps come from ``unsupported(...)`` entries in the tables and become
strict xfails, so a gap that starts working forces its entry out.
"""

from __future__ import annotations

import importlib
import os
import pkgutil

import numpy as np
import pytest

import dispatch.translations as translations
from dispatch import do
from dispatch.spec import Unsupported

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

BACKENDS = sorted(
    m.name for m in pkgutil.iter_modules(translations.__path__) if not m.name.startswith("_")
)
# the module to import to know a backend is usable
LIBRARY = {"dask": "dask.array", "cupy": "cupy"}
# backends whose arrays the generic function tests run on (scipy's arrays are
# scipy.sparse matrices, tested on their own)
ARRAY_BACKENDS = [b for b in BACKENDS if b != "scipy"]


def _usable(backend: str) -> bool:
    try:
        importlib.import_module(LIBRARY.get(backend, backend))
    except Exception:
        return False
    if backend == "cupy":
        import cupy

        try:
            return cupy.cuda.runtime.getDeviceCount() > 0
        except Exception:
            return False
    return True


def pytest_configure(config):
    try:
        import jax

        jax.config.update("jax_enable_x64", True)  # compare float64 against numpy
    except ImportError:
        pass


def known_gap(backend: str, name: str | None) -> str | None:
    """The reason of an ``unsupported`` entry for ``name`` on ``backend``, if any."""
    if name is None:
        return None
    mod = importlib.import_module(f"dispatch.translations.{backend}")
    spec = getattr(mod, "TABLE", {}).get(name)
    return spec.reason if isinstance(spec, Unsupported) else None


@pytest.fixture(params=ARRAY_BACKENDS)
def backend(request):
    """Every installed array backend; ``unsupported`` names become strict xfails."""
    if not _usable(request.param):
        pytest.skip(f"{request.param} is not installed (or has no device here)")
    callspec = getattr(request.node, "callspec", None)
    name = callspec.params.get("name") if callspec else None
    if isinstance(name, str) and (reason := known_gap(request.param, name)):
        request.node.add_marker(pytest.mark.xfail(reason=reason, strict=True))
    return request.param


def to_backend(x, backend):
    """Move a numpy array (or nested list/tuple of them) to ``backend``."""
    if isinstance(x, (list, tuple)):
        return type(x)(to_backend(v, backend) for v in x)
    if isinstance(x, np.ndarray):
        return do("asarray", x, like=backend)
    return x


def to_np(x):
    """Bring a backend result (or nested tuple of results) back to numpy."""
    if isinstance(x, (list, tuple)):
        return type(x)(to_np(v) for v in x)
    if hasattr(x, "_fields"):
        return tuple(to_np(v) for v in x)
    return do("to_numpy", x) if not isinstance(x, (int, float, complex, bool)) else np.asarray(x)
