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
from dispatch.translations._composed._activations import (  # noqa: F401 (re-exported)
    _real_float,
    celu,
    elu,
    gelu,
    glu,
    hard_shrink,
    hard_sigmoid,
    hard_silu,
    hard_swish,
    hard_tanh,
    leaky_relu,
    log_sigmoid,
    log_softmax,
    relu,
    relu6,
    rsqrt,
    selu,
    silu,
    soft_shrink,
    softmax,
    softsign,
    sparse_plus,
    sparse_sigmoid,
    sparsemax,
    squareplus,
    swish,
    tanh_shrink,
    threshold,
)
from dispatch.translations._composed.devices import _weak_kind
from dispatch.translations._composed.reductions import _dt, default_float

from dispatch.engine import composed, do, is_array


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


@composed("polar")
def polar(abs_: Any, angle: Any) -> Any:
    """The complex numbers of modulus ``abs_`` and argument ``angle``:
    ``abs_ * (cos(angle) + 1j * sin(angle))`` (complex64 from float32, complex128 from
    float64).

    Examples
    --------
    >>> import numpy as np
    >>> do("polar", np.array([2.0]), np.array([np.pi / 2])).round(12)
    array([0.+2.j])
    """
    r, a = _real_float(abs_, "polar"), _real_float(angle, "polar")
    return do("complex", r * do("cos", a), r * do("sin", a))


@composed("view_as_real")
def view_as_real(x: Any) -> Any:
    """A complex array as real numbers: a new last axis of length 2 holding the
    real and imaginary parts (torch's ``view_as_real``; a copy on libraries without
    views).

    Examples
    --------
    >>> import numpy as np
    >>> do("view_as_real", np.array([1 + 2j, 3 - 1j]))
    array([[ 1.,  2.],
           [ 3., -1.]])
    """
    if do("dtype_of", x).kind != "c":
        raise TypeError("view_as_real takes a complex array")
    return do("stack", [do("real", x), do("imag", x)], axis=-1)


@composed("view_as_complex")
def view_as_complex(x: Any) -> Any:
    """The inverse of ``view_as_real``: a real array whose last axis has length 2
    (real part, imaginary part) as complex numbers.

    Examples
    --------
    >>> import numpy as np
    >>> do("view_as_complex", np.array([[1.0, 2.0], [3.0, -1.0]]))
    array([1.+2.j, 3.-1.j])
    """
    shape = tuple(do("shape", x))
    if not shape or shape[-1] != 2 or do("dtype_of", x).kind != "f":
        raise ValueError(
            f"view_as_complex takes a real floating array whose last axis has length 2; "
            f"got shape {shape}")
    return do("complex", x[..., 0], x[..., 1])


# numpy's fabs loops: the smallest float that holds an integer type exactly enough
_FABS_FLOAT = {1: "float16", 2: "float32"}


@composed("fabs")
def fabs(x: Any, /) -> Any:
    """Absolute value as a float, numpy's ``fabs``.

    Integers and booleans become floats as in numpy (1-byte types float16,
    2-byte float32, wider ones the library's default float: numpy's float64,
    docs/vocabulary.md, dtypes); complex input raises ``TypeError``.

    Examples
    --------
    >>> import numpy as np
    >>> do("fabs", np.array([[-1.5, 2.0], [0.0, -3.0]]))
    array([[1.5, 2. ],
           [0. , 3. ]])
    """
    return do("abs", _ufunc_float(x, "fabs"))


def _ufunc_float(x: Any, name: str) -> Any:
    """``x`` as numpy's float loops of ``fabs``, ``modf`` and ``frexp`` take it: floats
    unchanged, 1-byte integers and bools float16, 2-byte float32, wider ones the
    library's default float; complex input is a ``TypeError``."""
    dt = do("dtype_of", x)
    if dt.kind == "c":
        hint = "; use abs" if name == "fabs" else ""
        raise TypeError(f"{name} is not defined for complex input ({dt}){hint}")
    if dt.kind not in "f":
        wide = dt.itemsize > 2
        x = do("astype", x, default_float(x) if wide else np.dtype(_FABS_FLOAT[dt.itemsize]))
    return x


def half_spacing(x: Any, /) -> Any:
    """numpy's ``spacing`` of a float16 array ``x``: its half-precision loop steps
    toward +inf for either sign (``spacing(-2.0)`` is +9.766e-04, where the wider loops
    step away from zero: -1.953e-03) and gives nan at +-inf.

    >>> import numpy as np
    >>> half_spacing(np.array([-2.0, 1.0, np.inf], np.float16))
    array([0.000977, 0.000977,      nan], dtype=float16)
    """
    inf = do("isinf", x)
    finite = do("where", inf, 0.0, x)  # no inf - inf computed: its answer is replaced
    up = do("nextafter", finite, do("full_like", x, math.inf))
    return do("where", inf, math.nan, up - finite)


def half_nextafter(x1: Any, x2: Any, stepped: Any, /) -> Any:
    """numpy's ``nextafter`` of float16 arrays from a library's ``stepped`` result:
    where the two are equal, numpy's half-precision loop returns ``x1`` (+0.0 toward
    -0.0 stays +0.0), where C's ``nextafter`` (the wider loops') returns ``x2``."""
    return do("where", x1 == x2, x1, stepped)


@composed("divmod")
def divmod_(x1: Any, x2: Any, /) -> tuple[Any, Any]:
    """``(floor_divide(x1, x2), remainder(x1, x2))``, numpy's ``divmod``.

    Examples
    --------
    >>> import numpy as np
    >>> do("divmod", np.array([7, -7, 7]), np.array([2, 2, -3]))
    (array([ 3, -4, -3]), array([ 1,  1, -2]))
    """
    for x in (x1, x2):
        if (is_array(x) and do("dtype_of", x).kind == "c") or isinstance(x, complex):
            raise TypeError("divmod is not defined for complex input")
    return do("floor_divide", x1, x2), do("remainder", x1, x2)


@composed("modf")
def modf(x: Any, /) -> tuple[Any, Any]:
    """Fractional and integral parts, both with the sign of ``x``, numpy's ``modf``
    (``modf(-inf)`` is ``(-0.0, -inf)``; integers become floats as in ``fabs``).

    Examples
    --------
    >>> import numpy as np
    >>> do("modf", np.array([2.5, -3.25, np.inf]))
    (array([ 0.5 , -0.25,  0.  ]), array([ 2., -3., inf]))
    """
    x = _ufunc_float(x, "modf")
    whole = do("trunc", x)
    finite = do("where", do("isinf", x), do("zeros_like", x), x)  # inf - inf warns
    return do("copysign", finite - do("trunc", finite), x), whole


@composed("frexp")
def frexp(x: Any, /) -> tuple[Any, Any]:
    """Mantissa and exponent, ``x = mantissa * 2**exponent`` with ``abs(mantissa)``
    in [0.5, 1), numpy's ``frexp``: the exponent is int32; 0, inf and NaN give
    themselves with exponent 0; integers become floats as in ``fabs``.

    Examples
    --------
    >>> import numpy as np
    >>> do("frexp", np.array([8.0, -0.375, 0.0]))
    (array([ 0.5 , -0.75,  0.  ]), array([ 4, -1,  0], dtype=int32))
    """
    x = _ufunc_float(x, "frexp")
    mag = do("abs", x)
    normal = do("logical_and", do("isfinite", x), mag > 0)
    safe = do("where", normal, mag, do("ones_like", mag))
    # log2 may round across a power of two: the scaling below corrects it by one
    e = do("astype", do("floor", do("log2", do("astype", safe, "float64"))), "int32") + 1
    # two exact powers of two: 2**-e alone overflows for the subnormals
    half = e // 2
    two = do("full_like", safe, 2.0)
    dt = _dt(safe)
    m = safe * do("power", two, do("astype", -half, dt))
    m = m * do("power", two, do("astype", half - e, dt))
    for _ in range(2):
        up = m >= 1
        m = do("where", up, m * 0.5, m)
        e = do("where", up, e + 1, e)
        down = m < 0.5
        m = do("where", down, m * 2, m)
        e = do("where", down, e - 1, e)
    m = do("copysign", m, x)
    mantissa = do("where", normal, m, x)
    exponent = do("where", normal, e, do("zeros_like", e))
    return mantissa, exponent


# ---------------------------------------------------------------- complex or real


@composed("iscomplex")
def iscomplex(x: Any) -> Any:
    """Element-wise whether ``x`` has a non-zero imaginary part, numpy's
    ``iscomplex``: a boolean array, all False for a real dtype.

    Examples
    --------
    >>> import numpy as np
    >>> do("iscomplex", np.array([1 + 1j, 2 + 0j, 3.5j]))
    array([ True, False,  True])
    """
    if do("dtype_of", x).kind == "c":
        return do("not_equal", do("imag", x), 0)
    return do("zeros_like", x, dtype="bool")


@composed("isreal")
def isreal(x: Any) -> Any:
    """Element-wise whether ``x`` has a zero imaginary part, numpy's ``isreal``: a
    boolean array, all True for a real dtype.

    Examples
    --------
    >>> import numpy as np
    >>> do("isreal", np.array([1 + 1j, 2 + 0j, 3.5j]))
    array([False,  True, False])
    """
    if do("dtype_of", x).kind == "c":
        return do("equal", do("imag", x), 0)
    return do("ones_like", x, dtype="bool")


@composed("real_if_close")
def real_if_close(a: Any, tol: float = 100) -> Any:
    """The real part of a complex ``a`` whose imaginary parts are all below ``tol``
    (in machine epsilons of its dtype when ``tol > 1``), else ``a`` unchanged,
    numpy's ``real_if_close``. The answer depends on the values: they are read.

    Examples
    --------
    >>> import numpy as np
    >>> do("real_if_close", np.array([2.1 + 4e-15j, 5.2 + 3e-15j]))
    array([2.1, 5.2])
    >>> do("real_if_close", np.array([2.1 + 1e-13j]), tol=1000)
    array([2.1])
    """
    dt = do("dtype_of", a)
    if dt.kind != "c":
        return a
    if tol > 1:
        tol = float(np.finfo(dt).eps) * tol
    if bool(do("all", do("less", do("abs", do("imag", a)), tol))):
        return do("real", a)
    return a


@composed("array_equiv")
def array_equiv(a1: Any, a2: Any, *, backend: str) -> bool:
    """Whether ``a1`` and ``a2`` have broadcastable shapes and equal elements,
    numpy's ``array_equiv`` (a Python bool: the values are read).

    Examples
    --------
    >>> import numpy as np
    >>> do("array_equiv", np.array([1, 2]), np.array([[1, 2], [1, 2]]))
    True
    >>> do("array_equiv", np.array([1, 2]), np.array([1, 2, 3]))
    False
    """
    a1, a2 = (do("asarray", a, like=backend) for a in (a1, a2))
    try:
        np.broadcast_shapes(tuple(do("shape", a1)), tuple(do("shape", a2)))
    except ValueError:
        return False
    return bool(do("all", do("equal", a1, a2)))
