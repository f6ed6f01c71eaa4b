"""Devices, identity, interop and sparse-identity methods of the backend method
list on every backend: list_devices, get_default_device, set_default_device,
get_device, get_device_by_ref, allocate_on_device, is_tensor, is_available,
numpy, to_dlpack, from_external_array_dlpack, is_sparse, get_sparse_format,
disassemble, and numpy's scipy.sparse constructors (sparse_coo_tensor,
csr_matrix, csc_matrix and their batched versions)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import assert_close, to_backend, to_np
from dispatch.translations._composed.devices import ComputeDevice

from dispatch import DispatchError, UnsupportedError, do, infer_backend


def like(name, *args, backend, **kwargs):
    # a name the table lacks raises UnknownFunctionError: a failure, never a skip
    return do(name, *args, like=backend, **kwargs)


# ---------------------------------------------------------------- devices


def test_list_and_default_devices(backend):
    devices = like("list_devices", backend=backend)
    assert devices
    assert all(isinstance(d, ComputeDevice) for d in devices)
    assert all(d.backend == backend and d.device_type in ("CPU", "GPU", "TPU") for d in devices)
    cpus = like("list_devices", "CPU", backend=backend)
    assert all(d.device_type == "CPU" for d in cpus)
    default = like("get_default_device", backend=backend)
    assert default in devices
    assert like("get_device_by_ref", default.ref, backend=backend) == default
    with pytest.raises(KeyError):
        like("get_device_by_ref", "no such device", backend=backend)


def test_set_default_device(backend):
    cpus = like("list_devices", "CPU", backend=backend)
    if not cpus:
        pytest.skip(f"{backend} lists no CPU device")
    assert like("set_default_device", "CPU", backend=backend) is True
    assert like("get_default_device", backend=backend).device_type == "CPU"
    if not like("list_devices", "TPU", backend=backend):
        with pytest.warns(RuntimeWarning, match="TPU"):
            assert like("set_default_device", "TPU", backend=backend) is False


def test_get_device_and_allocate(backend):
    x = to_backend(np.arange(3.0), backend)
    dev = do("get_device", x)
    assert isinstance(dev, ComputeDevice)
    assert dev.backend == backend
    y = do("allocate_on_device", x, dev)
    assert infer_backend(y) == backend
    assert_close(to_np(y), np.arange(3.0))


def test_to_device_where_the_array_already_is_returns_it(backend):
    """numpy's, torch's and the array API's rule (and autoray's), on every library:
    jax, tensorflow and paddle copied before."""
    x = to_backend(np.arange(3.0), backend)
    if like("get_device", x, backend=backend).device_type != "CPU":
        pytest.skip(f"{backend}'s arrays are not on the CPU here")
    assert do("to_device", x, "cpu") is x
    assert do("to_device", x, like("get_device", x, backend=backend)) is x


def test_numpy_device_answers():
    (cpu,) = do("list_devices", like="numpy")
    assert cpu.device_type == "CPU"
    assert cpu.processor_count >= 1
    assert do("get_device", np.ones(2)) == cpu
    with pytest.raises(ValueError, match="CPU"):
        do("allocate_on_device", np.ones(2), "GPU")
    with pytest.raises(DispatchError, match="peak memory"):
        do("get_peak_memory", like="numpy")


# ---------------------------------------------------------------- identity and interop


def test_is_tensor(backend):
    x = to_backend(np.ones(2), backend)
    assert like("is_tensor", x, backend=backend) is True
    assert like("is_tensor", x, True, backend=backend) is True
    assert like("is_tensor", 2.5, backend=backend) is True
    assert like("is_tensor", [1.0, 2.0], backend=backend) is True
    assert like("is_tensor", 2.5, True, backend=backend) is False
    assert like("is_tensor", "text", backend=backend) is False


def test_is_available_and_numpy(backend):
    x = to_backend(np.arange(4.0).reshape(2, 2), backend)
    assert do("is_available", x) is True
    out = do("numpy", x)
    if backend == "sparse":  # sparse arrays come back as scipy.sparse
        assert sp.issparse(out)
        out = out.toarray()
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, np.arange(4.0).reshape(2, 2))


def test_is_available_false_for_jax_tracers():
    jax = pytest.importorskip("jax")
    seen = []

    @jax.jit
    def f(x):
        seen.append(do("is_available", x))
        return x

    f(jax.numpy.ones(2))
    assert seen == [False]


def test_to_dlpack_and_external_arrays(backend):
    x = to_backend(np.arange(3.0), backend)
    if not hasattr(x, "__dlpack__"):  # dask, pydata sparse: unsupported entries say why
        with pytest.raises(UnsupportedError, match="to_dlpack"):
            do("to_dlpack", x)
        return
    assert type(do("to_dlpack", x)).__name__ == "PyCapsule"
    out = like("from_external_array_dlpack", np.arange(3.0), backend=backend)
    assert infer_backend(out) == backend
    assert_close(to_np(out), np.arange(3.0))



@pytest.mark.parametrize("name", ["from_dlpack"])
def test_from_dlpack(name, backend):
    """numpy's from_dlpack: an array of the library from any object with
    ``__dlpack__``; beyond numpy, also from the bare capsule of ``to_dlpack``."""
    src = np.arange(6.0).reshape(2, 3)
    out = do(name, src, like=backend)
    assert infer_backend(out) == backend
    assert_close(to_np(out), src)
    out = do(name, src.__dlpack__(), like=backend)  # a bare capsule (numpy's own refuses it)
    assert infer_backend(out) == backend
    assert_close(to_np(out), src)
    # numpy's device= and copy=: the device as get_device gives it, or the library's own
    device = do("get_device", out)
    for where in (device, device.ref):
        moved = do(name, src, like=backend, device=where, copy=True)
        assert infer_backend(moved) == backend
        assert_close(to_np(moved), src)


# ---------------------------------------------------------------- sparse identity


def test_dense_is_not_sparse(backend):
    x = to_backend(np.eye(3), backend)
    if backend == "sparse":  # pydata sparse arrays are sparse (COO) by construction
        assert do("is_sparse", x)
        assert do("get_sparse_format", x) == "coo"
        return
    assert do("is_sparse", x) is False
    assert do("get_sparse_format", x) == "dense"
    assemble, parts = do("disassemble", x)
    assert_close(to_np(assemble(backend, *parts)), np.eye(3))


IDX = np.array([[0, 1], [2, 0], [1, 1]])
VAL = np.array([1.0, 2.0, 3.0])
DENSE = np.array([[0.0, 1.0], [0.0, 3.0], [2.0, 0.0]])


@pytest.mark.parametrize("fmt", ["coo", "csr", "csc"])
def test_numpy_sparse_constructors_and_disassemble(fmt):
    if fmt == "coo":
        m = do("sparse_coo_tensor", IDX, VAL, (3, 2))
    elif fmt == "csr":
        c = sp.csr_array(DENSE)
        m = do("csr_matrix", c.indices, c.indptr, c.data, (3, 2))
    else:
        c = sp.csc_array(DENSE)
        m = do("csc_matrix", c.indptr, c.indices, c.data, (3, 2))
    assert do("is_sparse", m)
    assert do("get_sparse_format", m) == fmt
    np.testing.assert_array_equal(m.toarray(), DENSE)
    assemble, parts = do("disassemble", m)
    rebuilt = assemble("numpy", *parts)
    assert do("get_sparse_format", rebuilt) == fmt
    np.testing.assert_array_equal(rebuilt.toarray(), DENSE)
    assert do("numpy", m) is m


def test_numpy_sparse_coo_per_axis_indices():
    m = do("sparse_coo_tensor", (IDX[:, 0], IDX[:, 1]), VAL, (3, 2))
    np.testing.assert_array_equal(m.toarray(), DENSE)


def test_batched_constructors_numpy():
    coo = do("sparse_coo_tensor_batched", IDX[None], np.stack([VAL, 2 * VAL])[..., None], (3, 2))
    assert len(coo) == 2
    np.testing.assert_array_equal(coo[1].toarray(), 2 * DENSE)
    c = sp.csr_array(DENSE)
    csr = do("csr_matrix_batched", c.indices[None], c.indptr[None], np.stack([c.data, -c.data]),
             (3, 2))
    np.testing.assert_array_equal(csr[1].toarray(), -DENSE)
    c = sp.csc_array(DENSE)
    csc = do("csc_matrix_batched", c.indptr[None], c.indices[None], c.data[None], (3, 2))
    np.testing.assert_array_equal(csc[0].toarray(), DENSE)


def test_sparse_coo_tensor_on_backend(backend):
    idx, val = to_backend((IDX, VAL), backend)
    try:
        m = do("sparse_coo_tensor", idx, val, (3, 2))
    except DispatchError as err:
        pytest.skip(str(err))
    assert do("is_sparse", m)
    assert do("get_sparse_format", m) == "coo"
    dense = do("numpy", m)
    dense = dense.toarray() if sp.issparse(dense) else np.asarray(dense)
    np.testing.assert_array_equal(dense, DENSE)
