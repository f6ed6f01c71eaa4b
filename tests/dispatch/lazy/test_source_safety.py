"""Generated source (lazy ``get_source`` and ``Function``) takes only identifiers as
names: any other keyword, and every constant, reaches the call intact and can never
run code or make a ``SyntaxError`` (docs/safety.md)."""

from __future__ import annotations

import cmath
import math
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dispatch
from dispatch import do, lazy
from dispatch.lazy._shapes import ShapeError

SEEN: list[dict] = []


def _probe(a: Any, /, **kwargs: Any) -> Any:
    """Records the keywords it receives; the result depends on the input only."""
    SEEN.append(kwargs)
    return a * 2.0 + 1.0


@pytest.fixture(autouse=True)
def _registered():
    dispatch.register_function("numpy", "source_probe", _probe)
    yield
    dispatch.unregister_function("numpy", "source_probe")


def _same(a: Any, b: Any) -> bool:
    """Equal including the type, nan, and the sign of zero."""
    if type(a) is not type(b):
        return False
    if type(a) is float:
        return (a == b and math.copysign(1, a) == math.copysign(1, b)) or (
            math.isnan(a) and math.isnan(b)
        )
    if type(a) is complex:
        return _same(a.real, b.real) and _same(a.imag, b.imag)
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is dict:
        return set(a) == set(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


_MARKER = Path(tempfile.gettempdir()) / "dispatch-source-injection-marker"
_EVIL = [
    f"axis=0); open({str(_MARKER)!r}, 'w'); print((",
    f"x=1, **{{}}); open({str(_MARKER)!r}, 'w'); (",
    "class",
    "lambda",
    "None",
    "a b",
    "",
    "1x",
    "x-y",
    "é",
    "__import__",
    "\\",
    "'",
    '"""',
    "\n",
    "match",
    "\ufb00",  # 'ﬀ': an identifier that Python's parser reads as 'ff'
    "\u212b",  # 'Å' (angstrom sign), NFKC-normalised to another letter
]

keys = st.one_of(
    st.sampled_from(_EVIL),
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True),
    st.text(max_size=12),
).filter(lambda k: k != "like")  # do's own keyword

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        [
            0.0,
            -0.0,
            math.inf,
            -math.inf,
            math.nan,
            complex(-0.0, -0.0),
            complex(math.nan, 1),
            complex(1, -0.0),
            cmath.inf,
            1e308,
            5e-324,
        ]
    ),
    st.complex_numbers(allow_nan=True, allow_infinity=True),
    st.text(max_size=10),
    st.binary(max_size=10),
    st.sampled_from(_EVIL),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=5), inner, max_size=3),
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kwargs=st.dictionaries(keys, values, max_size=4))
def test_any_keyword_and_constant_round_trips(kwargs):
    x = np.arange(3.0)
    v = lazy.Variable((3,), dtype="float64")
    out = do("source_probe", v, **kwargs)
    expected = _probe(x)
    # get_source: exec the text with the inputs bound
    params: dict = {}
    source = lazy.get_source(out, params)
    compile(source, "<test>", "exec")  # never a SyntaxError
    params["v0"] = x
    SEEN.clear()
    exec(source, params)
    assert len(SEEN) == 1, (source, SEEN)
    assert _same(SEEN[0], kwargs), (source, SEEN, kwargs)
    np.testing.assert_array_equal(params["out"], expected)
    # Function: the compiled code, numpy-bound and through do
    fn = lazy.Function(v, out)
    SEEN.clear()
    np.testing.assert_array_equal(fn(x), expected)
    assert len(SEEN) == 1, (fn.get_source(), SEEN)
    assert _same(SEEN[0], kwargs), (fn.get_source(), SEEN, kwargs)
    SEEN.clear()
    np.testing.assert_array_equal(fn._generic_call()(x), expected)
    assert _same(SEEN[0], kwargs)
    assert not _MARKER.exists()


def test_a_keyword_that_is_code_is_only_a_string():
    _MARKER.unlink(missing_ok=True)
    v = lazy.Variable((3,), dtype="float64")
    kwargs = {_EVIL[0]: 1, "ok": -0.0, "z": complex(-0.0, 1.0), "nan": math.nan}
    out = do("source_probe", v, **kwargs)
    source = lazy.get_source(out)
    assert "**{" in source
    assert "ok=-0.0" in source
    fn = lazy.Function(v, out)
    SEEN.clear()
    np.testing.assert_array_equal(fn(np.ones(3)), np.full(3, 3.0))
    assert _same(SEEN[-1], kwargs)
    assert not _MARKER.exists()
    # a library that does not take the keyword says so, as numpy would
    with pytest.raises((TypeError, ShapeError), match="unexpected keyword argument 'axis=0"):
        do("sum", v, **{"axis=0); print((": 1})
