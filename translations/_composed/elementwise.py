"""Element-wise methods of the backend method list.

Special functions go through the scipy.special vocabulary of each table
(``erf`` -> ``scipy.special.erf``, ``log_gamma`` -> ``scipy.special.gammaln``,
``gamma_inc_l``/``gamma_inc_u`` -> ``scipy.special.gammainc``/``gammaincc``). The
operator names (``sub``, ``mul``,
``div``, ``and_``...) first bring both operands to a common dtype with
``auto_cast`` (``combine_types``: an int mixed with a float32 stays float32),
then apply numpy's function. ``pow``, ``mod`` and ``invert`` are numpy's own
names and keep numpy's semantics.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from dispatch.translations._composed.devices import _weak_kind

from dispatch.engine import composed, do


def _float(x: Any) -> Any:
    """Floats and complex stay; everything else becomes ``float_type()``."""
    if _weak_kind(x) is not None:
        return x if _weak_kind(x) in "fc" else float(x)
    return x if do("dtype_of", x).kind in "fc" else do("to_float", x)


@composed("erf")
def erf(x: Any) -> Any:
    """The error function.

    Examples
    --------
    >>> import numpy as np
    >>> do("erf", np.array([0.0]))
    array([0.])
    """
    return do("scipy.special.erf", _float(x))


@composed("softplus")
def softplus(x: Any) -> Any:
    """``log(1 + exp(x))`` without overflow.

    Examples
    --------
    >>> import numpy as np
    >>> do("softplus", np.array([0.0, 1000.0]))
    array([6.93147181e-01, 1.00000000e+03])
    """
    x = _float(x)
    return do("maximum", x, 0) + do("log1p", do("exp", -do("abs", x)))


@composed("log_gamma")
def log_gamma(x: Any) -> Any:
    """``log |Gamma(x)|``.

    Examples
    --------
    >>> import numpy as np
    >>> do("log_gamma", np.array([1.0, 3.0]))
    array([0.        , 0.69314718])
    """
    return do("scipy.special.gammaln", _float(x))


@composed("gamma_inc_l")
def gamma_inc_l(a: Any, x: Any) -> Any:
    """Regularized lower incomplete gamma function P(a, x).

    Examples
    --------
    >>> import numpy as np
    >>> do("gamma_inc_l", np.array([1.0]), np.array([1.0]))
    array([0.63212056])
    """
    return do("scipy.special.gammainc", _float(a), _float(x))


@composed("gamma_inc_u")
def gamma_inc_u(a: Any, x: Any) -> Any:
    """Regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x).

    Examples
    --------
    >>> import numpy as np
    >>> do("gamma_inc_u", np.array([1.0]), np.array([1.0]))
    array([0.36787944])
    """
    return do("scipy.special.gammaincc", _float(a), _float(x))


_FACTORIALS = np.array([math.factorial(i) for i in range(21)], dtype=np.int64)


@composed("factorial")
def factorial(x: Any) -> Any:
    """``x!``: exact for integers (a table lookup, up to 20! in int64), through
    ``exp(log_gamma(x + 1))`` for floats.

    Examples
    --------
    >>> import numpy as np
    >>> do("factorial", np.array([0, 3, 5]))
    array([  1,   6, 120])
    """
    dt = do("dtype_of", x)
    if dt.kind in "fc":
        return do("exp", do("log_gamma", x + 1))
    table = do("asarray", _FACTORIALS, like=x)
    return do("cast", do("take", table, do("cast", x, "int64")), dt)


@composed("sigmoid")
def sigmoid(x: Any) -> Any:
    """``1 / (1 + exp(-x))``, computed without overflow.

    Examples
    --------
    >>> import numpy as np
    >>> do("sigmoid", np.array([0.0]))
    array([0.5])
    """
    # exp of -|x| never overflows; each branch divides without cancellation, so the
    # result is as accurate as scipy's expit (and needs no scipy)
    x = _float(x)
    e = do("exp", -do("abs", x))
    return do("where", x >= 0, 1 / (1 + e), e / (1 + e))


@composed("divide_no_nan")
def divide_no_nan(x: Any, y: Any) -> Any:
    """``x / y``, with 0 where ``y == 0`` (no NaN, no inf, no warning).

    Examples
    --------
    >>> import numpy as np
    >>> do("divide_no_nan", np.array([1.0, 2.0]), np.array([0.0, 4.0]))
    array([0. , 0.5])
    """
    if _weak_kind(y) is not None:
        q = do("divide", x, y if y != 0 else 1)
        return q if y != 0 else q * 0
    zero = do("equal", y, 0)
    q = do("divide", x, do("where", zero, do("ones_like", y), y))
    return do("where", zero, do("zeros_like", q), q)


def _binary(np_name: str, list_name: str, bool_to_int: bool = False) -> Any:
    def op(a: Any, b: Any) -> Any:
        a, b = do("auto_cast", a, b, bool_to_int=bool_to_int)
        return do(np_name, a, b)

    op.__name__ = op.__qualname__ = list_name
    op.__doc__ = (
        f"``{np_name}(a, b)`` after ``auto_cast(a, b"
        f"{', bool_to_int=True' if bool_to_int else ''})`` (the list's ``{list_name}``).\n\n"
        "Examples\n--------\n>>> import numpy as np\n"
        f">>> do({list_name!r}, np.array([6, 3]), np.array([3, 1])).dtype.kind in 'biuf'\n"
        "True\n"
    )
    return composed(list_name)(op)


greater_than = _binary("greater", "greater_than")
greater_or_equal = _binary("greater_equal", "greater_or_equal")
sub = _binary("subtract", "sub", bool_to_int=True)
mul = _binary("multiply", "mul")
div = _binary("divide", "div")
and_ = _binary("bitwise_and", "and_")
or_ = _binary("bitwise_or", "or_")
xor = _binary("bitwise_xor", "xor")
floordiv = _binary("floor_divide", "floordiv")
shift_bits_left = _binary("left_shift", "shift_bits_left")
shift_bits_right = _binary("right_shift", "shift_bits_right")
