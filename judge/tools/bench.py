"""``run_judge.py bench``: the judge measured against the physical floor and against peers, side by side.

Machines here are shared and noisy, so every comparison is made in one run,
interleaved (A B C A B C …) over several rounds, and reported as median and
min–max with the ratio to the floor: a small C harness that does nothing but
posix_spawn, wait and memcmp. Benchmarks print figures; they never fail.

Which inputs to build comes from the problem's ``bench.yaml`` (generator lines
for tiny and large cases), so this module knows nothing about any problem.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import yaml

from ..core import judge
from ..core.data_lock import producing
from ..core.testdata import check, ensure, generate
from ..errors import UsageError
from ..lang import Program, prepare_problem_program, prepare_program
from ..model import Problem, input_path
from ..problem.formats import fastyaml, load_problem
from ..run import Isolation, RunLimits, RunSpec, SlotPool, bwrap_works
from ..text import table
from . import bench_startup
from .bench_grading import failing_class, grading_throughput
from .bench_interactive import relay_cost
from .bench_limits import compile_c, memory_accuracy, tle_latency
from .bench_markdown import to_markdown
from .bench_plan import ESTIMATES, Plan
from .bench_scaling import grading_scale
from .bench_series import interleave, timed
from .peers import install_oj, record_other_peers

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Bench:
    """One benchmark session: a scratch folder, the problem, and the figures gathered so far."""

    problem: Problem
    work: Path
    rounds: int
    quick: bool
    figures: dict[str, Any] = field(default_factory=dict)
    log: Callable[[str], None] = partial(print, flush=True)  # seen as it comes, on a pipe too (| tee)

    def modes(self) -> list[str]:
        modes = ["none", "rlimits"]
        if bwrap_works() is None:
            modes.append("bwrap")
        return modes

    def derived_problem(self, name: str, generate_line: str, count: int) -> Problem:
        """A copy of the problem whose only group is ``count`` cases from one generator line."""
        root = self.work / "problems" / name
        shutil.copytree(self.problem.root, root, ignore=shutil.ignore_patterns("cases"))
        spec = fastyaml.safe_load((self.problem.root / "problem.yaml").read_text())
        # folders the spec names from outside the problem's own (``../_lib/python``) stay where they are: by their
        # absolute paths, as the copy lives elsewhere
        files = self.problem.files
        if files.libraries:
            spec["libraries"] = [str(folder) for folder in files.libraries]
        if files.include is not None and "include" in spec:
            spec["include"] = str(files.include)
        spec["groups"] = [
            {
                "name": "all",
                "points": 100,
                "cases": [{"name": f"c{i:03d}", "generate": generate_line.format(seed=i + 1)} for i in range(count)],
            }
        ]
        (root / "problem.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
        problem = load_problem(root)
        with SlotPool(os.cpu_count() or 1, Isolation("none")) as pool:
            generate(problem, pool)
        return problem

    def compare_on(self, label: str, problem: Problem, program: Program, peers: bool) -> None:
        """Floors, our modes with -j 1 and -j 2, and (with --peers) oj, interleaved."""
        binary = Path(program.command(problem.limits.memory_mib)[0])
        pairs = self.work / f"{label}.list"
        pairs.write_text(
            "".join(f"{input_path(problem, c)}\t{input_path(problem, c).with_suffix('.ans')}\n" for c in problem.cases)
        )
        harness = compile_c("floor", self.work)
        out = self.work / "floor.out"
        cases_dir = input_path(problem, problem.cases[0]).parent
        loop = (
            f'for f in {cases_dir}/*.in; do {binary} < "$f" > {out}; cmp -s {out} "${{f%.in}}.ans" || echo WRONG; done'
        )
        contenders: dict[str, Callable[[], float]] = {
            "C floor (posix_spawn)": lambda: timed(
                lambda: subprocess.run(
                    [str(harness), str(binary), str(pairs), str(out)], check=True, capture_output=True
                )
            ),
            "shell loop": lambda: timed(lambda: subprocess.run(["bash", "-c", loop], check=True, capture_output=True)),
        }
        for mode in self.modes():
            for jobs in (1, 2):
                contenders[f"ours {mode} -j{jobs}"] = self._ours(problem, program, Isolation(mode), jobs)
        contenders["ours none -j1, no control groups"] = self._ours(
            problem, program, Isolation("none", cgroups=None), 1
        )
        contenders["ours CLI none -j1 (with start-up)"] = lambda: timed(
            lambda: subprocess.run(
                [
                    sys.executable,
                    str(REPO / "run_judge.py"),
                    "judge",
                    str(problem.root),
                    str(binary),
                    "--sandbox",
                    "none",
                    "-j",
                    "1",
                ],
                check=True,
                capture_output=True,
            )
        )
        if peers:
            oj = self._oj_contender(problem, binary)
            if oj is not None:
                contenders["online-judge-tools (oj test)"] = oj
        results = interleave(contenders, self.rounds)
        self.figures[label] = {name: s.to_json() for name, s in results.items()}
        floor = results["C floor (posix_spawn)"].median
        rows = [
            [
                name,
                f"{s.median * 1000:.0f} ms",
                f"{min(s.samples) * 1000:.0f}–{max(s.samples) * 1000:.0f}",
                f"{s.median / floor:.2f}×",
            ]
            for name, s in results.items()
        ]
        self.log(
            f"\n{label}: {len(problem.cases)} cases, {self.rounds} rounds interleaved\n"
            + table(rows, ["contender", "median", "min–max", "vs floor"])
        )

    def _ours(self, problem: Problem, program: Program, isolation: Isolation, jobs: int) -> Callable[[], float]:
        def measure() -> float:
            start = time.perf_counter()
            with SlotPool(jobs, isolation, conceal=problem.folders) as pool:
                report = judge(problem, program, pool)
            elapsed = time.perf_counter() - start
            if report.verdict.value != "AC":
                raise RuntimeError(f"benchmark solution not accepted under {isolation.mode}: {report.verdict.value}")
            return elapsed

        return measure

    def _oj_contender(self, problem: Problem, binary: Path) -> Callable[[], float] | None:
        """online-judge-tools timing the same cases, installed in a throw-away venv (``peers.py``)."""
        venv = self.work / "peers"
        oj = install_oj(venv, self.figures.setdefault("peers", {}), self.log)
        if oj is None:
            return None
        record_other_peers(venv, self.figures["peers"])
        tests = self.work / f"oj-{problem.name}"
        tests.mkdir(exist_ok=True)
        for case in problem.cases:
            shutil.copy(input_path(problem, case), tests / f"{case.name}.in")
            shutil.copy(input_path(problem, case).with_suffix(".ans"), tests / f"{case.name}.out")
        command = [str(oj), "test", "-c", str(binary), "-d", str(tests), "--tle", "10"]
        return lambda: timed(lambda: subprocess.run(command, capture_output=True, cwd=self.work))

    def startup(self, program: Program, problem: Problem) -> None:
        """``--version``, ``list`` and judging a 1-case problem with a ready binary, as ratios to bare interpreters.

        Three times the rounds of the comparisons (one process start is a noisy figure): 15 by default, 9 with
        ``--quick``, and 3 for ``--rounds 1``, which asks for the quickest figures (it was at least 10 whatever was
        asked, 80 process starts for the suite's check of the report)."""
        figures = bench_startup.measure(problem, program.command(problem.limits.memory_mib)[0], 3 * self.rounds)
        self.figures["startup"] = figures
        rows = [
            [
                name,
                f"{s['median'] * 1000:.1f} ms",
                f"{s['min'] * 1000:.1f} ms",
                *(f"{s['ratios'][b]:.2f}×" if b in s["ratios"] else "-" for b in bench_startup.BASELINES),
                bench_startup.goal_text(s),
            ]
            for name, s in figures["rows"].items()
        ]
        self.log(
            f"\nstart-up ({figures['judge']}, {figures['interpreter']}):\n"
            + table(
                rows,
                [
                    "command",
                    "median",
                    "min",
                    *(f"vs {b}" for b in bench_startup.BASELINES),
                    f"goal (vs {bench_startup.GOAL_BASELINE})",
                ],
            )
            + f"\nfloor: -c 'import {figures['floor']}'"
        )

    def test_data(self, names: list[str]) -> None:
        rows, data = [], {}
        for name in names:
            problem = load_problem(REPO / "problems" / name)
            with SlotPool(os.cpu_count() or 1, Isolation("none")) as pool:
                regen = timed(partial(check, problem, pool))
                with producing(problem):  # `check` regenerates into a folder of its own: the largest input is read
                    ensure(problem, pool)  # from the problem's cases, made here where a fresh checkout lacks them
                largest = max(problem.cases, key=lambda c: input_path(problem, c).stat().st_size)
                times = {}
                for solution in problem.solutions:
                    program = prepare_problem_program(solution, pool, 60)
                    with pool.slot() as slot:
                        result = slot.run(
                            RunSpec(
                                argv=program.command(problem.limits.memory_mib),
                                stdin=input_path(problem, largest),
                                limits=RunLimits(cpu=60, wall=120, memory_mib=None, output_bytes=64 << 20),
                                stdout=slot.private / "o",
                                stderr=slot.private / "e",
                                cwd=slot.private,
                            )
                        )
                    times[program.language.name] = result.cpu
            data[name] = {"regenerate_all_s": regen, "largest_case": largest.key, "reference_cpu_s": times}
            rows.append([name, f"{regen:.1f} s", largest.key, ", ".join(f"{k} {v:.3f} s" for k, v in times.items())])
        self.figures["test_data"] = data
        self.log(
            "\ntest-data work:\n"
            + table(rows, ["problem", "regenerate all (+check)", "largest case", "reference CPU time"])
        )


def _solution(problem_root: Path, config: dict[str, Any]) -> Program:
    """The bench.yaml's solution, built by the judge: the program the comparisons and the start-up times run."""
    with SlotPool(1, Isolation("none")) as pool:
        return prepare_program((problem_root / config["solution"]).resolve(), None, pool, 120)


def _cases(config: dict[str, Any], row: str, quick: bool) -> int:
    """How many cases a comparison row ("tiny" or "large") judges: bench.yaml's count, but 2 large ones with
    ``--quick``."""
    return 2 if quick and row == "large" else int(config[row]["cases"])


def run(
    problem_root: Path,
    rounds: int,
    quick: bool,
    peers: bool,
    json_path: Path | None,
    markdown: Path | None,
    startup_only: bool = False,
    scaling_only: tuple[int, ...] = (),
    judge_up_to: int | None = None,
    only: str | None = None,
) -> dict[str, Any]:
    """Run every measurement (or only start-up, or only one comparison: ``only`` is "tiny" or "large") and return
    the figures; nothing here can fail a build on timing."""
    config_path = problem_root / "bench.yaml"
    if not config_path.is_file():
        raise UsageError(f"{config_path}: this problem has no bench.yaml (see docs/problem-format.md)")
    config = fastyaml.safe_load(config_path.read_text())
    problem = load_problem(problem_root)
    work = Path(tempfile.mkdtemp(prefix="tilejudge-bench-"))
    bench = Bench(problem, work, rounds, quick)
    machine = {
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "processor": _cpu_model(),
    }
    bench.figures["machine"] = machine
    bench.figures["command"] = " ".join(["python", "run_judge.py", "bench", *sys.argv[2:]])
    bench.log(f"machine: {machine['processor']}, {machine['cpus']} CPUs, {machine['platform']}")
    try:
        if scaling_only:
            grading_scale(bench, scaling_only, judge_up_to)
            return _written(bench.figures, json_path, None)
        if startup_only:
            program = _solution(problem_root, config)
            bench.startup(program, bench.derived_problem("one", config["tiny"]["generate"], 1))
            return _written(bench.figures, json_path, None)
        if only:  # one row alone, for those who work on it: the rest of --quick takes minutes
            derived = bench.derived_problem(only, config[only]["generate"], _cases(config, only, quick))
            program = _solution(problem_root, config)
            bench.compare_on(f"{only} cases", derived, program, peers)
            return _written(bench.figures, json_path, None)
        plan = Plan(list(ESTIMATES), quick, peers, bench.log)  # each section announced as it starts
        with plan.section("test data for the comparisons"):
            tiny = bench.derived_problem("tiny", config["tiny"]["generate"], _cases(config, "tiny", quick))
            large = bench.derived_problem("large", config["large"]["generate"], _cases(config, "large", quick))
            one = bench.derived_problem("one", config["tiny"]["generate"], 1)
            program = _solution(problem_root, config)
        with plan.section("tiny cases"):
            bench.compare_on("tiny cases", tiny, program, peers)
        with plan.section("large cases"):
            bench.compare_on("large cases", large, program, peers)
        with plan.section("start-up"):
            bench.startup(program, one)
        with plan.section("TLE latency"):
            tle_latency(bench, one)
        with plan.section("interactive relay"):
            relay_cost(bench, compile_c)
        with plan.section("memory accuracy"):
            memory_accuracy(bench)
        with plan.section("test-data work"):
            bench.test_data(
                [problem.name] if quick else sorted(p.parent.name for p in (REPO / "problems").glob("*/problem.yaml"))
            )
        with plan.section("grading throughput"):
            grading_throughput(bench)
        with plan.section("a failing class"):
            failing_class(bench)
        with plan.section("grading at scale"):
            grading_scale(bench)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return _written(bench.figures, json_path, markdown)


def _written(figures: dict[str, Any], json_path: Path | None, markdown: Path | None) -> dict[str, Any]:
    if json_path:
        json_path.write_text(json.dumps(figures, indent=1) + "\n")
    if markdown:
        markdown.write_text(to_markdown(figures))
    return figures


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"
