"""Translation tables: what each array library calls the numpy vocabulary.

One package per library (a single module where the table is short), named after
the library's import name (the backend name). Inside a package, one module per
topic (``creation``, ``elementwise``, ``reductions``, ``statistics``, ``shape``,
``indexing``, ``linalg``, ``solvers``, ``fft``, ``signal``, ``random``,
``special``, ``sparse``, ``autodiff``, ``control``, ``devices``, ``dtypes``) holds its
adapters and ends with its ``TABLE``; the package's ``__init__`` assembles them
with ``_adapters.merge_topics`` (``dispatch.engine.merge_tables`` of their tables: a
name defined twice is an error). Modules
whose name starts with ``_`` are shared parts, not tables (``_vocabulary``: the
per-function facts every library shares; ``_composed``: the fallbacks written once
with ``do``). The package (or module) defines, in this order:

``TYPES``
    Module prefixes of the library's array classes, e.g. ``("jax", "jaxlib")``.
``MODULES`` (optional)
    Namespace remaps, longest prefix wins: ``{"": "jax.numpy", "scipy": "jax.scipy"}``.
    The empty prefix is the root module in which plain names are looked up.
``TABLE``
    Canonical name -> a path relative to the root module, an ``alias(...)``, a
    direct implementation, ``NATIVE`` or ``unsupported(reason)``
    (see :mod:`dispatch.spec`).
``PRIORITY`` (optional)
    Precedence in mixed calls: numpy -1, libraries 0 (the default), lazy 1.
``CONVERT_CONSTANTS`` (optional, default True)
    Whether numpy arrays in a call this library decides are converted with its
    ``asarray`` first (False where the library accepts numpy arrays itself).
``is_array_type(cls)`` (optional)
    False for the library's classes that must not decide a backend or be
    converted as constants (numpy's scalars and dtypes); default: all decide.
``creation_kwargs(like)`` (optional)
    Keyword arguments (dtype, device) that creation functions take from an
    example array passed as ``like=``; default ``{"dtype": like.dtype}``.
``SUBMODULES``, ``CAPABILITY_MODULES``, ``REFUSED``, ``IN_PLACE_SUFFIX``, ``GUARDED`` (optional)
    What a name may reach (docs/safety.md): the array modules below the roots, the
    modules and objects refused with their reason, the suffix of in-place names, and
    keyword values ``do`` pins (``allow_pickle=False``). Shared facts: ``_safety.py``.
``GATHERS`` (optional, lazy libraries: dask)
    ``{name: reason}`` for the names whose call computes (pulls values to the
    client) instead of returning lazy arrays; every other name stays lazy.
    Shown in the coverage matrix; a test keeps it exact.

A module is imported only once an object of its library has been seen, so it
imports its library at top level. This package's ``__init__`` imports nothing.
"""
