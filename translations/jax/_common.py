"""Helpers of jax's table that several of its topic modules use."""

from __future__ import annotations

from typing import Any


def _sparse_module() -> Any:
    from jax.experimental import sparse

    return sparse


def _is_sparse(x: Any) -> bool:
    return isinstance(x, _sparse_module().JAXSparse)
