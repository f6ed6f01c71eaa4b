"""``array_api_compat.numpy``: this face's namespace of numpy (a module that becomes it)."""

import sys

from dispatch._namespace import cached_namespace
from dispatch.compat import CompatNamespace

sys.modules[__name__] = cached_namespace(CompatNamespace, "numpy")
