"""Every name autoray 0.11 translates resolves here, or is a documented gap.

The names are a snapshot in ``tests/data/autoray_names.txt`` (autoray itself is
not imported). Each is checked on every installed backend: it must resolve
(``supports`` is not None) or be an ``unsupported(reason)`` entry of that table.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import BACKENDS as SHIPPED
from conftest import known_gap

import dispatch

DATA = Path(__file__).parent.parent / "data" / "autoray_names.txt"
BACKENDS = [b for b in ("numpy", "torch", "jax", "tensorflow", "dask", "sparse") if b in SHIPPED]


def _names() -> list[tuple[str, str]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, backends = line.split()
            rows.append((name, backends))
    return rows


NAMES = _names()


def test_snapshot_is_complete():
    names = {n for n, _ in NAMES}
    assert len(names) == len(NAMES)
    assert {"astype", "stop_gradient", "random.default_rng", "linalg.svd"} <= names


@pytest.mark.parametrize("lib", BACKENDS)
def test_autoray_names_resolve(lib):
    from conftest import _usable

    if not _usable(lib):
        pytest.skip(f"{lib} is not installed")
    missing = [
        name
        for name, _ in NAMES
        if dispatch.supports(name, lib) is None and known_gap(lib, name) is None
    ]
    assert not missing, (
        f"{lib}: {len(missing)} names neither resolve nor are unsupported: {missing}"
    )
