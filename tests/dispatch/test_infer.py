"""Backend inference: constants, keyword and sequence arguments, like=, contexts."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from conftest import ARRAY_BACKENDS, _usable, to_backend, to_np

import dispatch
from dispatch import (
    MixedBackendError,
    backend_like,
    do,
    get_backend,
    infer_backend,
    infer_backend_multi,
    register_function,
    set_backend,
    unregister_function,
)

A = np.arange(6.0).reshape(2, 3)
B = np.ones((2, 3))
NON_NUMPY = [b for b in ARRAY_BACKENDS if b != "numpy"]


def converts(backend: str) -> bool:
    """Whether the table converts numpy constants (False where the library takes them)."""
    return dispatch._registry.converts_constants(backend)


@pytest.fixture(params=NON_NUMPY)
def lib(request):
    """A non-numpy backend: numpy arrays and scalars are constants to it."""
    if not _usable(request.param):
        pytest.skip(f"{request.param} is not installed")
    return request.param


@pytest.fixture
def probe():
    """``do("probe", ...)`` returns (backend, backend of every argument) on every backend."""
    names = list(dict.fromkeys(["numpy", *ARRAY_BACKENDS]))

    def make(b):
        def fn(*args, **kwargs):
            return (
                b,
                [infer_backend(a) if dispatch.is_array(a) else None for a in args],
                {k: infer_backend(v) if dispatch.is_array(v) else None for k, v in kwargs.items()},
            )

        return fn

    for b in names:
        register_function(b, "probe", make(b))
    yield
    for b in names:
        unregister_function(b, "probe")


def two_libraries() -> tuple[str, str]:
    usable = [b for b in ("torch", "jax", "tensorflow", "dask", "sparse") if _usable(b)]
    if len(usable) < 2:
        pytest.skip("needs two non-numpy libraries")
    return usable[0], usable[1]


def test_infer_backend_of_objects(backend):
    x = to_backend(A, backend)
    assert infer_backend(x) == backend
    assert infer_backend(1.5) == "numpy"
    assert infer_backend("text") == "numpy"
    assert infer_backend(np.float32(1.0)) == "numpy"


def test_infer_backend_multi(lib):
    t = to_backend(A, lib)
    assert infer_backend_multi(A, t) == lib
    assert infer_backend_multi(t, A, 2.0) == lib
    assert infer_backend_multi(A, 2.0) == "numpy"
    assert infer_backend_multi([A, t]) == lib
    assert infer_backend_multi() == "numpy"


@pytest.mark.parametrize("position", [0, 1, 2])
def test_numpy_constant_in_every_position(position, lib, probe):
    """A numpy array anywhere never hides a library array anywhere else."""
    args = [A, 2.0, A]
    args[position] = to_backend(A, lib)
    backend, arg_backends, _ = do("probe", *args)
    assert backend == lib
    if converts(lib):  # numpy constants reach the library converted
        assert all(b == lib for b in arg_backends if b is not None)


def test_numpy_constant_keyword_arguments(lib, probe):
    t = to_backend(A, lib)
    backend, args, kwargs = do("probe", A, other=t)
    assert backend == lib
    if converts(lib):
        assert args == [lib]
        assert kwargs == {"other": lib}
    backend, args, kwargs = do("probe", t, other=A, scale=2.0)
    assert backend == lib
    assert kwargs["scale"] is None
    if converts(lib):
        assert kwargs == {"other": lib, "scale": None}
    backend, _, _ = do("probe", x=A, y=t)
    assert backend == lib


def test_scalars_are_constants(lib, probe):
    t = to_backend(A, lib)
    assert do("probe", 2.0, t)[0] == lib
    assert do("probe", 3, True, t)[0] == lib
    assert do("probe", np.float64(2.0), t)[0] == lib
    assert do("probe", 2.0, 3)[0] == "numpy"


def test_numpy_only_call_stays_numpy(probe):
    assert do("probe", A, B)[0] == "numpy"
    assert do("probe", A, other=B)[0] == "numpy"


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "subtract"])
def test_mixed_real_calls_return_library_arrays(name, lib):
    t = to_backend(A, lib)
    for args in ((A, t), (t, A), (2.0, t), (t, 2.0)):
        out = do(name, *args)
        assert infer_backend(out) == lib
        expected = getattr(np, name)(*[A if a is t else a for a in args])
        np.testing.assert_allclose(to_np(out), expected)


@pytest.mark.parametrize("name", ["stack", "concatenate", "hstack", "vstack"])
def test_sequence_elements_decide(name, lib):
    t = to_backend(A, lib)
    for seq in ([A, t], [t, A], (A, A, t), [t, t]):
        out = do(name, seq)
        assert infer_backend(out) == lib
        host = [A if e is t else e for e in seq]
        np.testing.assert_allclose(to_np(out), getattr(np, name)(host))
    out = do(name, [A, B])
    assert infer_backend(out) == "numpy"


def test_sequence_with_axis_keyword(lib):
    t = to_backend(A, lib)
    out = do("concatenate", [A, t], axis=1)
    assert infer_backend(out) == lib
    np.testing.assert_allclose(to_np(out), np.concatenate([A, A], axis=1))


def test_two_libraries_raise_naming_both():
    a, b = two_libraries()
    x, y = to_backend(A, a), to_backend(A, b)
    for args in ((x, y), (y, x), (A, x, y)):
        with pytest.raises(MixedBackendError) as info:
            do("add", *args[-2:]) if len(args) == 2 else do("where", *args)
        assert a in str(info.value)
        assert b in str(info.value)
    with pytest.raises(MixedBackendError, match=f"{a}|{b}"):
        do("stack", [x, y])
    with pytest.raises(MixedBackendError):
        do("add", x, other=y) if False else do("multiply", x, y)
    with pytest.raises(MixedBackendError):
        infer_backend_multi(x, y)


def test_mixed_error_for_keyword_arguments(probe):
    a, b = two_libraries()
    with pytest.raises(MixedBackendError):
        do("probe", to_backend(A, a), other=to_backend(A, b))


# ---------------------------------------------------------------- like=


def test_like_name(backend):
    out = do("zeros", (2, 3), like=backend)
    assert infer_backend(out) == backend
    assert to_np(out).shape == (2, 3)
    out = do("arange", 4, like=backend)
    assert infer_backend(out) == backend


def test_like_name_overrides_inference(lib):
    out = do("asarray", A, like=lib)
    assert infer_backend(out) == lib
    out = do("add", A, B, like=lib)
    np.testing.assert_allclose(to_np(out), A + B)
    if converts(lib):  # a library that takes numpy arrays itself may return them
        assert infer_backend(out) == lib


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("zeros", ((2,),)),
        ("ones", ((2,),)),
        ("empty", ((2,),)),
        ("full", ((2,), 3.0)),
        ("eye", (2,)),
        ("identity", (2,)),
        ("arange", (3.0,)),
        ("linspace", (0.0, 1.0, 3)),
    ],
)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_like_array_injects_dtype(name, args, dtype, backend):
    example = to_backend(A.astype(dtype), backend)
    out = do(name, *args, like=example)
    assert infer_backend(out) == backend
    assert dispatch.get_dtype_name(out) == dtype


def test_like_array_explicit_dtype_wins(backend):
    example = to_backend(A, backend)  # float64
    out = do("zeros", (2,), dtype="float32", like=example)
    assert dispatch.get_dtype_name(out) == "float32"
    out = do("ones", (2,), dtype=dispatch.to_backend_dtype("int64", like=backend), like=example)
    assert dispatch.get_dtype_name(out) == "int64"


def test_like_array_injects_device():
    """The result lives on the example's device (torch: the example's device object)."""
    if not _usable("torch"):
        pytest.skip("torch is not installed")
    import torch

    example = torch.zeros(2, dtype=torch.float64)
    out = do("zeros", (3,), like=example)
    assert out.device == example.device
    assert out.dtype == torch.float64
    if torch.cuda.is_available():
        example = example.cuda()
        assert do("ones", (3,), like=example).device == example.device


def test_like_array_for_non_creation_functions(lib):
    t = to_backend(A, lib)
    out = do("sum", A, like=t)
    assert infer_backend(out) == lib
    np.testing.assert_allclose(to_np(out), A.sum())


# ---------------------------------------------------------------- defaults and contexts


def test_default_is_numpy():
    assert get_backend() == "numpy"
    assert isinstance(do("zeros", (2,)), np.ndarray)


def test_set_backend(lib):
    try:
        set_backend(lib)
        assert get_backend() == lib
        assert infer_backend(do("zeros", (2,))) == lib
        assert infer_backend(1.0) == lib
        # arrays still decide
        assert infer_backend(do("add", A, B)) == "numpy"
    finally:
        set_backend("numpy")
    assert get_backend() == "numpy"
    assert isinstance(do("zeros", (2,)), np.ndarray)


def test_set_backend_from_example_array(lib):
    try:
        set_backend(to_backend(A, lib))
        assert get_backend() == lib
    finally:
        set_backend("numpy")


def test_backend_like_context(lib):
    with backend_like(lib) as name:
        assert name == lib
        assert get_backend() == lib
        assert infer_backend(do("ones", (2,))) == lib
        with backend_like("numpy"):
            assert isinstance(do("ones", (2,)), np.ndarray)
        assert get_backend() == lib
    assert get_backend() == "numpy"


def test_backend_like_restores_after_error(lib):
    with pytest.raises(RuntimeError), backend_like(lib):
        raise RuntimeError("boom")
    assert get_backend() == "numpy"


def test_backend_like_is_thread_local(lib):
    seen = {}
    inside = threading.Event()
    release = threading.Event()

    def other_thread():
        inside.wait(5)
        seen["backend"] = get_backend()
        seen["zeros"] = infer_backend(do("zeros", (2,)))
        release.set()

    t = threading.Thread(target=other_thread)
    t.start()
    with backend_like(lib):
        inside.set()
        release.wait(10)
        assert get_backend() == lib
    t.join(10)
    assert seen == {"backend": "numpy", "zeros": "numpy"}


def test_backend_like_per_thread_values(lib):
    """Each thread's context holds its own backend, concurrently."""
    results = {}
    barrier = threading.Barrier(2)

    def run(name):
        with backend_like(name):
            barrier.wait(5)
            results[name] = [get_backend() for _ in range(50)]
            barrier.wait(5)

    threads = [threading.Thread(target=run, args=(n,)) for n in ("numpy", lib)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert set(results["numpy"]) == {"numpy"}
    assert set(results[lib]) == {lib}
