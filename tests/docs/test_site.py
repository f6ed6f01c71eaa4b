"""The documentation site builds with ``mkdocs build --strict``.

Strict mode turns every warning into a failure: a broken link or anchor, a page left
out of the nav, a cross-reference mkdocstrings cannot resolve. The build also runs
the hook that generates the coverage matrix, so this checks that the matrix is there.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, f"mkdocs build --strict failed:\n{run.stdout}\n{run.stderr}"
    return out


def _rows(page: str) -> dict[str, list[str]]:
    """Table rows of an HTML page: first cell's text -> the other cells' texts."""
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", page, flags=re.S):
        cells = [
            html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
        ]
        if cells:
            rows[cells[0]] = cells[1:]
    return rows


def test_build_strict_coverage_matrix_is_generated(site: Path) -> None:
    page = (site / "coverage" / "index.html").read_text(encoding="utf-8")
    assert "<!-- coverage-matrix" not in page  # the placeholder was replaced
    header = re.search(r"<th>name</th>(.*?)</tr>", page, flags=re.S)
    assert header is not None
    libraries = [html.unescape(c) for c in re.findall(r"<th>(.*?)</th>", header.group(1))]
    assert libraries[0] == "numpy"
    rows = _rows(page)
    assert rows["sum"][0] == "N"  # numpy: native
    assert "<th>unsupported</th>" in page  # the per-library summary table
    assert "linalg.qr" in rows


def test_build_strict_api_page_documents_do(site: Path) -> None:
    page = (site / "api" / "index.html").read_text(encoding="utf-8")
    assert 'id="dispatch.do"' in page
    assert "Call the function" in page  # the summary line of do's docstring
    assert ":func:" not in page  # Sphinx roles became links or code


def test_build_strict_reference_documents_every_name(site: Path) -> None:
    """docs/reference.md is generated: an entry per name, with its call and docstring."""
    from dispatch._describe import describe

    page = (site / "reference" / "index.html").read_text(encoding="utf-8")
    assert "<!-- function-reference" not in page  # the placeholder was replaced
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    for name in ("scatter", "gather", "batched_gather_nd", "bincount_fixed", "histogram1d",
                 "conjugate_gradient", "while_loop", "vectorized_call", "jacobian"):
        entry = name.replace(".", "-")
        assert f'id="{entry}"' in page, name
        d = describe(name)
        assert d.call in text, name
        assert " ".join(d.summary.replace("``", "`").replace("`", "").split()) in " ".join(
            text.replace("`", "").split()
        ), name
    assert 'do("scatter", base_grid, indices, values, mode=\'update\')' in text
    assert "native: " in text
    assert "composed: " in text
