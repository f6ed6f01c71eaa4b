"""The miss path under tracing compilers: run it outside the trace, read its result back.

A miss runs once per combination of types, and does what no tracing compiler
follows: it takes the registry's lock, imports modules (file-system look-ups), reads
signatures. ``torch.compile``'s tracer (dynamo) runs a function that carries the
attribute ``_dynamo_marked_constant`` as plain Python at trace time and keeps its
result, which must be a constant (a str, a number, None): a callable or a module is
refused. So a miss that builds a callable parks it as an attribute of
:data:`PARKED` and returns the attribute's name; the traced caller reads it back
with ``getattr``, which the tracer reads live (a dict it read before the miss is a
snapshot to it, without the new entry).

The tracer also guards the compiled code on what the trace read, such as "this key
is not in the cache" after a miss. A miss run by the tracer therefore stores nothing
in the caches that traced code reads (``_registry.store`` and ``store_call``, the
loaded tables ask :func:`tracing`): the guard holds, and the first eager call after
the compilation fills the caches as usual (the compiled function is then traced once
more, on the warm cache).

Other tracers (``jax.jit``, ``tf.function``) run Python as it is and never look at
the attribute. Plain Python pays, per miss, a frame check and one more call; the hot
path is untouched. No library is named or imported here: the marker is an attribute.
"""

from __future__ import annotations

import functools
import itertools
import sys
import threading
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

# Values built by a miss that a tracer ran: attribute name -> value, and
# id(value) -> attribute name. Emptied with the caches (``clear_caches``).
PARKED = SimpleNamespace()
_PARKED_AS: dict[int, str] = {}
# attribute names are never reused, not even after ``forget_parked``: a trace under way
# keeps what it read of ``PARKED`` (a registry change inside a miss it runs empties the
# caches), so a name given to a second value would read back the first one
_NAMES = itertools.count()
_LOCK = threading.Lock()
_TRACE = threading.local()
_MISSING = object()


def tracing() -> bool:
    """Whether this thread runs a miss on behalf of a tracing compiler."""
    return getattr(_TRACE, "depth", 0) > 0


def forget_parked() -> None:
    """Drop the parked values (called by ``clear_caches``).

    Not while a miss runs for a tracer: the trace under way has read parked values and
    guards its compiled code on them (a composed module loaded by that very miss
    registers its functions, which empties the caches). They are dropped at the next
    change of the registry outside a trace."""
    if tracing():
        return
    with _LOCK:
        vars(PARKED).clear()
        _PARKED_AS.clear()


def _called_by_tracer(frame: Any) -> bool:
    """A marked function called from outside dispatch is run by a tracer (its own
    callers are dispatch's modules, the tables and composed fallbacks included)."""
    module = frame.f_globals.get("__name__", "") if frame is not None else ""
    return module != "dispatch" and not module.startswith("dispatch.")


def _as_tracer(fn: Callable, args: tuple) -> Any:
    """``fn(*args)`` with the caches left as they are (see :func:`tracing`)."""
    _TRACE.depth = getattr(_TRACE, "depth", 0) + 1
    try:
        return fn(*args)
    finally:
        _TRACE.depth -= 1


def _park(value: Any) -> str:
    """The attribute of ``PARKED`` that holds ``value`` (parked on first use)."""
    with _LOCK:
        name = _PARKED_AS.get(id(value))
        if name is None:
            name = f"v{next(_NAMES)}"
            _PARKED_AS[id(value)] = name
            setattr(PARKED, name, value)
        return name


def traced_constant(fn: Callable) -> Callable:
    """Mark ``fn``, a miss-path function of constant arguments that returns a
    constant (a str, a number, None), to run as plain Python under a tracing
    compiler: its result becomes a constant of the trace, and it caches nothing."""

    @functools.wraps(fn)
    def constant(*args: Any) -> Any:
        if not _called_by_tracer(sys._getframe(1)):
            return fn(*args)
        return _as_tracer(fn, args)

    constant._dynamo_marked_constant = True  # type: ignore[attr-defined]
    return constant


def outside_traces(build: Callable[..., Any]) -> Callable[..., Any]:
    """``build``, a miss-path function of constant arguments (names, types, flags)
    that returns a value a tracer cannot keep as a constant (a callable, a module),
    run outside any trace; its result is read back inside.

    The result of ``build`` must depend on nothing but its arguments and the
    registry, since a compiled trace keeps it (as the caches do). Called by plain
    Python, it is ``build`` behind two more frames.
    """

    def parked(*args: Any) -> str:
        if not _called_by_tracer(sys._getframe(1)):
            return ""  # plain Python: ``run`` builds it
        return _park(_as_tracer(build, args))

    parked._dynamo_marked_constant = True  # type: ignore[attr-defined]

    @functools.wraps(build)
    def run(*args: Any) -> Any:
        name = parked(*args)
        if name:  # a tracer runs this: the value was built and parked outside the trace
            value = getattr(PARKED, name, _MISSING)
            if value is not _MISSING:  # (a registration in another thread clears PARKED)
                return value
        return build(*args)

    return run
