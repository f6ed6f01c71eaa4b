"""What a name may reach (docs/safety.md): a walk over every reachable attribute path
of each installed library, and every refused example with the process state checked
unchanged."""

from __future__ import annotations

import builtins
import importlib
import os
import pickle
import re
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import _usable

import dispatch
from dispatch import RefusedNameError, UnknownFunctionError, _resolve, do
from dispatch import _registry as reg
from dispatch.spec import Alias, _Native

WALKED = ["numpy", "scipy", "torch", "jax", "tensorflow", "dask", "sparse"]
DEPTH = 3


def _public(obj: Any) -> list[str]:
    try:
        return sorted(n for n in dir(obj) if not n.startswith("_"))
    except Exception:  # an object whose __dir__ fails has nothing to walk
        return []


def reachable_paths(backend: str, depth: int = DEPTH) -> list[str]:
    """Every attribute path from the backend's root and ``MODULES`` remaps, through
    modules to ``depth`` components, plus one step into each non-module object met
    (``sctypeDict.update``, ``add.at``): what a caller could spell."""
    tbl = reg.table(backend)
    starts = {"": reg.root_module(backend)}
    starts.update({k: v for k, v in getattr(tbl, "MODULES", {}).items() if k})
    out: set[str] = set()
    for prefix, modname in starts.items():
        skip = 1 if prefix else 0
        queue = [(importlib.import_module(modname), [prefix] if prefix else [])]
        while queue:
            mod, parts = queue.pop()
            for n in _public(mod):
                path = [*parts, n]
                out.add(".".join(path))
                if len(path) - skip >= depth:
                    continue
                try:
                    child = getattr(mod, n)
                except Exception:  # a lazy attribute that fails to import
                    continue
                if isinstance(child, types.ModuleType):
                    queue.append((child, path))
                else:
                    out.update(".".join([*path, a]) for a in _public(child))
    return sorted(out)


def _dangerous() -> dict[int, str]:
    """Objects no name may reach, independent of the tables' data."""
    found: dict[int, str] = {}

    def add(path: str) -> None:
        mod, _, attr = path.rpartition(".")
        try:
            obj = getattr(importlib.import_module(mod), attr)
        except (ImportError, AttributeError):
            return
        found[id(obj)] = path

    for path in (
        "os.system",
        "os.popen",
        "os.remove",
        "os.execv",
        "subprocess.run",
        "subprocess.Popen",
        "subprocess.call",
        "subprocess.check_output",
        "builtins.exec",
        "builtins.eval",
        "builtins.open",
        "builtins.compile",
        "builtins.__import__",
        "builtins.setattr",
        "builtins.delattr",
        "pickle.load",
        "pickle.loads",
        "importlib.import_module",
        "ctypes.CDLL",
        "shutil.rmtree",
        "urllib.request.urlopen",
        "numpy.ctypeslib.load_library",
        "numpy.set_printoptions",
        "numpy.seterr",
        "numpy.lib.stride_tricks.as_strided",
        "numpy.put",
        "numpy.copyto",
        "numpy.fill_diagonal",
        "numpy.random.shuffle",
        "numpy.random.seed",
    ):
        add(path)
    if "torch" in sys.modules:
        for path in (
            "torch.ops.load_library",
            "torch.hub.load",
            "torch.utils.cpp_extension.load_inline",
            "torch.utils.collect_env.run",
            "torch.set_default_dtype",
            "torch.manual_seed",
            "torch.use_deterministic_algorithms",
            "torch.jit.load",
            "torch.serialization.load",
        ):
            add(path)
    if "dask" in sys.modules:
        add("dask.config.set")
        add("dask.array.from_npy_stack")
    return found


# names that configure the process, load native code or run tests, whatever the library
_CAPABILITY_NAME = re.compile(
    r"^(set_.*|seterr.*|setbufsize|manual_seed|seed|load_library|load_inline|register_.*|test)$"
)


# the reason of a refusal is the rule the name broke (docs/safety.md), in these words,
# or the reason a table gives beside a path it refuses
_RULE = re.compile(
    r"^(it lies in '[\w.]+' \(.+\)"
    r"|it reaches the attribute '\w+' of the \w+ object '\w+', and dispatch walks only "
    r"through modules( \(.+\))?"
    r"|'[\w.]+' is not one of the array modules that the '[\w.]+' table lists in SUBMODULES"
    r"|'[\w.]+' is an alias of the private module '[\w.]+'"
    r"|it is a method bound to the \w+ object behind '[\w.]+'"
    r"|a name ending in '\w+' writes into its input, and do never mutates its inputs: "
    r"call '\w+' instead)$",
    re.DOTALL,
)


def _refusal_reason(message: str, backend: str, path: str) -> str:
    """The reason in a refusal's message, which names the call and the backend first
    and the rule of docs/safety.md last."""
    head = f"do({path!r}) on backend {backend!r} is refused: "
    tail = ". dispatch resolves a name only to an array function of the library (docs/safety.md)."
    assert message.startswith(head), message
    assert message.endswith(tail), message
    return message[len(head) : -len(tail)]


def _walked(backend: str, path: str) -> bool:
    """Whether ``path`` resolves by walking the library (the fallthrough, a table
    path or alias), not to an implementation a table or composed module holds."""
    if (backend, path) in reg.OVERRIDES:
        return False
    spec = getattr(reg.table(backend), "TABLE", {}).get(path)
    if spec is None:
        return path not in reg.composed()
    return isinstance(spec, (str, Alias, _Native))


@pytest.mark.parametrize("backend", WALKED)
def test_walk_every_reachable_name(backend, monkeypatch):
    if not _usable(backend if backend != "scipy" else "numpy"):
        pytest.skip(f"{backend} is not installed")
    # refusals only: skip the suggestions an UnknownFunctionError message computes
    monkeypatch.setattr(_resolve, "_unknown", lambda b, n, d: UnknownFunctionError(d))
    start, cpu = time.perf_counter(), time.process_time()
    paths = reachable_paths(backend)
    pol = _resolve._policy(backend)
    roots = _resolve._allowed_roots(backend)
    dangerous = _dangerous()
    table_reasons = set(pol.paths.values())
    served, refused, problems = 0, 0, []
    for path in paths:
        try:
            fn = _resolve._resolve(backend, path)
        except RefusedNameError as err:
            refused += 1
            reason = _refusal_reason(str(err), backend, path)
            if not _RULE.match(reason) and reason not in table_reasons:
                problems.append(f"{path}: refused without the rule it broke: {err}")
            continue
        except (UnknownFunctionError, dispatch.UnsupportedError):
            refused += 1
            continue
        served += 1
        if id(fn) in dangerous:
            problems.append(f"{path}: reaches {dangerous[id(fn)]}")
        bound = getattr(fn, "__self__", None)
        if bound is not None and not isinstance(bound, types.ModuleType):
            problems.append(f"{path}: a method bound to a {type(bound).__name__}")
        if not _walked(backend, path):
            continue  # a table's or composed implementation: reviewed code, not a walk
        if pol.guard(getattr(fn, "__wrapped__", None)) is not None:
            fn = fn.__wrapped__  # load with pinned keywords (tested below)
            assert path == "load"
            continue
        owner = getattr(fn, "__module__", None)
        if not isinstance(owner, str):
            owner = type(fn).__module__
        if owner == "builtins":
            if (
                not isinstance(fn, types.BuiltinFunctionType)
                or getattr(builtins, fn.__name__, None) is fn
            ):
                problems.append(f"{path}: a Python builtin {fn!r}")
        elif owner.split(".")[0] not in roots:
            problems.append(f"{path}: defined in {owner}, outside the library")
        elif pol.module_reason(owner) is not None:
            problems.append(f"{path}: defined in the capability module {owner}")
        last = path.rsplit(".", 1)[-1]
        if _CAPABILITY_NAME.match(last):
            problems.append(f"{path}: a configuration, loading or test name")
        if backend == "torch" and last.endswith("_") and not last.endswith("__"):
            problems.append(f"{path}: an in-place torch name")
        if type(fn).__name__ == "PytestTester":
            problems.append(f"{path}: the test runner")
    elapsed = time.perf_counter() - start
    used = time.process_time() - cpu  # CPU seconds: a loaded machine stretches wall time
    print(
        f"{backend}: {len(paths)} paths, {served} served, {refused} refused, "
        f"{elapsed:.1f} s ({used:.1f} s CPU)"
    )
    assert not problems, "\n".join(problems[:40])
    # the walk really exercised the resolver both ways
    assert served > 100, served
    assert refused > 100, refused
    assert used < 30, used


# ------------------------------------------------------------------ refused examples


def _state() -> dict[str, Any]:
    """Process state that a refused name could have changed."""
    s: dict[str, Any] = {
        "sctypeDict": dict(np.sctypeDict),
        "typecodes": dict(np.typecodes),
        "printoptions": np.get_printoptions(),
        "errstate": np.geterr(),
        "bufsize": np.getbufsize(),
    }
    if _usable("torch"):
        import torch
        import torch.utils._pytree as pytree

        s["torch_libraries"] = set(torch.ops.loaded_libraries)
        s["pytree_nodes"] = set(pytree.SUPPORTED_NODES)
        s["torch_dtype"] = torch.get_default_dtype()
        s["torch_deterministic"] = torch.are_deterministic_algorithms_enabled()
        s["torch_threads"] = torch.get_num_threads()
        s["torch_rng"] = torch.get_rng_state().clone().numpy().tobytes()
        s["torch_grad"] = torch.is_grad_enabled()
    if _usable("jax"):
        import jax

        s["jax_x64"] = jax.config.jax_enable_x64
    if _usable("dask"):
        import dask

        s["dask_config"] = repr(dask.config.config)
    return s


def _examples(tmp: Path) -> list[tuple[str, str, tuple, dict, str]]:
    """(backend, name, args, kwargs, a word the refusal's reason must contain)."""
    x = np.zeros(4)
    out = [
        ("numpy", "sctypeDict.update", ({"evil": np.float16},), {}, "walks only through modules"),
        ("numpy", "typecodes.clear", (), {}, "walks only through modules"),
        ("numpy", "ctypeslib.load_library", ("libc", str(tmp)), {}, "native-code"),
        ("numpy", "f2py.compile", ("end",), {}, "Fortran"),
        ("numpy", "set_printoptions", (), {"precision": 1}, "global configuration"),
        ("numpy", "seterr", (), {"all": "raise"}, "global configuration"),
        ("numpy", "setbufsize", (16384,), {}, "global configuration"),
        ("numpy", "random.seed", (), {}, None),  # vocabulary: reseeds dispatch's generator
        ("numpy", "random.mtrand.seed", (1,), {}, "legacy global random state"),
        ("numpy", "random.set_bit_generator", (None,), {}, "legacy global random state"),
        ("numpy", "lib.format.read_array", (str(tmp / "x.npy"),), {}, "unpickle"),
        ("numpy", "lib.npyio.DataSource", (str(tmp),), {}, "downloads"),
        ("numpy", "loadtxt", ("http://example.invalid/x.txt",), {}, "download"),
        ("numpy", "scipy.datasets.face", (), {}, "download"),
        ("numpy", "test", (), {}, "pytest"),
        ("numpy", "linalg.test", (), {}, "pytest"),
        ("numpy", "lib.stride_tricks.as_strided", (x,), {"strides": (0,)}, "raw memory"),
        ("numpy", "lib.add_newdoc", ("numpy", "sum", "hacked"), {}, "docstrings"),
        ("numpy", "testing.extbuild.build_and_import_extension", ("m", []), {}, "C extensions"),
        ("numpy", "scipy.fft.set_global_backend", ("scipy",), {}, "global configuration"),
        ("numpy", "scipy.special.seterr", (), {"all": "raise"}, "global configuration"),
    ]
    if _usable("torch"):
        out += [
            ("torch", "utils.collect_env.run", (f"touch {tmp / 'ran'}",), {}, "shell"),
            ("torch", "ops.loaded_libraries.add", ("evil.so",), {}, "native"),
            ("torch", "ops.load_library", (str(tmp / "evil.so"),), {}, "native"),
            ("torch", "classes.load_library", (str(tmp / "evil.so"),), {}, "native"),
            ("torch", "utils.cpp_extension.load_inline", ("m", ""), {}, "C++ extension"),
            ("torch", "export.pytree.SUPPORTED_NODES.clear", (), {}, "export"),
            ("torch", "utils._pytree.SUPPORTED_NODES.clear", (), {}, None),  # private
            ("torch", "hub.load", ("repo/x", "m"), {}, "download"),
            ("torch", "set_default_dtype", (), {}, "global configuration"),
            ("torch", "set_num_threads", (1,), {}, "global configuration"),
            ("torch", "set_grad_enabled", (False,), {}, "global configuration"),
            ("torch", "use_deterministic_algorithms", (True,), {}, "global configuration"),
            ("torch", "manual_seed", (3,), {}, "global configuration"),
            ("torch", "random.manual_seed", (3,), {}, "global random state"),
            ("torch", "jit.load", (str(tmp / "m.pt"),), {}, "TorchScript"),
            ("torch", "serialization.load", (str(tmp / "m.pt"),), {}, "unpickling"),
            ("torch", "package.PackageImporter", (str(tmp / "m.pt"),), {}, "unpickle"),
            ("torch", "distributed.init_process_group", (), {}, "processes"),
            ("torch", "cuda.set_device", (0,), {}, "device"),
            ("torch", "CompilationUnit", ("def f(x):\n    return x\n",), {}, "TorchScript"),
        ]
    if _usable("jax"):
        out += [
            ("jax", "config.update", ("jax_enable_x64", True), {}, None),  # not reachable
            ("jax", "set_printoptions", (), {"precision": 1}, "global configuration"),
        ]
    if _usable("dask"):
        out += [
            ("dask", "config.set", (), {"scheduler": "sync"}, None),  # not reachable
            ("dask", "core.config.set", (), {"scheduler": "sync"}, "SUBMODULES"),
            ("dask", "from_npy_stack", (str(tmp),), {}, "unpickles"),
            ("dask", "register_chunk_type", (dict,), {}, "global configuration"),
        ]
    if _usable("tensorflow"):
        out += [
            ("tensorflow", "experimental_enable_numpy_behavior", (), {}, "global configuration"),
        ]
    return out


def test_refused_examples_change_nothing(tmp_path, monkeypatch):
    ran = []

    def record(*args: Any, **kwargs: Any) -> None:
        ran.append(args)
        raise AssertionError(f"a process was started: {args}")

    examples = _examples(tmp_path)
    # import every library (and its tables) first: an import may run `uname -p`
    # (platform.processor), which is not what this test is about
    _state()
    for backend in {e[0] for e in examples}:
        reg.table(backend)
    # a refused name must not start a process, whatever it is
    monkeypatch.setattr(subprocess, "Popen", record)
    monkeypatch.setattr(os, "system", record)
    before = _state()
    files = sorted(tmp_path.iterdir())
    for backend, name, args, kwargs, word in examples:
        if name == "random.seed":
            continue  # listed to say why it is allowed; tested below
        with pytest.raises(UnknownFunctionError) as info:
            do(name, *args, like=backend, **kwargs)
        msg = str(info.value)
        assert msg.startswith(f"do({name!r}) on backend {backend!r}"), msg
        if word is not None:
            assert isinstance(info.value, RefusedNameError), msg
            assert word in msg, (word, msg)
            assert "docs/safety.md" in msg
        assert _state() == before, name
        assert sorted(tmp_path.iterdir()) == files, name
        # a second try fails the same way: nothing was cached or registered
        with pytest.raises(type(info.value)):
            do(name, *args, like=backend, **kwargs)
    assert not ran


def test_refused_names_are_typed_and_documented():
    assert issubclass(RefusedNameError, UnknownFunctionError)
    assert issubclass(RefusedNameError, dispatch.DispatchError)
    assert issubclass(RefusedNameError, AttributeError)
    assert "RefusedNameError" in dispatch.__all__
    assert dispatch.supports("sctypeDict.update", "numpy") is None
    assert dispatch.coverage(["set_printoptions"], ["numpy"]) == {
        "set_printoptions": {"numpy": "missing"}
    }


def test_vocabulary_setters_touch_only_dispatch_state():
    """``random.seed`` is in the vocabulary: it reseeds dispatch's own generator of
    that library, never numpy's legacy global state."""
    legacy = np.random.get_state()[1].copy()
    do("random.seed", 7, like="numpy")
    a = do("random.normal", size=3, like="numpy")
    do("random.seed", 7, like="numpy")
    np.testing.assert_array_equal(a, do("random.normal", size=3, like="numpy"))
    np.testing.assert_array_equal(np.random.get_state()[1], legacy)
    # numpy's legacy spellings draw from the same generator now (they were bound
    # methods of the global RandomState, which random.seed did not reseed)
    do("random.seed", 7, like="numpy")
    r = do("random.rand", 2, 3, like="numpy")
    do("random.seed", 7, like="numpy")
    assert r.shape == (2, 3)
    np.testing.assert_array_equal(r, do("random.rand", 2, 3, like="numpy"))
    assert isinstance(do("random.randn", like="numpy"), float)


# ------------------------------------------------------------------ unpickling


class _Payload:
    """Unpickling this touches a file: the proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple:
        return (Path.touch, (self.marker,))


class _Incomparable:
    def __eq__(self, other):
        raise RuntimeError("no comparison")

    __hash__ = None


def test_numpy_load_keeps_allow_pickle_false(tmp_path):
    marker = tmp_path / "unpickled"
    f = tmp_path / "evil.npy"
    np.save(f, np.array([_Payload(marker)], dtype=object), allow_pickle=True)
    good = tmp_path / "good.npy"
    np.save(good, np.arange(3.0))
    np.testing.assert_array_equal(do("load", str(good), like="numpy"), np.arange(3.0))
    np.testing.assert_array_equal(do("load", str(good), None, False, like="numpy"), np.arange(3.0))
    with pytest.raises(ValueError, match="allow_pickle"):  # numpy's own refusal
        do("load", str(f), like="numpy")
    bad = [
        ((), {"allow_pickle": True}),
        ((None, True), {}),
        ((), {"allow_pickle": 1}),
        # values that cannot be read as the safe one: refused, never taken as it
        ((), {"allow_pickle": np.array([False, True])}),
        ((), {"allow_pickle": _Incomparable()}),
    ]
    for args, kwargs in bad:
        with pytest.raises(RefusedNameError, match="allow_pickle=False"):
            do("load", str(f), *args, like="numpy", **kwargs)
    assert not marker.exists()


@pytest.mark.skipif(not _usable("jax"), reason="jax is not installed")
def test_jax_load_keeps_allow_pickle_false(tmp_path):
    marker = tmp_path / "unpickled"
    f = tmp_path / "evil.npy"
    np.save(f, np.array([_Payload(marker)], dtype=object), allow_pickle=True)
    good = tmp_path / "good.npy"
    np.save(good, np.arange(3.0))
    np.testing.assert_array_equal(np.asarray(do("load", str(good), like="jax")), np.arange(3.0))
    with pytest.raises(RefusedNameError, match="allow_pickle"):
        do("load", str(f), allow_pickle=True, like="jax")
    with pytest.raises(RefusedNameError, match="by keyword"):
        do("load", str(f), None, True, like="jax")
    assert not marker.exists()


@pytest.mark.skipif(not _usable("torch"), reason="torch is not installed")
def test_torch_load_keeps_weights_only(tmp_path, monkeypatch):
    import torch

    marker = tmp_path / "unpickled"
    evil = tmp_path / "evil.pt"
    with open(evil, "wb") as fh:
        pickle.dump(_Payload(marker), fh)
    good = tmp_path / "good.pt"
    torch.save(torch.arange(3.0), good)
    assert torch.equal(do("load", str(good), like="torch"), torch.arange(3.0))
    # weights_only is passed explicitly: the environment cannot turn it off
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    with pytest.raises(pickle.UnpicklingError):
        do("load", str(evil), like="torch")
    for kwargs in ({"weights_only": False}, {"pickle_module": pickle}):
        with pytest.raises(RefusedNameError, match=r"weights_only=True|pickle_module=None"):
            do("load", str(evil), like="torch", **kwargs)
    with pytest.raises(RefusedNameError):
        do("load", str(evil), None, pickle, like="torch")
    assert not marker.exists()


# ------------------------------------------------------------------ the mutation rule


def _numpy_in_place() -> list[tuple[str, tuple]]:
    x = np.arange(6.0)
    calls = [
        ("put", (x, [0], [9.0])),
        ("place", (x, x > 2, [9.0])),
        ("putmask", (x, x > 2, 9.0)),
        ("copyto", (x, 9.0)),
        ("fill_diagonal", (x.reshape(2, 3), 9.0)),
        ("put_along_axis", (x, np.array([0]), 9.0, 0)),
        ("random.shuffle", (x,)),
    ]
    # every ufunc's ``at`` writes into its first argument
    for name in _public(np):
        if isinstance(getattr(np, name), np.ufunc) and getattr(np, name).nin == 2:
            calls.append((f"{name}.at", (x, [0, 1], 1.0)))
    return calls


def test_numpy_in_place_names_are_refused():
    calls = _numpy_in_place()
    assert len(calls) > 40
    for name, args in calls:
        arrays = [a.copy() for a in args if isinstance(a, np.ndarray)]
        with pytest.raises(RefusedNameError) as info:
            do(name, *args, like="numpy")
        msg = str(info.value)
        assert "do never mutates its inputs" in msg or "walks only through modules" in msg, msg
        for a, b in zip(arrays, [a for a in args if isinstance(a, np.ndarray)], strict=True):
            np.testing.assert_array_equal(a, b)
    # the pure alternative the message names does the same job
    x = np.arange(6.0)
    ref = x.copy()
    np.add.at(ref, [0, 0, 3], 1.0)
    with pytest.raises(RefusedNameError, match="scatter_nd_scalar"):
        do("add.at", x, [0, 0, 3], 1.0)
    got = do("scatter_nd_scalar", x, np.array([[0], [0], [3]]), np.ones(3), mode="add")
    np.testing.assert_array_equal(got, ref)
    np.testing.assert_array_equal(x, np.arange(6.0))


@pytest.mark.skipif(not _usable("torch"), reason="torch is not installed")
def test_torch_in_place_names_are_refused():
    import torch

    names = []
    for prefix, mod in [
        ("", torch),
        ("nn.functional.", torch.nn.functional),
        ("special.", torch.special),
        ("linalg.", torch.linalg),
    ]:
        names += [prefix + n for n in _public(mod) if n.endswith("_") and not n.endswith("__")]
    assert len(names) > 50
    for name in names:
        with pytest.raises(UnknownFunctionError) as info:
            _resolve._resolve("torch", name)
        assert isinstance(info.value, RefusedNameError), name
        assert "do never mutates its inputs" in str(info.value), str(info.value)
    t = torch.ones(3)
    with pytest.raises(RefusedNameError, match="call 'exp' instead"):
        do("exp_", t)
    with pytest.raises(UnknownFunctionError, match="no attribute 'at'"):  # torch.add has none
        do("add.at", t, [0], 1.0)
    assert torch.equal(t, torch.ones(3))
    assert torch.equal(do("exp", t), torch.exp(torch.ones(3)))


def test_in_place_rule_matches_the_docs():
    text = (Path(__file__).parents[2] / "docs" / "safety.md").read_text()
    assert "never mutates its inputs" in text
    for doc in ("README.md", "docs/vocabulary.md"):
        body = (Path(__file__).parents[2] / doc).read_text()
        assert "safety.md" in body, doc


def test_lazy_graphs_follow_the_same_rules():
    """A lazy array records through numpy's resolution: a refused name fails when it
    is recorded, before any graph holds it."""
    from dispatch import lazy

    for x in (lazy.array(np.zeros(3)), lazy.Variable((3,))):
        for name, args in [("put", ([0], 1.0)), ("add.at", ([0], 1.0)), ("copyto", (1.0,))]:
            with pytest.raises(RefusedNameError, match="do never mutates its inputs"):
                do(name, x, *args)
        with pytest.raises(RefusedNameError, match="global configuration"):
            do("set_printoptions", x)
