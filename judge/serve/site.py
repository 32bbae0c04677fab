"""``SITE/site.yaml``: which problems a site serves, to whom, when, with what feedback; every fault names its line.

The smallest site is ``problems: [poj2893, hdoj3600]``; everything else has a default a class can live with. A
problem is a bundled name or a package path (relative to the site folder), optionally with a label (a contest's
A, B, …) and a feedback policy saying what a student sees of its secret cases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from ..core.timelimit import with_limit
from ..errors import SpecError, UsageError
from ..lang import LANGUAGES
from ..model import Problem
from ..problem.formats import resolve_problem

SITE_FILE = "site.yaml"
KINDS = ("class", "contest")
# verdict: the overall verdict and score only; cases: each case's verdict, time and memory, and the checker's message
# on sample cases (their data is the student's already); full: the checker's message on every case too (homework,
# where a wrong answer's explanation is the point)
FEEDBACK = ("verdict", "cases", "full")


# a prebuilt executable and an input grammar are not what a student hands in: a site names them to allow them
NOT_BY_DEFAULT = frozenset({"exe", "checktestdata"})


@dataclass(frozen=True)
class SiteProblem:
    name: str  # the id the API uses
    path: Path  # the package's folder
    label: str
    feedback: str
    rgb: str | None = None  # the balloon's colour (a contest package's problems.yaml: '#00f'), shown by the ICPC API
    color: str | None = None  # its name (blue)
    time_limit: float | None = None  # seconds: the limit this site judges with, over the package's (a contest's)


@dataclass(frozen=True)
class SiteLimits:
    queue: int = 2000  # submissions waiting at most; beyond it a POST is answered 503
    per_minute: int = 30  # submissions one user may make in a minute (teachers are not limited); beyond it 429
    wait: float = 10.0  # the longest ?wait= a POST may ask for


@dataclass(frozen=True)
class Site:
    root: Path
    title: str
    kind: str
    problems: dict[str, SiteProblem]
    languages: tuple[str, ...]  # the registry's names allowed, in the order given
    start: datetime | None
    end: datetime | None
    deadline: datetime | None
    limits: SiteLimits
    penalty: int = 20  # contest: minutes a rejected try costs once the problem is solved
    freeze: int = 0  # contest: the board's last minutes in which others' results show as pending (0: none)
    medals: tuple[int, int, int] = (4, 4, 4)  # contest: the ranks given gold, silver and bronze (the ICPC's usual)
    contest_id: str | None = None  # contest: its id in the ICPC Contest API (a package's); else the folder's name

    def open_at(self, moment: datetime) -> bool:
        """Whether a submission made at ``moment`` is taken at all (a class's late ones are, until its end)."""
        return not (self.start and moment < self.start) and not (self.end and moment >= self.end)

    @property
    def frozen_at(self) -> float | None:
        """When a contest's board freezes (its last ``freeze`` minutes, never before its start), as a timestamp; None
        where it never does. One rule for the boards and for the ICPC API's state."""
        if self.kind != "contest" or not self.freeze or self.end is None:
            return None
        since = self.end.timestamp() - self.freeze * 60
        return max(since, self.start.timestamp()) if self.start else since


class _Reader:
    """Typed reads of the YAML node tree, each fault one ``SpecError`` naming the file and line."""

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self._constructor = yaml.SafeLoader("")

    def fail(self, node: yaml.Node | None, message: str) -> SpecError:
        return SpecError(self.shown, node.start_mark.line + 1 if node is not None else None, message)

    def value(self, node: yaml.Node) -> Any:
        return self._constructor.construct_object(node, deep=True)

    def mapping(self, node: yaml.Node, what: str, allowed: set[str]) -> dict[str, yaml.Node]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} must be a mapping")
        out: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            key = self.value(key_node)
            if key not in allowed:
                raise self.fail(key_node, f"{what}: unknown key '{key}' (allowed: {', '.join(sorted(allowed))})")
            if key in out:
                raise self.fail(key_node, f"{what}: duplicate key '{key}'")
            out[key] = value_node
        return out

    def text(self, node: yaml.Node, what: str, choices: tuple[str, ...] = ()) -> str:
        value = self.value(node) if isinstance(node, yaml.ScalarNode) else None
        if not isinstance(value, (str, int)) or isinstance(value, bool) or (choices and value not in choices):
            hint = f"one of {', '.join(choices)}" if choices else "a name"
            raise self.fail(node, f"{what} must be {hint}, got {value!r}")
        return str(value)

    def count(self, node: yaml.Node, what: str) -> int:
        value = self.value(node) if isinstance(node, yaml.ScalarNode) else None
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise self.fail(node, f"{what} must be a whole number >= 1, got {value!r}")
        return value

    def time(self, node: yaml.Node, what: str) -> datetime:
        value = self.value(node) if isinstance(node, yaml.ScalarNode) else None
        if isinstance(value, datetime):
            moment = value
        else:
            try:
                moment = datetime.fromisoformat(str(value).strip())
            except ValueError:
                raise self.fail(node, f"{what}: '{value}' is not a time (write e.g. 2025-03-01 23:59)") from None
        return moment if moment.tzinfo is not None else moment.astimezone()


def load_site(root: Path, problems_root: Path) -> Site:
    """Read and check ``root/site.yaml``; bundled problem names are looked for under ``problems_root``."""
    path = root / SITE_FILE
    shown = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{path}: no site file (the smallest is one line: problems: [poj2893])") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        top = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SpecError(
            shown, mark.line + 1 if mark else None, f"invalid YAML: {getattr(exc, 'problem', exc)}"
        ) from None
    r = _Reader(shown)
    if top is None:
        raise SpecError(shown, None, "the site file is empty (it needs at least: problems: [NAME])")
    keys = {
        "title",
        "kind",
        "problems",
        "languages",
        "start",
        "end",
        "deadline",
        "limits",
        "penalty",
        "feedback",
        "freeze",
        "medals",
        "id",
    }
    fields = r.mapping(top, "site", keys)
    if "problems" not in fields:
        raise r.fail(top, "site: missing required key 'problems'")
    kind = r.text(fields["kind"], "kind", KINDS) if "kind" in fields else "class"
    default_feedback = (
        r.text(fields["feedback"], "feedback", FEEDBACK)
        if "feedback" in fields
        else ("cases" if kind == "class" else "verdict")
    )
    times = {key: r.time(fields[key], key) for key in ("start", "end", "deadline") if key in fields}
    if kind == "contest" and not ("start" in times and "end" in times):
        raise r.fail(top, "a contest needs its start and end (the ICPC Contest API states its length)")
    if "start" in times and "end" in times and times["end"] <= times["start"]:
        raise r.fail(fields["end"], "end must come after start")
    freeze = r.count(fields["freeze"], "freeze") if "freeze" in fields else 0
    if freeze and "start" in times and "end" in times:
        length = (times["end"] - times["start"]).total_seconds() / 60
        if freeze > length:  # a freeze from before the start: the board would never show a result
            raise r.fail(fields["freeze"], f"freeze: {freeze} minutes is longer than the contest ({length:g} minutes)")
    return Site(
        root=root,
        title=r.text(fields["title"], "title") if "title" in fields else root.name,
        kind=kind,
        problems=_problems(r, fields["problems"], root, problems_root, default_feedback),
        languages=_languages(r, fields.get("languages")),
        start=times.get("start"),
        end=times.get("end"),
        deadline=times.get("deadline"),
        limits=_limits(r, fields.get("limits")),
        penalty=r.count(fields["penalty"], "penalty") if "penalty" in fields else 20,
        freeze=freeze,
        medals=_medals(r, fields["medals"]) if "medals" in fields else (4, 4, 4),
        contest_id=_contest_id(r, fields["id"]) if "id" in fields else None,
    )


def _contest_id(r: _Reader, node: yaml.Node) -> str:
    """``id``: the contest's id in the ICPC Contest API, kept from the contest package a site was made from (its
    clients key everything by it); an identifier the spec allows."""
    value = r.text(node, "id")
    if not re.fullmatch(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,34}[A-Za-z0-9_-])?", value):
        raise r.fail(node, f"id must be an identifier (letters, digits, _ . -; at most 36), got {value!r}")
    return value


def _medals(r: _Reader, node: yaml.Node) -> tuple[int, int, int]:
    """``medals: {gold: 4, silver: 4, bronze: 4}``: how many ranks get each medal (a colour left out: the usual 4)."""
    fields = r.mapping(node, "medals", {"gold", "silver", "bronze"})
    counts = []
    for colour in ("gold", "silver", "bronze"):
        node = fields.get(colour)
        value = 4 if node is None else r.value(node) if isinstance(node, yaml.ScalarNode) else None
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise r.fail(node or fields[colour], f"medals: {colour} must be a whole number >= 0, got {value!r}")
        counts.append(value)
    return (counts[0], counts[1], counts[2])


def _problems(r: _Reader, node: yaml.Node, root: Path, problems_root: Path, feedback: str) -> dict[str, SiteProblem]:
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        raise r.fail(node, "problems must be a list of at least one problem (bundled names or package paths)")
    found: dict[str, SiteProblem] = {}
    for number, item in enumerate(node.value):
        if isinstance(item, yaml.MappingNode):
            entry = r.mapping(
                item, f"problems[{number}]", {"problem", "name", "label", "feedback", "rgb", "color", "time_limit"}
            )
            if "problem" not in entry:
                raise r.fail(item, f"problems[{number}]: missing required key 'problem'")
            ref = r.text(entry["problem"], f"problems[{number}].problem")
        else:
            entry, ref = {}, r.text(item, f"problems[{number}]")
        where = entry.get("problem", item)
        try:
            folder = resolve_problem(str(root / ref), problems_root) if (root / ref).is_dir() else None
            folder = folder or resolve_problem(ref, problems_root)
        except UsageError as exc:
            raise r.fail(where, str(exc)) from None
        name = r.text(entry["name"], "name") if "name" in entry else folder.name
        if name in found:
            raise r.fail(where, f"the problem '{name}' is on the site twice (give one of them a name:)")
        label = r.text(entry["label"], "label") if "label" in entry else chr(ord("A") + number) if number < 26 else name
        policy = r.text(entry["feedback"], "feedback", FEEDBACK) if "feedback" in entry else feedback
        rgb = r.text(entry["rgb"], "rgb") if "rgb" in entry else None
        if rgb is not None and not re.fullmatch(r"#(?:[0-9A-Fa-f]{3}){1,2}", rgb):
            raise r.fail(entry["rgb"], f"rgb must be a colour such as '#00f' or '#0000ff', got {rgb!r}")
        color = r.text(entry["color"], "color") if "color" in entry else None
        limit = _seconds(r, entry["time_limit"]) if "time_limit" in entry else None
        found[name] = SiteProblem(name, folder, label, policy, rgb, color, limit)
    return found


def _seconds(r: _Reader, node: yaml.Node) -> float:
    value = r.value(node) if isinstance(node, yaml.ScalarNode) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 3600:
        raise r.fail(node, f"time_limit must be seconds over 0 and at most 3600, got {value!r}")
    return float(value)


def judged_as(problem: Problem, entry: SiteProblem) -> Problem:
    """The problem as the site judges it: with the site's time limit where it sets one (a contest package states each
    problem's, which the contest was judged by), else the package's own or the one inferred from its submissions."""
    return with_limit(problem, entry.time_limit) if entry.time_limit else problem


def _languages(r: _Reader, node: yaml.Node | None) -> tuple[str, ...]:
    if node is None:
        return tuple(name for name in LANGUAGES if name not in NOT_BY_DEFAULT)
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        raise r.fail(node, "languages must be a list of language names (`tilejudge languages` lists them)")
    names = []
    for item in node.value:
        name = r.text(item, "languages")
        if name not in LANGUAGES:
            raise r.fail(item, f"languages: unknown language '{name}' (`tilejudge languages` lists them)")
        names.append(LANGUAGES[name].name)
    return tuple(dict.fromkeys(names))


def _limits(r: _Reader, node: yaml.Node | None) -> SiteLimits:
    if node is None:
        return SiteLimits()
    fields = r.mapping(node, "limits", {"queue", "per_minute", "wait"})
    base = SiteLimits()
    return SiteLimits(
        queue=r.count(fields["queue"], "limits.queue") if "queue" in fields else base.queue,
        per_minute=r.count(fields["per_minute"], "limits.per_minute") if "per_minute" in fields else base.per_minute,
        wait=min(float(r.count(fields["wait"], "limits.wait")), 60.0) if "wait" in fields else base.wait,
    )
