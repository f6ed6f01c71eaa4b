"""What the miss path (``dispatch/_resolve.py``) says when it cannot resolve, as rules
over every case: an error names the function, the backend and what was wrong.

* a function name that is not a string, on any backend, whatever its type (an
  unhashable one too): a TypeError naming the name, the backend and the type given;
* a name that the resolver of a generic backend does not answer, or a private name:
  an UnknownFunctionError naming that backend and that name, with the resolver's
  own reason.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import _usable, restored_registry

from dispatch import UnknownFunctionError, do, get_lib_fn, register_backend
from dispatch._errors import short

_BACKENDS = [b for b in ("numpy", "torch", "dask") if _usable({"dask": "dask.array"}.get(b, b))]
_NOT_NAMES = [3, 2.5, None, b"sum", ("sum",), ["sum"], {"sum": 1}, np.int64(1), np.float32(1)]


@pytest.mark.parametrize("backend", _BACKENDS)
@pytest.mark.parametrize("name", _NOT_NAMES, ids=[type(n).__name__ for n in _NOT_NAMES])
def test_a_function_name_that_is_not_a_string_is_named_with_its_type(backend, name):
    with pytest.raises(TypeError) as info:
        get_lib_fn(backend, name)
    assert str(info.value) == (
        f"do({short(name)}, ...) on backend {backend!r}: the function name must be a string "
        f"such as 'sum', got {type(name).__name__}"
    )


# ---------------------------------------------------------------- a generic backend


class _Node:
    """An array of a generic backend, whose resolver answers the names it knows."""

    shape = (1,)
    dtype = "float64"


_BACKEND = "resolver_message_probe"


@pytest.fixture
def generic():
    """``_BACKEND``: a resolver that knows ``sin`` alone; the registries restored after."""

    def resolver(name):
        if name != "sin":
            raise AttributeError(f"the graph has no operation {name!r}")
        return lambda x: "sin of a node"

    with restored_registry():
        register_backend(_Node, _BACKEND, resolver=resolver)
        yield


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("cos", "the graph has no operation 'cos'"),
        ("linalg.qr", "the graph has no operation 'linalg.qr'"),
        ("sum", "the graph has no operation 'sum'"),  # composed elsewhere, not here
        ("_private", "private or empty name component"),
        ("linalg..qr", "private or empty name component"),
    ],
)
def test_a_name_the_resolver_does_not_answer_names_the_backend(generic, name, reason):
    assert do("sin", _Node()) == "sin of a node"
    for call in (lambda: do(name, _Node()), lambda: get_lib_fn(_BACKEND, name)):
        with pytest.raises(UnknownFunctionError) as info:
            call()
        message = str(info.value)
        assert message.startswith(f"do({name!r}) on backend {_BACKEND!r}: no registration"), (
            message
        )
        assert f"({reason})" in message, message
