"""``autoray.lazy``: dispatch's lazy arrays (:mod:`dispatch.lazy`) under autoray's
module names; ``core``, ``linalg`` and ``draw`` are its submodules as autoray
ships them. Every module-level function (``lazy.stack``...) records a node, as in
:mod:`dispatch.lazy`."""

from typing import Any

import dispatch.lazy as _engine
from dispatch.autoray.lazy import core, draw, linalg
from dispatch.lazy import *  # noqa: F403  (the face re-exports the engine's lazy module)

__all__ = tuple(_engine.__all__)
_ = (core, draw, linalg)


def __getattr__(name: str) -> Any:
    return getattr(_engine, name)
