"""Each known difference (``differences.py``) on its exact input, against numpy: a
strict xfail, so that a fix forces its entry (and its docs line) out."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import assert_close, reference_function, to_backend, to_np

from dispatch import do

from .differences import DIFFERENCES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "testing.md"


@pytest.mark.parametrize("diff", DIFFERENCES, ids=lambda d: f"{d.backend}-{d.example[0]}")
def test_known_difference_still_differs(diff) -> None:
    pytest.importorskip(diff.backend)
    name, args = diff.example
    assert diff.applies(reference_function(name), args, {}), "the example does not show it"
    out = to_np(do(name, *to_backend(args, diff.backend)))
    expected = reference_function(name)(*args)
    np.testing.assert_equal(out.astype(expected.dtype), expected)  # the values agree
    try:
        assert_close(out, expected, dtype="exact")
    except AssertionError as err:
        pytest.xfail(f"{diff.backend} {name}{args}: {err} ({diff.why})")
    pytest.fail(f"{diff.backend} now matches numpy on {name}{args}: remove the entry")


def test_known_differences_are_documented() -> None:
    text = DOCS.read_text()
    for diff in DIFFERENCES:
        for name in diff.names:
            assert f"`{name}`" in text, f"docs/testing.md does not list {diff.backend} {name}"
