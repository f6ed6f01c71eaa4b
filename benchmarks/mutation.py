"""Mutation score of the engine: how many small bugs planted in ``dispatch/`` the tests catch.

Runs mutmut (https://github.com/boxed/mutmut, the ``bench`` extra) over the engine
modules against ``tests/dispatch`` and ``tests/reliability``, on a deterministic
sample of the mutants, and prints per module the mutants killed out of those that
are not equivalent, with every survivor's change.

How it works:

1. the repository's ``dispatch/``, ``translations/``, ``tests/``, ``docs/`` and
   ``pyproject.toml`` are copied into a scratch folder (``build/mutation`` by
   default), whose ``pyproject.toml`` gets the ``[tool.mutmut]`` section of this
   run; mutmut writes its mutated copy into ``<scratch>/mutants/``, where
   ``dispatch/translations`` is linked to the copied ``translations/`` (setuptools
   maps that package from the top-level folder, which mutmut does not know);
2. every mutant of the chosen modules is listed with mutmut's own generator, and a
   mutant is in the sample when a hash of ``(seed, mutant name)`` falls in
   ``1/every`` of the range: the same mutants for the same code and seed, and a
   change to one function leaves the sample of the others alone;
3. ``mutmut run <the sampled names>`` runs each one (mutmut first records which
   tests reach which function, then runs, per mutant, only those tests, in a
   process forked from a fork server that has imported the array libraries);
4. the exit codes are read back from mutmut's result files, the equivalent mutants
   listed in :data:`EQUIVALENT` (each with its reason) are set apart, and the score
   per module is printed.

Usage::

    python benchmarks/mutation.py                          # the sample (1 in 10), 2 workers
    python benchmarks/mutation.py --modules _errors        # one module while developing
    python benchmarks/mutation.py --every 1                # every mutant (hours)
    python benchmarks/mutation.py --seed 3 --jobs 4        # another sample, more workers
    python benchmarks/mutation.py --seed 11 23 42          # three samples in one run
    python benchmarks/mutation.py --list                   # print the sample, run nothing
    python benchmarks/mutation.py --report                 # re-print the last run's score
    python benchmarks/mutation.py --json score.json        # also write the figures

A mutant counts as killed when a test fails (or the tests time out) with it in
place; it survives when every test reaching it passes, and has "no tests" when no
test reaches its function. The score of a module is killed / (sampled -
equivalent). docs/testing.md ("Mutation score") holds the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODULES = ("_do", "_infer", "_resolve", "_registry", "_register", "_compose", "_errors", "engine")
TESTS = ("tests/dispatch", "tests/reliability")
# what the scratch copy holds (tests read docs/ and translations/ by path)
COPIED = ("dispatch", "translations", "tests", "docs", "pyproject.toml", "README.md", "mkdocs.yml")

# Tests that cannot judge a mutant, left out of every mutmut run, each with its reason.
EXCLUDED_TESTS = {
    # ruff and mypy over the source: the mutated copy (trampolines, every mutant of
    # every function side by side) is neither, whatever the mutant does
    "tests/dispatch/test_lint.py": "lints the source text, which mutmut rewrites",
    "tests/dispatch/test_layout.py::test_no_module_is_over_800_lines": (
        "counts the lines of the source, which mutmut multiplies"
    ),
    # where a warning points: mutmut's trampolines put frames of its own package
    # between the user's line and dispatch's, so the first frame outside dispatch is
    # mutmut's, whatever the mutant does
    (
        "tests/dispatch/test_registry.py::"
        "test_a_registration_warning_points_at_the_line_that_registered"
    ): (
        "counts the stack frames between the caller and dispatch, which mutmut adds to"
    ),
}
# Tests left out for time: each takes 10 s to a minute (measured under mutmut), and a
# mutant that survives runs every test reaching its function. Each is the sweep of one
# slow library (jax compiles, pydata sparse is slow on small arrays) over every name of
# the vocabulary, whose engine paths the same test's numpy, torch and dask variants
# reach, or a measurement beside a faster test of the same behaviour.
SLOW_TESTS = {
    **dict.fromkeys(
        (
            "tests/dispatch/test_non_array_parameters.py::"
            "test_numpy_array_as_parameter_of_creation_routines[jax]",
            "tests/dispatch/test_non_array_parameters.py::"
            "test_numpy_array_as_parameter_changes_nothing[jax-positional]",
            "tests/dispatch/test_non_array_parameters.py::"
            "test_numpy_array_as_parameter_changes_nothing[jax-keyword]",
            "tests/dispatch/test_non_array_parameters.py::"
            "test_numpy_array_as_parameter_changes_nothing[sparse-positional]",
            "tests/reliability/test_supports.py::test_composed_names_reported_available_run[jax]",
            "tests/reliability/test_supports.py::"
            "test_composed_names_reported_available_run[sparse]",
        ),
        "a slow library's sweep over the vocabulary (the numpy, torch and dask ones run)",
    ),
    "tests/dispatch/test_safety.py::test_walk_every_reachable_name[torch]": (
        "walks every attribute of torch (a minute); the numpy and dask walks run"
    ),
    "tests/dispatch/test_registry.py::test_failing_calls_do_not_grow_memory": (
        "20,000 failing calls for a memory figure; test_failing_calls_cache_nothing runs"
    ),
    "tests/dispatch/test_cli.py::test_cli_numpy_libraries_demo_and_coverage": (
        "the CLI's coverage matrix of every name; coverage() itself is tested directly"
    ),
}
# pytest marker expressions, likewise
EXCLUDED_MARKERS = {
    "overhead": "timing ratios: mutmut's trampoline around every function adds its own cost",
}
# A pytest plugin written into the scratch folder, for every run of the tests:
#
# * each test starts with the engine's caches cold (clear_caches, and the memos that it
#   keeps: loaded tables, safety policies, parameter positions, owners). mutmut runs,
#   per mutant, the tests that reached the mutated function in its first run; a memo
#   filled by the first test that needed it would tie the function to that test alone,
#   and the mutant would survive every other test that depends on it;
# * the tests run fastest first, by the durations of mutmut's first run (mutmut hands
#   them to pytest as a set, in no fixed order): a mutant that a quick test kills is not
#   kept waiting behind the slow ones, and every run takes the same order.
PLUGIN = """\
\"\"\"Written by benchmarks/mutation.py: cold engine caches per test, fastest tests first.\"\"\"

import json
import pathlib
import sys

import pytest

MEMOS = {memos!r}

# paddle crashes (SIGSEGV) when it is first imported in a process forked after torch,
# jax and tensorflow were loaded, which every mutant's process is: here it is not
# installed (its tests skip as on a machine without it; the full suite checks it)
for _name in {unavailable!r}:
    sys.modules.setdefault(_name, None)


def pytest_collection_modifyitems(session, config, items):
    path = pathlib.Path("mutmut-stats.json")
    durations = json.loads(path.read_text())["duration_by_test"] if path.exists() else {{}}
    position = {{item.nodeid: i for i, item in enumerate(items)}}
    items.sort(key=lambda item: (durations.get(item.nodeid, 0.0), position[item.nodeid]))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    registry = sys.modules.get("dispatch._registry")
    if registry is None:
        return
    registry.clear_caches()
    for dotted in MEMOS:
        module, _, name = dotted.rpartition(".")
        memo = getattr(sys.modules.get(module), name, None)
        if memo is not None:
            memo.clear()
"""
# the memos besides clear_caches' caches: computed once, from data that does not change
MEMOS = (
    "dispatch._registry._SHIPPED",
    "dispatch._registry._TABLES",
    "dispatch._resolve._POLICIES",
    "dispatch._do._NON_ARRAY",
    "dispatch._infer._OWNER",
)

# libraries the mutation run leaves out: paddle segfaults on import in a forked process
# (seen 2026-11-29: every mutant's tests ended with SIGSEGV once paddle was installed)
UNAVAILABLE = ("paddle",)

# array libraries imported once by the fork server, so that each mutant's process starts
# with them loaded (dispatch itself is imported in that process, under the mutant)
PRELOAD = (
    "numpy",
    "scipy",
    "scipy.linalg",
    "scipy.special",
    "scipy.sparse",
    "torch",
    "jax",
    "jax.numpy",
    "tensorflow",
    "dask",
    "dask.array",
    "sparse",
    "hypothesis",
    "pytest",
)

# Equivalent mutants: no program can tell them from the original (same behaviour on
# every input), or they change only what no contract fixes. Matched by the function
# and the changed source lines (not by mutmut's numbering, which shifts with any edit
# above the change in the same function): (function, removed line, added line, reason).
_STRICT = "kw holds (name, type) pairs: its two slices always have the same length"
_FIRST = "split's first part is the same whether it splits once or at every dot"
_LAST = "rsplit's last part is the same whether it splits once or at every dot"
_USER_WARNING = "warnings.warn's category None (or left out) is UserWarning"
_HAS_NAME = (
    "obj is a builtin_function_or_method (tested first; the type cannot be subclassed), "
    "which always has __name__"
)
EQUIVALENT: tuple[tuple[str, str, str, str], ...] = (
    (
        "dispatch._errors.suggest",
        "close = difflib.get_close_matches(name, pool, n=n, cutoff=0.6)",
        "close = difflib.get_close_matches(name, pool, n=n, )",
        "0.6 is difflib's own default cutoff: the call is the same without it",
    ),
    (
        "dispatch._do._entry",
        "(k, c) for k, t in zip(kw[::2], kw[1::2], strict=True) if (c := conv(t, k in keywords))",
        "(k, c) for k, t in zip(kw[::2], kw[1::2], strict=None) if (c := conv(t, k in keywords))",
        _STRICT,
    ),
    (
        "dispatch._do._entry",
        "(k, c) for k, t in zip(kw[::2], kw[1::2], strict=True) if (c := conv(t, k in keywords))",
        "(k, c) for k, t in zip(kw[::2], kw[1::2], strict=False) if (c := conv(t, k in keywords))",
        _STRICT,
    ),
    ("dispatch._infer._find", 'root = module.split(".", 1)[0]', 'root = module.split(".", )[0]',
     _FIRST),
    ("dispatch._infer.foreign", 'root = module.split(".", 1)[0]', 'root = module.split(".", )[0]',
     _FIRST),
    ("dispatch._infer._table_owner", 'root = module.split(".", 1)[0]',
     'root = module.split(".", )[0]', _FIRST),
    (
        "dispatch._do.do",
        "fn = _miss(name, tuple(map(type, args)), False)",
        "fn = _miss(name, tuple(map(type, args)), None)",
        "_miss reads kwargs only for its truth, and so do _entry and reg.store_call, which "
        "it passes it to: None is False there",
    ),
    (
        "dispatch._do._annotate",
        'if getattr(err, "_dispatch_noted", False) or not hasattr(err, "add_note"):',
        'if getattr(err, "_dispatch_noted", None) or not hasattr(err, "add_note"):',
        "the attribute is only ever set to True (by _annotate): the default of a missing one "
        "is read for its truth alone, and None is falsy as False is",
    ),
    (
        "dispatch._resolve._walk",
        "f\"{path.rsplit('.', 1)[-1]!r}, and dispatch walks only through modules\"",
        "f\"{path.rsplit('.', )[-1]!r}, and dispatch walks only through modules\"",
        _LAST,
    ),
    (
        "dispatch._resolve._Policy.submodule_allowed",
        'return any(".".join(parts[:i]) + ".*" in self.submodules for i in range(1, len(parts)))',
        'return any(".".join(parts[:i]) + ".*" in self.submodules for i in range(len(parts)))',
        "i = 0 adds the pattern '.*', which no table lists (every entry names its library)",
    ),
    (
        "dispatch._registry.clear_caches",
        "generation += 1",
        "generation -= 1",
        "the generation is only compared for equality: counting down gives new values too",
    ),
    (
        "dispatch._registry.clear_caches",
        "generation += 1",
        "generation += 2",
        "the generation is only compared for equality: counting by two gives new values too",
    ),
    (
        "dispatch._infer.like_backend",
        'root = (getattr(t, "__module__", None) or "").split(".", 1)[0]',
        'root = (getattr(t, "__module__", None) or "").split(".", )[0]',
        _FIRST,
    ),
    (
        "dispatch._registry.missing_module",
        'missing = (getattr(err, "name", None) or "").split(".")[0] or "?"',
        'missing = (getattr(err, "name", ) or "").split(".")[0] or "?"',
        "err is an ImportError, which always has the attribute name (None when unknown)",
    ),
    ("dispatch._registry._reserved", 'root = backend.split(".", 1)[0]',
     'root = backend.split(".", 2)[0]', _FIRST),
    ("dispatch._registry._check_backend", "UserWarning,", "None,", _USER_WARNING),
    ("dispatch._registry._check_backend", "UserWarning,", "", _USER_WARNING),
    (
        "dispatch._infer.implicit_backend",
        '{"module": name, "priority": 0, "convert": False, "resolver": None, "implicit": True},',
        '{"module": name, "PRIORITY": 0, "convert": False, "resolver": None, "implicit": True},',
        "the one reader (_backend.from_registration) takes info.get('priority', 0): a missing "
        "key is the same 0",
    ),
    (
        "dispatch._infer._find",
        "if isinstance(prefix, str) and _match(module, prefix) and len(prefix) > len(best):",
        "if isinstance(prefix, str) and _match(module, prefix) and len(prefix) >= len(best):",
        "two prefixes of one length that both match a module at a dot are the same string "
        "(one dict key), and register_backend refuses the empty prefix",
    ),
    (
        "dispatch._resolve._find",
        'obj: Any = sys.modules.get(".".join(parts[:i]))',
        'obj: Any = sys.modules.get("XX.XX".join(parts[:i]))',
        "importing a submodule binds it as its parent's attribute, so the walk from the root "
        "module reaches the same object (checked: the 88 REFUSED and GUARDED paths of the "
        "seven tables, every library imported)",
    ),
    (
        "dispatch._resolve._library_builtin",
        'and getattr(builtins, getattr(obj, "__name__", ""), None) is not obj',
        'and getattr(builtins, getattr(obj, "__name__", None), None) is not obj',
        _HAS_NAME,
    ),
    (
        "dispatch._resolve._library_builtin",
        'and getattr(builtins, getattr(obj, "__name__", ""), None) is not obj',
        'and getattr(builtins, getattr(obj, "__name__", "XXXX"), None) is not obj',
        _HAS_NAME,
    ),
    ("dispatch._resolve._unknown", 'head = name.split(".", 1)[0]',
     'head = name.split(".", 2)[0]', _FIRST),
    (
        "dispatch._resolve._walk",
        'owner = getattr(type(obj), "__module__", None)',
        'owner = getattr(type(obj), "__module__", )',
        "every type has __module__ (a class statement and type() set it, a C type's is "
        "'builtins' at least, and it cannot be deleted): the default is never used",
    ),
    (
        "dispatch._resolve._in_place_hint",
        "reason = None if attr is _MISSING else pol.object_reason(attr)",
        "reason = None if (attr is _MISSING) and False else pol.object_reason(attr)",
        "object_reason of the sentinel is None too: no table entry is the sentinel, it wraps "
        "nothing, and it is an instance of no refused class (only refusing object itself "
        "would catch it; checked: the REFUSED entries of every installed table)",
    ),
)


def mutmut_cli(args: Iterable[str], cwd: Path, log: Path | None = None) -> int:
    """Run ``mutmut <args>`` in ``cwd`` (the scratch folder); its output goes to ``log``."""
    code = "import sys; from mutmut.__main__ import cli; sys.argv[0] = 'mutmut'; cli()"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MUTANT_UNDER_TEST")}
    env["PYTHONUNBUFFERED"] = "1"
    cmd = [sys.executable, "-c", code, *args]
    if log is None:
        return subprocess.call(cmd, cwd=cwd, env=env)
    with open(log, "a") as out:
        return subprocess.call(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)


def toml_list(values: Iterable[str]) -> str:
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def prepare(
    work: Path, modules: tuple[str, ...], tests: tuple[str, ...], timeout_multiplier: float = 15.0
) -> None:
    """A fresh scratch copy of the repository, configured for mutmut."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for name in COPIED:
        src = REPO / name
        if not src.exists():
            continue
        if src.is_dir():
            # dispatch/translations is a development link in some checkouts: skip it,
            # the package is the top-level translations/ (see pyproject's package-dir)
            ignore = (
                (lambda d, names: [*skip(d, names), "translations"]) if name == "dispatch" else skip
            )
            shutil.copytree(src, work / name, ignore=ignore, symlinks=False)
        else:
            shutil.copy2(src, work / name)
    (work / "preload.txt").write_text("\n".join(PRELOAD) + "\n")
    (work / "mutation_plugin.py").write_text(PLUGIN.format(memos=MEMOS, unavailable=UNAVAILABLE))
    section = f"""

[tool.mutmut]
source_paths = ["dispatch"]
only_mutate = {toml_list(f"dispatch/{m}.py" for m in modules)}
also_copy = {toml_list([*(n for n in COPIED[1:] if (REPO / n).exists()), "mutation_plugin.py"])}
pytest_add_cli_args_test_selection = {toml_list(tests)}
pytest_add_cli_args = {toml_list(pytest_args(()))}
process_isolation = "forkserver"
forkserver_warmup = "import"
preload_modules_file = "{work / "preload.txt"}"
use_git_change_detection = false
mutate_only_covered_lines = false
timeout_multiplier = {timeout_multiplier!r}
"""
    with open(work / "pyproject.toml", "a") as f:
        f.write(section)
    # the package dispatch.translations inside mutmut's copy: a link to the copied folder
    mutated = work / "mutants" / "dispatch"
    mutated.mkdir(parents=True)
    (mutated / "translations").symlink_to(Path("..") / "translations", target_is_directory=True)


def pytest_args(tests: Iterable[str]) -> list[str]:
    """The pytest arguments of every run: the test paths, less what cannot judge a mutant."""
    deselect = [a for t in (*EXCLUDED_TESTS, *SLOW_TESTS) for a in ("--deselect", t)]
    markers = " and ".join(f"not {m}" for m in EXCLUDED_MARKERS)
    return [*tests, *deselect, "-m", markers, "-p", "no:cacheprovider", "-p", "mutation_plugin"]


def check(work: Path, tests: tuple[str, ...]) -> int:
    """Write the mutated copy and run the tests on it with no mutant active: every test
    must pass with mutmut's trampolines in place, or mutmut refuses to start."""
    code = (
        "import os, sys; os.chdir(sys.argv[1]); "
        "from mutmut.__main__ import create_mutants; "
        "from mutmut.utils.file_utils import copy_src_dir, copy_also_copy_files; "
        "copy_src_dir(); copy_also_copy_files(); create_mutants(2)"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    cmd = [sys.executable, "-c", code, str(work)]
    subprocess.check_call(cmd, env=env, stdout=subprocess.DEVNULL)
    env["MUTANT_UNDER_TEST"] = ""
    cmd = [sys.executable, "-m", "pytest", "--rootdir=.", "-q", "-p", "no:randomly"]
    return subprocess.call([*cmd, *pytest_args(tests)], cwd=work / "mutants", env=env)


def all_mutants(work: Path, modules: tuple[str, ...]) -> dict[str, list[str]]:
    """Every mutant name of each module, from mutmut's own generator (in ``work``)."""
    cwd = os.getcwd()
    os.chdir(work)
    try:
        from mutmut.configuration import reset_config
        from mutmut.mutation.file_mutation import mutate_file_contents
        from mutmut.utils.format_utils import get_mutant_name

        reset_config()
        out = {}
        for m in modules:
            path = Path("dispatch") / f"{m}.py"
            mutated = mutate_file_contents(str(path), path.read_text())
            out[m] = [get_mutant_name(path, n) for n in mutated.mutant_names]
        return out
    finally:
        os.chdir(cwd)


def in_sample(name: str, every: int, seed: int) -> bool:
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % every == 0


def changed_lines(work: Path, name: str, module: str) -> tuple[str, str]:
    """The source lines a mutant removes and adds, each joined by ' / '."""
    cwd = os.getcwd()
    os.chdir(work)
    try:
        from mutmut.mutation.diff_apply import get_diff_for_mutant

        diff = get_diff_for_mutant(name, path=Path("dispatch") / f"{module}.py")
    except Exception as err:  # a mutant whose diff cannot be read back: say so
        return (f"<no diff: {err}>", "")
    finally:
        os.chdir(cwd)
    lines = diff.splitlines()[2:]  # after the ---/+++ header
    removed = " / ".join(x[1:].strip() for x in lines if x.startswith("-"))
    added = " / ".join(x[1:].strip() for x in lines if x.startswith("+"))
    return removed, added


def function_of(name: str) -> str:
    """``dispatch._do.x__miss__mutmut_3`` -> ``dispatch._do._miss`` (methods: ``Class.m``)."""
    module, _, mangled = name.partition("__mutmut_")[0].rpartition(".")
    if mangled.startswith("x_"):
        return f"{module}.{mangled[2:]}"
    _, cls, meth = mangled.split("ǁ")  # xǁClassǁmethod
    return f"{module}.{cls}.{meth}"


def equivalent_reason(function: str, removed: str, added: str) -> str | None:
    for fn, before, after, reason in EQUIVALENT:
        if fn == function and before == removed and after == added:
            return reason
    return None


STATUS = {  # mutmut's exit codes (mutmut.stats.status_by_exit_code), grouped
    1: "killed",
    3: "killed",
    # the tests could not start: an error while collecting them (2) or loading conftest
    # (pytest's usage error, which mutmut's worker turns into -1, seen as 255)
    2: "killed",
    -1: "killed",
    36: "timeout",
    -24: "timeout",
    24: "timeout",
    152: "timeout",
    255: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    None: "not run",
}


def results(work: Path, sample: dict[str, list[str]]) -> dict[str, dict]:
    """Per module: the status of every sampled mutant, and the survivors' changes."""
    report = {}
    for module, names in sample.items():
        meta = work / "mutants" / "dispatch" / f"{module}.py.meta"
        codes = json.loads(meta.read_text())["exit_code_by_key"] if meta.exists() else {}
        rows = []
        for name in names:
            status = STATUS.get(codes.get(name), f"other ({codes.get(name)})")
            entry = {"mutant": name, "function": function_of(name), "status": status}
            if status not in ("killed", "timeout"):
                removed, added = changed_lines(work, name, module)
                entry.update(removed=removed, added=added)
                reason = equivalent_reason(entry["function"], removed, added)
                if reason is not None:
                    entry.update(status="equivalent", reason=reason)
            rows.append(entry)
        report[module] = {"mutants": rows}
    return report


def summarize(report: dict[str, dict], totals: dict[str, int]) -> list[dict]:
    table = []
    for module, data in report.items():
        count = {}
        for r in data["mutants"]:
            count[r["status"]] = count.get(r["status"], 0) + 1
        sampled = len(data["mutants"])
        killed = count.get("killed", 0) + count.get("timeout", 0)
        # not run: an interrupted run (see --resume); judged on the others only
        judged = sampled - count.get("equivalent", 0) - count.get("not run", 0)
        table.append(
            {
                "module": f"dispatch/{module}.py",
                "mutants": totals[module],
                "sampled": sampled,
                "equivalent": count.get("equivalent", 0),
                "killed": killed,
                "survived": judged - killed,
                "not run": count.get("not run", 0),
                "score": killed / judged if judged else 1.0,
            }
        )
    return table


def print_report(report: dict[str, dict], table: list[dict]) -> None:
    print()
    head = (
        f"{'module':24} {'mutants':>7} {'sampled':>7} {'equiv.':>6} {'killed':>6} "
        f"{'survived':>8} {'score':>7}"
    )
    print(head)
    print("-" * len(head))
    for row in table:
        print(
            f"{row['module']:24} {row['mutants']:>7} {row['sampled']:>7} {row['equivalent']:>6} "
            f"{row['killed']:>6} {row['survived']:>8} {row['score']:>7.1%}"
        )
    killed = sum(r["killed"] for r in table)
    survived = sum(r["survived"] for r in table)
    total = sum(r["mutants"] for r in table)
    sampled = sum(r["sampled"] for r in table)
    equiv = sum(r["equivalent"] for r in table)
    score = killed / (killed + survived) if killed + survived else 1.0
    print(f"{'all':24} {total:>7} {sampled:>7} {equiv:>6} {killed:>6} {survived:>8} {score:>7.1%}")
    missing = sum(r["not run"] for r in table)
    if missing:
        print(f"({missing} sampled mutants not run yet, left out of the scores: see --resume)")
    for module, data in report.items():
        left = [r for r in data["mutants"] if r["status"] not in ("killed", "timeout", "not run")]
        if not left:
            continue
        print(f"\ndispatch/{module}.py: not killed")
        for r in left:
            tag = r["status"] if r["status"] != "equivalent" else f"equivalent: {r['reason']}"
            print(f"  {r['mutant']} [{tag}]")
            print(f"      - {r.get('removed', '')}")
            print(f"      + {r.get('added', '')}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modules", nargs="+", default=list(MODULES), help="engine modules (_do...)")
    # 1 in 10: about 35 minutes of two busy cores (42 CPU minutes); the 1-in-10 sample is a
    # subset of the 1-in-5 one (the same hash, a multiple of 5), so the two compare
    ap.add_argument("--every", type=int, default=10, help="sample 1 mutant in EVERY (1: all)")
    # several seeds run as one mutmut run over the union of their samples (its stats and
    # clean-test steps, half an hour on a loaded machine, once), then a report per seed
    ap.add_argument("--seed", type=int, nargs="+", default=[0], help="which sample(s)")
    ap.add_argument("--jobs", type=int, default=2, help="mutants run at once")
    ap.add_argument("--tests", nargs="+", default=list(TESTS), help="test paths")
    # mutmut stops a mutant's tests after (their time in the first run + 1 s) times this,
    # in wall seconds, and the mutant counts as killed: on a machine that others load
    # (a load average of 12 on 2 cores), the default of 15 stopped 28 of the first 32
    # mutants, whose tests take a second on a quiet machine
    ap.add_argument(
        "--timeout-multiplier",
        type=float,
        default=15.0,
        help="mutmut's timeout_multiplier (wall limit = (test time + 1 s) x this)",
    )
    ap.add_argument("--workdir", type=Path, default=REPO / "build" / "mutation")
    ap.add_argument("--list", action="store_true", help="print the sample and stop")
    ap.add_argument("--report", action="store_true", help="re-print the last run in --workdir")
    ap.add_argument(
        "--resume",
        action="store_true",
        help="run only the sampled mutants that the last run in --workdir left without a result",
    )
    ap.add_argument(
        "--check", action="store_true", help="run the tests on the mutated copy, no mutant active"
    )
    ap.add_argument("--json", type=Path, help="write the figures and survivors here")
    args = ap.parse_args(argv)
    modules = tuple(m.removesuffix(".py").rsplit("/", 1)[-1] for m in args.modules)
    unknown = [m for m in modules if not (REPO / "dispatch" / f"{m}.py").exists()]
    if unknown:
        ap.error(f"no such engine module: {', '.join(unknown)}")
    work = args.workdir.resolve()

    if not (args.report or args.resume):
        prepare(work, modules, tuple(args.tests), args.timeout_multiplier)
    if args.check:
        return check(work, tuple(args.tests))
    everything = all_mutants(work, modules)
    samples = {
        seed: {
            m: [n for n in names if in_sample(n, args.every, seed)]
            for m, names in everything.items()
        }
        for seed in args.seed
    }
    totals = {m: len(names) for m, names in everything.items()}
    names = list(dict.fromkeys(n for s in samples.values() for ns in s.values() for n in ns))
    for seed, sample in samples.items():
        print(
            f"{sum(totals.values())} mutants in {len(modules)} modules; sample 1 in "
            f"{args.every} (seed {seed}): {sum(map(len, sample.values()))}"
        )
    if len(samples) > 1:
        print(f"the {len(samples)} samples together: {len(names)}")
    if args.list:
        for n in names:
            print(n)
        return 0
    todo = [] if args.report else names
    if args.resume:
        done = {
            k
            for m in modules
            if (meta := work / "mutants" / "dispatch" / f"{m}.py.meta").exists()
            for k, v in json.loads(meta.read_text())["exit_code_by_key"].items()
            if v is not None
        }
        todo = [n for n in names if n not in done]
        print(f"resuming: {len(todo)} sampled mutants have no result yet")
    if not names:
        print("the sample is empty")
        return 1
    if todo:
        log = work / "mutmut.log"
        load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
        print(f"running mutmut in {work} (log: {log}), {args.jobs} at once; load average: {load}")
        start = time.monotonic()
        rc = mutmut_cli(["run", "--max-children", str(args.jobs), *todo], work, log)
        minutes = (time.monotonic() - start) / 60
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (used.ru_utime + used.ru_stime) / 60
        load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
        print(
            f"mutmut finished (exit {rc}) in {minutes:.1f} min, {cpu:.1f} CPU min; "
            f"load average: {load}"
        )
        if rc != 0:
            print(log.read_text()[-4000:])
            print(
                "mutmut stopped. If it says 'Failed to run clean test' or 'failed to collect "
                "stats', a test fails on the mutated copy with no mutant active (or in the order "
                "this run takes): `python benchmarks/mutation.py --check` shows which. If it was "
                "interrupted, `--resume` runs the mutants left."
            )
            return rc
    figures = {}
    for seed, sample in samples.items():
        if len(samples) > 1:
            print(f"\nseed {seed}:")
        report = results(work, sample)
        table = summarize(report, totals)
        print_report(report, table)
        figures[seed] = {"table": table, "report": report}
    if args.json:
        out = figures[args.seed[0]] if len(samples) == 1 else figures
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
