"""autograd: numpy names on autograd's boxes (``ArrayBox``) and arrays.

autograd differentiates numpy code: inside ``autograd.grad(f)`` the arguments of
``f`` are boxes that wrap numpy arrays, and every function of ``autograd.numpy``
records itself on them. Outside a trace autograd's arrays are numpy's own
ndarrays, so only a box names this backend; ``do("sin", box)`` is
``autograd.numpy.sin(box)``, a box, and gradients flow through ``do``.

Names resolve to ``autograd.numpy`` and ``autograd.scipy`` (numpy's and scipy's
semantics, recorded for differentiation); the composed fallbacks, written with
``do``, serve the rest and record through the same names. numpy arrays are
constants that autograd's functions take as they are (no conversion). Writing
into a box is impossible (autograd records pure functions only): the in-place
names are refused, as on every library. An ndarray subclass that is no box
(``pennylane.numpy.tensor``) is numpy's, whichever module was imported first.

The entries, by topic: ``devices`` (conversions, dtypes, the host device),
``autodiff`` (the backend method list's ``gradient``, ``jacobian``, ``hessian``
through ``autograd.grad``, ``autograd.jacobian``, and autograd's own names) and
``indexing`` (``flip``, ``take``, ``copy`` written with indexing, which autograd
differentiates) and ``random`` (numpy's draws: constants of a computation).
"""

from __future__ import annotations

from dispatch.translations._adapters import merge_topics
from dispatch.translations.autograd import (
    autodiff,
    devices,
    elementwise,
    fft,
    indexing,
    linalg,
    random,
    reductions,
    shape,
    sparse,
    special,
)

TYPES = ("autograd",)
MODULES = {"": "autograd.numpy", "scipy": "autograd.scipy"}
# what a name may reach (docs/safety.md): autograd's numpy and scipy wrappers
SUBMODULES = ("autograd.numpy.linalg", "autograd.numpy.fft", "autograd.numpy.random",
              "autograd.scipy.*")
# autograd's functions take numpy arrays as they are: an autograd array is one
CONVERT_CONSTANTS = False


def is_array_type(cls: type) -> bool:
    """Only boxes are autograd's arrays (its other classes are nodes and spaces)."""
    return any(k.__name__ == "ArrayBox" for k in cls.__mro__)


TABLE = merge_topics(devices, autodiff, elementwise, fft, reductions, shape, indexing, linalg,
                     special, sparse, random)
