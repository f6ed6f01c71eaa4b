"""The warning filters of pyproject.toml hide the known warnings of other libraries
and nothing of the project's own.

Inside a test, pytest has installed those filters; ``catch_warnings(record=True)``
keeps them and records what passes.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import dispatch
from dispatch import _registry as reg


def _passing(emit) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        emit()
    return caught


def test_no_filter_ignores_a_whole_category(pytestconfig):
    filters = pytestconfig.getini("filterwarnings")
    assert len(filters) > 5  # pyproject.toml's, read
    for entry in filters:
        action, message, _category, module = [*entry.split(":")[:4], "", "", ""][:4]
        assert action == "ignore", entry
        # every entry names a message or a module
        assert message or module, f"{entry!r} ignores a whole category"


@pytest.mark.parametrize(
    ("message", "category", "module"),
    [
        ("divide by zero encountered in log", RuntimeWarning, "sparse.numba_backend._umath"),
        ("invalid value encountered in arccos", RuntimeWarning, "dask._task_spec"),
        ("All-NaN slice encountered", RuntimeWarning, "numpy.lib._nanfunctions_impl"),
        ("Port 8787 is already in use.", UserWarning, "distributed.node"),
        ("Detected pickle protocol 4 in the checkpoint, which was ...", UserWarning, "torch.x"),
        (
            "Please import `eye` from the `scipy.sparse` namespace; the "
            "`scipy.sparse.construct` namespace is deprecated and will be removed",
            DeprecationWarning,
            "test_safety",
        ),
    ],
)
def test_known_warnings_of_other_libraries_are_hidden(message, category, module):
    caught = _passing(
        lambda: warnings.warn_explicit(message, category, "x.py", 1, module=module)
    )
    assert caught == []


def test_numpy_floating_point_warning_is_hidden():
    assert _passing(lambda: np.log(np.zeros(1))) == []


@pytest.mark.parametrize(
    ("message", "category", "module"),
    [
        # the same messages from another library than the one named are kept
        ("Port 8787 is already in use.", UserWarning, "dispatch._helpers"),
        ("Detected pickle protocol 4 in the checkpoint", UserWarning, "dispatch._do"),
        # a deprecation of dispatch's own
        ("'old_name' is deprecated, use 'new_name'", DeprecationWarning, "dispatch.autoray"),
        ("a numpy result has the wrong dtype", RuntimeWarning, "dispatch._do"),
    ],
)
def test_other_warnings_still_show(message, category, module):
    caught = _passing(
        lambda: warnings.warn_explicit(message, category, "x.py", 1, module=module)
    )
    assert [str(w.message) for w in caught] == [message]


def test_the_projects_own_warning_still_shows():
    # a backend name close to a known one ('numpyy') is kept, with a warning
    try:
        caught = _passing(lambda: dispatch.register_function("numpyy", "probe", lambda x: x))
    finally:
        reg.unregister_function("numpyy", "probe")
    assert len(caught) == 1, [str(w.message) for w in caught]
    assert caught[0].category is UserWarning
    assert "'numpyy' is neither a known backend nor an installed module" in str(caught[0].message)
