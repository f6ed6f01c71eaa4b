"""``lazy.shared_intermediates``: calls are shared only when they are the same call
(constants keyed by type and bits), and a block shares nothing with another thread."""

from __future__ import annotations

import math
import threading

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dispatch import do, lazy

Y = np.array([1.0, -2.0, 0.5])


def test_signed_zero_int_float_bool_and_nan_are_distinct_constants():
    y = lazy.array(Y)
    n = lazy.array(np.array([1, 2, 3]))
    with lazy.shared_intermediates() as cache:
        pos = do("copysign", y, 0.0)
        neg = do("copysign", y, -0.0)
        by_type = [do("add", n, c) for c in (1, 1.0, True)]
        f32 = [do("add", y, np.float32(c)) for c in (0.0, -0.0)]
        c_pos = do("multiply", y, complex(1.0, 0.0))
        c_neg = do("multiply", y, complex(1.0, -0.0))
        nan1 = do("add", y, float("nan"))
        nan2 = do("add", y, float("nan"))  # another nan object, the same bits: shared
        again = do("copysign", y, -0.0)
    assert pos is not neg
    assert again is neg
    np.testing.assert_array_equal(pos.compute(), np.copysign(Y, 0.0))
    np.testing.assert_array_equal(neg.compute(), np.copysign(Y, -0.0))
    assert len({id(b) for b in by_type}) == 3
    for lz, c in zip(by_type, (1, 1.0, True), strict=True):
        ref = np.array([1, 2, 3]) + c
        assert lz.dtype == ref.dtype
        np.testing.assert_array_equal(lz.compute(), ref)
    assert f32[0] is not f32[1]
    assert c_pos is not c_neg
    np.testing.assert_array_equal(
        np.signbit(c_neg.compute().imag), np.signbit((Y * complex(1.0, -0.0)).imag)
    )
    assert nan1 is nan2
    assert len(cache) > 0


@settings(max_examples=60, deadline=None)
@given(
    a=st.floats(allow_nan=True, allow_infinity=True),
    b=st.floats(allow_nan=True, allow_infinity=True),
)
@example(a=0.0, b=-0.0)
@example(a=1.0, b=1.0)
@example(a=math.nan, b=-math.nan)
def test_shared_calls_match_numpy(a, b):
    y = lazy.array(Y)
    with lazy.shared_intermediates():
        ra = do("copysign", y, a)
        rb = do("copysign", y, b)
        sa = do("add", y, a)
        sb = do("add", y, b)
    for lz, ref in ((ra, np.copysign(Y, a)), (rb, np.copysign(Y, b)), (sa, Y + a), (sb, Y + b)):
        np.testing.assert_array_equal(lz.compute(), ref)
    same_bits = math.copysign(1, a) == math.copysign(1, b) and (
        a == b or (math.isnan(a) and math.isnan(b))
    )
    assert (ra is rb) == (same_bits and np.float64(a).tobytes() == np.float64(b).tobytes())


def test_a_block_is_local_to_its_thread():
    x = lazy.array(np.arange(3.0))
    inside = threading.Event()
    done = threading.Event()
    seen: dict = {}

    def other() -> None:
        inside.wait(10)
        # no block in this thread: nothing is shared, nothing lands in the main's cache
        seen["a"] = do("sin", x)
        seen["b"] = do("sin", x)
        with lazy.shared_intermediates() as mine:
            seen["c"] = do("cos", x)
            seen["d"] = do("cos", x)
        seen["mine"] = mine
        done.set()

    t = threading.Thread(target=other)
    t.start()
    with lazy.shared_intermediates() as cache:
        first = do("cos", x)
        inside.set()
        assert done.wait(10)
        second = do("cos", x)
    t.join()
    assert seen["a"] is not seen["b"]
    assert seen["c"] is seen["d"]
    assert first is second
    assert first is not seen["c"]  # each thread its own cache
    assert all(v is not seen["a"] and v is not seen["c"] for v in cache.values())
    assert all(v is not first for v in seen["mine"].values())
    np.testing.assert_array_equal(first.compute(), np.cos(np.arange(3.0)))
