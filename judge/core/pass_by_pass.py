"""Judging one case of an interactive or multi-pass problem: the submission and the judge's side, pass by pass.

The verdict rules are Kattis's (problemtools' runner is the reference):
- the interactor's own failure is a judge error;
- the interactor rejecting before the submission ended stands, whatever the
  submission did afterwards: it was most likely waiting for a reply that
  was never coming, then crashed on end-of-file, or it went on writing
  (problemtools' ``guess_0.cc`` guesses for ever) into its output limit or
  its time limit. Which of those it reached first is a matter of timing,
  so load would choose the verdict if any of them counted; none does
  (problemtools: the validator's WA when it exited first);
- otherwise the submission's own ending decides first (OLE, TLE, MLE,
  RE...), then the interactor's verdict.
Only the submission's time counts; each pass of a multi-pass problem has
the full limits, and the case reports its slowest pass.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ..check import CheckOutcome
from ..check.attachments import fresh_feedback
from ..check.interactor_protocols import Interactor, Judgement
from ..run import PairResult, RunResult, RunSpec, run_direct, run_relayed
from ..text import safe_text
from ..verdict import Verdict
from .case_run import CaseRun
from .evaluation import evaluate, evaluation
from .run_limits import RunBudget
from .sample_output import sample_output
from .verdicts import CaseResult, OutputExcerpt

TRANSCRIPT_BYTES = 4096


@dataclass(frozen=True)
class Pass:
    """One pass's measured run and what decided it."""

    run: RunResult
    outcome: CheckOutcome
    judgement: Judgement | None  # None when the submission's own ending decided
    transcript: str = ""
    output: OutputExcerpt | None = None  # a multi-pass sample case: what the submission printed in this pass


OnePass = Callable[
    [CaseRun, Interactor, Path, Path], "Pass"
]  # (the case, the judge's side, the feedback folder, this pass's input)


def run_passes(
    run: CaseRun, interactor: Interactor, one_pass: OnePass, passes_allowed: int, numbered: bool
) -> CaseResult:
    """The case's result: every pass until the judge's side stops asking for more, or one fails; at most
    ``passes_allowed``, each result message naming its pass when ``numbered`` (what the kind says: ``kinds.py``)."""
    slot = run.slot
    feedback = fresh_feedback(slot.private / "feedback")
    passes: list[Pass] = []
    pass_input = run.inp
    for number in range(1, passes_allowed + 1):
        done = one_pass(run, interactor, feedback, pass_input)
        passes.append(done)
        next_pass = done.judgement.next_pass if done.judgement is not None else None
        if done.outcome.verdict is not Verdict.AC or next_pass is None:
            break
        if number == passes_allowed:
            passes[-1] = replace(
                done,
                outcome=CheckOutcome(
                    Verdict.JE,
                    f"the validator asked for pass {number + 1}, over the problem's {passes_allowed} passes",
                ),
            )
            break
        pass_input = slot.private / f"pass{number + 1}.in"
        os.replace(next_pass, pass_input)
    return _result(passes, run.name, run.group, numbered)


def _result(passes: list[Pass], name: str, group: str, numbered: bool) -> CaseResult:
    last = passes[-1]
    slowest = max(passes, key=lambda p: p.run.cpu).run
    message = last.outcome.message
    if numbered:  # a one-pass interactive case needs no "pass 1:"
        message = f"pass {len(passes)}: {message}".rstrip(": ")
    return CaseResult(
        name=name,
        group=group,
        verdict=last.outcome.verdict,
        time=slowest.cpu,
        wall_time=max(p.run.wall for p in passes),
        waited=max(p.run.waited for p in passes),
        memory_kb=max(p.run.memory_kb for p in passes),
        exit_code=last.run.exit_code,
        signal=last.run.signal_name,
        message=message,
        score=last.outcome.fraction if last.outcome.verdict is Verdict.AC else last.outcome.score or 0.0,
        score_file=last.outcome.score_file,
        attachments=last.outcome.attachments,
        transcript="\n---\n".join(p.transcript for p in passes if p.transcript),
        output=last.output,  # the pass that decided; an interactive case's output is in its transcript
    )


def interactive_pass(run: CaseRun, interactor: Interactor, feedback: Path, inp: Path) -> Pass:
    """One pass of an interactive case: the submission and the interactor joined by pipes, then who decides.

    Through the relay where the case's transcript is shown (``CaseRun.transcript``), directly everywhere else: the
    relay doubles the time of a case with many exchanges (``direct_pair.py`` says what each path keeps)."""
    problem, slot = run.problem, run.slot
    side_out, side_err, record = (slot.private / n for n in ("interactor.out", "interactor.err", "record"))
    record.unlink(missing_ok=True)
    step = evaluation(run, None, side_out)  # its stdin and stdout are the pair's pipes
    side = RunSpec(
        argv=interactor.argv(inp, run.ans, feedback, record, run.checker_args),
        limits=interactor.limits,
        # its wall limit counts from the submission's end: while the submission runs, the interactor waiting on it
        # is the submission's time, bounded by the submission's own limits; a clock of its own running out first
        # (a load that stretched the submission's) made the JE of a mutual wait that is the submission's TLE
        wall_held=True,
        stdout=side_out,
        stderr=side_err,
        cwd=slot.private,
        env=slot.env,
    )

    def decided(peer: RunResult) -> bool:
        """The interactor's ending rejects (or is a judge error) whatever the submission does next: it is stopped."""
        return interactor.judge(peer, feedback, side_err).verdict is not Verdict.AC

    pair = (
        run_relayed(slot, step.spec, run.program.binds, side, TRANSCRIPT_BYTES, stop=decided)
        if run.transcript
        else run_direct(slot, step.spec, run.program.binds, side, stop=decided)
    )
    transcript = render_transcript(pair)
    judgement = interactor.judge(pair.peer, feedback, side_err)
    if judgement.verdict is Verdict.JE:
        return Pass(pair.submission, judgement.outcome, judgement, transcript)
    if judgement.verdict is not Verdict.AC and pair.peer_first:
        return Pass(_capped(pair.submission, step.limits), judgement.outcome, judgement, transcript)
    if pair.overflowed:
        return Pass(
            pair.submission,
            CheckOutcome(Verdict.OLE, step.limits.over_output()),
            None,
            transcript,
        )
    ending = step.ending(pair.submission)
    if ending is not None:
        return Pass(pair.submission, ending, None, transcript)
    if judgement.verdict is Verdict.AC and interactor.protocol == "testlib" and problem.checker.program is not None:
        return Pass(
            pair.submission,
            run.referee.checker.check(inp, record, run.ans, slot, run.checker_args),
            judgement,
            transcript,
        )
    return Pass(pair.submission, judgement.outcome, judgement, transcript)


def plain_pass(run: CaseRun, validator: Interactor, feedback: Path, inp: Path) -> Pass:
    """A multi-pass problem that is not interactive: run on the pass's input, then the validator on the output."""
    slot = run.slot
    out, side_out, side_err = (slot.private / n for n in ("stdout", "validator.out", "validator.err"))
    result, ending = evaluate(run, inp, out)
    output = sample_output(run, out)
    if ending is not None:
        return Pass(result, ending, None, output=output)
    checked = slot.run(
        RunSpec(
            argv=validator.argv(inp, run.ans, feedback, out, run.checker_args),
            limits=validator.limits,
            stdin=out,
            stdout=side_out,
            stderr=side_err,
            cwd=slot.private,
            env=slot.env,
        )
    )
    judgement = validator.judge(checked, feedback, side_err)
    return Pass(result, judgement.outcome, judgement, output=output)


def _capped(result: RunResult, limits: RunBudget) -> RunResult:
    """A rejected submission's time, at most the limit: what it did after the interactor gave up is not its speed."""
    return replace(result, cpu=min(result.cpu, limits.cpu))


def render_transcript(pair: PairResult) -> str:
    """The first exchanges as a Kattis ``.interaction`` file would show them: ``>`` the submission's lines, ``<`` the
    interactor's."""
    lines: list[str] = []
    for exchange in pair.transcript:
        mark = ">" if exchange.sender == "submission" else "<"
        text = safe_text(exchange.data.decode("utf-8", "replace"))
        lines += [f"{mark}{line}" for line in text.split("\n")[: -1 if text.endswith("\n") else None]]
    if pair.truncated:
        lines.append("… (the exchange went on)")
    return "\n".join(lines)
