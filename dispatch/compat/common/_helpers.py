"""``array_api_compat.common._helpers``: the face's helpers, and the name under which
the face was imported (what vendoring libraries strip from namespace names)."""

from dispatch.compat import *  # noqa: F403
from dispatch.compat import __all__  # noqa: F401


def _compat_module_name() -> str:
    """The prefix of the face's namespace names (``array_api_compat.numpy``), which
    vendoring libraries strip to find the library (scipy's
    ``get_native_namespace_name``): array-api-compat's own, wherever the face is
    imported from."""
    from dispatch.compat import PACKAGE

    return PACKAGE
