"""dask: the memory questions of numpy's array routines have no answer on a dask
array, a graph of chunks computed on demand, each chunk a numpy array of its own
layout. The dtype routines are the composed ones of
``translations/_composed/dtypes.py`` (numpy's answers; dask's dtypes are numpy's).
"""

from __future__ import annotations

from dispatch.engine import unsupported

_NO_MEMORY = ("a dask array is a graph of chunks computed on demand, each chunk a numpy "
              "array of its own: the dask array has no memory, hence no layout and nothing "
              "to share; ask the computed chunks")

TABLE = {
    "isfortran": unsupported(_NO_MEMORY),
    "shares_memory": unsupported(_NO_MEMORY),
    "may_share_memory": unsupported(_NO_MEMORY),
}
