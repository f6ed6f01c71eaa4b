"""Constants of a library other than numpy are converted with the backend's ``asarray``.

The multi-argument rule converts every constant of a lower priority to the winning
library's arrays, not numpy arrays alone: a scipy.sparse matrix (priority -0.5)
beside a pydata sparse array (priority 0) becomes a pydata sparse array. numpy
constants take the cheaper ``from_numpy``; any other constant takes the backend's
``asarray`` (``_do._converter``), in every form of call: positional (either
side), ``like=`` a name or an example, a lone sequence of two or three arrays, a
sequence beside a keyword. (pydata sparse is the library whose ``asarray`` takes
scipy.sparse matrices; torch's makes a torch sparse tensor, which most torch
functions refuse beside dense ones.)
"""

from __future__ import annotations

import numpy as np
import pytest

from dispatch import do

scipy_sparse = pytest.importorskip("scipy.sparse")
sparse = pytest.importorskip("sparse")

EYE = np.eye(2)
CSR = scipy_sparse.csr_matrix(EYE)
COO = sparse.COO.from_numpy(2 * EYE)

CALLS = {
    "array first": (lambda: do("add", COO, CSR), 3 * EYE),
    "constant first": (lambda: do("add", CSR, COO), 3 * EYE),
    "like= a name": (lambda: do("add", CSR, CSR, like="sparse"), 2 * EYE),
    "like= an example": (lambda: do("add", CSR, CSR, like=COO), 2 * EYE),
    "lone sequence": (lambda: do("stack", [COO, CSR]), np.stack([2 * EYE, EYE])),
    "lone sequence of three": (
        lambda: do("concatenate", [COO, CSR, COO]),
        np.concatenate([2 * EYE, EYE, 2 * EYE]),
    ),
    "sequence and a keyword": (
        lambda: do("stack", [CSR, COO], axis=1),
        np.stack([EYE, 2 * EYE], axis=1),
    ),
}


@pytest.mark.parametrize("twice", [1, 2], ids=["cold", "warm"])
@pytest.mark.parametrize("form", list(CALLS))
def test_a_scipy_sparse_constant_becomes_the_backends_array(form, twice):
    call, expected = CALLS[form]
    for _ in range(twice):
        out = call()
    assert isinstance(out, sparse.COO), type(out)
    np.testing.assert_array_equal(out.todense(), expected)
