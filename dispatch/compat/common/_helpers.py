"""``array_api_compat.common._helpers``: the face's helpers, and the name under which
the face was imported (what vendoring libraries strip from namespace names)."""

from dispatch.compat import *  # noqa: F403
from dispatch.compat import __all__  # noqa: F401


def _compat_module_name() -> str:
    """The face's module name; its namespaces carry their library's own names, with
    nothing of it to strip."""
    return __name__.removesuffix(".common._helpers")
