"""Our own format: loading and validating ``problem.yaml`` into the neutral model.

The spec is parsed into PyYAML's node tree rather than plain Python objects so
that every complaint can name the line it is about: a problem setter with a
typo in a 200-line spec should be sent to that line, not shown a traceback.
The accepted keys are documented in ``docs/problem-format.md``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from ...check import checker_type, native_types
from ...check.interactor_protocols import PROTOCOLS
from ...errors import SpecError
from ...lang import Registry, registry_for
from ...model import (
    PROBLEM_TYPES,
    SPEC_NAME,
    CaseSpec,
    CheckerSpec,
    FromFile,
    Generated,
    Group,
    Kind,
    Limits,
    Problem,
    cases_dir_for,
)
from ...model.programfiles import KATTIS, TESTLIB, ProgramFiles
from . import fastyaml

_GROUP_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")
_CASE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")
_CONSTANT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class _Reader:
    """Typed access to a YAML node tree, failing with file:line messages."""

    def __init__(self, path: Path, shown: str) -> None:
        self.path = path
        self.shown = shown
        self._constructor = yaml.SafeLoader("")

    def fail(self, node: yaml.Node | None, message: str) -> SpecError:
        line = node.start_mark.line + 1 if node is not None else None
        return SpecError(self.shown, line, message)

    def mapping(self, node: yaml.Node, what: str, allowed: set[str], required: set[str]) -> dict[str, yaml.Node]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} must be a mapping")
        result: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            key = self._constructor.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                raise self.fail(key_node, f"{what}: keys must be strings, got {key!r}")
            if key in result:
                raise self.fail(key_node, f"{what}: duplicate key '{key}'")
            if key not in allowed:
                raise self.fail(key_node, f"{what}: unknown key '{key}' (allowed: {', '.join(sorted(allowed))})")
            result[key] = value_node
        missing = sorted(required - result.keys())
        if missing:
            raise self.fail(node, f"{what}: missing required key '{missing[0]}'")
        return result

    def sequence(self, node: yaml.Node, what: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{what} must be a list")
        return list(node.value)

    def scalar(
        self,
        node: yaml.Node,
        what: str,
        kind: type | tuple[type, ...],
        check: Callable[[Any], bool] | None = None,
        hint: str = "",
    ) -> Any:
        value = self._constructor.construct_object(node, deep=True) if isinstance(node, yaml.ScalarNode) else None
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        if not ok or (check is not None and not check(value)):
            names = " or ".join(k.__name__ for k in kinds)
            shown = value if value is not None else getattr(node, "tag", "?")
            raise self.fail(node, f"{what} must be {hint or names}, got {shown!r}")
        return value

    def number(self, node: yaml.Node, what: str, minimum: float = 0.0, strict: bool = True) -> float:
        hint = f"a number {'>' if strict else '>='} {minimum:g}"
        value = self.scalar(node, what, (int, float), lambda v: v > minimum if strict else v >= minimum, hint)
        return float(value)

    def file(self, node: yaml.Node, what: str, root: Path) -> Path:
        rel = self.scalar(node, what, str)
        path = (root / rel).resolve()
        if not path.is_file():
            raise self.fail(node, f"{what}: file '{rel}' does not exist")
        return path


def load_problem(root: Path, shown_root: str | None = None) -> Problem:
    """Parse and validate ``root/problem.yaml``; raise SpecError naming the line on any fault."""
    spec_path = root / SPEC_NAME
    shown = f"{shown_root or root}/{SPEC_NAME}"
    try:
        text = spec_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(shown, None, f"cannot read: {exc}") from None
    try:
        document = fastyaml.compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise SpecError(shown, line, f"invalid YAML: {problem}") from None
    if document is None:
        raise SpecError(shown, 1, "empty spec")
    r = _Reader(spec_path, shown)
    top = r.mapping(
        document,
        "problem",
        {
            "title",
            "source",
            "statement",
            "type",
            "interactor",
            "limits",
            "checker",
            "generator",
            "validator",
            "solutions",
            "groups",
            "libraries",
            "include",
            "constants",
        },
        {"title", "limits", "solutions", "groups"},
    )
    statement_node = top.get("statement")
    if statement_node is not None:
        statement = r.file(statement_node, "statement", root)
    else:
        statement = root / "statement.md"
    validator = _validator(r, top["validator"], root) if "validator" in top else None
    checker = _checker(r, top.get("checker"), root)
    kind, interactor = _kind(r, top, checker, root)
    return Problem(
        name=root.name,
        root=root,
        title=r.scalar(top["title"], "title", str),
        source=r.scalar(top["source"], "source", str) if "source" in top else "",
        statement=statement,
        limits=_limits(r, top["limits"], registry_for(root)),
        checker=checker,
        generator=r.file(top["generator"], "generator", root) if "generator" in top else None,
        validators=(validator[0],) if validator else (),
        solutions=_solutions(r, top["solutions"], root),
        groups=_groups(r, top["groups"], root, has_generator="generator" in top),
        cases_dir=cases_dir_for(root),
        kind=kind,
        interactor=interactor,
        files=ProgramFiles(
            include=_folder(r, top["include"], "include", root) if "include" in top else None,
            libraries=_libraries(r, top.get("libraries"), root),
            constants=_constants(r, top.get("constants")),
            validator_protocols=dict([validator] if validator and validator[1] else []),
        ),
    )


def _kind(r: _Reader, top: dict[str, yaml.Node], checker: CheckerSpec, root: Path) -> tuple[Kind, CheckerSpec | None]:
    """``type`` (one word, several in a string, or a list) with the keys it needs: an interactor, a validator that can
    ask for passes."""
    node = top.get("type")
    words: list[str] = []
    if node is not None:
        items = r.sequence(node, "type") if isinstance(node, yaml.SequenceNode) else [node]
        for item in items:
            words += r.scalar(item, "type", str).split()
        for word in words:
            if word not in PROBLEM_TYPES:
                raise r.fail(node, f"type: unknown problem type '{word}' (known: {', '.join(PROBLEM_TYPES)})")
        if "submit-answer" in words and ({"interactive", "multi-pass"} & set(words)):
            raise r.fail(node, "type: submit-answer cannot be combined with interactive or multi-pass")
    interactive, multi_pass = "interactive" in words, "multi-pass" in words
    interactor = None
    if "interactor" in top:
        if not interactive:
            raise r.fail(top["interactor"], "interactor: only an interactive problem (type: interactive) has one")
        keys = r.mapping(top["interactor"], "interactor", {"program", "protocol"}, {"program"})
        protocol = (
            r.scalar(keys["protocol"], "interactor.protocol", str, lambda v: v in PROTOCOLS, " or ".join(PROTOCOLS))
            if "protocol" in keys
            else "kattis"
        )
        interactor = CheckerSpec(type=protocol, program=r.file(keys["program"], "interactor.program", root))
    elif interactive:
        raise r.fail(node, "type: an interactive problem needs an interactor (interactor.program)")
    if multi_pass:
        validator = interactor if interactive else checker
        if validator is None or validator.type != "kattis":
            raise r.fail(
                node,
                "type: a multi-pass problem needs a Kattis-protocol "
                + ("interactor" if interactive else "checker (checker.type: kattis)")
                + " to write nextpass.in",
            )
    passes = 2 if multi_pass else 1
    limits = top["limits"]
    for key_node, value_node in limits.value if isinstance(limits, yaml.MappingNode) else []:
        if key_node.value == "passes":
            if not multi_pass:
                raise r.fail(key_node, "limits.passes: only a multi-pass problem (type: multi-pass) has passes")
            passes = r.scalar(value_node, "limits.passes", int, lambda v: v >= 2, "an integer >= 2")
    return Kind(interactive=interactive, passes=passes, submit_answer="submit-answer" in words), interactor


def _limits(r: _Reader, node: yaml.Node, registry: Registry) -> Limits:
    keys = r.mapping(
        node,
        "limits",
        {"time", "memory", "output", "wall", "time_factor", "compile_time", "checker_time", "passes"},
        {"time", "memory"},
    )
    factors: dict[str, float] = {}
    names = {alias: lang.name for lang in registry.values() for alias in (lang.name, *lang.aliases)}
    if "time_factor" in keys:
        for lang_node, factor_node in r.mapping(keys["time_factor"], "limits.time_factor", set(names), set()).items():
            factors[names[lang_node]] = r.number(factor_node, f"limits.time_factor.{lang_node}")
    memory = r.scalar(keys["memory"], "limits.memory", int, lambda v: v >= 4, "an integer number of MiB >= 4")
    return Limits(
        time=r.number(keys["time"], "limits.time"),
        memory_mib=memory,
        output_mib=r.number(keys["output"], "limits.output") if "output" in keys else 64,
        wall=r.number(keys["wall"], "limits.wall") if "wall" in keys else None,
        time_factor=factors,
        compile_time=r.number(keys["compile_time"], "limits.compile_time") if "compile_time" in keys else 60.0,
        checker_time=r.number(keys["checker_time"], "limits.checker_time") if "checker_time" in keys else None,
        default_factors={lang.name: lang.time_factor for lang in registry.values()},
    )


def _checker(r: _Reader, node: yaml.Node | None, root: Path) -> CheckerSpec:
    """Type, options and program as the checker-type registry defines them: nothing here knows any one type."""
    if node is None:
        return CheckerSpec()
    types = native_types()
    known_options = {name for t in types for name in checker_type(t).options}
    keys = r.mapping(node, "checker", {"type", "program", *known_options}, {"type"})
    kind = r.scalar(keys["type"], "checker.type", str, lambda v: v in types, "one of " + ", ".join(types))
    entry = checker_type(kind)
    allowed = set(entry.options) | ({"program"} if entry.needs_program else set())
    for key in keys.keys() - {"type"} - allowed:
        raise r.fail(keys[key], f"checker.{key} does not apply to checker type '{kind}'")
    if entry.needs_program and "program" not in keys:
        raise r.fail(node, f"checker type '{kind}' needs checker.program")
    options: dict[str, Any] = {}
    for name, spec in entry.options.items():
        if name not in keys:
            options[name] = spec.default
        elif spec.kind is bool:
            options[name] = r.scalar(keys[name], f"checker.{name}", bool)
        else:
            options[name] = r.number(keys[name], f"checker.{name}", strict=False)
    program = r.file(keys["program"], "checker.program", root) if "program" in keys else None
    return CheckerSpec(type=kind, options=options, program=program)


def _validator(r: _Reader, node: yaml.Node, root: Path) -> tuple[Path, str | None]:
    """A path (its protocol told by its source), or ``{type: testlib|kattis, program: path}``."""
    if not isinstance(node, yaml.MappingNode):
        return r.file(node, "validator", root), None
    keys = r.mapping(node, "validator", {"type", "program"}, {"program"})
    kind = (
        r.scalar(keys["type"], "validator.type", str, lambda v: v in (TESTLIB, KATTIS), f"{TESTLIB} or {KATTIS}")
        if "type" in keys
        else None
    )
    return r.file(keys["program"], "validator.program", root), kind


def _folder(r: _Reader, node: yaml.Node, what: str, root: Path) -> Path:
    rel = r.scalar(node, what, str)
    if not (root / rel).is_dir():
        raise r.fail(node, f"{what}: folder '{rel}' does not exist")
    return (root / rel).resolve()


def _constants(r: _Reader, node: yaml.Node | None) -> dict[str, str]:
    """``{{name}}`` values for the package's programs, included files and submissions, as the Kattis format has them."""
    if node is None:
        return {}
    values: dict[str, str] = {}
    if not isinstance(node, yaml.MappingNode):
        raise r.fail(node, "constants must be a mapping of names to numbers or strings")
    for key_node, value_node in node.value:
        name = r.scalar(
            key_node, "constants: a name", str, lambda v: bool(_CONSTANT.match(v)), "a name of [A-Za-z_][A-Za-z0-9_]*"
        )
        value = r.scalar(value_node, f"constants.{name}", (int, float, str))
        values[name] = str(value)
    return values


def _libraries(r: _Reader, node: yaml.Node | None, root: Path) -> tuple[Path, ...]:
    """Folders (relative to the problem, e.g. ``../_lib/python``) whose files ship with every problem program."""
    if node is None:
        return ()
    folders = []
    for i, item in enumerate(r.sequence(node, "libraries")):
        rel = r.scalar(item, f"libraries[{i}]", str)
        if not (root / rel).is_dir():
            raise r.fail(item, f"libraries[{i}]: folder '{rel}' does not exist")
        folders.append((root / rel).resolve())
    return tuple(folders)


def _solutions(r: _Reader, node: yaml.Node, root: Path) -> tuple[Path, ...]:
    items = r.sequence(node, "solutions")
    if not items:
        raise r.fail(node, "solutions must list at least one reference solution")
    return tuple(r.file(item, f"solutions[{i}]", root) for i, item in enumerate(items))


def _groups(r: _Reader, node: yaml.Node, root: Path, has_generator: bool) -> tuple[Group, ...]:
    items = r.sequence(node, "groups")
    if not items:
        raise r.fail(node, "groups must list at least one group")
    groups: list[Group] = []
    seen_groups: set[str] = set()
    seen_cases: set[str] = set()
    for gi, item in enumerate(items):
        keys = r.mapping(item, f"groups[{gi}]", {"name", "points", "aggregation", "cases"}, {"name", "cases"})
        name = r.scalar(
            keys["name"], f"groups[{gi}].name", str, lambda v: bool(_GROUP_NAME.match(v)), "a name of [a-z0-9_-]"
        )
        if name in seen_groups:
            raise r.fail(keys["name"], f"duplicate group name '{name}'")
        seen_groups.add(name)
        points = r.number(keys["points"], f"group {name}: points", strict=False) if "points" in keys else 0.0
        aggregation = (
            r.scalar(
                keys["aggregation"], f"group {name}: aggregation", str, lambda v: v in ("min", "sum"), "min or sum"
            )
            if "aggregation" in keys
            else "min"
        )
        case_nodes = r.sequence(keys["cases"], f"group {name}: cases")
        if not case_nodes:
            raise r.fail(keys["cases"], f"group {name}: cases must not be empty")
        cases = []
        for case_node in case_nodes:
            case = _case(r, case_node, name, root, has_generator)
            if case.name in seen_cases:
                raise r.fail(case_node, f"duplicate case name '{case.name}'")
            seen_cases.add(case.name)
            cases.append(case)
        groups.append(Group(name=name, points=points, cases=tuple(cases), aggregation=aggregation))
    return tuple(groups)


def _case(r: _Reader, node: yaml.Node, group: str, root: Path, has_generator: bool) -> CaseSpec:
    keys = r.mapping(node, f"group {group}: case", {"name", "file", "generate"}, {"name"})
    name = r.scalar(
        keys["name"], f"group {group}: case name", str, lambda v: bool(_CASE_NAME.match(v)), "a name of [A-Za-z0-9_.-]"
    )
    if ("file" in keys) == ("generate" in keys):
        raise r.fail(node, f"case {name}: give exactly one of 'file' and 'generate'")
    if "file" in keys:
        path = r.file(keys["file"], f"case {name}: file", root)
        where = path.relative_to(root.resolve()) if path.is_relative_to(root.resolve()) else path
        return CaseSpec(name=name, group=group, origin=FromFile(path), source=f"file: {where.as_posix()}")
    if not has_generator:
        raise r.fail(keys["generate"], f"case {name}: 'generate' needs a top-level 'generator'")
    line = r.scalar(keys["generate"], f"case {name}: generate", str)
    try:
        args = tuple(shlex.split(line))
    except ValueError as exc:
        raise r.fail(keys["generate"], f"case {name}: cannot split generator arguments: {exc}") from None
    return CaseSpec(name=name, group=group, origin=Generated(args), source="generate: " + shlex.join(args))
