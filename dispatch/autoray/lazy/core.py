"""``autoray.lazy.core``: :mod:`dispatch.lazy.core`, the sharing cache and node helpers."""

from dispatch.lazy.core import *  # noqa: F403
from dispatch.lazy.core import __all__ as _engine_all

__all__ = tuple(_engine_all)
