"""The neutral problem model: what every format is read into and every layer above the run layer works on.

Nothing here knows a file format: ``formats/native.py`` fills it from our
``problem.yaml``, ``formats/kattis.py`` from a Kattis package. A case says
where its input comes from (a file to copy, a generator line, or data the
package already holds) without naming the format that said so.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .grading import LegacyGrading
from .programfiles import ProgramFiles

SPEC_NAME = "problem.yaml"
SAMPLE_GROUP = "sample"
SAMPLE_NAME = re.compile(r"sample([-_.]?\d+)?\Z", re.IGNORECASE)


@dataclass(frozen=True)
class TimeRule:
    """How a package that states no time limit gets one: its slowest accepted run × ``ac_to_time_limit``, rounded up.

    Part of the model so that inferring the limit (judging, in the core)
    needs no format: the loader fills it in from the package's multipliers.
    ``time_limit_to_tle``: how much longer a must-time-out submission must still time out; ``tle_key`` names it as
    the package's format version does (legacy: ``time_safety_margin``), so a message points at the key to change.
    """

    ac_to_time_limit: float
    time_limit_to_tle: float
    resolution: float
    tle_key: str = "time_limit_to_tle"

    def limit_for(self, slowest_accepted: float) -> float:
        steps = max(1, math.ceil(slowest_accepted * self.ac_to_time_limit / self.resolution - 1e-9))
        return steps * self.resolution


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run; ``time`` is CPU seconds before the language factor (0: to be inferred)."""

    time: float
    memory_mib: int
    output_mib: float = 64
    wall: float | None = None
    time_factor: dict[str, float] = field(default_factory=dict)
    compile_time: float = 60.0
    default_factors: Mapping[str, float] = field(
        default_factory=dict
    )  # the language registry's, for languages the spec does not name
    time_rule: TimeRule | None = None  # how ``time`` 0 is inferred; None: the format states every limit
    checker_time: float | None = None  # CPU seconds of a checker's or interactor's run; None: from ``time``

    def factor(self, language: str) -> float:
        """The problem's own factor for a language, else the registry's default, else 1."""
        return self.time_factor.get(language, self.default_factors.get(language, 1.0))

    def time_for(self, language: str) -> float:
        """CPU limit for a language, after its factor."""
        return self.time * self.factor(language)

    def wall_for(self, language: str) -> float:
        """Wall-clock limit: generous enough for I/O, short enough that a sleeper is caught promptly."""
        cpu = self.time_for(language)
        if self.wall is not None:
            return max(self.wall * self.factor(language), cpu)
        return max(2 * cpu, cpu + 1)

    @property
    def output_bytes(self) -> int:
        return int(self.output_mib * 1024 * 1024)


@dataclass(frozen=True)
class CheckerSpec:
    """How output is compared: a checker type of ``judge.check.registry``, its options, and its program if it has one.

    Options missing here take the registry entry's defaults.
    """

    type: str = "lines"
    options: Mapping[str, Any] = field(default_factory=dict)
    program: Path | None = None


PROBLEM_TYPES = ("batch", "interactive", "multi-pass", "submit-answer")


@dataclass(frozen=True)
class Kind:
    """How a submission meets the problem: what the Kattis ``type`` key and our ``type`` key say.

    ``interactive``: the submission talks to ``Problem.interactor`` over
    pipes. ``passes`` > 1: multi-pass, the output validator may ask for up to
    this many runs, each on input it wrote (``nextpass.in``).
    ``submit_answer``: the submission is a folder of answer files, never run.
    ``scoring``: the submission earns a score (Kattis ``scoring``); our own
    format scores through group points whatever this says.
    """

    interactive: bool = False
    passes: int = 1
    submit_answer: bool = False
    scoring: bool = False

    @property
    def multi_pass(self) -> bool:
        return self.passes > 1

    @property
    def names(self) -> tuple[str, ...]:
        """The kind in words, for messages and exports."""
        words = tuple(
            w
            for w, on in (
                ("interactive", self.interactive),
                ("multi-pass", self.multi_pass),
                ("submit-answer", self.submit_answer),
                ("scoring", self.scoring),
            )
            if on
        )
        return words or ("batch",)


@dataclass(frozen=True)
class FromFile:
    """Input copied from a hand-written file of the package; the answer comes from the reference solution."""

    path: Path


@dataclass(frozen=True)
class Generated:
    """Input written by the problem's generator with these arguments; the answer comes from the reference solution."""

    args: tuple[str, ...]


@dataclass(frozen=True)
class Given:
    """Input and answer the package already holds where it keeps them: used in place, never produced."""

    input: Path
    answer: Path


CaseOrigin = FromFile | Generated | Given


@dataclass(frozen=True)
class CaseSpec:
    """One test case: its name, group, where its data comes from, and extra arguments for the programs that read it.

    ``source`` is the package's own words for the origin (relative path or
    generator line), as recorded in the manifest: a change of words means the
    case must be produced again.
    """

    name: str
    group: str
    origin: CaseOrigin
    source: str = ""
    checker_args: tuple[str, ...] = ()
    validator_args: tuple[str, ...] = ()
    # input validator arguments by validator name (a Kattis mapping of names to arguments): a validator it leaves out
    # gets none of them; None when the arguments are one list for every validator
    validator_args_named: tuple[tuple[str, tuple[str, ...]], ...] | None = None

    def validator_args_for(self, name: str) -> tuple[str, ...]:
        """The arguments the input validator called ``name`` gets on this case."""
        if self.validator_args_named is None:
            return self.validator_args
        return dict(self.validator_args_named).get(name, ()) + self.validator_args

    @property
    def key(self) -> str:
        return f"{self.group}/{self.name}"

    @property
    def is_sample(self) -> bool:
        """A case whose data the contestant has: one of the ``sample`` group (Kattis' data/sample and the folders under
        it), or one named ``sample`` or ``sample-N`` in a group of its own kind (a small package's first case). The
        one rule for what the service may show a student and for whose output the judge keeps an excerpt."""
        group = self.group.lower()
        return group == SAMPLE_GROUP or group.startswith(SAMPLE_GROUP + "/") or SAMPLE_NAME.match(self.name) is not None

    @property
    def generate(self) -> tuple[str, ...] | None:
        """The generator arguments, when the case is generated."""
        return self.origin.args if isinstance(self.origin, Generated) else None

    @property
    def given(self) -> Given | None:
        """The package's own data, when the case is not produced by this judge."""
        return self.origin if isinstance(self.origin, Given) else None


@dataclass(frozen=True)
class Group:
    """``aggregation`` "min": the points scaled by the weakest case (all or nothing for plain verdicts); "sum": each
    case earns its share.

    A Kattis scoring group (``score_rule`` set: "2025-09", "2023-07-draft" or
    "legacy") counts in points, not fractions: an accepted case earns
    ``case_points`` (or what its validator reports), a rejected one
    ``reject_points``; ``aggregation`` may also be "pass-fail", "max" or
    "avg"; an ``unbounded`` group has no maximum (``points`` 0) and its cases
    must report a ``score.txt``; ``require_pass`` names the groups (or
    ``sample``) that must pass for this one to be scored; ``score_range``
    bounds the group's score; ``stop_at_reject`` (legacy ``on_reject: break``)
    counts the cases only up to the first one not accepted, as a judge that
    stops there would. Our own format leaves all of these at their defaults.
    """

    name: str
    points: float
    cases: tuple[CaseSpec, ...]
    aggregation: str = "min"
    score_rule: str = ""
    case_points: float = 0.0
    reject_points: float = 0.0
    unbounded: bool = False
    require_pass: tuple[str, ...] = ()
    score_range: tuple[float, float] | None = None
    stop_at_reject: bool = False


@dataclass(frozen=True)
class Problem:
    """A validated problem package, whatever its format. Paths are absolute."""

    name: str
    root: Path
    title: str
    source: str
    statement: Path
    limits: Limits
    checker: CheckerSpec
    generator: Path | None
    validators: tuple[Path, ...]
    solutions: tuple[Path, ...]
    groups: tuple[Group, ...]
    cases_dir: Path
    # "native" or "kattis": which submissions verify judges and with which rules (the tools read it, never the core)
    package_format: str = "native"
    # a submission starts in its own folder with what the package added (Kattis), not an empty scratch
    runs_among_own_files: bool = False
    kind: Kind = Kind()
    # the program on the judge's side of an interactive problem: its protocol is its checker type ("kattis" or
    # "testlib")
    interactor: CheckerSpec | None = None
    files: ProgramFiles = ProgramFiles()  # include/, libraries, constants, validator protocols: see programfiles.py
    # a language the package's world runs with another entry of the registry where installed (Kattis: python3 is
    # pypy3); applied by judge.core.runs_as
    runs_as: Mapping[str, str] = field(default_factory=dict)
    # a legacy Kattis scoring package's folders and graders: the verdict and score its format gives (grading.py)
    legacy_grading: LegacyGrading | None = None

    @property
    def cases(self) -> list[CaseSpec]:
        return [case for group in self.groups for case in group.cases]

    @property
    def max_score(self) -> float:
        """The full score the package states (a legacy ``range``), else what every group's points add up to."""
        stated = self.legacy_grading.full_score if self.legacy_grading is not None else None
        return stated if stated is not None else sum(group.points for group in self.groups)

    @property
    def spec_path(self) -> Path:
        return self.root / SPEC_NAME

    @property
    def folders(self) -> tuple[Path, ...]:
        """The package and its test data: what a submission must never see."""
        return (self.root, self.cases_dir)

    @property
    def submissions_root(self) -> Path:
        return self.root / "submissions"


def cases_dir_for(root: Path) -> Path:
    """Where a problem's generated cases live.

    A problem at ``X/problems/P`` keeps its data in ``X/cases/P`` so that the
    bulky data sits apart from the package; any other folder keeps it inside.
    """
    if root.parent.name == "problems":
        return root.parent.parent / "cases" / root.name
    return root / "cases"


def input_path(problem: Problem, case: CaseSpec, root: Path | None = None) -> Path:
    """Where a case's input is: the package's own file, or ``<cases>/<group>/<name>.in`` (under ``root`` when producing
    elsewhere)."""
    given = case.given
    if given is not None and root is None:
        return given.input
    return (root or problem.cases_dir) / case.group / f"{case.name}.in"


def answer_path(problem: Problem, case: CaseSpec, root: Path | None = None) -> Path:
    """Where a case's answer is, like ``input_path``."""
    given = case.given
    if given is not None and root is None:
        return given.answer
    return (root or problem.cases_dir) / case.group / f"{case.name}.ans"
