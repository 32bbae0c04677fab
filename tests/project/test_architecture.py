"""The package layout is the architecture: imports go one way, there is no import circle, modules stay small.

Reads the judge's sources with ``ast`` (nothing is imported), builds the
graph of every import, lazy ones inside functions included, and checks it
against the layer table below, which is the one in docs/architecture.md.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

JUDGE = Path(__file__).resolve().parents[2] / "judge"
BASE = {
    "judge",
    "judge.errors",
    "judge.text",
    "judge.atomic",
    "judge.verdict",
    "judge.lazy_exports",
    "judge.filecache",
    "judge.locations",
}
MAX_LINES = 400

# layer -> the layers it may import (besides itself and the base modules)
ALLOWED = {
    "base": set(),
    "run": set(),
    "model": set(),
    "lang": {"run"},
    "check": {"run", "lang", "model"},
    "formats": {"run", "lang", "check", "model"},
    "core": {"run", "lang", "check", "model"},  # the core knows the model only: what a format means is in it
    "grade": {"run", "lang", "check", "model", "formats", "core"},
    "tools": {"run", "lang", "check", "model", "formats", "core", "grade"},
    # the service: beside tools, above grade; only cli's serve and shadow import it (bench --serve drives a process)
    "serve": {"run", "lang", "check", "model", "formats", "core", "grade"},
    "cli": {"run", "lang", "check", "model", "formats", "core", "grade", "tools", "serve"},
}


def layer(module: str) -> str:
    if module in BASE:
        return "base"
    parts = module.split(".")
    return "formats" if parts[1] == "problem" else parts[1]


def modules() -> dict[str, Path]:
    found = {}
    for path in JUDGE.rglob("*.py"):
        parts = list(path.relative_to(JUDGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(module: str, path: Path, known: set[str]) -> set[str]:
    """Every judge module ``module`` imports, resolving relative imports and ``from package import submodule``."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names if alias.name.split(".")[0] == "judge"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "judge":
                continue
            submodules = {f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in known}
            out |= submodules
            if len(submodules) < len(node.names):  # some name is an attribute of the package itself
                out.add(target)
    return {m for m in out if m in known and m != module}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def test_lower_layers_never_import_upper_ones(graph: dict[str, set[str]]) -> None:
    wrong = [
        f"{module} ({layer(module)}) imports {target} ({layer(target)})"
        for module, targets in graph.items()
        for target in targets
        if layer(target) not in ALLOWED[layer(module)] | {layer(module), "base"}
    ]
    assert wrong == []


def test_no_import_circle(graph: dict[str, set[str]]) -> None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            circle = visit(module)
            assert circle is None, " -> ".join(circle)


def test_the_checker_finds_a_circle_and_a_wrong_way_import(graph: dict[str, set[str]]) -> None:
    """The two tests above would pass vacuously if the graph they read (the module's, made once) were empty or layers
    were mis-assigned."""
    assert "judge.run" in graph["judge.lang.build"]
    assert "judge.core.testdata" in graph["judge.grade.grading"]
    assert layer("judge.problem.formats.kattis") == "formats" and layer("judge.model.problem") == "model"
    assert "cli" not in ALLOWED["core"] and "formats" not in ALLOWED["core"]


def test_modules_stay_small() -> None:
    big = {
        str(p.relative_to(JUDGE)): n for p in JUDGE.rglob("*.py") if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert big == {}


@pytest.mark.parametrize("package", sorted(p.parent.name for p in JUDGE.glob("*/__init__.py")))
def test_each_subpackage_says_what_it_owns_and_may_import(package: str) -> None:
    doc = ast.get_docstring(ast.parse((JUDGE / package / "__init__.py").read_text())) or ""
    assert "owns" in doc.lower(), package
    assert "import" in doc.lower(), package


@pytest.mark.parametrize(
    "package", sorted(p.parent for p in JUDGE.rglob("__init__.py") if re.search(r"exports\(\s*__name__", p.read_text()))
)
def test_no_lazy_export_is_named_like_a_submodule(package: Path) -> None:
    """Importing a submodule sets the package attribute of its name, so an export of that name would turn into the
    module."""
    import importlib

    module = importlib.import_module(".".join(package.relative_to(JUDGE.parent).parts))
    clashes = sorted(set(module.__all__) & {p.stem for p in package.glob("*.py")})
    assert clashes == [], package
    assert module.__all__ and all(getattr(module, name) is not None for name in module.__all__)  # every export resolves
