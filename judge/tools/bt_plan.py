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

Besides ``sample`` and ``secret``, the folders bt keeps to test the
validators are made too: ``invalid_input``, ``invalid_answer``,
``invalid_output`` and ``valid_output`` (``out:`` gives their output), and a
sample may carry what its statement shows instead of what is judged
(``in.statement``, ``ans.statement``, ``in.download``, ``ans.download``,
``interaction``: text, or ``{link: <ext>}`` for a copy of another of its
files). Cases are numbered as bt numbers them, and an ``include`` names a case made before it in bt's order.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..lang import substitute

GENERATORS_FILE = Path("generators") / "generators.yaml"
FOLDER_FILES = ("test_group.yaml", "testdata.yaml")
ROOTS = ("sample", "secret", "invalid_input", "invalid_answer", "invalid_output", "valid_output")  # bt's order
BT_ROOT_ORDER = ("sample", "secret", "invalid_output", "invalid_answer", "invalid_input", "valid_output")
CHECK_ROOTS = ROOTS[2:]  # cases that test the validators: never judged, their answers never made by the solution
SAMPLE_ONLY = ("in.statement", "ans.statement", "in.download", "ans.download", "interaction")
TEXT_KEYS = ("in", "ans", "out", *SAMPLE_ONLY)  # a file of the case written as given
LINKS = {"in.statement": "in", "in.download": "in", "ans.statement": "ans", "ans.download": "ans"}  # key: its kind
UNIQUE_CASE_KEYS = {"generate", "copy", "count", "match", "yaml", *TEXT_KEYS}  # only a case has one of these
CASE_KEYS = {"random_salt", "solution", *UNIQUE_CASE_KEYS}
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
    texts: tuple[tuple[str, str], ...] = ()  # other files given inline: (extension without dot, text)
    links: tuple[tuple[str, str], ...] = ()  # (extension, extension it is a copy of)
    match: tuple[tuple[str, str], ...] = ()  # (in or ans, pattern): a warning when the file has no match
    origin: str | None = None  # an included case: the case whose made files it gets, as bt links them

    @property
    def root(self) -> str:
        """The top folder under data/ the case is in: sample, secret or one of the validators' folders."""
        return self.path.split("/", 1)[0]


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
    constants: dict[str, str] = field(default_factory=dict)  # problem.yaml's, for {{name}} in command lines
    width: int = 1  # digits of a numbered case: of the count of every numbered case in the file, as bt pads them
    numbers: Iterator[int] = field(default_factory=lambda: itertools.count(1))  # one sequence over the whole tree


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
    plan = Plan(named={str(k): [str(f) for f in v] for k, v in named.items()}, constants=_constants(root))
    top_inherited = Inherited().under(top)
    plan.not_made += [f"{GENERATORS_FILE}: '{key}' is not used by this judge" for key in sorted(set(top) - TOP_KEYS)]
    _settings(plan, top, "")
    data = top.get("data") or {}
    if not isinstance(data, dict):
        raise UsageError(f"{path}: data: expected a mapping of sample, secret and the validators' folders")
    plan.width = len(str(_numbered(top)))
    for name in sorted(data, key=lambda n: BT_ROOT_ORDER.index(n) if n in BT_ROOT_ORDER else len(BT_ROOT_ORDER)):
        if name in ROOTS:
            _folder(plan, data[name] or {}, str(name), top_inherited)
        else:
            plan.not_made.append(f"{GENERATORS_FILE}: data/{name} is not made (not a folder this judge reads)")
    return plan


def _settings(plan: Plan, node: dict[str, Any], folder: str) -> None:
    for name in FOLDER_FILES:
        if isinstance(node.get(name), dict):
            plan.folders[folder] = (name, node[name])


def _folder(plan: Plan, node: dict[str, Any], folder: str, inherited: Inherited) -> None:
    """A folder of the tree: its settings, its includes, then its cases and sub-folders (a list numbers them)."""
    _settings(plan, node, folder)
    inherited = inherited.under(node)
    plan.not_made += [
        f"{GENERATORS_FILE}: {folder}: '{key}' is not used by this judge" for key in sorted(set(node) - FOLDER_KEYS)
    ]
    made = [c for c in plan.cases if c.origin is None]  # an include names a case made before, never another's copy
    for included in map(str, node.get("include") or ()):
        found = _matching(made, included)
        if not found:
            raise UsageError(
                f"{GENERATORS_FILE}: {folder}: include '{included}' names no case made before it (bt reads data in the "
                f"order {', '.join(BT_ROOT_ORDER)}, each folder's includes before its own data)"
            )
        plan.cases += [replace(c, path=f"{folder}/{c.path.rsplit('/', 1)[1]}", origin=c.path) for c in found]
    data = node.get("data") or []
    if not isinstance(data, (list, dict)):
        raise UsageError(f"{GENERATORS_FILE}: {folder}: data must be a list or a mapping")
    numbered = isinstance(data, list)
    entries = [e for e in (data if numbered else [data]) if isinstance(e, dict)]
    groups = itertools.count(1)
    group_width = len(str(sum(_is_folder(v) for e in entries for v in e.values())))
    for entry in entries:
        for name in sorted(entry, key=lambda k: "" if k is None else str(k)):  # bt takes a mapping's keys in order
            value, own = entry[name], "" if name is None else str(name)  # ~ and '' leave a case its number alone
            if not NAME.match(own):
                raise UsageError(
                    f"{GENERATORS_FILE}: {folder}: '{own}' is not a case or folder name (letters, digits, _.+-)"
                )
            if _is_folder(value):
                label = _label(next(groups), group_width, own) if numbered else own
                _folder(plan, value, f"{folder}/{label}", inherited)
            else:
                plan.cases += _cases(plan, value, folder, own, numbered, inherited)


def _is_folder(value: Any) -> bool:
    """As bt tells a folder from a case: a mapping with none of the keys only a case has."""
    return isinstance(value, dict) and not UNIQUE_CASE_KEYS & set(value)


def _label(number: int, width: int, name: str) -> str:
    return f"{number:0{width}d}-{name}" if name else f"{number:0{width}d}"


def _numbered(node: Any) -> int:
    """How many cases the tree numbers (each count one), which sets the width of every number, as bt counts them."""
    data = node.get("data") if isinstance(node, dict) else None
    numbered = isinstance(data, list)
    total = 0
    for entry in data if numbered else [data] if isinstance(data, dict) else []:
        for value in entry.values() if isinstance(entry, dict) else ():
            if _is_folder(value):
                total += _numbered(value)
            elif numbered:
                count = value.get("count") if isinstance(value, dict) else None
                total += 1 if count is None else len(_counts(count, "count"))
    return total


def _matching(cases: list[PlannedCase], name: str) -> list[PlannedCase]:
    """The cases an ``include`` names: one case by its name, or every case of a folder by the folder's name."""

    def bare(part: str) -> str:
        return part.split("-", 1)[1] if re.match(r"^\d+-", part) else part

    return [c for c in cases if name in {bare(p) for p in c.path.split("/")} or c.path.endswith(f"/{name}")]


def _cases(plan: Plan, value: Any, folder: str, name: str, numbered: bool, inherited: Inherited) -> list[PlannedCase]:
    """The cases one entry makes: one, or one per count, each taking its own number in a numbered list, as in bt."""
    where = f"{folder}/{name}"
    if isinstance(value, str):
        value = {"generate": value}
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise UsageError(f"{GENERATORS_FILE}: {where}: a case is a command line or a mapping, not {value!r}")
    plan.not_made += [
        f"{GENERATORS_FILE}: {where}: '{key}' is not used by this judge" for key in sorted(set(value) - CASE_KEYS)
    ]
    if not any(k in value for k in ("generate", "in", "copy", *SAMPLE_ONLY)):
        plan.not_made.append(f"{GENERATORS_FILE}: {where}: not made (no 'generate', 'in' or 'copy')")
        return []
    if not where.startswith("sample/") and any(k in value for k in SAMPLE_ONLY):
        raise UsageError(f"{GENERATORS_FILE}: {where}: only a sample may have {', '.join(SAMPLE_ONLY)}")
    texts, links = _files(value, where)
    inherited = inherited.under(value)
    counts: list[int | None] = [None] if value.get("count") is None else list(_counts(value["count"], where))
    numbers = [c for c in counts if c is not None]
    consecutive = bool(numbers) and max(numbers) - min(numbers) == len(numbers) - 1
    padding = max(len(str(c)) for c in numbers) if consecutive else 0
    out = []
    for count in counts:
        label = _label(next(plan.numbers), plan.width, name) if numbered else name
        path = f"{folder}/{label}" + ("" if count is None else f"-{count:0{padding}d}")
        command = value.get("generate")
        if command is not None:
            command = _filled(substitute(str(command).encode(), plan.constants).decode(), count, inherited.salt)
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
                texts,
                links,
                _patterns(value.get("match"), where),
            )
        )
    return out


def _files(value: dict[str, Any], where: str) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The files a case gives beside ``in``/``ans``: as text, or as a link to another of its own files (bt makes a
    symbolic link; a copy here, which reads the same)."""
    texts, links = [], []
    for key in TEXT_KEYS[2:]:
        given = value.get(key)
        if given is None:
            continue
        if isinstance(given, dict):
            target = given.get("link")
            if key not in LINKS or set(given) != {"link"} or target not in (*LINKS, "in", "ans"):
                raise UsageError(f"{GENERATORS_FILE}: {where}: {key}: expected text or {{link: <in/ans file>}}")
            if str(target).split(".")[0] != LINKS[key] or target in value and isinstance(value[target], dict):
                raise UsageError(f"{GENERATORS_FILE}: {where}: {key}: cannot link to {target}")
            links.append((key, str(target)))
        else:
            texts.append((key, _text(given) or ""))
    return tuple(texts), tuple(links)


def _patterns(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    """``match``: a pattern or a list of them for the input, or a mapping ``in``/``ans`` to them."""
    if value is None:
        return ()
    by_file = value if isinstance(value, dict) else {"in": value}
    out = []
    for ext, patterns in by_file.items():
        for pattern in patterns if isinstance(patterns, list) else [patterns]:
            try:
                re.compile(str(pattern), re.MULTILINE | re.DOTALL)
            except re.error as exc:
                raise UsageError(
                    f"{GENERATORS_FILE}: {where}: match: '{pattern}' is no regular expression: {exc}"
                ) from None
            if ext not in ("in", "ans"):
                raise UsageError(f"{GENERATORS_FILE}: {where}: match: '{ext}' is not in or ans")
            out.append((str(ext), str(pattern)))
    return tuple(out)


def _constants(root: Path) -> dict[str, str]:
    """problem.yaml's ``constants``, which bt writes into a generator's command line (``{{name}}``) before anything
    else: never into the text of inline cases."""
    import yaml

    from ..problem.formats import fastyaml
    from ..problem.formats.kattis_files import constants

    try:
        meta = fastyaml.safe_load((root / "problem.yaml").read_text()) if (root / "problem.yaml").is_file() else {}
    except (OSError, ValueError, yaml.YAMLError):  # the package's loader says what is wrong with it
        return {}
    return constants(meta, str(root)) if isinstance(meta, dict) else {}


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value)
    return text if text.endswith("\n") or not text else text + "\n"  # as bt: an empty text stays empty


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


def _filled(command: str, count: int | None, salt: str) -> str:
    """``{count}``, then ``{seed}`` (or ``{seed:N}``, the same number: the ``N`` only changes the line) and ``{name}``
    (``testcase``: the name of the files a generator may write in its folder), with BAPCtools' seed: the SHA-512 of
    the salt, ``:i`` for the i-th count after the first (counting from 0), and the stripped line with its count filled
    in, modulo 2^31. The same line always makes the same case, and a package checking its seeds (BAPCtools'
    ``testseed``) sees the ones bt would give."""
    filled = command if count is None else command.replace("{count}", str(count))
    index = f":{count - 1}" if count is not None and count != 1 else ""
    seed = int(hashlib.sha512(f"{salt}{index}{filled.strip()}".encode()).hexdigest(), 16) % 2**31
    return re.sub(r"\{seed(?::\d+)?\}", str(seed), filled).replace("{name}", "testcase")
