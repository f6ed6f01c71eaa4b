"""Property tests: every pure name of the vocabulary against numpy, on every backend.

The table (``PROPS``: ``name`` or ``name|variant`` -> :class:`~.spec.Prop`) is
data; one test runs each entry on each installed backend with hypothesis. Names
that are not pure functions of arrays (random, creation from nothing, autodiff,
devices...) are listed in :mod:`.not_pure` with the reason; a test checks that
every known name is in one of the two. Bugs found and not fixed yet are listed in
:mod:`.known` with a reproducer: their examples are skipped and counted.
"""

from __future__ import annotations

import pytest
from conftest import known_gap
from dispatch.translations import _api
from hypothesis import Phase, given, reject, settings
from hypothesis import strategies as st

from dispatch._resolve import how, known_names

from . import table_elementwise, table_linalg, table_methods, table_reductions, table_shape
from .conftest import profile
from .known import KNOWN
from .not_pure import NOT_PURE
from .spec import run_example
from .strategies import Drawer

PROPS = {
    **table_elementwise.PROPS,
    **table_reductions.PROPS,
    **table_shape.PROPS,
    **table_linalg.PROPS,
    **table_methods.PROPS,
}
NAMES = sorted({key.split("|")[0] for key in PROPS})


def _params() -> list:
    return [pytest.param(key.split("|")[0], key, id=key) for key in sorted(PROPS)]


def _gap(name: str, backend: str) -> str | None:
    """The reason of an ``unsupported`` entry, or None; a name this backend lacks
    entirely is an xfail (a gap in the vocabulary) or a skip (another library's extra)."""
    reason = known_gap(backend, name)
    if reason is None and how(backend, name) == "missing":
        if name in _api.NAMES:
            pytest.xfail(f"gap: {backend} has no translation for the vocabulary name {name!r}")
        pytest.skip(f"{name!r} is another library's table name; {backend} has no such entry")
    return reason


@pytest.mark.parametrize(("name", "key"), _params())
def test_property(name: str, key: str, backend: str, record_property) -> None:
    prop = PROPS[key]
    gap = _gap(name, backend)
    known = KNOWN.get((backend, key))
    if known is not None and known.when is None:
        pytest.xfail(f"known bug (tests/properties/known.py): {known.why}")
    counts = {"run": 0, "refused": 0, "known": 0}
    config = profile(backend)
    if gap is not None:
        # a documented gap: one example must raise UnsupportedError (strict xfail)
        config = settings(config, max_examples=1, phases=[Phase.generate])

    @config
    @given(st.data())
    def check(data: st.DataObject) -> None:
        args, kwargs = prop.build(Drawer(data.draw, backend))
        if known is not None and known.when(*args, **kwargs):
            counts["known"] += 1
            reject()
        counts["run"] += 1
        if not run_example(name, prop, backend, args, kwargs, refuse_ok=gap is None):
            counts["refused"] += 1

    try:
        check()
    finally:
        record_property("property_cases", counts["run"])
        for what in ("refused", "known"):
            if counts[what]:
                record_property(f"property_{what}", counts[what])


def test_every_name_is_classified() -> None:
    """Each name of the vocabulary and the tables is property-tested or left out
    with a reason (a new name must be added to one of the two)."""
    from conftest import usable_backends

    import dispatch._registry as reg

    for backend in [*usable_backends(), "scipy"]:
        reg.table(backend)
    names = known_names()
    missing = sorted(names - set(NAMES) - set(NOT_PURE))
    assert not missing, f"add these names to PROPS or not_pure.NOT_PURE: {missing}"
    both = sorted(set(NAMES) & set(NOT_PURE))
    assert not both, f"both tested and left out: {both}"


def test_known_bugs_name_real_entries() -> None:
    stale = [key for _, key in KNOWN if key not in PROPS]
    assert not stale, f"known.KNOWN names entries that PROPS lacks: {stale}"
