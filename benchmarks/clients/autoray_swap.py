"""pytest plugin: make ``import autoray`` (and every ``autoray.X``) import ``dispatch``.

Loaded with ``python -m pytest -p autoray_swap`` (this folder on ``PYTHONPATH``)
before any test module imports its library, so that the library under test runs
on ``dispatch`` with no change to its source. Only aliases are made here:
``dispatch`` itself is not patched.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``autoray.X`` as the module ``dispatch.X`` (same object in sys.modules)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "autoray" or fullname.startswith("autoray."):
            target_name = "dispatch" + fullname[len("autoray") :]
            if importlib.util.find_spec(target_name) is None:
                return None
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        module = importlib.import_module("dispatch" + spec.name[len("autoray") :])
        sys.modules[spec.name] = module
        return module

    def exec_module(self, module):
        pass


for _name in [m for m in sys.modules if m == "autoray" or m.startswith("autoray.")]:
    del sys.modules[_name]
sys.meta_path.insert(0, _Alias())
