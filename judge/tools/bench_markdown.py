"""docs/benchmarks.md from the figures ``bench`` gathered: formatting only, no measuring."""

from __future__ import annotations

from typing import Any

from .bench_scaling import scaling_markdown
from .bench_startup import BASELINES, goal_text


def to_markdown(figures: dict[str, Any]) -> str:
    """docs/benchmarks.md: the latest figures, the machine and the exact command."""
    machine = figures["machine"]
    lines = [
        "# Benchmarks",
        "",
        f"Taken with `{figures['command']}` on {machine['processor']} "
        f"({machine['cpus']} CPUs, {machine['platform']}, Python {machine['python']}).",
        "Every comparison was interleaved over several rounds; times are medians with min–max; "
        "ratios are to the C floor",
        "(a C harness doing posix_spawn + wait + memcmp per case). Shared machine: expect noise.",
        "",
    ]
    for label in ("tiny cases", "large cases"):
        if label in figures:
            floor = figures[label]["C floor (posix_spawn)"]["median"]
            lines += [f"## {label}", "", "| contender | median | min–max | vs floor |", "|---|---|---|---|"]
            for name, s in figures[label].items():
                lines.append(
                    f"| {name} | {s['median'] * 1000:.0f} ms | {s['min'] * 1000:.0f}–{s['max'] * 1000:.0f} ms "
                    f"| {s['median'] / floor:.2f}× |"
                )
            lines.append("")
    if "startup" in figures:
        lines += _startup(figures["startup"])
    if "tle_latency" in figures:
        lines += [
            "## TLE latency",
            "",
            "CPU time (busy loop) or wall time (sleeper) past the limit when the run was stopped, "
            "and the time from the stop to the verdict.",
            "",
            "| program | stopped past the limit (median) | worst | verdict after the stop (median) |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {name} | {t['overshoot']['median'] * 1000:.0f} ms | {t['overshoot']['max'] * 1000:.0f} ms "
            f"| {t['verdict_delay']['median'] * 1000:.1f} ms |"
            for name, t in figures["tle_latency"].items()
        ]
        lines.append("")
    if "interactive" in figures:
        inter = figures["interactive"]
        floor = inter["rows"]["bare pipe pair"]["median"]
        lines += [
            "## Interactive relay",
            "",
            f"{inter['round_trips']} one-line round trips between two C programs per run, through the judge's relay "
            "in each sandbox mode and through a bare pipe pair.",
            "",
            "| path | per round trip (median) | vs bare pipes |",
            "|---|---|---|",
        ]
        lines += [
            f"| {name} | {r['per_trip_us']:.1f} µs | {r['median'] / floor:.2f}× |" for name, r in inter["rows"].items()
        ]
        lines.append("")
    if "memory" in figures:
        lines += [
            "## Memory accuracy",
            "",
            "The judge reports the larger of the tree's charged memory "
            "(anonymous and shared memory and page tables of every",
            "process while all hold theirs: what a control group charges) "
            "and the largest process's resident peak (VmHWM,",
            "shared library pages included); the error is against the larger of those two kernel figures.",
            "",
            "| touched | tree charged | VmHWM (largest process) | ours | error | naive Python child (ru_maxrss) |",
            "|---|---|---|---|---|---|",
        ]
        for name, m in figures["memory"].items():
            lines.append(
                f"| {name} | {m['charged_kb'] / 1024:.2f} MiB | {m['vmhwm_kb'] / 1024:.2f} MiB "
                f"| {m['ours_kb'] / 1024:.2f} MiB "
                f"| {(m['ours_kb'] - m['truth_kb']) / 1024:+.2f} MiB | {m['python_child_kb'] / 1024:.2f} MiB |"
            )
        lines.append("")
    if "test_data" in figures:
        lines += [
            "## Test-data work",
            "",
            "| problem | regenerate all (+sha256 check) | largest case | reference CPU time |",
            "|---|---|---|---|",
        ]
        for name, t in figures["test_data"].items():
            lines.append(
                f"| {name} | {t['regenerate_all_s']:.1f} s | {t['largest_case']} | "
                + ", ".join(f"{k} {v:.3f} s" for k, v in t["reference_cpu_s"].items())
                + " |"
            )
        lines.append("")
    if "grading" in figures:
        g = figures["grading"]
        lines += ["## Grading throughput", "", "| workers | submissions | time | per minute |", "|---|---|---|---|"]
        lines += [
            f"| {k[1:]} | {v['submissions']} | {v['seconds']:.1f} s | {v['per_minute']:.0f} |"
            for k, v in g.items()
            if k.startswith("j")
        ]
        lines += ["", f"Speed-up from 1 to 2 workers: {g['speedup']:.2f}×.", ""]
    if "failing_class" in figures:
        f = figures["failing_class"]
        lines += [
            "## Grading a failing class: before issue #15 and now",
            "",
            f"`grade -j 2 --rejudge` on {f['submissions']} submissions of this problem "
            f"({', '.join(f['class'])}; sandbox {f['sandbox']}),",
            f"the judge at {f['baseline']} (every TLE case re-run alone, every case of a lost group run) "
            "against this one, interleaved.",
            "",
            "| grading | median | min–max |",
            "|---|---|---|",
        ]
        lines += [
            f"| {name} | {f[name]['median']:.1f} s | {f[name]['min']:.1f}–{f[name]['max']:.1f} s |"
            for name in ("before #15", "now")
        ]
        same = "identical" if f["identical_grades"] else "DIFFERENT for " + ", ".join(f["differing"])
        lines += ["", f"Speed-up {f['speedup']:.2f}×; grades (verdict, score, points per group): {same}.", ""]
    if "cluster_grading" in figures:
        c = figures["cluster_grading"]
        lines += [
            "## Grading on a local Dask cluster",
            "",
            "| workers | submissions | time | per minute |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {k[7:]} | {v['submissions']} | {v['seconds']:.1f} s | {v['per_minute']:.0f} |"
            for k, v in c.items()
            if k.startswith("workers")
        ]
        lines += ["", f"Speed-up from 1 to 2 workers: {c['speedup']:.2f}×.", ""]
    if "grading_scale" in figures:
        lines += scaling_markdown(figures["grading_scale"])
    if "peers" in figures:
        lines += ["## Other peers", ""] + [f"- {k}: {v}" for k, v in figures["peers"].items()] + [""]
    return "\n".join(lines)


def _startup(startup: dict[str, Any]) -> list[str]:
    """Each command against each bare interpreter of the same run; the goals of issue #16 are ratios to the argparse
    script."""
    lines = [
        "## Start-up",
        "",
        f"`{startup['judge']}` run by `{startup['interpreter']}`, "
        "interleaved with the bare interpreters (medians; `list` with its",
        "cache warm; the judged problem has 1 case and the submission is a ready binary). The floor imports",
        f"`{startup.get('floor', '')}`: what no judging command can do without. "
        f"Goals are ratios to `{startup.get('goal_baseline', BASELINES[2])}`.",
        "",
        "| command | median | min | " + " | ".join(f"vs `{b}`" for b in BASELINES) + " | goal |",
        "|---|---|---|" + "---|" * len(BASELINES) + "---|",
    ]
    for name, s in startup["rows"].items():
        ratios = " | ".join(f"{s['ratios'][b]:.2f}×" if b in s["ratios"] else "-" for b in BASELINES)
        goal = goal_text(s) if "goal_met" in s or "goal" not in s else f"≤ {s['goal']:g}×"
        lines.append(f"| `{name}` | {s['median'] * 1000:.1f} ms | {s['min'] * 1000:.1f} ms | {ratios} | {goal} |")
    return lines + [""]
