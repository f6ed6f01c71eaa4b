"""The vocabulary: per-function facts that hold for every library (not a table).

Read by the engine (`dispatch/`) and by the tables alike; the one module of
`translations/` the engine imports by name.

``CREATION``: names that take ``dtype`` (and ``device``) from an example array
passed as ``like=``. ``NON_ARRAY_PARAMETERS``: parameters that are never array
operands (numpy arrays there become Python values, not the backend's arrays).
``SEQUENCE_ARGS``: names whose list or tuple arguments hold
arrays that take part in choosing the backend. ``NAMES``: the canonical
vocabulary, used for suggestions and the coverage matrix.
"""

from __future__ import annotations

CREATION = frozenset(
    {
        "zeros",
        "ones",
        "empty",
        "full",
        "eye",
        "identity",
        "arange",
        "linspace",
        "logspace",
        "geomspace",
        "tri",
    }
)

# creation routines whose default result is floating point: under
# ``dispatch.precision(bits)`` they default to ``float<bits>``
FLOAT_CREATION = frozenset(
    {
        "zeros",
        "ones",
        "empty",
        "eye",
        "identity",
        "linspace",
        "logspace",
        "geomspace",
        "random.normal",
        "random.uniform",
        "random.random",
        "random.standard_normal",
    }
)

# random draws of floats: with ``like=`` an example array they are drawn on its
# device, and in its dtype when that is a real float (numpy's draws of ``normal``
# and ``uniform`` have no integer or complex form); ``random.default_rng``'s
# generators draw these as methods of the same names
FLOAT_DRAWS = frozenset(
    {"random.normal", "random.uniform", "random.random", "random.standard_normal"}
)
GENERATORS = frozenset({"random.default_rng"})
# the conversions to an array, whose ``copy=`` is about their input: ``like=`` hands
# them the data as given (a numpy array converted first would be copied or shared
# before ``copy=False`` could say no)
CONVERSIONS = frozenset({"asarray", "array", "asanyarray"})
REAL_FLOAT_NAMES = frozenset({"float16", "bfloat16", "float32", "float64"})

SEQUENCE_ARGS = frozenset(
    {
        "stack",
        "concatenate",
        "concat",
        "hstack",
        "vstack",
        "dstack",
        "column_stack",
        "row_stack",
        "block",
        "broadcast_arrays",
        "meshgrid",
        "einsum",
        "asarray",
        "array",
        "stack_leaves",
        "pad_stack",
        "linalg.multi_dot",
        "result_type",
        "ix_",
        "lexsort",
        "ravel_multi_index",
        "scipy.linalg.cho_solve",
        "scipy.linalg.lu_solve",
        "choose",
        "select",
    }
)

# parameters (numpy's names) of the vocabulary's functions (``NAMES``; other names
# may use these words for anything) that are never array operands: an axis, a shape, a count,
# an offset, a mode. A numpy array passed there is a list of ints, not data: it
# becomes nested tuples of Python numbers (a Python number if 0-d) on every backend,
# never the backend's array (torch's ``permute`` takes no tensor of axes)
NON_ARRAY_PARAMETERS = frozenset(
    {
        "axis",
        "axes",
        "axis1",
        "axis2",
        "axisa",
        "axisb",
        "axisc",
        "source",
        "destination",
        "shape",
        "newshape",
        "reps",
        "indices_or_sections",
        "shift",
        "k",
        "n",
        "N",
        "M",
        "num",
        "offset",
        "s",
        "pad_width",
        "size",
        "minlength",
        "decimals",
        "ind",
        "ord",
        "ddof",
        "correction",
        "side",
        "mode",
        "kind",
        "order",
    }
)

# names for which one of those parameter names is an array operand after all
ARRAY_OPERANDS = {
    "random.gamma": frozenset({"shape"}),
    "random.binomial": frozenset({"n"}),
}

ELEMENTWISE_UNARY = (
    "abs absolute negative positive sign sqrt cbrt square exp exp2 expm1 log log2 log10 "
    "log1p sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh "
    "floor ceil trunc rint round fix isnan isinf isfinite isneginf isposinf signbit "
    "real imag conj conjugate angle reciprocal logical_not invert bitwise_not "
    "deg2rad rad2deg degrees radians sinc nan_to_num i0 spacing"
).split()

ELEMENTWISE_BINARY = (
    "add subtract multiply divide true_divide floor_divide power float_power mod remainder "
    "fmod maximum minimum fmax fmin arctan2 hypot logaddexp logaddexp2 copysign nextafter "
    "heaviside equal not_equal less less_equal greater greater_equal logical_and "
    "logical_or logical_xor bitwise_and bitwise_or bitwise_xor left_shift right_shift "
    "gcd lcm ldexp"
).split()

CREATION_NAMES = (
    "zeros ones empty full eye identity arange linspace logspace geomspace tri "
    "zeros_like ones_like empty_like full_like asarray array copy meshgrid diagflat"
).split()

REDUCTIONS = (
    "sum prod mean std var max min amax amin argmax argmin any all cumsum cumprod "
    "count_nonzero median average ptp nansum nanmean nanmax nanmin nanprod nanstd nanvar "
    "nanargmax nanargmin nancumsum quantile percentile nanquantile nanpercentile"
).split()

SHAPE = (
    "reshape ravel transpose moveaxis swapaxes expand_dims squeeze concatenate stack "
    "hstack vstack dstack column_stack split array_split hsplit vsplit tile repeat flip "
    "fliplr flipud roll rot90 pad broadcast_to broadcast_arrays atleast_1d atleast_2d "
    "atleast_3d take take_along_axis where tril triu diag diagonal trace nonzero "
    "argwhere flatnonzero compress select choose searchsorted sort argsort unique "
    "clip isclose allclose array_equal einsum tensordot matmul dot vdot inner outer kron "
    "cross cumsum diff ediff1d interp histogram histogram2d bincount digitize convolve correlate "
    "shape ndim size astype to_numpy"
).split()

LINALG = [
    "linalg." + n
    for n in (
        "qr svd eigh eigvalsh eig eigvals solve inv pinv det slogdet norm cholesky lstsq "
        "matrix_rank matrix_power multi_dot tensorsolve tensorinv cond"
    ).split()
]

FFT = [
    "fft." + n
    for n in (
        "fft ifft fft2 ifft2 fftn ifftn rfft irfft rfft2 irfft2 rfftn irfftn hfft ihfft "
        "fftfreq rfftfreq fftshift ifftshift"
    ).split()
]

RANDOM = [
    "random." + n
    for n in (
        "default_rng seed normal uniform integers permutation choice random rand randn "
        "randint standard_normal exponential gamma beta poisson binomial"
    ).split()
]

SCIPY = [
    "scipy.special." + n
    for n in (
        "erf erfc erfinv gammaln digamma xlogy logsumexp expit logit softmax log_softmax"
    ).split()
] + ["scipy.linalg." + n for n in "expm solve_triangular cho_factor cho_solve lu lu_factor".split()]

NAMES = frozenset(
    ELEMENTWISE_UNARY
    + ELEMENTWISE_BINARY
    + CREATION_NAMES
    + REDUCTIONS
    + SHAPE
    + LINALG
    + FFT
    + RANDOM
    + SCIPY
)
