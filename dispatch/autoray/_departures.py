"""Where ``dispatch.autoray.do`` departs from ``dispatch.do``: autoray's conventions.

Each departure is stated once here, as data or a small adapter, and listed with
its reason in docs/migrating.md. Everything not named here is ``dispatch.do``'s
behaviour (the engine's inference, resolution, tables and caches). One departure
lives beside the face's ``do`` instead, because ``do`` checks it on every call:
autoray's ``set_backend``/``backend_like``, an override of every call's backend
(``dispatch.autoray._face``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

# autoray's backend name of Python values (numbers, lists, tuples, None); its names
# are looked up on numpy, never on Python's ``builtins`` module
BUILTINS = "builtins"
BUILTINS_BACKEND = "numpy"

# backends autoray spells otherwise (what infer_backend answers; like= takes both)
BACKEND_NAMES = {"lazy": "autoray.lazy"}

# keyword defaults where autoray's differ from numpy's: autoray returns thin SVD
# factors on every library, and its clients build on them (quimb's decompositions)
DEFAULTS: dict[str, dict[str, Any]] = {
    "linalg.svd": {"full_matrices": False},
}

# names whose documented purpose is to write into an argument or to configure the
# library's state for a block: autoray passes them to the library's own attribute
# of that name, and its clients use them on purpose (``copyto`` into a buffer,
# ``with do("no_grad", like=x):`` around a step); ``dispatch.do`` refuses them
PASS_THROUGH: dict[str, str] = {
    "copyto": "writes the source into its first argument",
    "no_grad": "the library's context manager that turns gradient recording off",
}

# autoray's rule for mixed arrays: two libraries' arrays in one call (a torch
# tensor and an autograd box) are sent to the library of the first argument, where
# dispatch.do raises MixedBackendError; a call whose first argument is a list or
# tuple (``nonzero``'s result) goes to numpy unless the name takes a sequence of
# arrays (``stack``), where dispatch.do would look inside it
FIRST_ARGUMENT_DECIDES = True


def complex_add(real: Any, imag: Any) -> Any:
    """autoray's ``complex(real, imag)`` where a library lacks numpy's complex dtype:
    the library's own ``real + 1j * imag``."""
    return real + 1j * imag


# (backend, name) where the library cannot give numpy's result dtype, so that
# dispatch.do refuses with the reason, while autoray computes in the library's own:
# mlx has no complex128, and autoray's complex(real, imag) of float64 parts is mlx's
# real + 1j * imag, complex64 (autoray's tests build every complex mlx array so)
LIBRARY_FUNCTIONS: dict[tuple[str, str], Callable[..., Any]] = {
    ("mlx", "complex"): complex_add,
}


_RANDOM_DISTS = ("normal", "uniform", "rademacher")
_REAL_OF = {"complex64": "float32", "complex128": "float64"}


def random_array(
    shape: Any,
    dist: str = "normal",
    loc: Any = 0.0,
    scale: Any = 1.0,
    dtype: Any = None,
    device: Any = None,
    rng: Any = None,
    like: Any = None,
) -> Any:
    """autoray's one random API: ``loc + scale * z``, ``z`` drawn from ``dist``.

    Parameters
    ----------
    shape : tuple of int
        Shape of the result.
    dist : {"normal", "uniform", "rademacher"}
        The distribution of ``z``: standard normal (a complex one of total variance
        one), uniform on [0, 1) (the unit square for complex dtypes), or uniform on
        {-1, +1} (the four roots of unity for complex dtypes).
    loc, scale : number or array
        Applied after sampling.
    dtype : str or dtype, optional
        Default ``like``'s dtype when ``like`` is an array, else float64.
    device : optional
        Default ``like``'s device.
    rng : int, generator or key, optional
        None draws from the library's shared random state; an int seeds a new
        generator; a library's generator (or jax key) is used, and decides the
        backend.
    like : str or array, optional
        The backend (default: the generator's, else numpy).

    Examples
    --------
    >>> x = random_array((2, 3), dist="uniform", rng=0, like="numpy")
    >>> x.shape, x.dtype, bool((x >= 0).all() and (x < 1).all())
    ((2, 3), dtype('float64'), True)
    """
    from dispatch import astype, do, get_dtype_name, infer_backend, to_device
    from dispatch._shortcuts import infer_backend_device_dtype

    if dist not in _RANDOM_DISTS:
        raise ValueError(
            f"do('random.array'): unknown distribution {dist!r}, expected one of {_RANDOM_DISTS}"
        )
    if like is None or (isinstance(like, str) and like == BUILTINS):
        like = (
            BUILTINS_BACKEND
            if rng is None or isinstance(rng, int)
            else getattr(rng, "BACKEND", None) or infer_backend(rng)  # dispatch's generators
        )
    backend, device, dtype = infer_backend_device_dtype(like, device, dtype)
    name = "float64" if dtype is None else get_dtype_name(do("empty", 0, dtype=dtype, like=backend))
    if rng is not None:
        rng = do("random.default_rng", rng, like=backend)

    def draw(d: str, dt: str) -> Any:
        if rng is None:
            x = do(f"random.{'normal' if d == 'normal' else 'uniform'}", size=shape, like=backend)
        elif d == "normal":
            x = rng.standard_normal(size=shape)
        else:
            x = rng.random(size=shape)
        if get_dtype_name(x) != dt:
            x = astype(x, dt)
        return x

    real = _REAL_OF.get(name, name)
    if dist == "rademacher":
        sign = 1.0 - 2.0 * astype(draw("uniform", real) < 0.5, real)
        if name in _REAL_OF:  # the sign on one of the two components, chosen evenly
            on_real = astype(draw("uniform", real) < 0.5, real)
            x = do("complex", sign * on_real, sign * (1.0 - on_real))
        else:
            x = sign
    elif name in _REAL_OF:
        re, im = draw(dist, real), draw(dist, real)
        if dist == "normal":
            re, im = re / math.sqrt(2), im / math.sqrt(2)
        x = do("complex", re, im)
    else:
        x = draw(dist, name)
    if device is not None:
        x = to_device(x, device)
    if not isinstance(scale, (int, float, complex)) or scale != 1.0:
        x = scale * x
    if not isinstance(loc, (int, float, complex)) or loc != 0.0:
        x = loc + x
    return x


def from_numpy(
    x: Any, dtype: Any = None, device: Any = None, backend: Any = None, like: Any = None
) -> Any:
    """autoray's ``from_numpy``, a creation routine: ``like``'s dtype and device (an
    example array's) unless given.

    Examples
    --------
    >>> import numpy as np
    >>> from_numpy(np.ones(2), like=np.ones(1, dtype="float32")).dtype
    dtype('float32')
    """
    from dispatch._helpers import from_numpy as engine_from_numpy
    from dispatch._shortcuts import infer_backend_device_dtype

    target = backend if backend is not None else like
    if target is None or (isinstance(target, str) and target == BUILTINS):
        target = BUILTINS_BACKEND
    if not isinstance(target, str) and type(target).__module__ == BUILTINS:
        target = BUILTINS_BACKEND  # a Python value: numpy, the value's dtype not lent
    b, device, dtype = infer_backend_device_dtype(target, device, dtype)
    return engine_from_numpy(x, dtype=dtype, device=device, backend=b)


def is_scalar(x: Any) -> bool:
    """autoray's ``is_scalar``: a Python or numpy scalar, or an array of no dimensions.

    Examples
    --------
    >>> import numpy as np
    >>> is_scalar(5), is_scalar(np.array(1.0)), is_scalar(np.ones(2)), is_scalar([5])
    (True, True, False, False)
    """
    from dispatch._helpers import is_scalar as engine_is_scalar

    if engine_is_scalar(x):
        return True
    shape = getattr(x, "shape", None)
    return shape is not None and tuple(shape) == ()


# a Python number as ``like=`` lends its type as the dtype of creation routines
# (``do("zeros", 3, like=4)`` is int64), as autoray does; a list or tuple lends none
SCALAR_DTYPES = (bool, int, float, complex)

# names only autoray has, or where its signature differs, served by the face
# itself; each takes ``like=``
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "random.array": random_array,
    "from_numpy": from_numpy,
}
