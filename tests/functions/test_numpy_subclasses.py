"""A subclass of ``numpy.ndarray`` comes back as that subclass wherever numpy keeps it.

Libraries wrap numpy's arrays in subclasses (quimb's ``qarray``, PennyLane's
``numpy.tensor``, astropy's ``Quantity``) and rely on numpy handing them back:
``np.sin``, ``np.astype`` and ``np.ones_like`` return the subclass. ``do`` on such an
array must too, so every name of numpy's namespace that numpy answers with the
subclass is called here in the simplest call forms (one array; two arrays; an array
and a dtype; an array and an axis) and ``do``'s answer must have the same type. The
names come from numpy's namespace, not from a list, so that a name added later is
walked too.
"""

from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest

from dispatch import do


class Wrapped(np.ndarray):
    """A subclass defined outside numpy, as a client library would."""


X = np.arange(1.0, 7.0).reshape(2, 3).view(Wrapped)
CALL_FORMS = {
    "array": lambda: (X,),
    "two arrays": lambda: (X, X),
    "array and dtype": lambda: (X, np.float32),
    "array and axis": lambda: (X, 0),
}
# printing, configuration and the test runner: not array functions
_SKIP = {"info", "show_config", "show_runtime", "test", "printoptions", "set_printoptions"}
NAMES = sorted(
    n for n in dir(np) if not n.startswith("_") and n not in _SKIP and callable(getattr(np, n))
)


def _quiet(fn, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(io.StringIO()):
            return fn(*args)


@pytest.mark.parametrize("form", list(CALL_FORMS))
def test_do_keeps_the_subclass_where_numpy_does(form):
    kept, lost = 0, []
    for name in NAMES:
        args = CALL_FORMS[form]()
        try:
            ref = _quiet(getattr(np, name), *args)
        except Exception:
            continue  # not a call form of this name
        if type(ref) is not Wrapped:
            continue
        try:
            out = _quiet(lambda *a, name=name: do(name, *a), *args)
        except Exception:
            continue  # refused (a writing function, a name outside the vocabulary)
        if type(out) is Wrapped:
            kept += 1
        else:
            lost.append(f"{name}: {type(out).__name__}")
    assert not lost, f"{form}: numpy keeps the subclass, do does not: {lost}"
    assert kept > 10  # the walk reached the vocabulary
