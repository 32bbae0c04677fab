"""The benchmark's limit rows: how precisely a run is stopped at its limit, and how true its measured memory is.

Apart from ``bench.py`` because they measure the run layer's accuracy, not the judge's speed, with programs of
their own (``bench_programs/``), built plainly so that the judge's machinery is not part of what is measured.
"""

from __future__ import annotations

import os
import resource
import subprocess
import time
from pathlib import Path

import yaml

from ..core import judge
from ..lang import LANGUAGES, prepare_program
from ..model import Problem
from ..problem.formats import fastyaml, load_problem
from ..run import Isolation, RunLimits, RunSpec, SlotPool
from ..text import table
from .bench_grading import Bench
from .bench_series import Series

PROGRAMS = Path(__file__).resolve().parent / "bench_programs"  # the C programs the benchmark measures with


def compile_c(name: str, work: Path) -> Path:
    """One of the benchmark's own C programs, built plainly with gcc: the floor must not pay for the judge's
    machinery."""
    binary = work / name
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(PROGRAMS / f"{name}.c")], check=True, capture_output=True)
    return binary


def tle_latency(bench: Bench, one_case: Problem) -> None:
    """How precisely a run is stopped at its limit, and how long the verdict takes after that.

    On a loaded machine a busy loop needs more wall time than CPU time to
    reach its CPU limit, so "elapsed minus limit" would measure the load;
    the overshoot past the limit and the judge's delay after the kill are
    what the judge controls.
    """
    cpu_limit, wall_limit = 1.0, 2.0
    spec = fastyaml.safe_load((one_case.root / "problem.yaml").read_text())
    spec["limits"] = {**spec["limits"], "time": cpu_limit, "wall": wall_limit, "time_factor": {}}
    (one_case.root / "problem.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    problem = load_problem(one_case.root)
    rows, data = [], {}
    for name, source, limit, measured in (
        ("busy loop (CPU limit)", "busy", cpu_limit, "time"),
        ("sleeper (wall limit)", "sleeper", wall_limit, "wall_time"),
    ):
        path = PROGRAMS / f"{source}.c"
        with SlotPool(1, Isolation("none")) as pool:
            program = prepare_program(path, LANGUAGES["c"], pool, 60)
        overshoot, delay = Series(), Series()
        for _ in range(bench.rounds):
            with SlotPool(1, Isolation("none")) as pool:
                start = time.perf_counter()
                report = judge(problem, program, pool)
                elapsed = time.perf_counter() - start
            case = report.cases[0]
            assert report.verdict.value == "TLE"
            overshoot.samples.append(getattr(case, measured) - limit)
            delay.samples.append(elapsed - case.wall_time)
        data[name] = {"overshoot": overshoot.to_json(), "verdict_delay": delay.to_json()}
        rows.append(
            [
                name,
                f"{limit:g} s",
                f"{overshoot.median * 1000:.0f} ms",
                f"{max(overshoot.samples) * 1000:.0f} ms",
                f"{delay.median * 1000:.1f} ms",
            ]
        )
    bench.figures["tle_latency"] = data
    bench.log(
        "\nTLE latency:\n"
        + table(rows, ["program", "limit", "stopped past the limit (median)", "worst", "verdict after the stop"])
    )


def memory_accuracy(bench: Bench) -> None:
    """Our peak against the kernel's own figures, for one process and for a tree of five.

    The judge reports the larger of the tree's charged memory (anonymous
    and shared memory and page tables of every process while all hold
    theirs) and the largest process's resident peak (VmHWM, shared library
    pages included), so the truth is the larger of those two kernel
    figures; a naive Python child's ru_maxrss is shown beside it.
    """
    toucher = compile_c("toucher", bench.work)
    rows, data = [], {}
    for mib, children in ((3, 0), (64, 0), (256, 0), (48, 4)):
        with SlotPool(1, Isolation("none")) as pool, pool.slot() as slot:
            out = slot.private / "out"
            result = slot.run(
                RunSpec(
                    argv=[str(toucher), str(mib), str(children)],
                    stdout=out,
                    stderr=slot.private / "err",
                    cwd=slot.private,
                    limits=RunLimits(cpu=10, wall=20, memory_mib=1024, output_bytes=1 << 20),
                )
            )
            hwm, charged = (int(v) for v in out.read_text().split())
        truth = max(hwm, charged)
        child = subprocess.Popen([str(toucher), str(mib), str(children)], stdout=subprocess.DEVNULL)
        naive = os.wait4(child.pid, 0)[2].ru_maxrss
        name = f"{mib} MiB" if not children else f"{children} children x {mib} MiB"
        data[name] = {
            "truth_kb": truth,
            "ours_kb": result.memory_kb,
            "charged_kb": charged,
            "vmhwm_kb": hwm,
            "python_child_kb": naive,
            "cgroup": result.cgroup,
        }
        rows.append(
            [
                name,
                f"{charged / 1024:.2f}",
                f"{hwm / 1024:.2f}",
                f"{result.memory_kb / 1024:.2f}",
                f"{(result.memory_kb - truth) / 1024:+.2f}",
                f"{naive / 1024:.2f}",
            ]
        )
    bench.figures["memory"] = data
    groups = f"cgroup v{result.cgroup}" if result.cgroup else "no control group"
    own_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    bench.log(
        f"\nmemory accuracy (MiB, {groups}; judge process RSS {own_mib:.0f} MiB):\n"
        + table(
            rows,
            [
                "touched",
                "tree charged",
                "VmHWM (largest process)",
                "ours",
                "error vs the larger",
                "naive Python child",
            ],
        )
    )
