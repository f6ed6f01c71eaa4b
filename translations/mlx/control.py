"""mlx: the method list's ``jit_compile`` through ``mx.compile``.

``mx.compile`` traces the function on its array arguments and takes the other
arguments as constants of the trace (a new value compiles again), as jax.jit with
static arguments. The loops and conditionals (``while_loop``, ``cond``, ``scan``,
``fori_loop``...) are the composed ones: mlx has no traced control flow, and its
arrays are evaluated when a Python condition reads them.
"""

from __future__ import annotations

from collections.abc import Callable

import mlx.core as mx
from dispatch.translations._adapters import require_callable


def _jit_compile(f: Callable) -> Callable:
    """The list's ``jit_compile``: ``f`` compiled by ``mx.compile``.

    Examples
    --------
    >>> import mlx.core as mx
    >>> from dispatch import do
    >>> power = do("jit_compile", lambda x, n: x ** n, like="mlx")
    >>> power(mx.arange(3.0), 2).tolist()
    [0.0, 1.0, 4.0]
    """
    require_callable("jit_compile", "f", f)
    return mx.compile(f)


TABLE = {
    "jit_compile": _jit_compile,
}
