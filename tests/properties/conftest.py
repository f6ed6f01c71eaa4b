"""Hypothesis profiles for the property tests, and the count of cases they ran.

Profiles (pick one with ``pytest --hypothesis-profile=<name>``; the default is
``properties-ci``):

``properties-ci``
    Reproducible (``derandomize=True``: each test draws the same examples on
    every run), no deadline, no example database, few examples per
    (function, backend) pair so that the whole directory runs in about 90 s on
    one core.
``properties-dev``
    Random and thorough (200 examples per pair), for local bug hunting.

Each test records the examples it executed as the ``property_cases`` user
property; the terminal summary in ``tests/conftest.py`` adds them up over every
report (the controller receives user properties from xdist workers too).
"""

from __future__ import annotations

import pytest
from conftest import VOCABULARY_BACKENDS, _backend_param
from hypothesis import HealthCheck, settings


@pytest.fixture(params=VOCABULARY_BACKENDS)
def backend(request):
    """Every installed array backend and autograd's boxes (tests/conftest.py): the
    property tests check the whole vocabulary on each."""
    return _backend_param(request)


# examples per (function, backend) pair in the CI profile: jax compiles every function
# for every new shape (about 50 ms an example), the others take 1 to 5 ms (autograd's
# boxes 5 to 10: every call form of an example records a trace)
CI_EXAMPLES = 8
CI_EXAMPLES_BY_BACKEND = {"torch": 6, "tensorflow": 5, "dask": 3, "sparse": 2, "jax": 3,
                          "paddle": 5, "autograd": 5}

_COMMON = {
    "deadline": None,
    "database": None,
    "print_blob": True,
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
        HealthCheck.differing_executors,
    ],
}
settings.register_profile("properties-ci", max_examples=CI_EXAMPLES, derandomize=True, **_COMMON)
settings.register_profile("properties-dev", max_examples=200, **_COMMON)
PROFILES = ("properties-ci", "properties-dev")


def profile(backend: str) -> settings:
    """The profile chosen with ``--hypothesis-profile`` if it is one of ours, else CI
    (with fewer examples on the backends that are slow per example)."""
    name = settings.get_current_profile_name()
    if name in PROFILES and name != "properties-ci":
        return settings.get_profile(name)
    ci = settings.get_profile("properties-ci")
    return settings(ci, max_examples=CI_EXAMPLES_BY_BACKEND.get(backend, ci.max_examples))
