"""``array_api_compat.cupy``: this face's namespace of cupy (a module that becomes it)."""

import sys

from dispatch._namespace import cached_namespace
from dispatch.compat import CompatNamespace

sys.modules[__name__] = cached_namespace(CompatNamespace, "cupy")
