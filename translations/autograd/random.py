"""autograd: numpy's random draws. A draw is a constant of autograd's computation
(no derivative flows through it): numpy's table draws it, dtype keywords included."""

from __future__ import annotations

from dispatch.translations import numpy as _numpy

# numpy's entries of the random names, which autograd.numpy.random wraps unchanged
TABLE = {name: entry for name, entry in _numpy.TABLE.items() if name.startswith("random.")}
