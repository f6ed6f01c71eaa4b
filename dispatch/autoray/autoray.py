"""``autoray.autoray``, the face's core module: autoray's whole core surface on
dispatch's engine.

Besides the names of ``autoray.__all__`` (with the face's :func:`do`, whose
departures from :func:`dispatch.do` are stated in ``_departures.py``), this module
has what libraries reach into ``autoray.autoray`` for:

- :class:`AutoNamespace` and :func:`get_namespace`, a namespace object (every
  attribute a face ``do`` call) that libraries subclass;
- the alias tables ``_BACKEND_ALIASES``, ``_MODULE_ALIASES``,
  ``_SUBMODULE_ALIASES`` and ``_FUNC_ALIASES``, and the ``register_*_alias``
  functions that edit them. An edit takes effect in dispatch's resolution at
  once, as a user registration (it wins over dispatch's own tables);
- ``choose_backend`` and ``allclose`` (``register_function`` with autoray's
  keywords ``module``, ``alias`` and ``wrapper`` is dispatch's own).

The tables start with autoray's entries for reading. Of those, dispatch applies
the module aliases of libraries it has no table for: the other entries are
autoray's own translations of libraries whose dispatch tables already give
numpy's semantics. A module alias that a user sets for a library dispatch has a
table for (PennyLane's ``_MODULE_ALIASES["autograd"] = "pennylane.numpy"``) makes
that module the one the table's plain names are found in; the table's own entries
still win.

Examples
--------
>>> import numpy as np
>>> from dispatch.autoray import autoray as ar
>>> ar._FUNC_ALIASES["numpy", "total_of"] = "sum"
>>> ar.do("total_of", np.arange(4))
np.int64(6)
>>> del ar._FUNC_ALIASES["numpy", "total_of"]
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable
from typing import Any

import dispatch as _dispatch
from dispatch import *  # noqa: F403  (this module is dispatch's face for autoray clients)
from dispatch import _registry as _reg
from dispatch._helpers import get_lib_fn
from dispatch._infer import _owner
from dispatch._infer import backend_of_type as _backend_of_type
from dispatch._infer import infer_backend_multi as _engine_infer_backend_multi
from dispatch._shortcuts import DoFunc as _EngineDoFunc
from dispatch._shortcuts import infer_backend_device_dtype
from dispatch.autoray import _departures
from dispatch.autoray._face import (  # type: ignore[assignment]  # noqa: F401  (autoray's override replaces dispatch's)
    backend_like,
    do,
    forced_backend,
    get_backend,
    set_backend,
)
from dispatch.lazy import autojit
from dispatch.translations._vocabulary import CREATION as _ENGINE_CREATION

# creation routines whose dtype and device a namespace injects: the engine's, and
# autoray's own random API
_CREATION = _ENGINE_CREATION | frozenset(_departures.FUNCTIONS)

__all__ = [
    *_dispatch.__all__,
    "AutoNamespace",
    "_BACKEND_ALIASES",
    "_FUNC_ALIASES",
    "_MODULE_ALIASES",
    "_SUBMODULE_ALIASES",
    "allclose",
    "autojit",
    "choose_backend",
    "register_backend_alias",
    "register_func_alias",
    "register_module_alias",
    "register_submodule_alias",
]

_lock = threading.RLock()
_applied: dict[Any, Any] = {}  # what the alias tables registered: key -> undo


class _Live(dict):
    """A dict whose every change is applied to dispatch's registrations at once."""

    def __init__(self, kind: str, initial: dict):
        super().__init__(initial)
        self._kind = kind

    def _changed(self, keys: Any) -> None:
        for key in keys:
            _sync(self._kind, key)

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        self._changed([key])

    def __delitem__(self, key: Any) -> None:
        super().__delitem__(key)
        self._changed([key])

    def update(self, *args: Any, **kwargs: Any) -> None:
        new = dict(*args, **kwargs)
        super().update(new)
        self._changed(new)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key in self:
            return self[key]
        self[key] = default
        return default

    def pop(self, key: Any, *default: Any) -> Any:
        had = key in self
        value = super().pop(key, *default)
        if had:
            self._changed([key])
        return value

    def popitem(self) -> tuple:
        key, value = super().popitem()
        self._changed([key])
        return key, value

    def clear(self) -> None:
        keys = list(self)
        super().clear()
        self._changed(keys)

    def __ior__(self, other: Any) -> _Live:  # type: ignore[override,misc]
        self.update(other)
        return self


# autoray 0.11.0's entries, for reading; see the module docstring for which apply
_BACKEND_ALIASES: dict[str, str] = _Live("backend", {"jaxlib": "jax"})
_MODULE_ALIASES: dict[str, str] = _Live(
    "module",
    {
        "decimal": "math",
        "builtins": "numpy",
        "numpy.scipy": "scipy",
        "cupy.scipy": "cupyx.scipy",
        "jax.scipy": "jax.scipy",
        "jax": "jax.numpy",
        "aesara": "aesara.tensor",
        "autograd": "autograd.numpy",
        "dask": "dask.array",
        "tensorflow.linalg": "tensorflow.linalg",
        "tensorflow.random": "tensorflow.random",
        "tensorflow": "tensorflow.experimental.numpy",
        "torch[alt]": "torch",
        "mxnet": "mxnet.numpy",
        "paddle[alt]": "paddle",
        "pytensor": "pytensor.tensor",
        "mlx": "mlx.core",
        "mlx[alt]": "mlx.core",
    },
)
_MODULE_DEFAULTS = dict(_MODULE_ALIASES)
_SUBMODULE_ALIASES: dict[tuple[str, str], str] = _Live("function", {})
_FUNC_ALIASES: dict[tuple[str, str], str] = _Live("function", {})


def _shipped_or_scalar(backend: str) -> bool:
    return _reg.has_table(backend.split(".")[0]) or backend in ("builtins", "numpy")


def _sync(kind: str, key: Any) -> None:
    """Make dispatch's registrations agree with the alias tables for ``key``."""
    with _lock:
        undo = _applied.pop((kind, key), None)
        if undo is not None:
            undo()
        if kind == "backend":
            target = _BACKEND_ALIASES.get(key)
            if target is not None and key != target:
                _dispatch.register_backend(key, target)
                _applied[kind, key] = functools.partial(_forget_type, key)
        elif kind == "module":
            target = _MODULE_ALIASES.get(key)
            if target is None or "[" in key:
                return
            if not _shipped_or_scalar(key):
                _dispatch.register_backend(key, key, module=target)
                _applied[kind, key] = functools.partial(_forget_type, key)
            elif _reg.has_table(key) and target != _MODULE_DEFAULTS.get(key, target):
                # a shipped library's names found in a module that wraps it (PennyLane's
                # "autograd" -> "pennylane.numpy"); autoray's own entries stay unapplied
                _reg.redirect_root(key, target)
                _applied[kind, key] = functools.partial(_reg.redirect_root, key, None)
        else:
            backend, name = key
            if (backend, name) in _SUBMODULE_ALIASES or (backend, name) in _FUNC_ALIASES:
                _dispatch.register_function(backend, name, _Aliased(backend, name))
                _applied[kind, key] = functools.partial(
                    _dispatch.unregister_function, backend, name
                )


def _forget_type(prefix: str) -> None:
    with _reg.lock:
        _reg.USER_TYPES.pop(prefix, None)
        _reg.clear_caches()


class _Aliased:
    """A function found where the alias tables say, looked up on its first call."""

    __slots__ = ("_fn", "backend", "name")

    def __init__(self, backend: str, name: str):
        self.backend, self.name = backend, name
        self._fn: Callable | None = None

    def _load(self) -> Callable:
        from dispatch._resolve import _from_alias
        from dispatch.spec import alias

        parts = self.name.split(".")
        module = _SUBMODULE_ALIASES.get((self.backend, self.name))
        target = _FUNC_ALIASES.get((self.backend, self.name), parts[-1])
        if module is None:  # the name's own location in the library, renamed
            target = ".".join([*parts[:-1], target])
        self._fn = _from_alias(self.backend, self.name, alias(target, module=module))
        return self._fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self._fn or self._load()
        return fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<aliased {self.backend}:{self.name}>"


def register_backend_alias(alias: str, backend: str) -> None:
    """Arrays of the library ``alias`` use the functions of ``backend``."""
    _BACKEND_ALIASES[alias] = backend


def register_module_alias(alias: str, module: str) -> None:
    """The functions of backend ``alias`` are found in the module ``module``."""
    _MODULE_ALIASES[alias] = module


def register_submodule_alias(backend: str, fn: str, module: str) -> None:
    """``fn`` of ``backend`` is found in ``module`` (under its last name part)."""
    _SUBMODULE_ALIASES[backend, fn] = module


def register_func_alias(backend: str, fn: str, alias: str) -> None:
    """``fn`` of ``backend`` is called ``alias`` in the library."""
    _FUNC_ALIASES[backend, fn] = alias


from_numpy = _departures.from_numpy
is_scalar = _departures.is_scalar


def infer_backend(array: Any) -> str:  # type: ignore[no-redef]
    """The backend name of ``array`` as autoray spells it: ``'builtins'`` for Python
    values, ``'autoray.lazy'`` for lazy arrays, and the top-level module of a class
    no library owns (autoray's module rule).

    Examples
    --------
    >>> import numpy as np
    >>> infer_backend(np.ones(2)), infer_backend(2.0), infer_backend([1, 2])
    ('numpy', 'builtins', 'builtins')
    """
    t = type(array)
    if t.__module__ == _departures.BUILTINS:
        return _departures.BUILTINS
    b = _backend_of_type(t) or _owner(t) or t.__module__.split(".")[0]
    return _departures.BACKEND_NAMES.get(b, b)


def infer_backend_multi(*arrays: Any) -> str:  # type: ignore[no-redef]
    """The backend deciding a call with these arguments; ``'builtins'`` when they are
    all Python values.

    Examples
    --------
    >>> import numpy as np
    >>> infer_backend_multi(1.0, np.ones(2)), infer_backend_multi(1, 2.0)
    ('numpy', 'builtins')
    """
    if all(type(a).__module__ == _departures.BUILTINS for a in arrays):
        return _departures.BUILTINS
    b = _engine_infer_backend_multi(*arrays)
    return _departures.BACKEND_NAMES.get(b, b)


class DoFunc(_EngineDoFunc):  # type: ignore[no-redef]
    """The face's ``do`` bound to a name (autoray's ``DoFunc``).

    Examples
    --------
    >>> import numpy as np
    >>> DoFunc("sqrt")(np.array([4.0]))
    array([2.])
    """

    __slots__ = ()

    def __call__(self, *args: Any, like: Any = None, **kwargs: Any) -> Any:
        return do(self.fn, *args, like=like, **kwargs)


def choose_backend(fn: str, *args: Any, like: Any = None, **kwargs: Any) -> str:
    """The backend ``do(fn, *args, like=like, **kwargs)`` would use."""
    if like is None:
        like = forced_backend()
    if isinstance(like, str):
        return like
    if like is not None:
        return infer_backend(like)
    return infer_backend_multi(*args, *kwargs.values())


def allclose(x: Any, y: Any, rtol: float = 1e-05, atol: float = 1e-08) -> Any:
    """Whether ``x`` and ``y`` are equal within ``atol + rtol * |y|``, elementwise, on
    their own backend."""
    return do("all", do("less_equal", do("abs", x - y), atol + rtol * do("abs", y)))


class AutoNamespace:
    """A namespace whose every attribute is a ``do`` function, for one backend or all.

    Parameters
    ----------
    like : array, str or None
        An example array or backend name fixing the backend; None dispatches each
        call on its arguments.
    device, dtype : optional
        Defaults injected into creation routines (from ``like`` when it is an array).
    submodule : str, optional
        The dotted prefix of a sub-namespace (``"linalg"``).

    Examples
    --------
    >>> import numpy as np
    >>> xp = AutoNamespace(like="numpy", dtype="float32")
    >>> xp.ones(2).dtype
    dtype('float32')
    >>> xp.linalg.norm(np.array([3.0, 4.0]))
    np.float64(5.0)
    """

    # autoray's sub-namespaces (``xp.scipy.sparse.linalg.gmres`` walks three of them) and
    # the other modules of numpy's and scipy's vocabulary: their attributes are functions
    _SUBMODULES = frozenset({
        "random", "linalg", "fft", "special", "scipy", "scipy.linalg", "scipy.special",
        "scipy.sparse", "scipy.sparse.linalg", "scipy.signal", "scipy.fft", "scipy.stats",
        "scipy.optimize", "scipy.integrate", "scipy.interpolate", "scipy.ndimage",
        "scipy.spatial",
    })

    def __init__(
        self, like: Any = None, device: Any = None, dtype: Any = None, submodule: Any = None
    ):
        self._backend, self._device, self._dtype = infer_backend_device_dtype(like, device, dtype)
        self._submodule = submodule
        # an example array lends its dtype and device through the engine, which knows
        # which of them each library's creation routines take
        array = like is not None and not isinstance(like, str) and hasattr(like, "dtype")
        self._example = like if array else None
        self._given = {k: v for k, v in (("dtype", dtype), ("device", device)) if v is not None}

    def _get_submodule(self, name: str) -> AutoNamespace:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._submodule = name
        return new

    def _get_fn(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        if self._submodule is not None:
            name = f"{self._submodule}.{name}"
        if name in self._SUBMODULES:
            return self._get_submodule(name)
        if self._backend is None:
            return DoFunc(name)
        like = self._backend
        inject = {}
        if name in _CREATION and self._example is not None and name not in _departures.FUNCTIONS:
            like, inject = self._example, self._given
        elif name in _CREATION:
            if self._dtype is not None:
                inject["dtype"] = self._dtype
            if self._device is not None:
                inject["device"] = self._device

        def fn(*args: Any, **kwargs: Any) -> Any:
            for k, v in inject.items():
                kwargs.setdefault(k, v)
            return do(name, *args, like=like, **kwargs)

        fn.__name__ = fn.__qualname__ = name.rsplit(".", 1)[-1]
        return fn

    def __getattr__(self, name: str) -> Any:
        return self._get_fn(name)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(backend={self._backend}, device={self._device}, "
            f"dtype={self._dtype}, submodule={self._submodule})"
        )


def get_namespace(  # type: ignore[no-redef]
    like: Any = None, device: Any = None, dtype: Any = None, submodule: Any = None
) -> AutoNamespace:
    """An :class:`AutoNamespace` (autoray's ``get_namespace``); one object per backend
    name (with its device, dtype and submodule): its functions are looked up at each
    call, so registrations made later are seen by it."""
    if like is not None and not isinstance(like, str):
        return AutoNamespace(like, device, dtype, submodule)
    key = (like, device, dtype, submodule)
    try:
        return _NAMESPACES[key]
    except (KeyError, TypeError):
        ns = AutoNamespace(like, device, dtype, submodule)
        with contextlib.suppress(TypeError):  # an unhashable dtype or device: not kept
            _NAMESPACES[key] = ns
        return ns


_NAMESPACES: dict[tuple, AutoNamespace] = {}


numpy = AutoNamespace()


def _apply_defaults() -> None:
    for key in list(_MODULE_ALIASES):
        _sync("module", key)


_apply_defaults()

# re-exported: named for readers and linters
_REEXPORTED = (get_lib_fn, autojit)
