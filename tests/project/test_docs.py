"""The documentation names only what exists: every module and judge file named in backticks, every relative link.

docs/architecture.md went stale once (it described languages and commands
by files and names that had moved) without any test noticing; a renamed
module or a moved page now fails here, naming the page and what it names.
Examples inside fenced code blocks, paths with placeholders (``<name>``,
``*``, ``{out}``) and paths of other projects' packages are not the judge's
files and are not checked.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import REPO_ROOT

JUDGE = REPO_ROOT / "judge"
PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").rglob("*.md"))]
ROOTS = ("judge/", "tests/", "docs/", "problems/", ".ci/")  # a path starting here is one of this repository's
SOURCE = re.compile(r"^[\w.-]+\.(py|c|h)$")  # a bare file name of the kind the judge is made of
FOREIGN = {"testlib.h", "validation.h"}  # other projects' headers the pages talk about (testlib's, BAPCtools')
PLACEHOLDER = re.compile(r"[<>*{}\[\]:\s]")


def prose(text: str) -> str:
    """The page without its fenced code blocks (commands and examples, not claims about the repository)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def judge_folders() -> dict[str, list[Path]]:
    """Every folder inside judge/ by its name: a path such as ``core/judging.py`` or ``bench_programs/ping.c`` starts
    with one of them."""
    found: dict[str, list[Path]] = {}
    for folder in [JUDGE, *JUDGE.rglob("*")]:
        if folder.is_dir() and folder.name != "__pycache__":
            found.setdefault(folder.name, []).append(folder)
    return found


def source_names() -> set[str]:
    return {p.name for top in (JUDGE, REPO_ROOT / "tests") for p in top.rglob("*") if p.is_file()} | {
        p.name for p in REPO_ROOT.iterdir()
    }


def defined_names(module: Path) -> set[str]:
    """Top-level names of a module, and the names a layer package exports lazily (strings in its export table)."""
    tree = ast.parse(module.read_text())
    names = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    for node in tree.body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        names |= {t.id for t in targets if isinstance(t, ast.Name)}
    names |= {c.value.split("=")[0] for c in ast.walk(tree) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return names


def module_file(dotted: str) -> Path | None:
    path = REPO_ROOT.joinpath(*dotted.split("."))
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    return path / "__init__.py" if (path / "__init__.py").is_file() else None


def missing_names(text: str, folders: dict[str, list[Path]], sources: set[str]) -> list[str]:
    """What the page's backticked paths and modules name that does not exist."""
    missing = []
    for token in re.findall(r"`([^`\n]+)`", prose(text)):
        token = re.sub(r"\(.*\)$", "", token.strip())
        if token.startswith("judge.") and re.fullmatch(r"[\w.]+", token):
            parts = token.split(".")
            known = next((n for n in range(len(parts), 0, -1) if module_file(".".join(parts[:n]))), 0)
            rest = parts[known:]
            if (
                not known
                or len(rest) > 1
                or (rest and rest[0] not in defined_names(module_file(".".join(parts[:known]))))
            ):
                missing.append(token)
        elif PLACEHOLDER.search(token):
            continue
        elif token.startswith(ROOTS) or token in ("run_judge.py", "pyproject.toml"):
            if not (REPO_ROOT / token).exists():
                missing.append(token)
        elif "/" in token and token.split("/")[0] in folders:
            if not any((folder.parent / token).exists() for folder in folders[token.split("/")[0]]):
                missing.append(token)
        elif SOURCE.match(token) and token not in FOREIGN and token not in sources:
            missing.append(token)
    return missing


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(line.lstrip("#")) for line in prose(page.read_text()).splitlines() if line.startswith("#")}


def broken_links(page: Path, text: str) -> list[str]:
    """The page's relative links whose file (or heading, after ``#``) does not exist."""
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", prose(text)):
        if re.match(r"^[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        where = (page.parent / file) if file else page
        if not where.exists() or (anchor and where.suffix == ".md" and anchor not in anchors(where)):
            broken.append(target)
    return broken


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(REPO_ROOT)) for p in PAGES])
def test_every_module_and_file_a_page_names_exists(page: Path) -> None:
    assert missing_names(page.read_text(), judge_folders(), source_names()) == []


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(REPO_ROOT)) for p in PAGES])
def test_every_relative_link_leads_to_a_file_and_heading(page: Path) -> None:
    assert broken_links(page, page.read_text()) == []


def test_the_checks_find_a_renamed_module_a_moved_file_and_a_broken_link(tmp_path: Path) -> None:
    """The two tests above would pass vacuously if nothing were extracted from the pages."""
    text = (
        "`judge/core/stamps.py`, `core/additions.py`, `remembered.py`, `judge.lazy`, `judge.text.no_such_name`; "
        "fine: `judge/core/judging.py`, `core/judging.py`, `bench_programs/ping.c`, `launcher.h`, "
        "`judge.text.safe_text`, `judge.check.register(...)`, `cases/<name>/`, `testlib.h`, `data/secret`\n"
        "```\n`judge/in/a/code/block.py`\n```\n"
    )
    assert missing_names(text, judge_folders(), source_names()) == [
        "judge/core/stamps.py",
        "core/additions.py",
        "remembered.py",
        "judge.lazy",
        "judge.text.no_such_name",
    ]
    (tmp_path / "other.md").write_text("# Other page\n\n## How a case is run\n")
    page = tmp_path / "page.md"
    links = "[a](other.md) [b](other.md#how-a-case-is-run) [c](missing.md) [d](other.md#no-such-heading) [e](https://example.org)"
    assert broken_links(page, links) == ["missing.md", "other.md#no-such-heading"]
    assert sum(len(re.findall(r"`[^`\n]+`", p.read_text())) for p in PAGES) > 500  # the pages' names are really read
