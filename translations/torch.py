"""torch: numpy names on torch tensors (stub, to be completed)."""

from __future__ import annotations

import torch

from dispatch.spec import alias

TYPES = ("torch",)


def _to_numpy(x):
    return x.detach().cpu().resolve_conj().numpy()


def creation_kwargs(like):
    return {"dtype": like.dtype, "device": like.device}


TABLE = {
    "asarray": "as_tensor",
    "to_numpy": _to_numpy,
    "concatenate": alias("cat", axis="dim"),
}
