"""Short public helpers over ``do``: one-name calls, converting trees, a bound name.

These carry autoray's names and calling conventions (``conj(x)``, ``dag(x)``,
``reshape(x, shape)``, ``to(tree, "torch-float32")``, ``DoFunc("sum")``), so that
a library written against autoray finds them where it looks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from dispatch._do import do
from dispatch._infer import backend_of_type, infer_backend
from dispatch._tree import tree_iter, tree_map

__all__ = [
    "DoFunc",
    "conj",
    "dag",
    "imag",
    "infer_backend_device_dtype",
    "real",
    "reshape",
    "stop_gradient",
    "to",
    "transpose",
    "tree_apply",
]


class DoFunc:
    """The function ``name`` with the backend chosen at each call: ``do`` bound to a name.

    Equivalent to ``functools.partial(do, name)``, cheaper to call.

    Parameters
    ----------
    fn : str
        A ``do`` name such as ``"sqrt"`` or ``"linalg.qr"``.

    Examples
    --------
    >>> import numpy as np
    >>> sqrt = DoFunc("sqrt")
    >>> sqrt
    <DoFunc sqrt>
    >>> sqrt(np.array([4.0, 9.0]))
    array([2., 3.])
    """

    __slots__ = ("fn",)

    def __init__(self, fn: str):
        self.fn = fn

    def __call__(self, *args: Any, like: Any = None, **kwargs: Any) -> Any:
        return do(self.fn, *args, like=like, **kwargs)

    def __repr__(self) -> str:
        return f"<DoFunc {self.fn}>"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.fn == self.fn  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((DoFunc, self.fn))

    def __reduce__(self) -> tuple:
        return (DoFunc, (self.fn,))


def conj(x: Any) -> Any:
    """Complex conjugate of ``x``, ``do("conj", x)``.

    >>> import numpy as np
    >>> conj(np.array([1 + 2j]))
    array([1.-2.j])
    """
    return do("conj", x)


def transpose(x: Any, *axes: Any) -> Any:
    """``x`` with its axes reversed, or permuted by ``axes``: ``do("transpose", x, *axes)``.

    >>> import numpy as np
    >>> transpose(np.ones((2, 3))).shape
    (3, 2)
    """
    return do("transpose", x, *axes)


def dag(x: Any) -> Any:
    """Hermitian conjugate: the conjugate of ``x`` with its axes reversed.

    For a matrix this is ``conj(x).T``; as with ``transpose``, all axes are
    reversed for other numbers of dimensions. Arrays of a library with an ``H``
    property (lazy arrays, torch matrices) give that.

    >>> import numpy as np
    >>> dag(np.array([[1j, 2.0]]))
    array([[0.-1.j],
           [2.-0.j]])
    """
    h = getattr(type(x), "H", None)
    if h is not None and backend_of_type(type(x)) not in (None, "numpy"):
        try:
            return x.H
        except (AttributeError, TypeError, RuntimeError):  # torch's H refuses non-matrices
            pass
    return do("conj", do("transpose", x))


def real(x: Any) -> Any:
    """Real part of ``x``, ``do("real", x)``.

    >>> import numpy as np
    >>> real(np.array([1 + 2j]))
    array([1.])
    """
    return do("real", x)


def imag(x: Any) -> Any:
    """Imaginary part of ``x``, ``do("imag", x)``.

    >>> import numpy as np
    >>> imag(np.array([1 + 2j]))
    array([2.])
    """
    return do("imag", x)


def reshape(x: Any, shape: Any) -> Any:
    """``x`` with a new shape, ``do("reshape", x, shape)``.

    >>> import numpy as np
    >>> reshape(np.arange(6), (2, 3)).shape
    (2, 3)
    """
    return do("reshape", x, shape)


def stop_gradient(x: Any) -> Any:
    """``x`` cut from automatic differentiation (unchanged on libraries without it).

    >>> import numpy as np
    >>> stop_gradient(np.ones(2))
    array([1., 1.])
    """
    return do("stop_gradient", x)


def tree_apply(f: Callable, tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> None:
    """Call ``f`` on every leaf of ``tree`` for its effect; return nothing.

    >>> import numpy as np
    >>> seen = []
    >>> tree_apply(seen.append, {"a": [np.ones(1), np.zeros(2)]})
    >>> len(seen)
    2
    """
    for leaf in tree_iter(tree, is_leaf):
        f(leaf)


def infer_backend_device_dtype(
    like: Any, device: Any = None, dtype: Any = None
) -> tuple[str | None, Any, Any]:
    """The backend, device and dtype that ``like`` stands for.

    Parameters
    ----------
    like : array, str or None
        An example array (its backend, ``device`` and ``dtype`` attributes fill
        what is not given), a backend name, or None (no backend).
    device, dtype : optional
        Explicit values; they win over those of ``like``.

    Returns
    -------
    (backend, device, dtype)
        ``backend`` is None when ``like`` is None. A Python scalar gives its
        type as dtype.

    Examples
    --------
    >>> import numpy as np
    >>> infer_backend_device_dtype(np.ones(2, dtype="float32"))
    ('numpy', 'cpu', dtype('float32'))
    >>> infer_backend_device_dtype("torch", dtype="float64")
    ('torch', None, 'float64')
    """
    if like is None or isinstance(like, str):
        return like, device, dtype
    backend = infer_backend(like)
    if device is None:
        device = getattr(like, "device", None)
    if dtype is None:
        dtype = getattr(like, "dtype", None)
        if dtype is None and isinstance(like, (bool, int, float, complex)):
            dtype = type(like)
    return backend, device, dtype


_DTYPE = re.compile(r"bool|(b?float|u?int|complex)\d+")
_DEVICE = re.compile(r"(cpu|cuda|gpu|mps|tpu|xpu|meta)(:\d+)?")


def _parse_target(spec: str) -> tuple[str | None, str | None, str | None]:
    """``"torch-float32-cuda:0"`` (any order, each part optional) -> its three parts."""
    backend = dtype = device = None
    for part in spec.split("-"):
        if not part:
            continue
        if _DTYPE.fullmatch(part):
            dtype = part
        elif _DEVICE.fullmatch(part):
            device = part
        elif backend is None:
            backend = part
        else:
            raise ValueError(
                f"to(..., {spec!r}): {part!r} is neither a dtype (such as 'float32') nor a "
                f"device (such as 'cpu' or 'cuda:0'), and the backend is already {backend!r}"
            )
    return backend, dtype, device


def _inexact(dtype_name: str) -> bool:
    return "float" in dtype_name or "complex" in dtype_name


def to(
    tree: Any,
    like: Any = None,
    *,
    backend: str | None = None,
    dtype: Any = None,
    device: Any = None,
) -> Any:
    """Convert an array, or every array in a nested list/tuple/dict, to a backend,
    dtype and/or device.

    Parameters
    ----------
    tree : array or nested containers of arrays
        Non-array leaves are returned unchanged; an array met twice is converted once.
    like : str or array, optional
        A target written ``"backend-dtype-device"`` (each part optional, any
        order, e.g. ``"torch-float32"``), or an example array.
    backend, dtype, device : optional
        Explicit targets, winning over ``like``. As with ``torch.nn.Module.to``,
        a ``dtype`` applies to floating point and complex arrays only, so index
        arrays keep their integer dtype.

    Examples
    --------
    >>> import numpy as np
    >>> ys = to({"a": np.ones(2), "i": np.arange(2)}, "numpy-float32")
    >>> ys["a"].dtype, ys["i"].dtype
    (dtype('float32'), dtype('int64'))
    """
    from dispatch._helpers import astype, get_dtype_name, is_array, to_device, to_numpy

    if isinstance(like, str):
        lb, ld, ldev = _parse_target(like)
        backend = backend if backend is not None else lb
        dtype = dtype if dtype is not None else ld
        device = device if device is not None else ldev
    elif like is not None:
        lb, ldev, ld = infer_backend_device_dtype(like, device, dtype)
        backend = backend if backend is not None else lb
        device, dtype = ldev, ld
    if dtype is not None and not isinstance(dtype, str):
        dtype = _dtype_name(dtype)
    cast = dtype is not None and _inexact(dtype)
    done: dict[int, Any] = {}

    def convert(x: Any) -> Any:
        if not is_array(x):
            return x
        if id(x) in done:
            return done[id(x)]
        leaf_dtype = dtype if cast and _inexact(get_dtype_name(x)) else None
        old = infer_backend(x)
        new = backend if backend is not None else old
        y = x
        if new != old:
            y = do("from_numpy", to_numpy(x), like=new)
        if leaf_dtype is not None and get_dtype_name(y) != leaf_dtype:
            y = astype(y, leaf_dtype)
        if device is not None:
            y = to_device(y, device)
        done[id(x)] = y
        return y

    return tree_map(convert, tree)


def _dtype_name(dtype: Any) -> str:
    """numpy's name (``'float32'``) of a library's dtype object, a numpy dtype, a Python
    type or a name. Some libraries' dtype objects name themselves in upper case
    (``FLOAT32``): numpy's names are lower case."""
    if isinstance(dtype, type):
        import numpy as np

        return np.dtype(dtype).name
    name = getattr(dtype, "name", None)
    return (name if isinstance(name, str) else str(dtype).rsplit(".", 1)[-1]).lower()
