"""Creation and shape methods of the backend method list on every backend,
against numpy references: as_tensor, range, linspace_without_last,
meshgrid_ij, copy_leaves, staticshape, ndims, flatten, stack_leaves,
pad_stack, concat, pad_boundary, pad_to, tile_to, unstack, determine_size,
get_diagonal, expand_dims_n, repeat_n, flip_axes."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close, case, params, to_backend, to_np

from dispatch import do, infer_backend, precision

rng = np.random.default_rng(5)
A = rng.standard_normal((2, 3, 4))
INTS = rng.integers(-5, 5, (3, 4))


def bound(name, *args, backend, **kwargs):
    """Call a backend-bound name with ``like=backend`` (a name the table lacks
    raises UnknownFunctionError: a failure, never a skip)."""
    return do(name, *args, like=backend, **kwargs)


# ---------------------------------------------------------------- creation


@pytest.mark.parametrize(
    ("args", "dtype", "expected"),
    [
        ((5,), None, np.arange(5, dtype="int32")),
        ((2, 8, 3), None, np.arange(2, 8, 3, dtype="int32")),
        ((0,), None, np.arange(0, dtype="int32")),
        ((1, 2, 0.25), "float64", np.arange(1, 2, 0.25)),
    ],
)
def test_range(backend, args, dtype, expected):
    out = bound("range", *args, dtype=dtype, backend=backend)
    assert infer_backend(out) == backend
    assert_close(to_np(out), expected)


def test_linspace_without_last(backend):
    out = bound("linspace_without_last", 0.0, 1.0, 4, backend=backend)
    assert infer_backend(out) == backend
    assert_close(to_np(out), np.linspace(0, 1, 5)[:-1], dtype="kind")


@pytest.mark.parametrize("value", [[1.0, 2.0], np.arange(3), 2.5, [[1, 2]]])
def test_as_tensor(backend, value):
    out = bound("as_tensor", value, backend=backend)
    assert infer_backend(out) == backend
    assert_close(to_np(out), np.asarray(value), dtype="kind")


def test_as_tensor_keeps_numbers_and_precision(backend):
    assert bound("as_tensor", 3, convert_external=False, backend=backend) == 3
    with precision(32):
        out = bound("as_tensor", np.ones(2), backend=backend)
    assert do("dtype_of", out) == np.dtype("float32")
    same = to_backend(np.ones(2, "float32"), backend)
    assert bound("as_tensor", same, backend=backend) is same


def test_meshgrid_ij(backend):
    a, b = np.arange(3.0), np.arange(2.0)
    out = do("meshgrid_ij", *to_backend((a, b), backend))
    assert isinstance(out, tuple)
    assert_close(to_np(out), tuple(np.meshgrid(a, b, indexing="ij")))


def test_copy_leaves(backend):
    tree = to_backend({"a": np.ones(2), "b": (np.arange(3), 4)}, backend)
    out = do("copy_leaves", tree, only_mutable=True)
    assert out["b"][1] == 4
    assert out["a"] is not tree["a"]
    assert_close(to_np(out["b"][0]), np.arange(3))


# ---------------------------------------------------------------- shape


def test_staticshape_ndims_flatten(backend):
    x = to_backend(A, backend)
    assert do("staticshape", x) == (2, 3, 4)
    assert do("ndims", x) == 3
    assert_close(to_np(do("flatten", x)), A.reshape(-1))
    assert do("staticshape", to_backend(np.zeros((0, 2)), backend)) == (0, 2)


def test_stack_leaves(backend):
    trees = [(np.ones(2) * i, {"k": np.arange(3) + i}) for i in range(3)]
    out = do("stack_leaves", to_backend(trees, backend), axis=0)
    assert_close(to_np(out[0]), np.stack([t[0] for t in trees]))
    assert_close(to_np(out[1]["k"]), np.stack([t[1]["k"] for t in trees]))


def test_pad_stack(backend):
    ts = [np.ones((1, 2)), np.arange(6.0).reshape(2, 3)]
    out = do("pad_stack", to_backend(ts, backend), pad_value=-1)
    ref = np.full((2, 2, 3), -1.0)
    ref[0, :1, :2] = 1
    ref[1] = ts[1]
    assert_close(to_np(out), ref)
    out = do("pad_stack", to_backend(ts, backend), (2, 2))  # given shape: pad or cut
    assert_close(to_np(out), np.array([[[1.0, 1.0], [0.0, 0.0]], ts[1][:, :2]]))


MODES = ["constant", "boundary", "periodic", "symmetric", "reflect"]
NP_MODES = {"constant": "constant", "boundary": "edge", "periodic": "wrap",
            "symmetric": "symmetric", "reflect": "reflect"}
PAD = [
    case("pad_boundary", A, [(1, 1), (0, 0), (2, 1)], mode, _id=mode,
         _ref=lambda v, w, m: np.pad(v, w, NP_MODES[m]))
    for mode in MODES
] + [
    case("pad_boundary", INTS, [(1, 1), (2, 0)], "constant", 7,
         _ref=lambda v, w, m, c: np.pad(v, w, m, constant_values=c)),
    case("pad_boundary", np.zeros((0, 3)), [(0, 0), (1, 1)], "constant",
         _ref=lambda v, w, m: np.pad(v, w, m)),
]

OTHER = [
    case("concat", [A, A[:1]], 0, _ref=lambda v, a: np.concatenate(v, a)),
    case("pad_to", INTS, 1, 6, -1,
         _ref=lambda x, a, n, f: np.pad(x, [(0, 0), (0, 2)], constant_values=f)),
    case("pad_to", INTS, 0, 2, _ref=lambda x, a, n: x[:2]),
    case("tile_to", A[:1], 0, 3, _ref=lambda x, a, n: np.tile(x, (3, 1, 1))),
    case("tile_to", A, 1, 3, _ref=lambda x, a, n: x),
    case("determine_size", [A[:1], A], 0, _ref=lambda ts, a: 2),
    case("expand_dims_n", A, 1, 2, _ref=lambda a, ax, n: a[:, None, None]),
    case("expand_dims_n", A, -1, 2, _ref=lambda a, ax, n: a[..., None, None]),
    case("flip_axes", A, (0, 2), _ref=lambda v, ax: np.flip(v, ax)),
    case("flip_axes", INTS, (), _ref=lambda v, ax: v),
    case("repeat_n", INTS, np.array([1, 0, 2]), 0, _ref=lambda x, r, a: np.repeat(x, r, a)),
    case("repeat_n", INTS, 2, 1, _ref=lambda x, r, a: np.repeat(x, r, a)),
    case("repeat_n", np.arange(3.0), np.array([2, 0, 1]), 0, new_length=5,
         _ref=lambda x, r, a, new_length: np.array([0.0, 0, 2, 2, 2])),
    case("repeat_n", np.arange(3), np.array([2, 2, 2]), 0, new_length=4,
         _ref=lambda x, r, a, new_length: np.array([0, 0, 1, 1])),
    case("get_diagonal", rng.standard_normal((2, 3, 4, 2)), _id="offset0",
         _ref=lambda m: np.moveaxis(np.diagonal(m, 0, 1, 2), -1, 1)),
    case("get_diagonal", rng.standard_normal((2, 3, 4, 2)), 1,
         _ref=lambda m, o: np.moveaxis(np.diagonal(m, o, 1, 2), -1, 1)),
    case("get_diagonal", rng.integers(0, 9, (1, 4, 3, 1)), -1,
         _ref=lambda m, o: np.moveaxis(np.diagonal(m, o, 1, 2), -1, 1)),
]


@pytest.mark.parametrize(("name", "c"), params(PAD + OTHER))
def test_matches_numpy(backend, name, c):
    c.run(backend)


@pytest.mark.parametrize(("name", "c"), params(PAD[:2] + OTHER[:3] + OTHER[10:13]))
def test_inputs_not_mutated(backend, name, c):
    c.run_not_mutated(backend)


@pytest.mark.parametrize(("axis", "keepdims"), [(0, False), (1, True), (-1, False)])
def test_unstack(backend, axis, keepdims):
    out = do("unstack", to_backend(A, backend), axis, keepdims)
    ref = tuple(np.expand_dims(s, axis) if keepdims else s for s in np.moveaxis(A, axis, 0))
    assert isinstance(out, tuple)
    assert_close(to_np(out), ref)


def test_determine_size_rejects_mismatch(backend):
    with pytest.raises(ValueError, match="do not broadcast"):
        do("determine_size", to_backend([A[:, :2], A], backend), 1)
