"""Every error ``do`` raises about its own call names that call.

The rule (docs/design.md, house style): an error names the function, the backend or
the object at fault, and what was wrong, whatever the form of the call: positional
arguments, keywords, a lone sequence, a sequence beside other arguments, a nested
sequence, ``like=`` a name or an example. Each form reaches a different miss path
in ``dispatch/_do.py`` (``_miss``, ``_elements_entry`` through the lone, the plain
and the nested sequence dispatchers, ``_with_like``), so each is checked.
"""

from __future__ import annotations

import numpy as np
import pytest

from dispatch import do
from dispatch._errors import UnknownBackendError


class Opaque:
    """An object of a library that no backend owns: no dtype, no shape."""


Opaque.__module__ = "opaquelib_fake"
OBJ = Opaque()
X = np.arange(3.0)

# every form of a call whose arrays are all of a type no backend owns
FOREIGN_CALLS = {
    "positional": ("sum", lambda: do("sum", OBJ)),
    "two positional": ("add", lambda: do("add", OBJ, OBJ)),
    "keyword": ("sum", lambda: do("sum", OBJ, axis=0)),
    "lone sequence": ("stack", lambda: do("stack", [OBJ, OBJ])),
    "lone sequence of three": ("stack", lambda: do("stack", [OBJ, OBJ, OBJ])),
    "sequence and a positional": ("stack", lambda: do("stack", [OBJ, OBJ], 0)),
    "sequence and a keyword": ("stack", lambda: do("stack", [OBJ, OBJ], axis=0)),
    "nested sequence": ("stack", lambda: do("stack", [[OBJ], [OBJ]])),
    "nested sequence and a keyword": ("stack", lambda: do("stack", [[OBJ], [OBJ]], axis=0)),
}


@pytest.mark.parametrize("twice", [1, 2], ids=["cold", "warm"])
@pytest.mark.parametrize("form", list(FOREIGN_CALLS))
def test_a_foreign_argument_is_refused_naming_the_function_and_its_type(form, twice):
    """No backend owns the arguments: the UnknownBackendError opens with the call
    (``do('stack')``) and names the type at fault, on the first call and the next."""
    name, call = FOREIGN_CALLS[form]
    for _ in range(twice):
        with pytest.raises(UnknownBackendError) as info:
            call()
    message = str(info.value)
    assert message.startswith(f"do({name!r}): no backend owns an argument of type "), message
    assert "opaquelib_fake.Opaque" in message


LIKE_CALLS = {
    "like= a foreign object": ("zeros", lambda: do("zeros", (2,), like=OBJ), "'Opaque'"),
    "like= a sequence call": ("stack", lambda: do("stack", [X, X], like=OBJ), "'Opaque'"),
    "like= an unknown name": (
        "zeros",
        lambda: do("zeros", (2,), like="nolib_fake"),
        "unknown backend 'nolib_fake'",
    ),
    "like= an unknown name, a sequence call": (
        "stack",
        lambda: do("stack", [X, X], like="nolib_fake"),
        "unknown backend 'nolib_fake'",
    ),
}


@pytest.mark.parametrize("form", list(LIKE_CALLS))
def test_a_like_no_backend_answers_is_refused_naming_the_function_and_the_like(form):
    name, call, what = LIKE_CALLS[form]
    with pytest.raises(UnknownBackendError) as info:
        call()
    assert str(info.value).startswith(f"do({name!r}, like="), str(info.value)
    assert what in str(info.value), str(info.value)


BAD_NAMES = [["sum"], {"sum": 1}]
NAME_CALLS = {
    "positional": lambda n: do(n, X),
    "two positional": lambda n: do(n, X, X),
    "three positional": lambda n: do(n, X, X, X),
    "four positional": lambda n: do(n, X, X, X, X),
    "keyword": lambda n: do(n, X, axis=0),
    "lone sequence": lambda n: do(n, [X, X]),
    "like= a name": lambda n: do(n, X, like="numpy"),
    "like= another name": lambda n: do(n, X, like="torch"),
    "like= an example": lambda n: do(n, X, like=X),
    "like= an example, a keyword": lambda n: do(n, (2,), like=X, dtype="float32"),
}


@pytest.mark.parametrize("name", BAD_NAMES, ids=lambda n: type(n).__name__)
@pytest.mark.parametrize("form", list(NAME_CALLS))
def test_a_name_that_is_no_string_is_refused_naming_its_type(form, name):
    """``do([...], ...)``: a TypeError that shows the name given and says what type it
    is, whatever else the call holds (``like=`` included)."""
    with pytest.raises(TypeError) as info:
        NAME_CALLS[form](name)
    assert str(info.value) == (
        f"do({name!r}, ...): the function name must be a string such as 'sum', "
        f"got {type(name).__name__}"
    )
