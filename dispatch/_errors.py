"""Exception types raised by dispatch, each naming the function and backend involved."""

from __future__ import annotations

import difflib
import os
import sys
import warnings
from collections.abc import Iterable
from types import FrameType

__all__ = [
    "BackendNotInstalledError",
    "DispatchError",
    "MixedBackendError",
    "RefusedNameError",
    "UnknownBackendError",
    "UnknownFunctionError",
    "UnsupportedError",
]


class DispatchError(Exception):
    """Base class of every error raised by the dispatch machinery itself."""


class UnknownFunctionError(DispatchError, AttributeError):
    """No translation, composed fallback or public library function has this name."""


class RefusedNameError(UnknownFunctionError):
    """The name reaches something that is not an array function of the library: a
    method of an object, machinery beyond array computing (processes, native code,
    unpickling, downloads, global configuration) or a function that writes into its
    input. The message says which; docs/safety.md states the rule."""


class UnsupportedError(DispatchError, NotImplementedError):
    """The backend's table marks this function as unsupported, with a reason."""


class MixedBackendError(DispatchError, TypeError):
    """Arrays of two different non-constant libraries were passed to one call."""


class UnknownBackendError(DispatchError, ValueError):
    """A backend name or an object's type is not known to dispatch."""


class BackendNotInstalledError(DispatchError, ImportError):
    """The library behind a known backend is not installed."""


def suggest(name: str, candidates: Iterable[str], n: int = 3) -> str:
    """Return ``" Did you mean 'a', 'b'?"`` for the closest candidates, or ``""``."""
    if not isinstance(name, str):
        return ""
    pool = {c for c in candidates if isinstance(c, str)}
    close = difflib.get_close_matches(name, pool, n=n, cutoff=0.6)
    if not close and name.lower() != name:
        # 'SUM', 'Torch': compare ignoring case
        lower = {c.lower(): c for c in sorted(pool)}
        close = [lower[c] for c in difflib.get_close_matches(name.lower(), lower, n=n, cutoff=0.6)]
    if not close and "." in name:
        # 'linalg.qrr' -> also compare the last component against the pool
        tail = name.rsplit(".", 1)[1]
        close = [c for c in difflib.get_close_matches(tail, pool, n=n, cutoff=0.75)]
    if not close:
        return ""
    return " Did you mean " + ", ".join(repr(c) for c in close) + "?"


def short(x: object, n: int = 40) -> str:
    """``repr(x)`` cut to ``n`` characters, for messages about arbitrary objects."""
    try:
        r = repr(x)
    except Exception:  # a broken __repr__ must not hide the real error
        r = f"<{type(x).__name__} object>"
    return r if len(r) <= n else r[: n - 3] + "..."


# the folders whose frames are dispatch's own: the engine and its tables (installed as
# dispatch.translations, whose files may lie outside dispatch/ in a source checkout)
_OWN = tuple(
    os.path.realpath(os.path.join(os.path.dirname(__file__), *sub)) + os.sep
    for sub in ((), ("..", "translations"))
)


def warn_at_caller(message: str) -> None:
    """A UserWarning at the first frame outside dispatch: the user's line that made the
    call, however many of dispatch's own frames (a face, ``Composed.register``) lie
    between."""
    # "no mutate" for benchmarks/mutation.py: the test of where the warning points
    # cannot run under mutmut, whose trampolines add frames of its own package
    level = 1  # pragma: no mutate
    frame: FrameType | None = sys._getframe(0)  # pragma: no mutate
    while frame is not None and _own(frame.f_code.co_filename):  # pragma: no mutate
        level, frame = level + 1, frame.f_back  # pragma: no mutate
    warnings.warn(message, UserWarning, stacklevel=level)  # pragma: no mutate


def _own(filename: str) -> bool:
    return os.path.realpath(filename).startswith(_OWN)  # pragma: no mutate
