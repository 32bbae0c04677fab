"""A Kattis package's example submissions and what each promises: folder defaults and ``submissions.yaml``.

Every submission gets a list of ``Rule``s: its folder's default rule
(2025-09's table, overridden key by key when ``submissions.yaml`` names the
folder itself, plus 2023-07's ``partially_accepted``), and every
``submissions.yaml`` entry whose glob matches it or a folder above it. A rule
may be scoped to test cases (a test-case glob under the submission's entry):
then it speaks only about those cases, and its ``score`` about that group.
verify checks the rules; time-limit inference reads which submissions bound
the limit (``TimeRule``, ``use_for_time_limit``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from ...errors import SpecError
from ...lang import is_source
from ...model import Problem, TimeRule
from . import fastyaml
from .kattis_files import program_path
from .kattis_settings import problem_meta

# what Kattis has no key for (per-language time factors, the stored limit); ignored by other judges
SIDE_CAR = "tilejudge.yaml"
KATTIS_NAMES = ("AC", "WA", "TLE", "RTE")
# folder -> (verdicts a submission there may get, verdicts of which it must get one), 2025-09 defaults
FOLDER_RULES: dict[str, tuple[set[str], set[str]]] = {
    "accepted": ({"AC"}, set()),
    "wrong_answer": ({"AC", "WA"}, {"WA"}),
    "time_limit_exceeded": ({"AC", "TLE"}, {"TLE"}),
    "run_time_error": ({"AC", "RTE"}, {"RTE"}),
    "rejected": ({"AC", "WA", "TLE", "RTE"}, {"WA", "TLE", "RTE"}),
    "brute_force": ({"AC", "TLE", "RTE"}, {"TLE", "RTE"}),
}
PARTIAL = "partially_accepted"  # 2023-07: accepted overall, with a score below the maximum
META_KEYS = {
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
    "language",
    "entrypoint",
    "authors",
    "model_solution",
}


@dataclass(frozen=True)
class Rule:
    """One promise about a submission; ``scope`` is a test-case glob ("" = every case), ``origin`` says who made it."""

    origin: str
    scope: str = ""
    permitted: frozenset[str] | None = None
    required: frozenset[str] | None = None
    score: tuple[float, float] | None = None
    message: str | None = None
    use_for_time_limit: bool | str | None = None
    partial: bool = False
    default: bool = False  # a folder's default rule: checked up to the first failure, as Kattis judges it

    @property
    def needs_every_case(self) -> bool:
        return bool(self.scope) or self.score is not None or self.message is not None or self.partial


@dataclass
class KattisSubmission:
    path: Path
    source: Path | None
    folder: str
    rules: tuple[Rule, ...] = ()
    language: str | None = None
    entrypoint: str | None = None
    why: str = ""  # when ``source`` is None: why no program was found

    @property
    def name(self) -> str:
        """The path under ``submissions/``: what globs match and reports show."""
        return f"{self.folder}/{self.path.name}"

    def bounds_time(self) -> str | None:
        """ "lower" when the submission bounds the time limit from below (never TLE), "upper" when it must TLE, else
        None."""
        whole = [r for r in self.rules if not r.scope]
        if any(r.use_for_time_limit is False for r in whole):
            return None
        explicit = {r.use_for_time_limit for r in whole} & {"lower", "upper"}
        if explicit:
            return explicit.pop()
        if any(r.permitted == {"AC"} for r in whole):
            return "lower"
        return "upper" if any(r.required == {"TLE"} for r in whole) else None


def side_car(root: Path) -> dict[str, Any]:
    file = root / SIDE_CAR
    if not file.is_file():
        return {}
    return fastyaml.load_mapping(file)


def side_car_factors(root: Path) -> dict[str, float]:
    """Our per-language factors kept beside an export; Python's is PyPy3's too, since a Kattis package's Python runs
    under PyPy3 where it is installed."""
    factors = {str(k): float(v) for k, v in (side_car(root).get("time_factor") or {}).items()}
    if "python3" in factors:
        factors.setdefault("pypy3", factors["python3"])
    return factors


def time_rule(root: Path) -> TimeRule:
    meta = problem_meta(root, str(root))
    limits = meta.get("limits") or {}
    if str(meta.get("problem_format_version", "legacy")).startswith("legacy"):
        margin = float(limits.get("time_safety_margin", 2))
        return TimeRule(float(limits.get("time_multiplier", 5)), margin, 1.0, "time_safety_margin")
    multipliers = limits.get("time_multipliers") or {}
    return TimeRule(
        float(multipliers.get("ac_to_time_limit", 2.0)),
        float(multipliers.get("time_limit_to_tle", 1.5)),
        float(limits.get("time_resolution", 1.0)),
    )


def expand_braces(pattern: str) -> list[str]:
    """``a.{py,cpp}`` → ``a.py``, ``a.cpp`` (nested and repeated braces too).

    Spaces around a choice are layout, not part of a name (``{ 4 }`` is ``4``),
    as BAPCtools reads them.
    """
    match = re.search(r"\{([^{}]*)\}", pattern)
    if match is None:
        return [pattern]
    return [
        p
        for choice in match.group(1).split(",")
        for p in expand_braces(pattern[: match.start()] + choice.strip() + pattern[match.end() :])
    ]


def glob_matches(pattern: str, path: str) -> bool:
    """Whether a submissions.yaml glob matches ``path`` or a folder above it; ``*`` and ``?`` never cross ``/``."""
    parts = path.split("/")
    prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    for expanded in expand_braces(pattern.strip("/")):
        regex = re.compile("".join("[^/]*" if ch == "*" else "[^/]" if ch == "?" else re.escape(ch) for ch in expanded))
        if any(regex.fullmatch(prefix) for prefix in prefixes):
            return True
    return False


def _verdicts(value: Any, file: Path, where: str) -> frozenset[str] | None:
    if value is None:
        return None
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or any(str(v) not in KATTIS_NAMES for v in values):
        raise SpecError(file, None, f"{where}: must be a list of {', '.join(KATTIS_NAMES)}, not {value!r}")
    return frozenset(str(v) for v in values)


def _score(value: Any, file: Path, where: str) -> tuple[float, float] | None:
    if value is None:
        return None
    try:
        low, high = (float(value), float(value)) if not isinstance(value, list) else (float(value[0]), float(value[1]))
        if isinstance(value, list) and len(value) != 2:
            raise ValueError
    except (TypeError, ValueError, IndexError):
        raise SpecError(
            file, None, f"{where}: score must be a number or a list of two numbers, not {value!r}"
        ) from None
    return low, high


def _rule(entry: dict[str, Any], file: Path, origin: str, scope: str) -> Rule:
    use = entry.get("use_for_time_limit")
    if use is not None and use not in (True, False, "lower", "upper"):
        raise SpecError(file, None, f"{origin}: use_for_time_limit must be true, false, lower or upper")
    message = entry.get("message")
    where = f"{origin}: {scope}" if scope else origin
    return Rule(
        origin=origin,
        scope=scope,
        permitted=_verdicts(entry.get("permitted"), file, f"{where}: permitted"),
        required=_verdicts(entry.get("required"), file, f"{where}: required"),
        score=_score(entry.get("score"), file, where),
        message=None if message is None else str(message),
        use_for_time_limit=use,
    )


def _entries(path: Path) -> dict[str, dict[str, Any]]:
    if not path.is_file():
        return {}
    loaded = fastyaml.load_mapping(path)
    if any(not isinstance(v, dict) for v in loaded.values()):
        raise SpecError(path, 1, "submissions.yaml must map submission globs to mappings")
    return {str(k): v for k, v in loaded.items()}


def _rules_for(
    name: str, folder: str, entries: dict[str, dict[str, Any]], file: Path
) -> tuple[list[Rule], dict[str, Any]]:
    """The rules of one submission and its merged ``language``/``entrypoint`` settings."""
    rules: list[Rule] = []
    default = FOLDER_RULES.get(folder)
    if default is not None or folder in entries or folder == PARTIAL:
        base = Rule(
            origin=f"{folder}/ default",
            permitted=frozenset(default[0]) if default else None,
            required=frozenset(default[1]) if default and default[1] else None,
            partial=folder == PARTIAL,
            default=True,
        )
        override = entries.get(folder)
        if override is not None:  # naming the folder itself replaces its default key by key
            named = _rule(override, file, folder, "")
            base = replace(
                base,
                origin=f"submissions.yaml {folder}",
                default=False,
                **{
                    k: getattr(named, k)
                    for k in ("permitted", "required", "score", "message", "use_for_time_limit")
                    if k in override
                },
            )
        rules.append(base)
    settings: dict[str, Any] = {}
    for key, entry in entries.items():
        if key == folder or not glob_matches(key, name):
            continue
        settings.update({k: entry[k] for k in ("language", "entrypoint") if k in entry})
        if {"permitted", "required", "score", "message", "use_for_time_limit"} & entry.keys():
            rules.append(_rule(entry, file, key, ""))
        for scope, sub in entry.items():
            if scope in META_KEYS:
                continue
            if not isinstance(sub, dict):
                raise SpecError(file, None, f"{key}: {scope}: unknown key (a test-case glob must map to a mapping)")
            rules.append(_rule(sub, file, f"{key}", str(scope)))
    return rules, settings


def ignored(problem: Problem) -> list[tuple[str, str]]:
    """Entries of the submission folders no tool judges, with the reason: listed by verify, never judged.

    BAPCtools' ``*.disabled`` files, and files of no language the judge
    knows (notes, data, a language nobody registered); hidden files are left
    out silently (``.gitkeep``).
    """
    return [(f"{e.parent.name}/{e.name}", why) for e, why in _walk(problem) if why]


def _walk(problem: Problem) -> list[tuple[Path, str]]:
    """Every entry of ``submissions/<folder>/`` with why it is ignored ("" when it is a submission)."""
    base = problem.root / "submissions"
    if not base.is_dir():
        return []
    out = []
    for folder in sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for entry in sorted(folder.iterdir()):
            if entry.name.startswith("."):
                continue
            if entry.name.endswith(".disabled"):
                out.append((entry, "disabled (*.disabled): not judged"))
            elif (
                not entry.is_dir()
                and not entry.is_symlink()
                and not problem.kind.submit_answer
                and not is_source(entry)
            ):
                out.append((entry, f"no known language for '{entry.suffix or entry.name}': not judged"))
            else:
                out.append((entry, ""))
    return out


def _followed(path: Path, root: Path) -> Path | None:
    """A link's target when it is a regular file inside the package (setters share a solution by linking it), else
    None."""
    if not path.is_symlink():
        return None
    target = path.resolve()
    return target if target.is_file() and target.is_relative_to(root.resolve()) else None


def _located(entry: Path, problem: Problem) -> tuple[Path | None, str]:
    """The program a submission entry stands for, or why there is none.

    A submit-answer submission is its folder of answers (never a program to
    build: its files are answers, whatever their names). A link is followed
    only to a file inside the package, never out of it.
    """
    if (
        problem.kind.submit_answer
    ):  # a folder of answers, or one answer file for a one-case problem, as judge takes them
        return entry, ""
    if entry.is_symlink():
        target = _followed(entry, problem.root)
        if target is not None:
            return target, ""
        return (
            None,
            "a link to something outside the package: not followed"
            if entry.exists()
            else "a link to nothing (its target is missing)",
        )
    if not entry.is_dir():
        return entry, ""
    links = [p for p in sorted(entry.iterdir()) if p.is_symlink() and not p.name.startswith(".")]
    found = program_path(entry)
    if found is None and len(links) == 1:
        return _located(links[0], problem)
    if found is None:
        return None, "no source file of a known language in the folder"
    return found, ""


def submissions(problem: Problem) -> list[KattisSubmission]:
    """submissions/<folder>/<file or folder> with their rules; a folder submission must hold one source we can build."""
    out: list[KattisSubmission] = []
    file = problem.root / "submissions" / "submissions.yaml"
    entries = _entries(file)
    for entry, why in _walk(problem):
        if not why:
            folder = entry.parent
            source, missing = _located(entry, problem)
            sub = KattisSubmission(entry, source, folder.name, why=missing)
            rules, settings = _rules_for(sub.name, folder.name, entries, file)
            sub.rules = tuple(rules)
            sub.language = str(settings["language"]) if "language" in settings else None
            sub.entrypoint = str(settings["entrypoint"]) if "entrypoint" in settings else None
            out.append(sub)
    return out


def case_in_scope(scope: str, group: str, name: str) -> bool:
    """Whether a test-case glob covers a case (matched by its own path or a group above it)."""
    return not scope or glob_matches(scope, f"{group}/{name}")


@dataclass
class StoredLimit:
    """A time limit verify inferred and stored in the side-car file, with the digest of what it was inferred from."""

    limit: float
    digest: str
    details: dict[str, Any] = field(default_factory=dict)


def stored_limit(root: Path) -> StoredLimit | None:
    entry = side_car(root).get("time_limit")
    if not isinstance(entry, dict) or "value" not in entry:
        return None
    try:
        return StoredLimit(float(entry["value"]), str(entry.get("inferred_from", "")), entry)
    except (TypeError, ValueError):
        raise SpecError(root / SIDE_CAR, None, f"time_limit.value: '{entry['value']}' is not a number") from None


def stored_text(root: Path, stored: StoredLimit) -> str:
    """The side-car file with ``time_limit`` set and every other key kept."""
    data = side_car(root)
    data["time_limit"] = {"value": stored.limit, "inferred_from": stored.digest, **stored.details}
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
