"""Property tests: every pure name of the vocabulary against numpy, on every backend.

The table (``PROPS``: ``name`` or ``name|variant`` -> :class:`~.spec.Prop`) is
data; one test runs each entry on each installed backend with hypothesis. Names
that are not pure functions of arrays (random, creation from nothing, autodiff,
devices...) are listed in :mod:`.not_pure` with the reason; a test checks that
every known name is in one of the two. No drawn input is skipped: a
difference from numpy is fixed in its table, or is a strict xfail of the exact input
in ``tests/functions/test_known_differences.py``, listed in docs/testing.md.

autograd's boxes are checked too: each float or complex array of an example is a box
at the root of a trace (``conftest.boxed``). A draw with nothing to box would be
numpy's call, not autograd's: another is drawn, and a name whose draws never hold a
float or complex array (the bitwise names) is skipped on autograd with that reason.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import BOXED_BACKENDS, boxed, known_gap
from dispatch.translations import _vocabulary as vocabulary
from hypothesis import Phase, given, reject, settings
from hypothesis import strategies as st

from dispatch._resolve import how, known_names

from . import table_elementwise, table_linalg, table_methods, table_reductions, table_shape
from .conftest import profile
from .not_pure import NOT_PURE
from .spec import _arrays, run_example
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
        if name in vocabulary.NAMES:
            pytest.xfail(f"gap: {backend} has no translation for the vocabulary name {name!r}")
        pytest.skip(f"{name!r} is another library's table name; {backend} has no such entry")
    return reason


# The census every (name, backend) pair must meet, whatever the profile: at least this
# many non-trivial examples checked (some array neither 0-d, nor empty, nor all zero),
# every float width the builder offered on this backend, and a matrix for the names
# that take matrices. The first examples of a pair are forced to be non-trivial (and
# alternate the float width) until the count is met; the others are drawn freely.
MIN_NONTRIVIAL = 4
# draws of a pair on autograd with nothing to box (conftest.boxed) before it is skipped
UNBOXED_DRAWS = 25
MATRIX_NAMES = frozenset(
    "matmul dot vdot inner outer kron tensordot einsum trace tril triu diagonal".split()
)


# the vector functions of numpy 2's linalg namespace: their operands are vectors (or
# stacks of them, drawn sometimes)
VECTOR_NAMES = frozenset("linalg.outer linalg.vecdot linalg.cross linalg.vector_norm".split())


def takes_matrices(name: str) -> bool:
    if name in VECTOR_NAMES:
        return False
    return name.startswith(("linalg.", "scipy.linalg.")) or name in MATRIX_NAMES


def census_of(args: tuple, kwargs: dict) -> tuple[bool, set[int], int]:
    """(non-trivial, float widths, largest ndim) of one example's array arguments."""
    leaves = _arrays(args) + _arrays(kwargs)
    nontrivial = any(a.ndim >= 1 and a.size and np.any(a) for a in leaves)
    widths = {a.dtype.itemsize * 8 // (2 if a.dtype.kind == "c" else 1)
              for a in leaves if a.dtype.kind in "fc"}
    return bool(nontrivial), widths, max((a.ndim for a in leaves), default=0)


# one (name, backend) pair takes seconds; a hang (mlx's trace, twice deep into a full
# run) ends in 4 minutes, not pytest-timeout's 10, and runs again on a fresh worker
@pytest.mark.timeout(240)
@pytest.mark.parametrize(("name", "key"), _params())
def test_property(name: str, key: str, backend: str, record_property) -> None:
    prop = PROPS[key]
    gap = _gap(name, backend)
    counts = {"run": 0, "refused": 0, "nontrivial": 0, "ndim": 0, "unboxed": 0}
    widths: set[int] = set()
    offered: set[int] = set()
    config = profile(backend)
    half = MIN_NONTRIVIAL // 2
    if gap is not None:
        # a documented gap: one example must raise UnsupportedError (strict xfail)
        runs = [(False, None, 1)]
    else:
        # forced runs first (two examples of each float width, non-trivial), then free
        # draws; each run has one fixed strategy, so that hypothesis replays it exactly
        free = max(config.max_examples - MIN_NONTRIVIAL, 1)
        runs = [(True, 32, half), (True, 64, half), (False, None, free)]

    refused_widths: set[int] = set()

    def check(data: st.DataObject, force: bool, width: int | None) -> None:
        d = Drawer(data.draw, backend, force=force, width=width)
        args, kwargs = prop.build(d)
        if backend in BOXED_BACKENDS and not any(
                boxed(a, backend) for a in _arrays(args) + _arrays(kwargs)):
            # nothing to box (integers and booleans are constants to autograd): the
            # call would be numpy's, not autograd's; hypothesis draws another example,
            # and a name whose draws never hold a float or complex array is skipped
            counts["unboxed"] += 1
            if not counts["run"] and counts["unboxed"] >= UNBOXED_DRAWS:
                pytest.skip(f"{key} on {backend}: no example has a float or complex array "
                            f"to box in {UNBOXED_DRAWS} draws (conftest.boxed)")
            reject()
        offered.update(d.offered)
        counts["run"] += 1
        if not run_example(name, prop, backend, args, kwargs, refuse_ok=gap is None):
            counts["refused"] += 1
            refused_widths.update(census_of(args, kwargs)[1])
            return
        nontrivial, w, ndim = census_of(args, kwargs)
        counts["nontrivial"] += nontrivial
        widths.update(w)
        counts["ndim"] = max(counts["ndim"], ndim)

    def check_all() -> None:
        for force, width, n in runs:
            phases = [Phase.generate] if gap is not None else config.phases

            @settings(config, max_examples=n, phases=phases)
            @given(st.data())
            def run(data: st.DataObject) -> None:
                check(data, force, width)  # noqa: B023 (run is called right here)

            run()
            if force and width in refused_widths - widths and len(runs) < 4:
                # the table refused this width with its reason (mlx: no complex128):
                # the forced examples are drawn again at the other width
                runs.append((True, 96 - width, half))

    try:
        check_all()
    finally:
        record_property("property_cases", counts["run"])
        record_property("property_nontrivial", counts["nontrivial"])
        if counts["refused"]:
            record_property("property_refused", counts["refused"])
    checked = counts["run"] - counts["refused"]
    assert checked, f"{key} on {backend}: zero examples checked (every draw was refused)"
    assert counts["nontrivial"] >= MIN_NONTRIVIAL, (
        f"{key} on {backend}: {counts['nontrivial']} non-trivial examples checked "
        f"(of {checked}), the census asks for {MIN_NONTRIVIAL}"
    )
    # a width the table refused with its reason in every example is not a gap
    offered -= refused_widths - widths
    assert offered <= widths, (
        f"{key} on {backend}: float widths offered {sorted(offered)}, checked {sorted(widths)}"
    )
    if takes_matrices(name):
        assert counts["ndim"] >= 2, f"{key} on {backend}: no example with a matrix"


def test_every_name_is_classified() -> None:
    """Each name of the vocabulary and the tables is property-tested or left out
    with a reason (a new name must be added to one of the two)."""
    from conftest import usable_backends

    import dispatch._registry as reg

    for backend in [*usable_backends(vocabulary=True), "scipy"]:
        reg.table(backend)
    names = known_names()
    missing = sorted(names - set(NAMES) - set(NOT_PURE))
    assert not missing, f"add these names to PROPS or not_pure.NOT_PURE: {missing}"
    both = sorted(set(NAMES) & set(NOT_PURE))
    assert not both, f"both tested and left out: {both}"
