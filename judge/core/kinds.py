"""Problem kinds as strategies: how a submission meets a problem, chosen once from the problem's ``Kind``.

The model's ``Kind`` is data (what the package said); a ``ProblemKind`` is
what judging does about it: how a submission is taken (built, or a folder of
answer files), how one case is run (plainly, through an interactor pass by
pass, or not at all), whether the problem needs a time limit and whether
the reference solution writes the answer files. Every command asks the one
chosen here instead of testing the kind's flags itself, so a new kind is one
subclass and one ``register``.

The interactive and submit-answer code is imported inside the methods that
use it: judging a batch problem imports neither.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..lang import Language, Program, prepare_program, registry_for
from ..model import CheckerSpec, Kind, Problem
from ..run import SlotPool
from .added_to_build import added_to_build
from .case_run import CaseRun, Referee
from .evaluation import queue_evaluation
from .sample_output import sample_output
from .verdicts import CaseResult


class ProblemKind:
    """What judging does for one kind of problem; every answer here is a batch problem's, which the others refine."""

    name = ""
    answer_files = False  # the submission is a folder of answer files, never run
    needs_time_limit = True  # a run is timed, so a package without a limit must have one inferred
    answers_from_reference = True  # the reference's output on the input is the answer file
    # a program on the judge's side may decide a case while the submission still runs (an interactor rejecting first)
    decides_beside = False
    one_output = True  # a case has one output to check (not a series of passes or an exchange)

    @classmethod
    def fits(cls, kind: Kind) -> bool:
        return True

    def submission_language(self, problem: Problem, path: Path, name: str | None) -> Language:
        """The language of the submission at ``path`` (``name`` given, else detected), its tools checked."""
        registry = registry_for(problem.root)
        lang = registry.language(name) if name else registry.detect(path)
        lang.require()
        return lang

    def prepare(
        self, problem: Problem, path: Path, pool: SlotPool, lang: Language | None = None, main: str | None = None
    ) -> Program:
        """Build ``path`` (a file or a folder of sources) with the problem's languages and the files it adds."""
        return prepare_program(
            path,
            lang,
            pool,
            problem.limits.compile_time,
            main=main,
            registry=registry_for(problem.root),
            extra=added_to_build(problem, path),
        )

    def side_program(self, problem: Problem) -> tuple[CheckerSpec, str] | None:
        """The program on the judge's side that runs beside the submission, and its role in messages; None for a plain
        checker."""
        return None

    def run_case(self, run: CaseRun) -> CaseResult:
        """Run the program on the input under the problem's limits, classify how it ended, else check its output; a
        sample case keeps the start of that output whatever its verdict (what a crashing program printed first helps
        too)."""
        return self.queue_case(run)()

    def queues(self, referee: Referee) -> bool:
        """Whether ``queue_case`` may hand a case's run on while the judge still checks the one before it in the same
        slot (``judging.py`` at ``-j 1``): only when checking runs nothing in the slot, as a built-in comparison does.
        A checker program would wait for its launcher behind the queued run (in mode none they share one) and would
        compute beside it. A kind that runs a case its own way (its own ``run_case``: passes beside an interactor or a
        validator, answer files) is never queued."""
        return type(self).run_case is ProblemKind.run_case and referee.checker.in_process

    def queue_case(self, run: CaseRun) -> Callable[[], CaseResult]:
        """``run_case`` in two steps: the run is handed to the slot now, and what is returned waits for its end and
        checks it. Only for a kind and referee that ``queues`` accepts, or called at once."""
        out = run.private_file("stdout")
        ended = queue_evaluation(run, run.inp, out)

        def checked() -> CaseResult:
            result, ending = ended()
            base = dict(
                name=run.name,
                group=run.group,
                time=result.cpu,
                wall_time=result.wall,
                memory_kb=result.memory_kb,
                exit_code=result.exit_code,
                signal=result.signal_name,
                waited=result.waited,
                output=sample_output(run, out),  # read before a checker program could touch it
            )
            if ending is not None:
                return CaseResult(verdict=ending.verdict, message=ending.message, **base)
            outcome = run.referee.checker.check(run.inp, out, run.ans, run.slot, run.checker_args)
            return CaseResult.checked(outcome, **base)

        return checked


class Batch(ProblemKind):
    """A batch problem: the submission is built, runs on the input, and the checker reads its output."""

    name = "batch"


class SubmitAnswer(ProblemKind):
    """Output-only: the submission is a folder of answer files, each checked like a program's output, nothing run."""

    name = "submit-answer"
    answer_files = True
    needs_time_limit = False

    @classmethod
    def fits(cls, kind: Kind) -> bool:
        return kind.submit_answer

    def submission_language(self, problem: Problem, path: Path, name: str | None) -> Language:
        from .answers import ANSWERS

        return ANSWERS

    def prepare(
        self, problem: Problem, path: Path, pool: SlotPool, lang: Language | None = None, main: str | None = None
    ) -> Program:
        from .answers import answer_set

        return answer_set(path)

    def run_case(self, run: CaseRun) -> CaseResult:
        from .answers import check_answer

        return check_answer(run)


class MultiPass(ProblemKind):
    """Multi-pass: the submission runs again on input its validator wrote, up to ``Kind.passes`` times."""

    name = "multi-pass"
    role = "multi-pass validator"
    one_output = False

    @classmethod
    def fits(cls, kind: Kind) -> bool:
        return kind.multi_pass

    def side_program(self, problem: Problem) -> tuple[CheckerSpec, str] | None:
        return (problem.checker, self.role)

    def run_case(self, run: CaseRun) -> CaseResult:
        if run.referee.interactor is None:  # no program on the judge's side: nothing to run the passes with
            return super().run_case(run)
        from .pass_by_pass import plain_pass, run_passes

        return run_passes(run, run.referee.interactor, plain_pass, *self.passes(run.problem))

    def passes(self, problem: Problem) -> tuple[int, bool]:
        """How many passes a case may take, and whether its result names the pass that decided (a multi-pass
        problem's does, a one-pass interactive one's does not): read from the model's ``Kind`` here only."""
        return problem.kind.passes, problem.kind.multi_pass


class Interactive(MultiPass):
    """Interactive: the submission talks to the problem's interactor over pipes, in one pass or several."""

    name = "interactive"
    role = "interactor"
    decides_beside = True
    answers_from_reference = (
        False  # the reference needs the interactor's replies; the interactor reads all it needs from the input
    )

    @classmethod
    def fits(cls, kind: Kind) -> bool:
        return kind.interactive

    def side_program(self, problem: Problem) -> tuple[CheckerSpec, str] | None:
        return (problem.interactor, self.role) if problem.interactor is not None else None

    def run_case(self, run: CaseRun) -> CaseResult:
        if run.referee.interactor is None:
            return ProblemKind.run_case(self, run)
        from .pass_by_pass import interactive_pass, run_passes

        return run_passes(run, run.referee.interactor, interactive_pass, *self.passes(run.problem))


# Tried in order, the first that fits the problem's Kind wins: a submit-answer problem is never run, whatever else it
# says.
KINDS: list[ProblemKind] = [SubmitAnswer(), Interactive(), MultiPass()]
BATCH = Batch()


def register(kind: ProblemKind) -> None:
    """Let ``kind`` judge every problem its ``fits`` accepts, ahead of the kinds already known."""
    KINDS.insert(0, kind)


def kind_of(problem: Problem) -> ProblemKind:
    """The strategy for ``problem``: chosen here once, so no command tests the kind's flags."""
    return next((kind for kind in KINDS if kind.fits(problem.kind)), BATCH)
