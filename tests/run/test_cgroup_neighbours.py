"""Two judges on one machine never remove each other's control groups: a server and a ``grade``, two servers.

Each judge here runs in a PID namespace of its own (``unshare --pid --fork``), as a judge in a container that shares
the machine's control groups does: there its pid is 1 or 2, the same number as its neighbour's, and the neighbour's
pid is not alive where it looks. A sweep that judged a group's owner by the pid in its name removed the groups of a
live judge (whose runs then failed) and a judge that named its groups by its pid alone found its name taken at start
(``FileExistsError``); the lock each judge holds on its groups is what the sweep asks now (judge/run/cgroups.py).
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PROBLEMS, PROGRAMS, REPO_ROOT, require
from serving import Client, Server, add_user, write_site

pytestmark = pytest.mark.slow  # three judges in namespaces of their own: 15 to 25 s in all

AC_PY = (PROGRAMS / "aplusb" / "ac.py").read_text()
SANDBOX = ["--sandbox", "rlimits"]
# The judge as pid 1 of a new PID namespace, and as pid 2 (a shell is pid 1 and waits for it: no exec).
AS_PID_1 = ["unshare", "--pid", "--fork", "--mount-proc"]
AS_PID_2 = [*AS_PID_1, "sh", "-c", '"$0" "$@"; exit $?']


def _usable() -> None:
    require("g++")
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("PID namespaces of its own for each judge need root and unshare (util-linux)")
    from judge.run import cgroups

    found, why = cgroups.probe()
    if found is None:
        pytest.skip(f"no usable control groups on this machine: {why}")


@pytest.fixture(scope="module")
def problem(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _usable()
    package = tmp_path_factory.mktemp("neighbours") / "aplusb"
    shutil.copytree(PROBLEMS / "aplusb", package)
    return package


def _site(root: Path, problem: Path) -> tuple[Path, str]:
    folder = write_site(root, f"problems:\n  - problem: {problem}\nlimits: {{per_minute: 100}}\n")
    return folder, add_user(folder, "alice", "student")


@pytest.fixture(scope="module")
def first(problem: Path) -> Iterator[Client]:
    """A server whose judge is pid 2 in its namespace, serving for the whole module."""
    folder, token = _site(problem.parent / "first", problem)
    server = Server(folder, extra=SANDBOX, wrap=AS_PID_2).start()
    try:
        yield Client(server, token)
    finally:
        server.stop()


def _judged_ac(client: Client) -> None:
    view = client.done(client.submit("aplusb", "ac.py", AC_PY)["id"])
    assert (view["state"], view["verdict"]) == ("done", "AC"), view.get("error") or view


def test_a_grade_beside_a_server_removes_none_of_its_groups(first: Client, problem: Path) -> None:
    """``grade`` (pid 1 of its namespace, where the server's pid 2 is not alive) starts, grades a class and ends
    while the server judges: both judge everything, before, during and after."""
    _judged_ac(first)
    work = problem.parent / "grade"
    students = work / "class"
    students.mkdir(parents=True)
    for name in ("alice", "bob", "carol"):
        (students / f"{name}.py").write_text(AC_PY)
    argv = [*AS_PID_1, sys.executable, str(REPO_ROOT / "run_judge.py"), "grade", str(problem), str(students)]
    grade = subprocess.Popen(
        [*argv, "--out", str(work / "out"), "-j", "2", *SANDBOX],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        _judged_ac(first)  # while the grade runs
        output, _ = grade.communicate(timeout=300)
    finally:
        if grade.poll() is None:
            os.killpg(grade.pid, 9)
            grade.wait()
    assert grade.returncode == 0, output
    with (work / "out" / "grades.csv").open(newline="") as f:
        assert {row["id"]: row["verdict"] for row in csv.DictReader(f)} == dict.fromkeys(
            ("alice", "bob", "carol"), "AC"
        )
    _judged_ac(first)  # after it: its start swept the machine's groups


def _groups() -> set[Path]:
    """The groups of judges that are pid 2 in their namespaces (judges of other work on this machine are not)."""
    from judge.run import cgroups

    found, _ = cgroups.probe()
    assert found is not None
    return {group for own in found.own for group in own.glob(f"{cgroups.PREFIX}-2-*")}


def test_two_servers_with_one_pid_in_their_namespaces_both_judge(first: Client, problem: Path) -> None:
    """A second server whose judge is pid 2 too starts beside the first (its groups' names must not collide with
    the first's, nor its sweep take them), and both judge. Stopped (SIGTERM), it removes its own groups."""
    folder, token = _site(problem.parent / "second", problem)
    before = _groups()
    second = Server(folder, extra=SANDBOX, wrap=AS_PID_2).start()
    try:
        _judged_ac(Client(second, token))
        _judged_ac(first)
        made = _groups() - before
        assert made, "the second server made no control group"
    finally:
        second.stop()
    assert not [group for group in made if group.exists()], "a stopped server left its groups"
    _judged_ac(first)
