"""Every code example of the documentation runs, so the docs cannot drift from the code.

Markdown (``README.md`` and ``docs/**/*.md``): fenced blocks tagged ``python`` or
``pycon`` run in order in one namespace per page, like one session. A block written
with ``>>>`` prompts is a doctest (output compared); a block without prompts is
executed and must not raise. Other fences (``bash``, ``text``, untagged) are not run.

Docstrings: every module of ``dispatch`` and ``dispatch.translations`` is doctested.
A translation module imports its library at top level; it is skipped only when that
library is not installed.

One test per page and one per module; each records how many examples it ran as the
``examples`` user property, summed by ``tests/conftest.py``.
"""

from __future__ import annotations

import doctest
import importlib
import io
import linecache
import os
import pkgutil
import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import dispatch.translations
import pytest

import dispatch

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
REPORT = OPTIONS | doctest.REPORT_UDIFF
RUN_TAGS = {"python", "pycon"}

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


@pytest.fixture(autouse=True)
def _restore_state():
    """Undo what an example registers or sets, so no other test sees it."""
    import numpy as np

    import dispatch._registry as reg
    import dispatch.lazy  # registers its backends: part of the state to keep

    reg.composed()  # load the shipped fallbacks before the snapshot
    user = (reg.OVERRIDES, reg.COMPOSED, reg.USER_TYPES, reg.USER_BACKENDS)
    saved = [dict(d) for d in user]
    backend, bits = dispatch.get_backend(), dispatch.get_precision()
    printoptions = np.get_printoptions()
    modules = dict(sys.modules)
    yield
    # the swaps of docs/array-api.md and docs/migrating.md alias a face under another
    # library's name: restore what was replaced, drop an alias that was added (a module
    # imported for the first time under its own name stays)
    for name, mod in list(sys.modules.items()):
        if name in modules:
            if modules[name] is not mod:
                sys.modules[name] = modules[name]
        elif getattr(mod, "__name__", name) != name:
            del sys.modules[name]
    np.set_printoptions(**printoptions)
    dispatch.set_backend(backend)
    dispatch.set_precision(bits)
    if any(d != s for d, s in zip(user, saved, strict=True)):
        with reg.lock:
            for d, s in zip(user, saved, strict=True):
                d.clear()
                d.update(s)
            reg.clear_caches()


# -- Markdown --------------------------------------------------------------------


def markdown_pages() -> list[Path]:
    """README.md and every page under docs/, found when the tests are collected."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [p for p in pages if p.is_file()]


@dataclass
class Block:
    tag: str
    line: int  # 1-based line number of the first line of code
    code: str


_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


def fenced_blocks(text: str) -> list[Block]:
    """The fenced code blocks of a Markdown text, with their tag and first line."""
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m or (m["fence"][0] == "`" and "`" in m["info"]):
            i += 1
            continue
        indent, fence = len(m["indent"]), m["fence"]
        words = m["info"].strip().lstrip("{").split()
        tag = words[0].lstrip(".").rstrip("}").lower() if words else ""
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            close = lines[j].strip()
            if close.startswith(fence[0] * len(fence)) and not close.strip(fence[0]):
                break
            line = lines[j]
            # a fence indented in a list: its lines lose that indentation
            body.append(line[indent:] if not line[:indent].strip() else line.lstrip())
            j += 1
        blocks.append(Block(tag, i + 2, "\n".join(body) + "\n"))
        i = j + 1
    return blocks


def _has_prompts(code: str) -> bool:
    return any(line.lstrip().startswith(">>>") for line in code.splitlines())


def run_page(path: Path) -> tuple[int, list[str]]:
    """Run a page's python/pycon blocks in one namespace; (examples run, failure reports)."""
    rel = path.relative_to(ROOT).as_posix()
    namespace: dict[str, object] = {"__name__": "__docs__"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=REPORT)
    count, failures = 0, []
    text = path.read_text(encoding="utf-8")
    # so that tracebacks of executed blocks quote the page's lines
    linecache.cache[rel] = (len(text), None, text.splitlines(keepends=True), rel)
    for block in fenced_blocks(text):
        if block.tag not in RUN_TAGS:
            continue
        if _has_prompts(block.code):
            # doctest takes the 0-based line of the block's first line
            test = parser.get_doctest(block.code, namespace, rel, rel, block.line - 1)
            test.globs = namespace  # DocTest copies its globals; the page shares one
            out = io.StringIO()
            result = runner.run(test, out=out.write, clear_globs=False)
            count += result.attempted
            if result.failed:
                failures.append(out.getvalue())
            continue
        count += 1
        # padded so that tracebacks give the line numbers of the page
        source = "\n" * (block.line - 1) + block.code
        try:
            exec(compile(source, rel, "exec"), namespace)
        except Exception as exc:
            # later blocks build on this one: stop the page here
            trace = "".join(
                traceback.format_exception(exc.with_traceback(exc.__traceback__.tb_next))
            )
            failures.append(f"{rel}: the block starting at line {block.line} raised\n{trace}")
            break
    return count, failures


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_markdown_examples(page: Path, record_property) -> None:
    record_property("docs", "markdown")
    count, failures = run_page(page)
    record_property("examples", count)
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


# -- Docstrings ------------------------------------------------------------------


def _walk(package) -> list[str]:
    names = [package.__name__]
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        names.append(info.name)
    return names


def docstring_modules() -> list[str]:
    """Every module of dispatch and of dispatch.translations (mapped from translations/)."""
    names = _walk(dispatch) + _walk(dispatch.translations)
    return sorted(dict.fromkeys(names))


def _import(name: str):
    """Import a module; skip it when the library it is written for is not installed."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        library = name.rpartition(".")[2]  # a table module is named after its library
        if name.startswith("dispatch.translations.") and exc.name == library:
            pytest.skip(f"{library} is not installed")
        raise


@pytest.mark.parametrize("module", docstring_modules())
def test_docstring_examples(module: str, record_property) -> None:
    record_property("docs", "docstrings")
    mod = _import(module)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=REPORT)
    out = io.StringIO()
    count = failed = 0
    for test in sorted(finder.find(mod, module), key=lambda t: t.name):
        result = runner.run(test, out=out.write)
        count += result.attempted
        failed += result.failed
    record_property("examples", count)
    if failed:
        pytest.fail(out.getvalue(), pytrace=False)
