"""``array_api_compat.common``: the helpers, as the face's top level has them."""

from dispatch.compat.common._helpers import *  # noqa: F403
from dispatch.compat.common._helpers import __all__  # noqa: F401
