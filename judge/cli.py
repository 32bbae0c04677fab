"""Command line: parse arguments, call the modules, print, and map outcomes to exit codes.

Exit codes: 0 every case accepted (or the command succeeded); 1 judged and
not accepted (or a check found problems); 2 bad usage, bad problem spec,
missing files; 3 judge error (a checker crashed, the judge itself failed).
"""
from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Sequence

from . import kattis
from . import report as reports
from . import testdata
from .errors import EXIT_ACCEPTED, EXIT_JUDGE_ERROR, EXIT_REJECTED, JudgeError, SpecError, UsageError
from .run import SlotPool
from .judging import JudgeOptions, judge
from .languages import LANGUAGES, Program, detect, from_command, language, prepare_program
from .progress import Progress
from .run import ENV_MODE, MODES, resolve_sandbox
from .spec import SPEC_NAME, Problem, load_problem, resolve_problem
from .verdicts import Verdict

# Modules only one command needs (grading, reports, stress, verify, benchmark) are imported inside that
# command: every judge run pays for what it imports, and start-up is a measured target.

REPO = Path(__file__).resolve().parent.parent
PROBLEMS = REPO / "problems"

EPILOG = """exit codes:
  0  every case accepted (for generate/validate/verify: all good)
  1  judged, not accepted (for generate --check/validate/verify: differences found)
  2  bad usage, bad problem spec, missing files, unknown language
  3  judge error (a checker crashed, a reference failed, the judge itself failed)
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="run_judge.py", description="Judge programs against problem packages.", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("list", help="bundled problems with title, limits and case count")

    def with_problem(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
        p.add_argument("problem", help="name under problems/ or path to a problem folder")
        p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="parallel runs (default: number of CPUs)")
        p.add_argument("--sandbox", choices=MODES, help=f"isolation of submissions (default: ${ENV_MODE} or auto)")
        return p

    j = with_problem("judge", "judge one submission on every case")
    j.add_argument("submission", nargs="?", help="source file (.c .cpp .cc .cxx .py .java) or executable")
    j.add_argument("--cmd", help="judge this command line instead of a file, e.g. \"pypy3 sol.py\"")
    j.add_argument("--lang", help="language, overriding detection: " + ", ".join(LANGUAGES))
    j.add_argument("--json", type=Path, help="write the full report as JSON to this file")
    j.add_argument("--first-fail", action="store_true", help="stop at the first failing case (ICPC style)")
    g = with_problem("generate", "regenerate every case from the spec")
    g.add_argument("--check", action="store_true", help="regenerate into a temporary folder and compare sha256 with what is there")
    with_problem("validate", "run the input validator on every case")
    with_problem("verify", "full self-check of a problem package")
    gr = with_problem("grade", "judge a folder of submissions (one per file or subfolder), resumable, with reports")
    gr.add_argument("submissions", type=Path, help="folder: each file, or each subfolder with one source file, is one student")
    gr.add_argument("--out", type=Path, required=True, help="results folder: results.sqlite and the reports")
    gr.add_argument("--rejudge", action="store_true", help="judge every submission again, even if a stored result matches")
    gr.add_argument("--cluster", metavar="ADDRESS", help="judge on a Dask cluster, e.g. tcp://HOST:8786 (needs requirements-cluster.txt)")
    st = with_problem("stress", "fresh generator seeds until SUBMISSION disagrees with the reference; shrink and save the case")
    st.add_argument("submission", type=Path)
    st.add_argument("--against", type=Path, help="reference program (default: the spec's first solution)")
    st.add_argument("--gen-args", help="generator arguments with {seed} (and {size} to shrink), e.g. \"random --size {size} --seed {seed}\"")
    st.add_argument("--size", type=int, default=10, help="value of {size} while searching (default 10)")
    st.add_argument("--seconds", type=float, default=60, help="search budget (default 60); shrinking gets the same again")
    pr = with_problem("promote", "add a case found by stress to the spec's 'stress' group")
    pr.add_argument("case", help="the saved case's name, e.g. stress-123456")
    ex = with_problem("export", "write a problem as a package in another format")
    ex.add_argument("--format", choices=["kattis"], default="kattis", help="package format (kattis: the 2025-09 specification)")
    ex.add_argument("out", type=Path, help="a new or empty folder")
    bp = sub.add_parser("bench", help="measure the judge against the C floor, a shell loop and peers (prints figures, never fails on timing)")
    bp.add_argument("problem", nargs="?", default="poj2893", help="a problem with a bench.yaml (default: poj2893)")
    bp.add_argument("--quick", action="store_true", help="fewer rounds and cases")
    bp.add_argument("--rounds", type=int, help="interleaved rounds per comparison (default 5, 3 with --quick)")
    bp.add_argument("--peers", action="store_true", help="also install and time online-judge-tools in a throw-away venv")
    bp.add_argument("--json", type=Path, help="write every figure as JSON")
    bp.add_argument("--markdown", type=Path, help="write the figures as Markdown (docs/benchmarks.md)")
    rp = sub.add_parser("report", help="rewrite the reports of a results folder from its database")
    rp.add_argument("results", type=Path, help="a folder written by grade --out")
    return parser


def _shown(path: Path) -> str:
    """A path as the user would type it: relative below the current folder, absolute elsewhere."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _load(arg: str) -> Problem:
    """Our own package or a Kattis one: both become the same Problem model."""
    root = resolve_problem(arg, PROBLEMS)
    if kattis.is_kattis(root):
        return kattis.load_kattis(root, _shown(root))
    return load_problem(root, _shown(root))


def _ready(problem: Problem, pool: SlotPool) -> Problem:
    """Cases generated, and for a Kattis package without an explicit time limit, the limit inferred."""
    _ensure_cases(problem, pool)
    return kattis.infer_time_limit(problem, pool, lambda line: print(line, file=sys.stderr))


def _pool(args: argparse.Namespace) -> SlotPool:
    isolation, warning = resolve_sandbox(args.sandbox)
    if warning:
        print(warning, file=sys.stderr)
    return SlotPool(args.jobs, isolation)


def _ensure_cases(problem: Problem, pool: SlotPool) -> None:
    todo = testdata.missing_cases(problem)
    if todo:
        print(f"generating {len(todo)} missing case(s) of {problem.name}…", file=sys.stderr)
        with Progress(len(todo), "generating") as bar:
            testdata.ensure(problem, pool, bar.advance)


def cmd_list(_: argparse.Namespace) -> int:
    rows = []
    for root in sorted(p.parent for p in PROBLEMS.glob(f"*/{SPEC_NAME}")):
        problem = load_problem(root, _shown(root))
        lim = problem.limits
        rows.append([problem.name, problem.title, f"{lim.time:g}s", f"{lim.memory_mib} MiB", str(len(problem.cases)), problem.source])
    print(reports.table(rows, ["problem", "title", "time", "memory", "cases", "source"]) if rows else "no problems under problems/")
    return EXIT_ACCEPTED


def _submission(args: argparse.Namespace, problem: Problem, pool: SlotPool) -> Program:
    if args.cmd and args.submission:
        raise UsageError("give either a SUBMISSION file or --cmd, not both")
    if args.cmd:
        return from_command(args.cmd)
    if not args.submission:
        raise UsageError("judge needs a SUBMISSION file or --cmd")
    path = Path(args.submission)
    if not path.is_file():
        raise UsageError(f"{args.submission}: no such file")
    lang = language(args.lang) if args.lang else detect(path)
    return prepare_program(path.resolve(), lang, pool, problem.limits.compile_time)


def cmd_judge(args: argparse.Namespace) -> int:
    problem = _load(args.problem)
    if args.lang:
        language(args.lang)
    with _pool(args) as pool:
        program = _submission(args, problem, pool)
        problem = _ready(problem, pool)
        with Progress(len(problem.cases), "judging") as bar:
            result = judge(problem, program, pool, JudgeOptions(first_fail=args.first_fail), bar.advance)
    if result.cases:
        print(reports.case_table(result))
    print(reports.summary(result))
    if args.json:
        reports.write_json(result, args.json)
    if result.verdict is Verdict.AC:
        return EXIT_ACCEPTED
    return EXIT_JUDGE_ERROR if result.verdict is Verdict.JE else EXIT_REJECTED


def cmd_generate(args: argparse.Namespace) -> int:
    problem = _load(args.problem)
    with _pool(args) as pool, Progress(len(problem.cases), "generating") as bar:
        if args.check:
            differences = testdata.check(problem, pool, bar.advance)
            bar.close()
            for line in differences:
                print(line)
            print(f"{problem.name}: {len(problem.cases) - len({d.split()[0] for d in differences})}/{len(problem.cases)} cases reproduce bit for bit")
            return EXIT_REJECTED if differences else EXIT_ACCEPTED
        testdata.generate(problem, pool, bar.advance)
    print(f"{problem.name}: generated {len(problem.cases)} cases into {_shown(problem.cases_dir)}")
    return EXIT_ACCEPTED


def cmd_validate(args: argparse.Namespace) -> int:
    problem = _load(args.problem)
    with _pool(args) as pool:
        _ensure_cases(problem, pool)
        with Progress(len(problem.cases), "validating") as bar:
            failures = testdata.validate(problem, pool, bar.advance)
    for line in failures:
        print(line)
    print(f"{problem.name}: {len(problem.cases) - len(failures)}/{len(problem.cases)} inputs valid")
    return EXIT_REJECTED if failures else EXIT_ACCEPTED


def cmd_verify(args: argparse.Namespace) -> int:
    from .verify import Outcome, slowest_accepted, verify

    problem = _load(args.problem)
    print(f"{problem.name}: spec ok ({len(problem.groups)} groups, {len(problem.cases)} cases, max score {problem.max_score:g})")

    def show(o: Outcome) -> None:
        slowest = max((c.time for c in o.report.cases), default=0.0)
        mark = "ok" if o.ok else "FAIL"
        name = f"{o.path.parent.name}/{o.path.name}"
        print(f"  {mark:4}  {name:44} expected {o.expected.label:3}  got {o.report.verdict.value:3}  slowest {slowest:.3f}s", flush=True)

    with _pool(args) as pool:
        problem = _ready(problem, pool)
        result = verify(problem, pool, show)
    for line in result.invalid_inputs:
        print(f"  invalid input: {line}")
    for lang, (time, path) in sorted(slowest_accepted(problem, result.outcomes).items()):
        limit = problem.limits.time_for(lang)
        print(f"  time: {lang:8} slowest accepted {time:.3f}s ({path.name}) of {limit:g}s limit, margin {limit / max(time, 1e-3):.1f}x")
    for line in result.warnings:
        print(f"  warning: {line}")
    bad = [o for o in result.outcomes if not o.ok]
    print(f"{problem.name}: {'verified' if result.ok else 'NOT verified'}: {len(result.outcomes) - len(bad)}/{len(result.outcomes)} submissions as expected, "
          f"{len(problem.cases) - len(result.invalid_inputs)}/{len(problem.cases)} inputs valid")
    return EXIT_ACCEPTED if result.ok else EXIT_REJECTED


def cmd_grade(args: argparse.Namespace) -> int:
    from . import grade_reports
    from .grading import discover, grade
    from .store import Store

    problem = _load(args.problem)
    with _pool(args) as pool:
        problem = _ready(problem, pool)
        isolation = pool.isolation
    total = len(discover(args.submissions))
    with Store(args.out) as store, Progress(total, "grading", unit="sub") as bar:
        counts: dict[str, int] = {}

        def advance(student: str, report: dict[str, object]) -> None:
            verdict = str(report["verdict"])
            counts[verdict] = counts.get(verdict, 0) + 1
            bar.set_postfix(" ".join(f"{v}:{n}" for v, n in sorted(counts.items())))
            bar.advance()

        result = grade(problem, args.submissions, store, isolation, args.jobs, args.rejudge, advance, args.cluster)
        bar.close()
        paths = grade_reports.write_all(store, args.out)
        data = grade_reports.rows(store)
    print(f"judged {result.judged}, reused {result.reused} stored result(s)")
    print(grade_reports.terminal_summary(data))
    print("reports: " + ", ".join(_shown(p) for p in paths))
    return EXIT_ACCEPTED


def cmd_report(args: argparse.Namespace) -> int:
    from . import grade_reports
    from .store import DB_NAME, Store

    if not (args.results / DB_NAME).is_file():
        raise UsageError(f"{args.results}: no {DB_NAME} here (write one with grade --out)")
    with Store(args.results) as store:
        paths = grade_reports.write_all(store, args.results)
        print(grade_reports.terminal_summary(grade_reports.rows(store)))
    print("reports: " + ", ".join(_shown(p) for p in paths))
    return EXIT_ACCEPTED


def cmd_stress(args: argparse.Namespace) -> int:
    from . import stress

    problem = _load(args.problem)
    if not args.submission.is_file():
        raise UsageError(f"{args.submission}: no such file")
    if args.size < 1 or args.seconds <= 0:
        raise UsageError("--size must be at least 1 and --seconds positive")
    templates = [stress.parse_template(args.gen_args)] if args.gen_args else stress.spec_templates(problem)
    with _pool(args) as pool, tempfile.TemporaryDirectory(prefix="stress-") as work:
        program = prepare_program(args.submission.resolve(), None, pool, problem.limits.compile_time)
        if not program.compiled:
            print(f"CE: {program.compile_log.splitlines()[0] if program.compile_log else ''}")
            return EXIT_REJECTED
        stresser = stress.Stresser(problem, program, stress.prepare_reference(problem, args.against, pool), pool, Path(work))
        log = lambda line: print(line, flush=True)
        failure = stresser.search(templates, args.size, args.seconds, log)
        if failure is None:
            print(f"no difference found in {stresser.rounds} rounds ({args.seconds:g} s)")
            return EXIT_ACCEPTED
        failure = stresser.shrink(templates, failure, args.seconds, log)
        name = stress.save(problem, failure)
    generator = _shown(problem.generator) if problem.generator else "generator"
    print(f"{failure.result.verdict.value} ({failure.result.verdict.meaning}): {failure.result.message}")
    print(f"saved as {_shown(stress.stress_folder(problem) / name)}.in/.ans (size {failure.size})")
    print(f"reproduce: {generator} {shlex.join(failure.args)}")
    print(f"add it to the test set: python run_judge.py promote {args.problem} {name}")
    return EXIT_REJECTED


def cmd_promote(args: argparse.Namespace) -> int:
    from . import stress

    problem = _load(args.problem)
    stress.promote(problem, args.case)
    problem = _load(args.problem)
    with _pool(args) as pool:
        _ensure_cases(problem, pool)
    print(f"{problem.name}: case {args.case} added to group '{stress.STRESS_GROUP}' of {_shown(problem.spec_path)}")
    return EXIT_ACCEPTED


def cmd_export(args: argparse.Namespace) -> int:
    problem = _load(args.problem)
    with _pool(args) as pool:
        problem = _ready(problem, pool)
    kattis.export(problem, args.out, print)
    print(f"{problem.name}: exported as a Kattis 2025-09 package into {_shown(args.out)}")
    return EXIT_ACCEPTED


def cmd_bench(args: argparse.Namespace) -> int:
    from .benchmark import run

    rounds = args.rounds or (3 if args.quick else 5)
    if rounds < 1:
        raise UsageError("--rounds must be at least 1")
    run(resolve_problem(args.problem, PROBLEMS), rounds, args.quick, args.peers, args.json, args.markdown)
    return EXIT_ACCEPTED


COMMANDS = {"export": cmd_export, "stress": cmd_stress, "promote": cmd_promote, "bench": cmd_bench, "grade": cmd_grade, "report": cmd_report, "list": cmd_list, "judge": cmd_judge, "generate": cmd_generate, "validate": cmd_validate, "verify": cmd_verify}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        if getattr(args, "jobs", 1) < 1:
            raise UsageError("-j must be at least 1")
        return COMMANDS[args.command](args)
    except SpecError as exc:  # already "file:line: message", the form editors and CI logs link to
        print(exc, file=sys.stderr)
        return exc.exit_code
    except JudgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # the reader went away (| head): nothing left to say to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_REJECTED
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug in the judge: one line, the traceback only on request
        if os.environ.get("TILEJUDGE_DEBUG"):
            traceback.print_exc()
        print(f"judge error: {type(exc).__name__}: {exc} (set TILEJUDGE_DEBUG=1 for the traceback)", file=sys.stderr)
        return EXIT_JUDGE_ERROR
