"""Control groups: finding the hierarchy (v1 and v2, on fake /proc texts and folder trees), and reclaiming the
groups of a judge killed with kill -9 (on this machine's real groups, when it has usable ones).

The v2 launcher path cannot run here (these machines' v2 mount has no memory
controller); what can be checked without it, the probe and the delegation
writes, is checked on a fake tree.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from judge.run import cgroups

V1_CONTROLLERS = ("memory", "pids", "cpuacct")


def _mountinfo(lines: list[tuple[str, str, str, str]]) -> str:
    """mountinfo lines for (fstype, mount point, mount root, super options)."""
    return "\n".join(
        f"{30 + i} 20 0:{40 + i} {root} {point} rw,nosuid - {fstype} {fstype} {options}"
        for i, (fstype, point, root, options) in enumerate(lines)
    )


def _fake_v1(tmp_path: Path, own: str = "/judge", root: str = "/") -> tuple[str, str]:
    mounts = []
    for controller in V1_CONTROLLERS:
        point = tmp_path / controller
        (point / own.removeprefix(root).lstrip("/")).mkdir(parents=True)
        mounts.append(("cgroup", str(point), root, f"rw,{controller}"))
    cgroup = "\n".join(f"{i + 2}:{c}:{own}" for i, c in enumerate(V1_CONTROLLERS)) + "\n0::/"
    return cgroup, _mountinfo(mounts)


def _fake_v2(tmp_path: Path, controllers: str, own: str = "/user.slice/judge") -> Path:
    folder = tmp_path / "unified" / own.lstrip("/")
    folder.mkdir(parents=True)
    (folder / "cgroup.controllers").write_text(controllers + "\n")
    (folder / "cgroup.subtree_control").write_text("")
    (folder / "cgroup.procs").write_text(f"{os.getpid()}\n")
    return folder


def test_v1_found_in_each_hierarchy_below_own_group(tmp_path: Path) -> None:
    cgroup, mountinfo = _fake_v1(tmp_path)
    found, why = cgroups.find(cgroup, mountinfo)
    assert found is not None, why
    assert found.version == 1
    assert found.own == tuple(tmp_path / c / "judge" for c in V1_CONTROLLERS)


def test_v1_inside_a_cgroup_namespace_maps_the_mount_root(tmp_path: Path) -> None:
    """A container mounts its own group as the hierarchy's root: the folder is the mount point itself."""
    cgroup, mountinfo = _fake_v1(tmp_path, own="/process_api/abc", root="/process_api/abc")
    found, why = cgroups.find(cgroup, mountinfo)
    assert found is not None, why
    assert found.own == tuple(tmp_path / c for c in V1_CONTROLLERS)


def test_v1_missing_controller_is_named(tmp_path: Path) -> None:
    cgroup, mountinfo = _fake_v1(tmp_path)
    mountinfo = "\n".join(line for line in mountinfo.splitlines() if "pids" not in line)
    found, why = cgroups.find(cgroup, mountinfo)
    assert found is None
    assert "no cgroup v1 pids hierarchy" in why and "no cgroup v2" in why


def test_v2_preferred_and_delegates_memory_and_pids(tmp_path: Path) -> None:
    folder = _fake_v2(tmp_path, "cpu io memory pids")
    cgroup, mountinfo = _fake_v1(tmp_path)
    cgroup = cgroup.replace("0::/", "0::/user.slice/judge")
    mountinfo += "\n" + _mountinfo([("cgroup2", str(tmp_path / "unified"), "/", "rw,nsdelegate")])
    found, why = cgroups.find(cgroup, mountinfo)
    assert found is not None, why
    assert (found.version, found.own) == (2, (folder,))
    assert (folder / "cgroup.subtree_control").read_text() == "+memory +pids"


def test_v2_started_by_a_judge_shares_the_group_above_that_judges_leaf(tmp_path: Path) -> None:
    """A judge moves itself into a leaf to delegate its v2 group; what it starts begins in that leaf, which holds its
    starter and cannot be delegated again: the group above, delegated already, is the one to use."""
    delegated = _fake_v2(tmp_path, "cpu io memory pids")
    (delegated / "cgroup.subtree_control").write_text("memory pids\n")
    leaf = delegated / "tilejudge-4242-judge"
    leaf.mkdir()
    (leaf / "cgroup.procs").write_text(f"4242\n{os.getpid()}\n")
    mountinfo = _mountinfo([("cgroup2", str(tmp_path / "unified"), "/", "rw,nsdelegate")])
    found, why = cgroups.find("0::/user.slice/judge/tilejudge-4242-judge\n", mountinfo)
    assert found is not None, why
    assert (found.version, found.own) == (2, (delegated,))


def test_v2_without_memory_controller_falls_back_to_v1(tmp_path: Path) -> None:
    """This machine's case: v2 is mounted, but its memory controller belongs to v1."""
    _fake_v2(tmp_path, "cpu io")
    cgroup, mountinfo = _fake_v1(tmp_path)
    cgroup = cgroup.replace("0::/", "0::/user.slice/judge")
    mountinfo += "\n" + _mountinfo([("cgroup2", str(tmp_path / "unified"), "/", "rw")])
    found, why = cgroups.find(cgroup, mountinfo)
    assert found is not None and found.version == 1, why


def test_nothing_usable_says_why_for_both_versions(tmp_path: Path) -> None:
    found, why = cgroups.find("0::/\n", _mountinfo([]))
    assert found is None
    assert why == "no cgroup v2 mount shows this process's group; no cgroup v1 memory hierarchy"


def _real_groups() -> cgroups.Cgroups:
    found, why = cgroups.probe()
    if found is None:
        pytest.skip(f"no usable control groups on this machine: {why}")
    return found


HOLDER = """
import sys, time
sys.path.insert(0, {repo!r})
from judge.run import Isolation, SlotPool
pool = SlotPool(2, Isolation("rlimits"))
print(" ".join(str(p) for slot in pool._slots for group in slot._groups.values() for p in group.paths), flush=True)
time.sleep(60)
"""


def test_groups_of_a_killed_judge_are_reclaimed_by_the_next(tmp_path: Path) -> None:
    """kill -9 leaves the slot groups (with a process put in one); the next judge's probe kills it and removes them."""
    found = _real_groups()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER.format(repo=str(REPO_ROOT))], stdout=subprocess.PIPE, text=True
    )
    sleeper = None
    try:
        paths = [Path(p) for p in holder.stdout.readline().split()]
        assert len(paths) == 2 * 2 * len(found.own) and all(p.is_dir() for p in paths)
        sleeper = subprocess.Popen(["sleep", "60"])
        target = paths[0]
        if found.version == 2:  # a v2 slot group hands its controllers to its runs and may hold none: a run's leaf does
            target = paths[0] / "run"
            target.mkdir()
        (target / "cgroup.procs").write_text(str(sleeper.pid))
    finally:
        holder.kill()
        holder.wait()
    assert all(p.is_dir() for p in paths), "the groups should outlive a killed judge until reclaimed"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; sys.path.insert(0, {str(REPO_ROOT)!r}); "
            "from judge.run import cgroups; print(cgroups.probe())",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert not [p for p in paths if p.exists()], f"left: {[p for p in paths if p.exists()]}"
    assert sleeper.wait(timeout=5) == -signal.SIGKILL


def test_a_closed_pool_leaves_no_group(tmp_path: Path) -> None:
    found = _real_groups()
    from judge.run import Isolation, RunLimits, RunSpec, SlotPool

    with SlotPool(1, Isolation("rlimits")) as pool, pool.slot() as slot:
        paths = [p for group in slot._groups.values() for p in group.paths]
        result = slot.run(
            RunSpec(
                argv=["/bin/true"],
                limits=RunLimits(cpu=1, wall=2, memory_mib=64, output_bytes=1 << 10),
                stdout=slot.private / "out",
                stderr=slot.private / "err",
            )
        )
        assert result.cgroup == found.version and result.exit_code == 0
    deadline = time.monotonic() + 2
    while any(p.exists() for p in paths) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in paths if p.exists()]


@pytest.mark.parametrize("untrusted", [False, True])
def test_runs_take_turns_between_the_lanes_of_a_v1_slot(untrusted: bool) -> None:
    """On v1 a slot's runs take turns between its groups' lanes, so a run never shares its group with the run just
    before it, whose namespaces may still be ending, their tmpfs charged to that group: each run's CPU time shows up
    in one lane only, never the last run's. Trusted runs (no namespaces to wait for) alternate between lane0 and
    lane1; untrusted runs with rlimits mode's private mounts take lane2 too while a holder's end lags."""
    found = _real_groups()
    if found.version != 1:
        pytest.skip("lanes are a cgroup v1 layout; v2 gives every run a leaf of its own")
    if untrusted and os.geteuid() != 0:
        pytest.skip("untrusted runs have namespaces of their own as root only")
    from judge.run import Isolation, RunLimits, RunSpec, SlotPool

    spin = "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done"
    lanes = ("lane0", "lane1", "lane2")
    with SlotPool(1, Isolation("rlimits")) as pool, pool.slot() as slot:
        group = slot._groups["untrusted" if untrusted else "trusted"]
        cpuacct = next(p for p in group.paths if "cpuacct" in str(p))

        def usage() -> tuple[int, ...]:
            return tuple(
                int((cpuacct / lane / "cpuacct.usage").read_text()) if (cpuacct / lane).is_dir() else 0
                for lane in lanes
            )

        taken = []
        for _ in range(6):
            before = usage()
            spec = RunSpec(
                argv=["/bin/sh", "-c", spin],
                limits=RunLimits(cpu=5, wall=20, memory_mib=64, output_bytes=1 << 10),
                stdout=slot.private / "out",
                stderr=slot.private / "err",
            )
            result = slot.run_untrusted(spec, ()) if untrusted else slot.run(spec)
            assert result.exit_code == 0 and result.cgroup == 1
            grew = [lane for lane, a, b in zip(lanes, usage(), before) if a > b]
            assert len(grew) == 1, grew  # the run's CPU time in one lane only
            taken.append(grew[0])
        assert not [cpuacct / name for name in ("lane3", "lane4") if (cpuacct / name).exists()]
    assert all(a != b for a, b in zip(taken, taken[1:])), taken  # never the last run's lane
    if not untrusted:
        assert taken in (["lane0", "lane1"] * 3, ["lane1", "lane0"] * 3), taken
