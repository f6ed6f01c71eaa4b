"""``autoray.lazy.linalg``: each function records a lazy ``linalg.*`` node."""

from typing import Any

from dispatch.lazy import _lazy_function

svd = _lazy_function("linalg.svd")
qr = _lazy_function("linalg.qr")
eig = _lazy_function("linalg.eig")
eigh = _lazy_function("linalg.eigh")
inv = _lazy_function("linalg.inv")
cholesky = _lazy_function("linalg.cholesky")
solve = _lazy_function("linalg.solve")
norm = _lazy_function("linalg.norm")


def __getattr__(name: str) -> Any:
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _lazy_function(f"linalg.{name}")
