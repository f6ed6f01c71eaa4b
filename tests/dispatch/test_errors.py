"""Error messages: unknown names, unsafe names, unknown backends, gaps, mixed calls."""

from __future__ import annotations

import importlib
import re

import numpy as np
import pytest
from conftest import _usable, to_backend

import dispatch
from dispatch import (
    BackendNotInstalledError,
    DispatchError,
    UnknownBackendError,
    UnknownFunctionError,
    UnsupportedError,
    do,
)
from dispatch import _registry as reg
from dispatch.spec import Unsupported, unsupported

X = np.arange(4.0)


def test_error_hierarchy():
    for err in (
        UnknownFunctionError,
        UnsupportedError,
        UnknownBackendError,
        BackendNotInstalledError,
        dispatch.MixedBackendError,
    ):
        assert issubclass(err, DispatchError)
    # each also is the builtin error users would catch for it
    assert issubclass(UnknownFunctionError, AttributeError)
    assert issubclass(UnsupportedError, NotImplementedError)
    assert issubclass(dispatch.MixedBackendError, TypeError)
    assert issubclass(UnknownBackendError, ValueError)
    assert issubclass(BackendNotInstalledError, ImportError)


@pytest.mark.parametrize(
    ("typo", "close"),
    [
        ("sumn", "sum"),
        ("linalg.qrr", "linalg.qr"),
        ("lnalg.qr", "linalg.qr"),
        ("reshap", "reshape"),
        ("concatenat", "concatenate"),
        ("fft.rff", "fft.rfft"),
    ],
)
def test_unknown_name_suggests_close_matches(typo, close, backend):
    x = to_backend(X, backend)
    with pytest.raises(UnknownFunctionError) as info:
        do(typo, x)
    msg = str(info.value)
    assert repr(typo) in msg
    assert repr(backend) in msg
    assert repr(close) in msg


@pytest.mark.parametrize(
    "name",
    [
        "os.system",
        "sys.exit",
        "_private",
        "__class__",
        "__import__",
        "__builtins__",
        "linalg.__name__",
        "random._pickle",
        "linalg._umath_linalg",
        "importlib.import_module",
        "subprocess.run",
        "builtins.eval",
        "testing.os.system",
        "",
        ".sum",
        "sum.",
    ],
)
def test_private_dunder_and_foreign_names_raise(name, backend, tmp_path):
    marker = tmp_path / "ran"
    x = to_backend(X, backend)
    with pytest.raises(UnknownFunctionError):
        do(name, f"touch {marker}", like=backend)
    with pytest.raises(UnknownFunctionError):
        do(name, x)
    assert not marker.exists()


def test_os_system_through_torch_is_refused(tmp_path):
    """``torch.os`` exists, but it is not torch's: the resolver must not walk into it."""
    if not _usable("torch"):
        pytest.skip("torch is not installed")
    marker = tmp_path / "ran"
    with pytest.raises(UnknownFunctionError):
        do("os.system", f"touch {marker}", like="torch")
    assert not marker.exists()


def test_foreign_attribute_is_refused():
    """numpy re-exports nothing foreign through do, even where an attribute exists."""
    import numpy

    foreign = [n for n in ("os", "sys", "warnings", "builtins", "math") if hasattr(numpy, n)]
    for mod in foreign:
        with pytest.raises(UnknownFunctionError):
            do(f"{mod}.getcwd", like="numpy")


def test_unknown_backend():
    with pytest.raises(UnknownBackendError, match="nolib") as info:
        do("sum", X, like="nolib")
    assert "numpy" in str(info.value)  # lists the known backends
    with pytest.raises(UnknownBackendError):
        dispatch.set_backend("nolib")
    with pytest.raises(UnknownBackendError), dispatch.backend_like("nolib"):
        pass
    with pytest.raises(UnknownBackendError):
        dispatch.get_namespace("nolib")
    with pytest.raises(UnknownBackendError):
        dispatch.get_lib_fn("nolib", "sum")
    assert dispatch.get_backend() == "numpy"


def test_like_object_of_unknown_type():
    class Thing:
        pass

    with pytest.raises(UnknownBackendError, match="Thing"):
        do("zeros", (2,), like=Thing())


def test_missing_library():
    missing = [b for b in reg.known_backends() if reg.has_table(b) and not _importable(b)]
    if not missing:
        pytest.skip("every shipped backend's library is installed")
    b = missing[0]
    with pytest.raises(BackendNotInstalledError, match=b) as info:
        do("zeros", (2,), like=b)
    assert "pip install" in str(info.value)


def _importable(backend: str) -> bool:
    try:
        importlib.import_module({"dask": "dask.array"}.get(backend, backend))
    except ImportError:
        return False
    return True


def test_unsupported_entry_raises_with_reason(monkeypatch):
    table = reg.table("numpy")
    monkeypatch.setitem(table.TABLE, "gap_probe", unsupported("numpy cannot do this probe"))
    reg.clear_caches()
    try:
        with pytest.raises(UnsupportedError) as info:
            do("gap_probe", X)
        msg = str(info.value)
        assert "'gap_probe'" in msg
        assert "'numpy'" in msg
        assert "cannot do this probe" in msg
        assert dispatch.supports("gap_probe", "numpy") is None
        assert dispatch.coverage(["gap_probe"], ["numpy"])["gap_probe"]["numpy"].startswith(
            "unsupported: numpy cannot do this probe"
        )
    finally:
        monkeypatch.undo()
        reg.clear_caches()


def test_shipped_unsupported_entries_raise(backend):
    table = reg.table(backend)
    gaps = {n: s.reason for n, s in table.TABLE.items() if isinstance(s, Unsupported)}
    if not gaps:
        pytest.skip(f"{backend} has no unsupported entries")
    x = to_backend(X, backend)
    for name, reason in gaps.items():
        with pytest.raises(UnsupportedError) as info:
            do(name, x)
        assert reason in str(info.value)
        assert repr(name) in str(info.value)


@pytest.mark.parametrize("name", [3, None, b"sum", ("sum",)])
def test_non_string_name(name):
    with pytest.raises(TypeError, match="string"):
        do(name, X)
    with pytest.raises(TypeError):
        do(name, X, like="numpy")


def test_library_error_gets_a_note(backend):
    x = to_backend(np.ones(6), backend)
    with pytest.raises(Exception) as info:  # noqa: PT011 - whatever the library raises
        dispatch.to_numpy(do("reshape", x, (4, 4)))
    notes = getattr(info.value, "__notes__", [])
    assert any("dispatch.do('reshape')" in n and repr(backend) in n for n in notes), notes


def test_note_added_once():
    def boom(x):
        raise ValueError("inner")

    dispatch.register_function("numpy", "boom_probe", boom)
    dispatch.register_function("numpy", "outer_probe", lambda x: do("boom_probe", x))
    try:
        with pytest.raises(ValueError, match="inner") as info:
            do("outer_probe", X)
        assert len(info.value.__notes__) == 1
    finally:
        dispatch.unregister_function("numpy", "boom_probe")
        dispatch.unregister_function("numpy", "outer_probe")


def test_note_of_a_call_whose_backend_cannot_be_worked_out():
    """The error of a call whose arguments cannot even be looked at (a list whose
    iteration fails, a one-shot stream) still names the call, and says the backend
    is unknown rather than naming one."""

    class Consumed(list):
        def __iter__(self):
            raise RuntimeError("the stream was consumed")

    with pytest.raises(RuntimeError, match="the stream was consumed") as info:
        do("sum", Consumed([1.0, 2.0]))
    assert info.value.__notes__ == ["(raised inside dispatch.do('sum') on backend '?')"]


def test_mixed_error_names_both():
    libs = [b for b in ("torch", "jax", "tensorflow") if _usable(b)]
    if len(libs) < 2:
        pytest.skip("needs two non-numpy libraries")
    a, b = libs[:2]
    with pytest.raises(dispatch.MixedBackendError) as info:
        do("add", to_backend(X, a), to_backend(X, b))
    assert repr(a) in str(info.value)
    assert repr(b) in str(info.value)
    assert "convert" in str(info.value)


# ---------------------------------------------------------------- messages, word for word
#
# What a user reads, pinned as whole sentences (anchored, or with word boundaries), so
# that a changed word, padding or case is a failure and not a pass.


def test_unknown_backend_lists_each_known_backend_by_name():
    with pytest.raises(UnknownBackendError) as info:
        do("sum", X, like="nolib")
    found = re.search(
        r"\bKnown backends: (.+?); a new array library is added with "
        r"dispatch\.register_backend\(type_or_module_prefix, name\)\.",
        str(info.value),
    )
    assert found, str(info.value)
    names = found.group(1).split(", ")
    assert all(re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", n) for n in names), names
    assert {"numpy", "scipy", "torch", "jax", "dask"} <= set(names)


def test_register_backend_names_the_rule_for_a_backend_name():
    class Probe:
        pass

    with pytest.raises(
        ValueError,
        match=r": '_hidden' is not a valid backend name; use a public dotted name such as "
        r"'mylib'$",
    ):
        dispatch.register_backend(Probe, "_hidden")


def test_register_function_location_beside_an_implementation_is_refused():
    with pytest.raises(
        ValueError,
        match=r"^register_function\('numpy', 'probe_total', \.\.\.\): module=, alias= and "
        r"wrapper= say where the library has the function; they have no effect beside an "
        r"implementation fn: pass one or the other$",
    ):
        dispatch.register_function("numpy", "probe_total", np.sum, module="numpy")
    assert not dispatch.supports("probe_total", "numpy")  # nothing was registered


def test_inject_dtype_on_a_name_that_creates_nothing_warns():
    with pytest.warns(
        UserWarning,
        match=r"^register_function\('numpy', 'probe_total', \.\.\.\): 'probe_total' is not a "
        r"creation routine of the vocabulary, so no dtype or device is taken from like= "
        r"arrays for it; pass them in the call$",
    ) as record:
        out = dispatch.register_function("numpy", "probe_total", inject_dtype=True)
    assert out is None  # and nothing registered
    assert not dispatch.supports("probe_total", "numpy")
    assert all(w.category is UserWarning for w in record), [w.category for w in record]


def test_like_a_dtype_says_it_is_a_parameter_not_an_example():
    """A library's dtype given as ``like=``: the error says what it is and what to pass,
    from ``do`` (which names the call) and from the helpers taking ``like``."""
    dt = np.dtype("float32")
    kind = type(dt).__name__
    sentence = (
        f"like=dtype('float32') (type {kind!r}) is not an array of 'numpy' but one of its "
        "parameters; pass like='numpy' (and dtype=/device= for a creation routine) or an "
        "example array"
    )
    with pytest.raises(UnknownBackendError) as info:
        do("zeros", 2, like=dt)
    assert str(info.value) == "do('zeros', like=...): " + sentence
    for call in (lambda: dispatch.convert(X, dt), lambda: dispatch.set_backend(dt)):
        with pytest.raises(UnknownBackendError) as info:
            call()
        assert str(info.value) == sentence
    assert dispatch.get_backend() == "numpy"


def test_refusal_of_an_unowned_object_explains_why_word_for_word():
    class Opaque:
        pass

    with pytest.raises(UnknownBackendError) as info:
        do("sum", Opaque())
    assert str(info.value) == (
        f"do('sum'): no backend owns an argument of type {__name__}."
        "test_refusal_of_an_unowned_object_explains_why_word_for_word.<locals>.Opaque; "
        "it is not an array of a known library (no dtype and shape, no "
        "__array_function__), so numpy is not run on it. Pass like='numpy' (or another "
        "backend) to choose one, or register the type with "
        "dispatch.register_backend(type, name)"
    )


def test_unknown_name_suggests_the_library_s_own_functions():
    """The suggestions also come from the library's public callables that no table
    lists (numpy's window functions, business days)."""
    for typo, close in (("bartlet", "bartlett"), ("busday_cont", "busday_count")):
        with pytest.raises(UnknownFunctionError) as info:
            do(typo, X)
        assert re.search(rf"\. Did you mean '{close}'[,?]", str(info.value)), str(info.value)


def test_unknown_dotted_name_suggests_by_its_last_part():
    """``a.b.cumsum``: no name is close to the whole path, so its last part is compared."""
    with pytest.raises(UnknownFunctionError) as info:
        do("nolib.stats.cumsum", X)
    assert re.search(r"\. Did you mean 'cumsum'[,?]", str(info.value)), str(info.value)


def test_a_method_of_a_library_class_is_refused_naming_the_class():
    """``random.Generator.normal``: the refusal names the object the walk stopped at by
    its own name (the class), not by its path below the library."""
    with pytest.raises(dispatch.RefusedNameError) as info:
        do("random.Generator.normal", like="numpy")
    assert str(info.value) == (
        "do('random.Generator.normal') on backend 'numpy' is refused: it reaches the "
        "attribute 'normal' of the type object 'Generator', and dispatch walks only through "
        "modules. dispatch resolves a name only to an array function of the library "
        "(docs/safety.md)."
    )


def test_unknown_name_in_a_submodule_says_which_module_lacks_it():
    with pytest.raises(UnknownFunctionError) as info:
        do("linalg.nosuch_probe", X)
    assert re.search(
        r"^do\('linalg\.nosuch_probe'\) on backend 'numpy': no registration, table entry, "
        r"composed fallback or public library function of that name \(numpy\.linalg has no "
        r"attribute 'nosuch_probe'\)\.",
        str(info.value),
    ), str(info.value)


def test_infer_backend_multi_of_two_libraries_says_what_to_do():
    """Outside a ``do`` call there is no call to name: the message starts with the fact."""
    torch = pytest.importorskip("torch")
    jnp = pytest.importorskip("jax.numpy")
    with pytest.raises(dispatch.MixedBackendError) as info:
        dispatch.infer_backend_multi(torch.ones(2), jnp.ones(2))
    assert str(info.value) == (
        "arrays of 'torch' and 'jax' were passed to one call; convert one side first, e.g. "
        "dispatch.convert(x, 'torch')"
    )


# ---------------------------------------------------------------- suggestions


def test_suggest_adds_nothing_when_nothing_is_close():
    """``suggest`` is a sentence to append, or nothing at all: no name close enough,
    or a name that is no string, adds not a character to the message."""
    from dispatch._errors import suggest

    pool = ["sum", "mean", "linalg.norm"]
    assert suggest("zzqqxx", pool) == ""
    assert suggest("linalg.zzqqxx", pool) == ""
    assert suggest(3, pool) == ""
    assert suggest(None, pool) == ""
    assert suggest("sum", []) == ""
    assert suggest("summ", pool) == " Did you mean 'sum'?"
    assert suggest("SUMM", pool) == " Did you mean 'sum'?"
    assert suggest("averylongprefix.meen", pool) == " Did you mean 'mean'?"  # the last part
    assert suggest("sum", [3, None, "sum"]) == " Did you mean 'sum'?"  # non-strings ignored


def test_suggest_gives_at_most_n_names_best_first_in_every_way_of_comparing():
    """``n`` bounds the suggestions whether the name matched as written, ignoring case
    or by its last part; the closest comes first, in the pool's own spelling."""
    from dispatch._errors import suggest

    pool = ["sum", "cumsum", "nansum", "summary", "sums", "linalg.norm"]
    assert suggest("summ", pool, n=1) == " Did you mean 'sum'?"
    assert suggest("summ", pool) == " Did you mean 'sum', 'sums', 'summary'?"
    assert suggest("SUMS", pool, n=1) == " Did you mean 'sums'?"
    assert suggest("SUMS", pool, n=2) == " Did you mean 'sums', 'sum'?"
    assert suggest("LINALG.NORM", pool) == " Did you mean 'linalg.norm'?"
    assert suggest("deep.sumz", pool, n=1) == " Did you mean 'sum'?"
    assert suggest("deep.sumz", pool) == " Did you mean 'sum', 'sums'?"


def test_messages_without_a_suggestion_read_on_at_once():
    """An unknown name or backend that resembles nothing: the message goes straight
    from what was tried to what to do."""
    with pytest.raises(UnknownFunctionError) as info:
        do("zzqqxxyy", X)
    assert str(info.value).endswith(
        "(numpy has no attribute 'zzqqxxyy'). "
        "Add one with dispatch.register_function('numpy', 'zzqqxxyy', fn)."
    ), str(info.value)
    with pytest.raises(UnknownBackendError) as info:
        do("sum", X, like="zzqqxxyy")
    assert "unknown backend 'zzqqxxyy'. Known backends: " in str(info.value), str(info.value)


def test_short_cuts_a_repr_to_its_length_with_an_ellipsis():
    from dispatch._errors import short

    assert short("x" * 38) == "'" + "x" * 38 + "'"  # 40 characters: whole
    assert short("x" * 39) == "'" + "x" * 36 + "..."  # 41: cut to 40
    assert len(short(list(range(100)))) == 40
    assert short(list(range(100)), n=10) == "[0, 1, ..."
    assert short("abc", n=5) == "'abc'"
