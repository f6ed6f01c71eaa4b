"""``autoray.compiler``: :func:`autojit`, dispatch's trace-and-replay compiler."""

from dispatch.lazy import autojit

__all__ = ("autojit",)
