"""verify stops judging a group once its result is decided, as the package's rules say and problemtools does.

Real packages judged in this process through ``verify`` itself, with one slot so that the order is the cases' order:
a legacy ``on_reject: break`` group is judged up to its first rejected case and ``on_reject: continue`` to the end; a
2025-09 ``min`` group stops at its first rejection, a ``sum`` group never, and a group whose ``require_pass`` group
failed is not run at all. Which cases ran is read from the verdicts (SKIPPED: not run), never from the clock, and
the score is the same as when every case runs (``all_cases``, the matrix).
"""

from __future__ import annotations

from pathlib import Path

from conftest import write_files

from judge.problem.formats import load
from judge.run import SlotPool, resolve_sandbox
from judge.tools.verify import Outcome, verify

# right on inputs up to 5, wrong above: wrong on every case of a group of large inputs. In C: each test judges some
# forty runs of these, and a Python run costs some 14 ms of CPU more than a C one (the interpreter's start), which
# is not what these tests are about; the two sources are compiled once per machine (the build cache).
SMALL_ONLY = '#include <stdio.h>\nint main(void) { int n; scanf("%d", &n); printf("%d\\n", n <= 5 ? n : -1); }\n'
RIGHT = '#include <stdio.h>\nint main(void) { int n; scanf("%d", &n); printf("%d\\n", n); }\n'


def _verified(root: Path, all_cases: bool = False) -> dict[str, Outcome]:
    isolation, _ = resolve_sandbox(None)
    problem = load(root)
    with SlotPool(1, isolation, conceal=problem.folders) as pool:
        result = verify(problem, pool, all_cases=all_cases)
    return {o.path.name: o for o in result.outcomes}


def _ran(outcome: Outcome, group: str) -> list[str]:
    return [c.verdict.value for c in outcome.report.cases if c.group == group]


def _cases(folder: str, values: list[int]) -> dict[str, str]:
    return {f"data/{folder}/{n}.{ext}": f"{v}\n" for n, v in enumerate(values, 1) for ext in ("in", "ans")}


def _legacy(root: Path, secret_on_reject: str) -> Path:
    return write_files(
        root,
        {
            "problem.yaml": "name: Echo\ntype: scoring\n",
            # the top accepts when one part does, so small_only.c is partially accepted as problemtools grades it
            "data/testdata.yaml": "on_reject: continue\ngrader_flags: accept_if_any_accepted\n",
            **_cases("sample", [1]),
            **_cases("secret/a_small", [1, 2]),
            **_cases("secret/b_large", [6, 7, 8]),
            **_cases("secret/c_more", [4, 9, 10]),
            "data/secret/testdata.yaml": f"grader_flags: sum\naccept_score: 1\non_reject: {secret_on_reject}\n",
            "data/secret/b_large/testdata.yaml": "on_reject: break\n",
            "submissions/accepted/right.c": RIGHT,
            "submissions/partially_accepted/small_only.c": SMALL_ONLY,
        },
    )


def test_legacy_on_reject_break_stops_a_group_and_continue_judges_it_all(tmp_path: Path) -> None:
    root = _legacy(tmp_path / "legacy", "continue")  # c_more inherits continue
    partial = _verified(root)["small_only.c"]
    assert partial.ok, partial.failures
    assert _ran(partial, "secret/b_large") == ["WA", "SKIPPED", "SKIPPED"]
    assert _ran(partial, "secret/c_more") == ["AC", "WA", "WA"]
    every = _verified(root, all_cases=True)["small_only.c"]
    assert _ran(every, "secret/b_large") == ["WA", "WA", "WA"]
    assert every.report.score == partial.report.score == 1 + 2 + 1  # sample, a_small, c_more's first: samples score


def test_legacy_break_above_the_groups_stops_at_a_rejected_group_as_problemtools_does(tmp_path: Path) -> None:
    root = _legacy(tmp_path / "legacy", "break")  # secret stops at b_large: c_more is neither judged nor scored
    partial = _verified(root)["small_only.c"]
    assert _ran(partial, "secret/c_more") == ["SKIPPED"] * 3
    assert partial.report.score == 1 + 2
    every = _verified(root, all_cases=True)["small_only.c"]  # every case run: the score is the same
    assert _ran(every, "secret/c_more")[0] == "SKIPPED" and every.report.score == 1 + 2


def test_2025_09_min_and_require_pass_groups_stop_and_sum_groups_do_not(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "modern",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Echo\ntype: scoring\nlimits:\n  time_limit: 2\n",
            **_cases("sample", [1]),
            **_cases("secret/a_small", [1, 2]),
            **_cases("secret/b_large", [6, 7, 8]),
            **_cases("secret/c_summed", [3, 9, 10]),
            **_cases("secret/d_needs_large", [1, 2]),
            "data/secret/a_small/test_group.yaml": "max_score: 10\n",
            "data/secret/b_large/test_group.yaml": "max_score: 20\nscore_aggregation: min\n",
            "data/secret/c_summed/test_group.yaml": "max_score: 30\nscore_aggregation: sum\n",
            "data/secret/d_needs_large/test_group.yaml": "max_score: 40\nrequire_pass: secret/b_large\n",
            "submissions/accepted/right.c": RIGHT,
            "submissions/partially_accepted/small_only.c": SMALL_ONLY,
        },
    )
    partial = _verified(root)["small_only.c"]
    assert partial.ok, partial.failures
    assert _ran(partial, "secret/b_large") == ["WA", "SKIPPED", "SKIPPED"]
    assert _ran(partial, "secret/c_summed") == ["AC", "WA", "WA"]
    assert _ran(partial, "secret/d_needs_large") == ["SKIPPED", "SKIPPED"]  # never run: b_large failed
    assert partial.report.score == 10 + 10


def test_the_judge_command_skips_a_decided_groups_cases_in_its_table_and_all_cases_runs_them(tmp_path: Path) -> None:
    """``judge`` follows the same rules as verify and grade: the rest of a ``break`` group after its first rejection is
    not run, and its rows say SKIPPED; ``--all-cases`` runs every case, with the same score."""
    from conftest import cli

    root = _legacy(tmp_path / "legacy", "continue")
    submission = str(root / "submissions" / "partially_accepted" / "small_only.c")

    def rows(*extra: str) -> tuple[list[list[str]], str]:
        judged = cli("judge", str(root), submission, "-j", "1", *extra)
        assert judged.returncode == 1, judged.stdout + judged.stderr
        table = [line.split() for line in judged.stdout.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
        return [row for row in table if "secret/b_large" in row], judged.stdout

    stopped, shown = rows()
    assert [row[3] for row in stopped] == ["WA", "SKIPPED", "SKIPPED"], shown
    every, shown_all = rows("--all-cases")
    assert [row[3] for row in every] == ["WA", "WA", "WA"], shown_all
    score = [line.split(" | ")[1] for line in shown.splitlines() if " | score " in line]
    assert score == ["score 4/9"] == [line.split(" | ")[1] for line in shown_all.splitlines() if " | score " in line]
