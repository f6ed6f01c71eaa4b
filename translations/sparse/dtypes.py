"""pydata sparse: the memory questions of numpy's array routines have no answer on
a sparse array, which stores coordinates and values, not a strided buffer of its
elements. The dtype routines are the composed ones of
``translations/_composed/dtypes.py`` (numpy's answers; sparse's dtypes are numpy's).
"""

from __future__ import annotations

from dispatch.translations._composed.creation import one_layout_asfortranarray

from dispatch.engine import unsupported

_NO_BUFFER = ("a pydata sparse array stores coordinates and values, not a strided buffer of "
              "its elements: it has no memory order and no element memory to share")

TABLE = {
    "isfortran": unsupported(_NO_BUFFER),
    "shares_memory": unsupported(_NO_BUFFER),
    "may_share_memory": unsupported(_NO_BUFFER),
    # no order to set, none to observe: numpy's answer, an equal array (at least 1-d)
    "asfortranarray": one_layout_asfortranarray("sparse"),
}
