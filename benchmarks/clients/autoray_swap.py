"""pytest plugin: make ``import autoray`` give ``dispatch.autoray``, the autoray face.

Loaded with ``python -m pytest -p autoray_swap`` (this folder on ``PYTHONPATH``)
before any test module imports its library, so that the library under test runs
on dispatch with no change to its source. The swap is the one documented in
docs/migrating.md: ``sys.modules["autoray"]`` is ``dispatch.autoray`` and every
``autoray.X`` is ``dispatch.autoray.X`` (:func:`dispatch.autoray.modules`); a
finder answers any other ``autoray.X`` the same way. Nothing is patched.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``autoray.X`` as the module ``dispatch.autoray.X`` (one object)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "autoray" or fullname.startswith("autoray."):
            if importlib.util.find_spec("dispatch." + fullname) is None:
                return None
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        module = importlib.import_module("dispatch." + spec.name)
        sys.modules[spec.name] = module
        return module

    def exec_module(self, module):
        pass


for _name in [m for m in sys.modules if m == "autoray" or m.startswith("autoray.")]:
    del sys.modules[_name]

import dispatch.autoray  # noqa: E402

sys.modules.update(dispatch.autoray.modules("autoray"))
sys.meta_path.insert(0, _Alias())
