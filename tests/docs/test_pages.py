"""The README and the documentation pages say only what is true of the project.

They speak of the project alone (no path into a workspace outside it, no issue
numbers of a tracker the reader cannot see), as do the comments and docstrings of
the code, and what the README says of the install extras is what ``pyproject.toml``
installs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# a reference to something outside the project, as the pages once had
OUTSIDE = {
    "a path above the project": re.compile(r"\.\./shared\b|(?<![\w./-])shared/\w"),
    "an issue number": re.compile(r"\bissues? (#|no\.? ?)?\d+|(?<![\w&#/(\[{-])#\d+\b", re.I),
}


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def outside_references(text: str) -> list[str]:
    """``'line N: <what>: <text>'`` for each reference to something outside the project."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in OUTSIDE.items():
            found += [f"line {number}: {what}: {m.group(0)!r}" for m in pattern.finditer(line)]
    return found


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_pages_speak_of_the_project_alone(page: Path) -> None:
    found = outside_references(page.read_text(encoding="utf-8"))
    assert not found, f"{page.relative_to(ROOT)}:\n" + "\n".join(found)


def code_files() -> list[Path]:
    """The project's Python files: the engine, the tables, the tests, the benchmarks."""
    files = []
    for folder in ("dispatch", "translations", "tests", "benchmarks"):
        files += sorted((ROOT / folder).rglob("*.py"))
    return [
        p for p in files
        # dispatch/translations, where a checkout links it, is translations/ again; this
        # file quotes references as examples
        if p.relative_to(ROOT).parts[:2] != ("dispatch", "translations")
        and p != Path(__file__).resolve()
    ]


def test_code_speaks_of_the_project_alone() -> None:
    # comments and docstrings give the reason itself, not a tracker's issue number
    found = []
    for path in code_files():
        found += [f"{path.relative_to(ROOT)}: {ref}"
                  for ref in outside_references(path.read_text(encoding="utf-8"))]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "text",
    [
        "the list (`shared/reference/backend_methods.md`)",
        "see ../shared/DESIGN.md",
        "every library's table (issue 2).",
        "the refused examples of issue #11",
        "fixed in #13",
    ],
)
def test_outside_references_are_found(text: str) -> None:
    assert outside_references(text)


@pytest.mark.parametrize(
    "text",
    ["[U3](#u3) and {: #g12 }", "`docs/hooks/coverage.py`", "a 1-D array", "&#35; entity"],
)
def test_project_references_are_not_flagged(text: str) -> None:
    assert outside_references(text) == []


def _extras(page: str = "README.md") -> dict[str, str]:
    """``{extra: what the page says it installs}`` from its "Extras:" paragraph."""
    text = (ROOT / page).read_text(encoding="utf-8")
    paragraph = text.split("\nExtras: ", 1)[1].split("\n\n", 1)[0]
    paragraph = " ".join(paragraph.split())
    return {
        m["extra"]: m["what"] or ""
        for m in re.finditer(r"`(?P<extra>[\w-]+)`(?: \((?P<what>[^)]*)\))?", paragraph)
        if not (m.start() > 0 and paragraph[m.start() - 1] == "(")
    }


def _pyproject_extras() -> dict[str, list[str]]:
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["project"]["optional-dependencies"]


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_pages_name_every_extra(page: str) -> None:
    assert set(_extras(page)) == set(_pyproject_extras()), f"{page}'s Extras and pyproject differ"


def test_readme_extras_are_pyproject_extras() -> None:
    extras = _pyproject_extras()
    said = _extras()
    for extra, what in said.items():
        # the parenthesis names what the extra installs, before any ':' (an explanation)
        named = re.split(r", | and ", what.split(":", 1)[0])
        for item in (n.strip() for n in named):
            req = item.strip("`")
            if not req or " " in req:  # "for the benchmarks"
                continue
            if req in extras and item.startswith("`"):  # `bench` includes `clients`
                assert any(f"[{req}]" in r for r in extras[extra]), (extra, req)
                continue
            assert any(re.match(re.escape(req) + r"($|[<>=!~ ;])", r) for r in extras[extra]), (
                f"README: extra {extra!r} installs {req!r}; pyproject: {extras[extra]}"
            )
