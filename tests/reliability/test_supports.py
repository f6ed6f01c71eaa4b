"""``supports()`` tells the truth: every name it reports available on a backend
runs there on a valid input and gives a result.

The property tests hold their names to this already (a pair that checks no example
fails its census). This walks the composed fallbacks, the class that can lie: a
fallback reported ``"composed"`` whose implementation calls a name the backend's
table marks ``unsupported`` always raises, and must be an ``unsupported`` entry of
its own instead. Each such name is called with the first valid input the function
tests hold for it (their ``Case`` lists).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Case, missing_dtype, to_backend, usable_backends

import dispatch
from dispatch import do
from dispatch._errors import UnsupportedError

FUNCTIONS = Path(__file__).resolve().parent.parent / "functions"


def _cases_in(obj: Any, depth: int = 0) -> list[Case]:
    if isinstance(obj, Case):
        return [obj]
    if isinstance(obj, (list, tuple, dict)) and depth < 3:
        values = obj.values() if isinstance(obj, dict) else obj
        return [c for v in values for c in _cases_in(v, depth + 1)]
    return []


def first_cases() -> dict[str, Case]:
    """The first ``Case`` of each name in the function tests' module-level lists."""
    out: dict[str, Case] = {}
    # the function tests import their siblings (test_vocabulary_smoke) by name, as
    # pytest's rootdir-relative imports allow when it collects tests/functions itself
    if str(FUNCTIONS) not in sys.path:
        sys.path.insert(0, str(FUNCTIONS))
    for path in sorted(FUNCTIONS.glob("test_*.py")):
        spec = importlib.util.spec_from_file_location(f"_supports_{path.stem}", path)
        assert spec is not None
        assert spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod  # dataclasses look their module up there
        try:
            spec.loader.exec_module(mod)
        finally:
            del sys.modules[spec.name]
        for name, value in vars(mod).items():
            if not name.startswith("_"):
                for c in _cases_in(value):
                    out.setdefault(c.name, c)
    return out


@pytest.mark.parametrize("backend", usable_backends())
def test_composed_names_reported_available_run(backend: str, record_property) -> None:
    cases = first_cases()
    composed = sorted(n for n in cases if dispatch.supports(n, backend) == "composed")
    lying = []
    for name in composed:
        c = cases[name]
        try:
            args, kwargs = to_backend(c.args, backend), to_backend(c.kwargs, backend)
        except Exception as err:
            if missing_dtype(backend, err):  # the case's data has a dtype it lacks
                continue
            raise
        if c.like:
            kwargs["like"] = backend
        try:
            do(name, *args, **kwargs)
        except UnsupportedError as err:
            lying.append(f"{name}: {err}")
        except Exception:
            continue  # a wrong result or another error is the function tests' job
    record_property("supports_checked", len(composed))
    assert len(composed) > 20, f"only {len(composed)} composed names found on {backend}"
    assert not lying, (
        f"supports() reports these composed on {backend}, and they always raise: give "
        "each an unsupported(...) entry in the table:\n" + "\n".join(lying)
    )
