"""BAPCtools' ``generators/generators.yaml`` read into a plan: every test case to make, and every folder's settings.

A package written for ``bt generate`` keeps its test data as a recipe: a
tree of folders under ``data:`` whose cases are inline text (``in:``,
``ans:``), files to ``copy:``, or generator command lines, with
``count:`` repeating a case, ``{seed}``, ``{name}`` and ``{count}`` filled
into the command, ``include:`` repeating cases made elsewhere, and a
``test_group.yaml`` (or legacy ``testdata.yaml``) per folder. Cases in a
list are numbered in order (``1-small``), as bt names them, so that the
folders sort as they were written. This module only reads; ``bt_generate``
makes the files. What it does not make is listed, one line per key.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import UsageError

GENERATORS_FILE = Path("generators") / "generators.yaml"
FOLDER_FILES = ("test_group.yaml", "testdata.yaml")
CASE_KEYS = {"generate", "in", "ans", "copy", "count", "yaml", "random_salt", "solution"}
FOLDER_KEYS = {"data", "include", "solution", "random_salt", *FOLDER_FILES}
TOP_KEYS = {"solution", "data", "version", "random_salt", "generators", *FOLDER_FILES}
RANGE = re.compile(r"^(-?\d+)\.\.(=?)(-?\d+)$")
NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*$|^$")  # a case or folder name: never a path out of its folder


@dataclass(frozen=True)
class PlannedCase:
    """One case: where it goes under data/ (no extension), and what makes it."""

    path: str
    command: str | None = None  # a generator line, placeholders filled
    input: str | None = None  # inline text
    answer: str | None = None
    copy: str | None = None  # a path under generators/, without extension
    yaml: dict[str, Any] | None = None
    solution: str | None = None  # what writes the answer when none is given (inherited down the tree)


@dataclass(frozen=True)
class Inherited:
    """What a folder passes down to its cases: ``solution:`` and ``random_salt:``."""

    solution: str | None = None
    salt: str = ""

    def under(self, node: dict[str, Any]) -> Inherited:
        return Inherited(node.get("solution", self.solution), str(node.get("random_salt", self.salt) or ""))


@dataclass
class Plan:
    cases: list[PlannedCase] = field(default_factory=list)
    folders: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)  # data folder -> (file name, content)
    named: dict[str, list[str]] = field(default_factory=dict)  # generators: a name for a program of several files
    not_made: list[str] = field(default_factory=list)  # one line per key this judge does not make


def read_plan(root: Path) -> Plan:
    """The package's generators.yaml as a plan; a file that is not YAML, a name that is not one, or a case of the
    wrong shape is a usage error naming where (a case with nothing to make its input from is a not-made line)."""
    import yaml

    path = root / GENERATORS_FILE
    try:
        top = yaml.safe_load(path.read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise UsageError(f"{path}: cannot read: {exc}") from None
    if not isinstance(top, dict):
        raise UsageError(f"{path}: expected a mapping at the top")
    named = top.get("generators") or {}
    if not isinstance(named, dict) or not all(isinstance(v, list) for v in named.values()):
        raise UsageError(f"{path}: generators: expected a mapping of names to lists of files")
    plan = Plan(named={str(k): [str(f) for f in v] for k, v in named.items()})
    top_inherited = Inherited().under(top)
    plan.not_made += [f"{GENERATORS_FILE}: '{key}' is not used by this judge" for key in sorted(set(top) - TOP_KEYS)]
    _settings(plan, top, "")
    data = top.get("data") or {}
    for name, node in data.items() if isinstance(data, dict) else ():
        if name in ("sample", "secret"):
            _folder(plan, node or {}, str(name), top_inherited)
        else:
            plan.not_made.append(f"{GENERATORS_FILE}: data/{name} is not made (this judge runs sample and secret only)")
    return plan


def _settings(plan: Plan, node: dict[str, Any], folder: str) -> None:
    for name in FOLDER_FILES:
        if isinstance(node.get(name), dict):
            plan.folders[folder] = (name, node[name])


def _folder(plan: Plan, node: dict[str, Any], folder: str, inherited: Inherited) -> None:
    """A folder of the tree: its settings, its cases and sub-folders (a list numbers them), then its includes."""
    _settings(plan, node, folder)
    inherited = inherited.under(node)
    plan.not_made += [
        f"{GENERATORS_FILE}: {folder}: '{key}' is not used by this judge" for key in sorted(set(node) - FOLDER_KEYS)
    ]
    data = node.get("data") or []
    if not isinstance(data, (list, dict)):
        raise UsageError(f"{GENERATORS_FILE}: {folder}: data must be a list or a mapping")
    items = (
        [next(iter(item.items())) for item in data if isinstance(item, dict) and item] if isinstance(data, list) else []
    )
    width = len(str(len(items)))
    named = items if isinstance(data, list) else list(data.items())
    for n, (name, value) in enumerate(named, start=1):
        own = "" if name is None else str(name)  # ~ and '' both leave a list's case its number alone
        label = own
        if not NAME.match(label):
            raise UsageError(
                f"{GENERATORS_FILE}: {folder}: '{label}' is not a case or folder name (letters, digits, _.+-)"
            )
        if isinstance(data, list):
            label = f"{n:0{width}d}-{label}" if label else f"{n:0{width}d}"
        where = f"{folder}/{label}"
        if isinstance(value, dict) and "data" in value:
            _folder(plan, value, where, inherited)
        else:
            plan.cases += _cases(plan, value, where, own, inherited)
    for included in node.get("include") or ():
        plan.cases += [replace(c, path=f"{folder}/{c.path.rsplit('/', 1)[1]}") for c in _matching(plan, str(included))]


def _matching(plan: Plan, name: str) -> list[PlannedCase]:
    """The cases an ``include`` names: one case by its name, or every case of a folder by the folder's name."""

    def bare(part: str) -> str:
        return part.split("-", 1)[1] if re.match(r"^\d+-", part) else part

    return [c for c in plan.cases if name in {bare(p) for p in c.path.split("/")[1:]} or c.path.endswith(f"/{name}")]


def _cases(plan: Plan, value: Any, where: str, name: str, inherited: Inherited) -> list[PlannedCase]:
    if isinstance(value, str):
        value = {"generate": value}
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise UsageError(f"{GENERATORS_FILE}: {where}: a case is a command line or a mapping, not {value!r}")
    plan.not_made += [
        f"{GENERATORS_FILE}: {where}: '{key}' is not used by this judge" for key in sorted(set(value) - CASE_KEYS)
    ]
    if not any(k in value for k in ("generate", "in", "copy")):
        plan.not_made.append(f"{GENERATORS_FILE}: {where}: not made (no 'generate', 'in' or 'copy')")
        return []
    inherited = inherited.under(value)
    counts: list[int | None] = [None] if value.get("count") is None else list(_counts(value["count"], where))
    out = []
    for count in counts:
        path = where if len(counts) == 1 else f"{where}-{count}"
        command = value.get("generate")
        if command is not None:
            command = _filled(str(command), name, count, inherited.salt)
        copy = value.get("copy")
        if copy is not None and (str(copy).startswith("/") or ".." in Path(str(copy)).parts):
            raise UsageError(f"{GENERATORS_FILE}: {where}: copy: '{copy}' is not a path inside generators/")
        out.append(
            PlannedCase(
                path,
                command,
                _text(value.get("in")),
                _text(value.get("ans")),
                str(copy) if copy is not None else None,
                value.get("yaml") if isinstance(value.get("yaml"), dict) else None,
                inherited.solution,
            )
        )
    return out


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value)
    return text if text.endswith("\n") else text + "\n"


def _counts(value: Any, where: str) -> list[int]:
    """``count``: a number n (1..n), a list of numbers, or a range ``a..b`` / ``a..=b``."""
    if isinstance(value, int) and value >= 1:
        return list(range(1, value + 1))
    if isinstance(value, list) and value and all(isinstance(v, int) for v in value):
        return list(value)
    found = RANGE.match(str(value))
    if found:
        low, inclusive, high = int(found.group(1)), found.group(2), int(found.group(3))
        return list(range(low, high + (1 if inclusive else 0)))
    raise UsageError(f"{GENERATORS_FILE}: {where}: count must be a positive number, a list of numbers or a range")


def _filled(command: str, name: str, count: int | None, salt: str) -> str:
    """``{name}``, ``{count}`` and ``{seed}`` (or ``{seed:N}``, the same number: the ``N`` only changes the line), with
    BAPCtools' seed: the SHA-512 of the salt, ``:i`` for the i-th count after the first (counting from 0), and the
    stripped line with its count filled in, modulo 2^31. The same line always makes the same case, and a package
    checking its seeds (BAPCtools' ``testseed``) sees the ones bt would give."""
    filled = command.replace("{name}", name)
    if count is not None:
        filled = filled.replace("{count}", str(count))
    index = f":{count - 1}" if count is not None and count != 1 else ""
    seed = int(hashlib.sha512(f"{salt}{index}{filled.strip()}".encode()).hexdigest(), 16) % 2**31
    return re.sub(r"\{seed(?::\d+)?\}", str(seed), filled)
