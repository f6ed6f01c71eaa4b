"""``autoray.grad``: :func:`stop_gradient`, on every backend (identity where there
is no autodiff)."""

from dispatch import stop_gradient

__all__ = ("stop_gradient",)
