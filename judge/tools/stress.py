"""Stress testing: fresh generator seeds until a submission disagrees with a reference, then shrink and save.

Generator lines are templates: ``{seed}`` becomes a fresh seed each round
and ``{size}``, when present, the size to try, which is what shrinking
lowers. Without ``--gen-args`` the templates are the spec's own generator
lines with their ``--seed`` (and ``--size``) values opened up. A failure is
saved as input + reference answer + the generator line that reproduces it,
and ``promote`` turns that line into a case of the spec's ``stress`` group,
so the test set only ever holds data the spec can regenerate.
"""

from __future__ import annotations

import random
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..core import CaseResult, CaseRun, ProblemKind, Referee, kind_of, problem_referee
from ..core.added_to_build import added_to_build
from ..core.run_limits import Role, reference_limits, submission_limits, trusted_limits
from ..core.testdata import run_trusted
from ..errors import JudgeError, SpecError, UsageError
from ..lang import Program, build_or_fail, prepare_problem_program, prepare_program
from ..model import Problem
from ..problem.formats import fastyaml, load_problem
from ..run import SlotPool
from ..verdict import Verdict

STRESS_GROUP = "stress"
MIN_SEEDS_PER_SIZE = 20
MAX_SEEDS_PER_SIZE = 2000
CONFIDENCE = 3  # tries per expected failure: about a 95% chance to see a failure that happens at the estimated rate


@dataclass(frozen=True)
class Template:
    words: tuple[str, ...]

    @property
    def sized(self) -> bool:
        return any("{size}" in w for w in self.words)

    def expand(self, seed: int, size: int) -> list[str]:
        return [w.replace("{seed}", str(seed)).replace("{size}", str(size)) for w in self.words]

    def at_size(self, size: int) -> str:
        """The line as a person reads it: the size filled in, ``{seed}`` left open."""
        return " ".join(w.replace("{size}", str(size)) for w in self.words)


@dataclass
class Failure:
    args: list[str]
    size: int
    result: CaseResult
    input: bytes
    answer: bytes
    rounds: int = 1  # rounds the search needed to find it: an estimate of how rare it is


class Refused(JudgeError):
    """The generator failed on a line: it does not accept that size (or that mode), so the line is skipped, not the
    run."""


def parse_template(line: str) -> Template:
    try:
        words = tuple(shlex.split(line))
    except ValueError as exc:
        raise UsageError(f"--gen-args: {exc}") from None
    if not any("{seed}" in w for w in words):
        raise UsageError("--gen-args must contain {seed} so every round gets fresh input")
    return Template(words)


def spec_templates(problem: Problem) -> list[Template]:
    """The spec's generator lines with the values of --seed and --size opened up as {seed} and {size}."""
    templates = []
    for case in problem.cases:
        words = list(case.generate or ())
        if "--seed" not in words[:-1]:
            continue
        for flag, hole in (("--seed", "{seed}"), ("--size", "{size}")):
            if flag in words[:-1]:
                words[words.index(flag) + 1] = hole
        if Template(tuple(words)) not in templates:
            templates.append(Template(tuple(words)))
    if not templates:
        raise UsageError(f"{problem.spec_path}: no generator line with --seed to vary; give --gen-args with {{seed}}")
    return templates


class Stresser:
    """Runs rounds in one slot: generator → reference → submission → the problem's checker."""

    def __init__(self, problem: Problem, submission: Program, reference: Program, pool: SlotPool, work: Path) -> None:
        if problem.generator is None:
            raise UsageError(f"{problem.spec_path}: stress needs a generator")
        self.problem, self.submission, self.reference, self.pool, self.work = problem, submission, reference, pool, work
        self.generator = build_or_fail(
            problem.generator,
            pool,
            problem.limits.compile_time,
            "generator",
            added_to_build(problem, problem.generator),
        )
        self.referee: Referee = problem_referee(problem, pool)
        self.kind: ProblemKind = kind_of(problem)
        self.limits = submission_limits(problem, submission.language)  # the submission's, for every round
        self.rounds = 0

    def attempt(self, args: list[str], size: int) -> Failure | None:
        """One round; a Failure when the submission is not accepted on this input."""
        inp, ans = self.work / "stress.in", self.work / "stress.ans"
        with self.pool.slot() as slot:
            try:
                run_trusted(
                    slot,
                    self.generator,
                    args,
                    None,
                    inp,
                    trusted_limits(Role.GENERATOR, self.generator),
                    f"generator {shlex.join(args)}",
                )
            except JudgeError as exc:
                raise Refused(str(exc)) from None
            self.rounds += 1  # a refused line is no round: the count estimates how rare a failure is
            if (
                not self.kind.answers_from_reference
            ):  # the interactor is the oracle: it reads all it needs from the input
                ans.write_bytes(b"")
            else:
                run_trusted(
                    slot,
                    self.reference,
                    [],
                    inp,
                    ans,
                    reference_limits(self.problem, self.reference),
                    f"reference on {shlex.join(args)}",
                )
        with self.pool.slot() as slot:
            result = self.kind.run_case(
                CaseRun(
                    self.problem, self.submission, self.referee, slot, inp, ans, "stress", STRESS_GROUP, self.limits
                )
            )
        if result.verdict is Verdict.AC:
            return None
        return Failure(args, size, result, inp.read_bytes(), ans.read_bytes())

    def search(
        self, templates: list[Template], size: int, seconds: float, log: Callable[[str], None]
    ) -> Failure | None:
        """Fresh seeds over every template at ``size`` until one fails; a template the generator refuses (a fixed-size
        mode asked for another size, say) is left out of the search, said once, as shrinking leaves out a size."""
        deadline = time.monotonic() + seconds
        seed = random.SystemRandom().randrange(1, 1 << 30)
        live = list(templates)
        while live and time.monotonic() < deadline:
            for template in list(live):
                seed += 1
                try:
                    failure = self.attempt(template.expand(seed, size), size)
                except Refused as exc:
                    live.remove(template)
                    log(f"skipped '{template.at_size(size)}' at this size: {exc}")
                    if not live:
                        raise JudgeError(
                            f"the generator refused every generator line at size {size} (see above); try another --size"
                        ) from None
                    continue
                if failure is not None:
                    failure.rounds = self.rounds
                    log(f"round {self.rounds}: {failure.result.verdict.value} on {shlex.join(failure.args)}")
                    return failure
        return None

    def shrink(
        self, templates: list[Template], failure: Failure, seconds: float, log: Callable[[str], None]
    ) -> Failure:
        """The smallest size (tried from 1 upwards) at which the same template still fails.

        A bug found after R rounds at size S is assumed to show about S/s
        times less often at size s, so size s gets CONFIDENCE·R·S/s seeds.
        """
        template = next((t for t in templates if t.sized and _matches(t, failure.args)), None)
        if template is None:
            log("the generator line has no {size}: not shrunk")
            return failure
        deadline = time.monotonic() + seconds
        seed = random.SystemRandom().randrange(1, 1 << 30)
        for size in range(1, failure.size):
            tries = min(MAX_SEEDS_PER_SIZE, max(MIN_SEEDS_PER_SIZE, CONFIDENCE * failure.rounds * failure.size // size))
            for _ in range(tries):
                if time.monotonic() > deadline:
                    log(f"shrinking stopped by its time budget at size {size}")
                    return failure
                seed += 1
                try:
                    smaller = self.attempt(template.expand(seed, size), size)
                except Refused:
                    break  # the generator does not accept this size
                if smaller is not None:
                    log(f"shrunk from size {failure.size} to {size}")
                    return smaller
        return failure


def _matches(template: Template, args: list[str]) -> bool:
    return len(template.words) == len(args) and all(w == a or "{" in w for w, a in zip(template.words, args))


def stress_folder(problem: Problem) -> Path:
    return problem.cases_dir / STRESS_GROUP


def save(problem: Problem, failure: Failure) -> str:
    """Write input, reference answer and the reproducing generator line; returns the case name."""
    folder = stress_folder(problem)
    folder.mkdir(parents=True, exist_ok=True)
    seed_words = [w for w in failure.args if w.isdigit()]
    name = f"stress-{seed_words[-1] if seed_words else int(time.time())}"
    (folder / f"{name}.in").write_bytes(failure.input)
    (folder / f"{name}.ans").write_bytes(failure.answer)
    (folder / f"{name}.gen").write_text(shlex.join(failure.args) + "\n")
    return name


def promote(problem: Problem, name: str) -> None:
    """Add the saved case to the spec's stress group (created if missing), as the generator line that makes it."""
    gen = stress_folder(problem) / f"{name}.gen"
    if not gen.is_file():
        raise UsageError(f"{gen}: no saved stress case of that name")
    if any(case.name == name for case in problem.cases):
        raise UsageError(f"{problem.spec_path}: case '{name}' is already in the spec")
    original = problem.spec_path.read_text()
    lines = original.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    document = fastyaml.compose(original)
    groups = next(v for k, v in document.value if k.value == "groups")
    stress = next(
        (g for g in groups.value if any(k.value == "name" and v.value == STRESS_GROUP for k, v in g.value)), None
    )
    line = gen.read_text().strip()
    if stress is not None:
        cases = next(v for k, v in stress.value if k.value == "cases")
        last = cases.value[-1]
        dash = _dash_column(lines, last.start_mark)
        at = last.end_mark.line if last.end_mark.column == 0 else last.end_mark.line + 1
        lines[at:at] = [f"{' ' * dash}- name: {name}\n", f"{' ' * dash}  generate: {_quote(line)}\n"]
    else:
        dash = _dash_column(lines, groups.value[-1].start_mark)
        pad = " " * dash
        lines += [
            f"{pad}- name: {STRESS_GROUP}\n",
            f"{pad}  points: 0\n",
            f"{pad}  cases:\n",
            f"{pad}    - name: {name}\n",
            f"{pad}      generate: {_quote(line)}\n",
        ]
    problem.spec_path.write_text("".join(lines))
    try:
        load_problem(problem.root)
    except SpecError:
        problem.spec_path.write_text(original)
        raise


def _dash_column(lines: list[str], mark: yaml.Mark) -> int:
    text = lines[mark.line]
    return text.rfind("-", 0, mark.column)


def _quote(text: str) -> str:
    """A YAML scalar for a generator line: plain when safe, single-quoted otherwise."""
    if yaml.safe_load(text) == text and ": " not in text and not text.startswith(("'", '"', "{", "[")):
        return text
    return "'" + text.replace("'", "''") + "'"


def prepare_reference(problem: Problem, against: Path | None, pool: SlotPool) -> Program:
    source = against or problem.solutions[0]
    if against is None:
        program = prepare_problem_program(source, pool, problem.limits.compile_time, added_to_build(problem, source))
    else:
        program = prepare_program(
            source, None, pool, problem.limits.compile_time, extra=added_to_build(problem, source)
        )
    if not program.compiled:
        raise UsageError(f"{source}: the reference does not compile")
    return program
