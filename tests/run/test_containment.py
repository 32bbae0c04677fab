"""Containment: hostile programs that escape limits counted per process, judged end to end.

Companion of test_hostile.py, with the same harness (`Hostile.run`: the
judge stays fine, no process carrying the program's marker survives, no file
changes outside the scratch folder), the same `hsum` problem (time 1 s, wall
2 s, memory 64 MiB, output 1 MiB; cases c1, c2, c3; input line 1 is the case
number) and both sandbox modes. Each program attacks on case 1 (or, for the
channels, on case 1 and then looks on cases 2 and 3) and answers the other
cases correctly. Every check that an attack was contained raises
`NotContained`, so a mode that cannot contain one can be marked
`xfail(strict=True, raises=NotContained)` as in test_hostile.py, while any
other breakage still fails.

Expected, once every run is in its own control group (both modes unless
said otherwise):

- CPU in auto-reaped children (SIGCHLD ignored, workers forked two at a time,
  ~50 ms of CPU each; C and Python): TLE on c1 with a CPU time of at least the
  1 s limit.
- memory that a per-process ru_maxrss does not show, each MLE on c1 with a
  peak of at least 90 % of 64 MiB: 8 children of 48 MiB each; 200 MiB
  written into memfds (never mapped); 200 MiB of System V shared memory
  (or, if the address-space limit refuses the attach first, RE 24 holding
  less than the limit); 200 MiB in a tmpfs mounted in a nested user and
  mount namespace (or RE 21 when the namespace or mount is refused); Java's
  off-heap memory (Unsafe.allocateMemory, 512 MiB).
- empty files with long names in the scratch (kernel memory in inodes and
  dentries, ~1 KiB each): MLE, TLE or RE 22 (a create refused), and never
  more files than 64 MiB's worth at 1 KiB each.
- channels between runs, judged with one slot so every case shares it: a
  POSIX message queue, System V IPC objects under a fixed key, a folder
  deeper than PATH_MAX in the scratch, a key in the kernel keyring (also
  between two submissions judged one after the other): nothing is found,
  so every case is AC.
- control bytes on stderr (ESC sequences, CR, NUL, DEL, invalid UTF-8):
  RE on c1; no raw control byte in the judge's terminal output, in the
  grading reports, or from a student id with ESC in it; the JSON message
  shows them as visible escapes.
- writing through stdin (reopening /proc/self/fd/0, the path it names and
  the .ans next to it, write(0), ftruncate(0)): every attempt refused, RE 41
  on c1, and the case files unchanged (aimed at a throw-away copy).
- correct programs with threads (C++ std::thread, Python threading) and,
  when Node.js is installed, a JavaScript solution: AC.

Safety, as in test_hostile.py: every program is bounded by itself (CPU
workers stop after 80 workers, ~4 s of CPU, memory at 512 MiB for Java and
384 MiB otherwise, 400,000 empty files or 1.5 s of CPU), signals nobody, and
removes or time-limits what it leaves in the kernel (queues and IPC objects
are removed by the test too, shared memory is marked for removal at once,
keys expire after 120 s, the tmpfs dies with its namespace).
"""

from __future__ import annotations

import ctypes
import json
import platform
import re
import shutil
import subprocess
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import JudgeRun, JudgeRunner, cache_with_launcher, run_cli
from test_hostile import (  # noqa: F401  (fixtures are found by pytest by name)
    BUILT_ONCE,
    CASES,
    HSUM,
    HSUM_ANSWERS,
    PROGRAMS,
    QUICK_TIME_S,
    Hostile,
    NotContained,
    _assert_no_leftovers,
    _expect_accepted,
    _expect_contained,
    _expect_refused,
    _from_template,
    _modes,
    _processes_marked,
    build_caches,
    hostile,
    hostile_references,
    hsum_quick,
    marker_lock,
)

MEMORY_LIMIT_KB = 64 * 1024
CPU_LIMIT_S = 1.0
INODE_COST_KB = 1  # what one empty file with a 200-character name costs the kernel, at least
# Bytes no terminal or report may receive raw: C0 controls but tab and newline, and DEL.
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

_libc = ctypes.CDLL(None, use_errno=True)


def _reported(run: JudgeRun, case: str, key: str) -> list[int]:
    """Every `key=N` the program wrote to stderr on `case`, as found in the case's message."""
    return [int(v) for v in re.findall(rf"{key}=(\d+)", run.case(case)["message"] or "")]


def _expect_mle(run: JudgeRun, name: str) -> None:
    """The case is MLE with a peak of at least 90 % of the limit: the memory was counted, not only stopped."""
    case = run.case(name)
    _expect_contained(
        case["verdict"] == "MLE" and case["memory_kb"] >= 0.9 * MEMORY_LIMIT_KB,
        f"case {name} is not MLE with a peak near {MEMORY_LIMIT_KB} KiB",
        run,
    )


def _expect_not_found(run: JudgeRun, exit_code: int) -> None:
    """No case found what an earlier one left (the program's 'found' exit code), and every case is AC."""
    for case in run.cases:
        _expect_contained(
            not (case["verdict"] == "RE" and case["exit_code"] == exit_code),
            f"case {case['name']} found what an earlier run left (exit {exit_code})",
            run,
        )
    _expect_accepted(run, CASES[HSUM])


def _tag() -> str:
    """A name part unique to this test run, so parallel sessions never meet each other's IPC objects or keys."""
    return uuid.uuid4().hex[:12]


# ---------------------------------------------------------------- CPU


@pytest.fixture
def hsum_python_at_one_second(tmp_path: Path, judge_process: JudgeRunner, hostile_references: None) -> Path:
    """A copy of hsum (problems/ and cases/ side by side in tmp_path) whose Python time factor is 1, not the
    registry's 3: Python's CPU limit is the C one's 1 s, wall 2 s. Judged once, so nothing in it changes later."""
    copy = tmp_path / "python-at-one" / "problems" / "hsum"
    shutil.copytree(HSUM, copy)
    shutil.copytree(HSUM_ANSWERS.parent, tmp_path / "python-at-one" / "cases" / "hsum")
    spec = copy / "problem.yaml"
    spec.write_text(spec.read_text().replace("    java: 2\n", "    java: 2\n    python3: 1\n"))
    assert "python3: 1" in spec.read_text()
    settled = judge_process(copy, copy / "solution.py", "--sandbox", "rlimits")
    assert settled.verdict == "AC", settled.describe()
    return copy


@pytest.mark.parametrize(
    "mode",
    _modes(without_cgroups="workers reaped by the kernel for a parent ignoring SIGCHLD take their CPU time with them"),
)
@pytest.mark.parametrize(
    ("source", "marker"),
    [
        pytest.param("hx_cpu_forkers.c", "hxcpufork", id="c"),
        pytest.param("hx_cpu_forkers.py", "hx_cpu_forkers.py", id="python"),  # .py: g++ of the C twin names the stem
    ],
)
def test_cpu_in_auto_reaped_children_is_tle(
    hostile: Hostile, request: pytest.FixtureRequest, mode: str, source: str, marker: str
) -> None:
    """Workers reaped by the kernel (SIGCHLD ignored) burn CPU no rusage of the parent shows: still TLE, with their
    CPU time counted. The parent itself only waits, so uncounted workers would show almost no time; on a loaded
    machine the wall limit may end the run before the CPU limit does, having counted less than the limit by then
    (0.96 s of 1 s seen under a load of 5 on 2 cores), but far more than the parent's own hundredth of a second.
    The C twin is judged under hsum_quick's 0.2 s (wall 1.2 s), which its workers exceed within a few forks, as
    surely as 1 s; the Python twin under 1 s (hsum_python_at_one_second), not Python's 3 s, which only made it
    wait: a Python parent's own start-up and forks come near a tenth of a second, which a quarter of 0.2 s would not
    tell from its workers' time."""
    python = source.endswith(".py")
    problem = request.getfixturevalue("hsum_python_at_one_second" if python else "hsum_quick")
    limit = CPU_LIMIT_S if python else QUICK_TIME_S
    run = hostile.run(problem, PROGRAMS / source, mode, marker)
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    _expect_contained(
        case["verdict"] == "TLE" and case["time"] >= limit / 4,
        f"the workers' CPU time was not counted (verdict {case['verdict']}, time {case['time']})",
        run,
    )


# ---------------------------------------------------------------- memory


@pytest.mark.parametrize("mode", _modes(without_cgroups=True))
def test_memory_spread_over_children_is_mle(hostile: Hostile, mode: str) -> None:
    """8 children of 48 MiB each: every one is under 64 MiB, together they are 384 MiB: MLE."""
    run = hostile.run(HSUM, PROGRAMS / "hx_mem_children.c", mode, "hxmemkids")
    _expect_accepted(run, ["c2", "c3"])
    _expect_mle(run, "c1")


@pytest.mark.parametrize(
    "mode", _modes(without_cgroups="memfd pages are mapped by no process: only a group counts them")
)
def test_memory_in_memfd_is_mle(hostile: Hostile, mode: str) -> None:
    """200 MiB written into memfds and never mapped: no resident memory, but 200 MiB of the machine's: MLE."""
    run = hostile.run(HSUM, PROGRAMS / "hx_mem_memfd.c", mode, "hxmemfd")
    _expect_accepted(run, ["c2", "c3"])
    _expect_mle(run, "c1")


@pytest.mark.parametrize("mode", _modes())
def test_memory_in_sysv_shm_is_counted(hostile: Hostile, mode: str) -> None:
    """200 MiB of System V shared memory: MLE, or RE 24 when the address-space limit refuses it below 64 MiB."""
    run = hostile.run(HSUM, PROGRAMS / "hx_mem_shm.c", mode, "hxmemshm")
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    held = _reported(run, "c1", "shm_mib")
    refused_below_limit = (
        case["verdict"] == "RE" and case["exit_code"] == 24 and held and held[-1] * 1024 < MEMORY_LIMIT_KB
    )
    if not refused_below_limit:
        _expect_mle(run, "c1")


@pytest.mark.parametrize("mode", _modes())
def test_memory_in_private_tmpfs_is_mle(hostile: Hostile, mode: str) -> None:
    """200 MiB of files in a tmpfs mounted in a nested user namespace: MLE, or RE 21 when the namespace is refused."""
    run = hostile.run(HSUM, PROGRAMS / "hx_mem_userns_tmpfs.c", mode, "hxmemns")
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    if not (case["verdict"] == "RE" and case["exit_code"] == 21):
        _expect_mle(run, "c1")


@pytest.mark.parametrize("mode", _modes())
def test_inode_flood_is_contained(hostile: Hostile, mode: str) -> None:
    """Up to 400,000 empty files with long names, until 1.5 s of CPU: kernel memory no file size shows.

    Contained means MLE (the kernel memory is counted), TLE, or RE 22 (a
    create refused, e.g. by an inode limit), and never more files than the
    memory limit's worth at ~1 KiB each. AC, or more files than that, is the
    escape.
    """
    run = hostile.run(HSUM, PROGRAMS / "hx_mem_inodes.c", mode, "hxinodes", jobs=1)
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    files = max(_reported(run, "c1", "files"), default=0)
    _expect_contained(
        case["verdict"] in ("MLE", "TLE") or (case["verdict"] == "RE" and case["exit_code"] == 22),
        f"the inode flood ended {case['verdict']} after {files} files",
        run,
    )
    _expect_contained(
        files * INODE_COST_KB <= MEMORY_LIMIT_KB,
        f"{files} files (~{files * INODE_COST_KB // 1024} MiB of kernel memory) "
        f"under a {MEMORY_LIMIT_KB // 1024} MiB limit",
        run,
    )


@pytest.mark.parametrize("mode", _modes())
def test_java_off_heap_memory_is_mle(hostile: Hostile, mode: str) -> None:
    """512 MiB through Unsafe.allocateMemory, outside the -Xmx heap: the JVM's whole memory counts, MLE."""
    run = hostile.run(HSUM, PROGRAMS / "HxOffHeap.java", mode, "HxOffHeap", cache=BUILT_ONCE)
    _expect_accepted(run, ["c2", "c3"])
    _expect_mle(run, "c1")


# ---------------------------------------------------------------- channels between runs


def _unlink_queue(name: str) -> None:
    """Remove the POSIX message queue if a run left it in this (the host's) IPC namespace."""
    _libc.mq_unlink(name.encode())


def _remove_sysv(key: int) -> None:
    """Remove the message queue, semaphore set and segment under `key` in the host's IPC namespace, if any."""
    for kind in ("-Q", "-S", "-M"):
        subprocess.run(["ipcrm", kind, hex(key)], capture_output=True)


@pytest.mark.parametrize("mode", _modes(without_cgroups=True))
def test_posix_message_queue_does_not_reach_next_case(hostile: Hostile, tmp_path: Path, mode: str) -> None:
    """A message queue made on c1 is not there on c2 or c3 (exit 31 would say it is): AC on every case."""
    queue = f"/hxmq-{_tag()}"
    program = _from_template("hx_chan_mq.c", tmp_path, QUEUE=queue)
    try:
        run = hostile.run(HSUM, program, mode, "hxchanmq", jobs=1)
    finally:
        _unlink_queue(queue)
    _expect_not_found(run, 31)


@pytest.mark.parametrize("mode", _modes(without_cgroups=True))
def test_sysv_ipc_does_not_reach_next_case(hostile: Hostile, tmp_path: Path, mode: str) -> None:
    """A message queue, semaphore set and segment under a fixed key on c1 are gone on c2 and c3 (else exit 32)."""
    key = 0x48000000 | int(_tag()[:6], 16)
    program = _from_template("hx_chan_sysv.c", tmp_path, KEY=hex(key))
    try:
        run = hostile.run(HSUM, program, mode, "hxchansysv", jobs=1)
    finally:
        _remove_sysv(key)
    _expect_not_found(run, 32)


@pytest.mark.parametrize("mode", _modes(without_cgroups=True))
def test_path_deeper_than_path_max_is_cleaned(hostile: Hostile, mode: str) -> None:
    """40 nested 200-character folders (8,000 characters deep) made on c1 are gone on c2 and c3 (else exit 33)."""
    run = hostile.run(HSUM, PROGRAMS / "hx_chan_deep.c", mode, "hxchandeep", jobs=1)
    assert run.case("c1")["exit_code"] != 35, f"the program could not build its deep path\n{run.describe()}"
    _expect_not_found(run, 33)


_SYS_KEYCTL = {"x86_64": 250, "aarch64": 219}.get(platform.machine())
KEY_SPEC_SESSION_KEYRING, KEY_SPEC_USER_KEYRING = -3, -4
KEYCTL_SEARCH, KEYCTL_INVALIDATE = 10, 21


def _invalidate_key(description: str) -> None:
    """Invalidate the key if a run (rlimits mode: as this user) left it in our user or session keyring."""
    if _SYS_KEYCTL is None:
        return
    for ring in (KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING):
        key = _libc.syscall(_SYS_KEYCTL, KEYCTL_SEARCH, ring, b"user", description.encode(), 0)
        if key >= 0:
            _libc.syscall(_SYS_KEYCTL, KEYCTL_INVALIDATE, key)


@pytest.fixture
def key_description() -> Iterator[str]:
    """A key description unique to this test; whatever key carries it afterwards in our keyrings is invalidated."""
    description = f"hxkey-{_tag()}"
    yield description
    _invalidate_key(description)


@pytest.mark.parametrize("mode", _modes(without_cgroups=True))
def test_keyring_does_not_reach_next_case(hostile: Hostile, tmp_path: Path, key_description: str, mode: str) -> None:
    """A key added on c1 to the user and session keyrings is not found on c2 or c3 (else exit 34).

    A refused add_key is contained too: c1 answers either way.
    """
    program = _from_template("hx_chan_key.c", tmp_path, ROLE="cases", DESC=key_description)
    run = hostile.run(HSUM, program, mode, "hxchankey", jobs=1)
    _expect_not_found(run, 34)


@pytest.mark.parametrize("mode", _modes())
def test_keyring_does_not_reach_next_submission(
    hostile: Hostile, tmp_path: Path, key_description: str, mode: str
) -> None:
    """One submission stores a key on every case; the next one, judged right after in one slot, finds none: AC."""
    (tmp_path / "store").mkdir()
    (tmp_path / "seek").mkdir()
    storer = _from_template("hx_chan_key.c", tmp_path / "store", ROLE="store", DESC=key_description)
    seeker = _from_template("hx_chan_key.c", tmp_path / "seek", ROLE="seek", DESC=key_description)
    stored = hostile.run(HSUM, storer, mode, "hxchankey", jobs=1)
    _expect_accepted(stored, CASES[HSUM])
    _expect_not_found(hostile.run(HSUM, seeker, mode, "hxchankey", jobs=1), 34)


# ---------------------------------------------------------------- reports


def _expect_no_raw_controls(text: str, where: str) -> None:
    """`text` holds no control byte a terminal or parser would act on."""
    found = sorted({f"0x{ord(c):02x}" for c in RAW_CONTROL.findall(text)})
    assert not found, f"{where} holds raw control bytes {found}:\n{text[-2000:]!r}"


@pytest.mark.parametrize("mode", _modes())
def test_control_bytes_on_stderr_are_escaped(hostile: Hostile, mode: str) -> None:
    """ESC sequences, CR, NUL, DEL and invalid UTF-8 on stderr reach the report only as visible escapes."""
    run = hostile.run(HSUM, PROGRAMS / "hx_report_escape.c", mode, "hxescape")
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    assert case["verdict"] == "RE" and case["exit_code"] == 1, run.describe()
    _expect_no_raw_controls(run.stdout, "the judge's terminal output")
    _expect_no_raw_controls(run.stderr, "the judge's stderr")
    message = case["message"]
    assert "hxescape" in message, f"the program's stderr is not in the message\n{run.describe()}"
    _expect_no_raw_controls(message, "the JSON report's message")
    assert "\\x1b" in message and "\\x00" in message and "\\x7f" in message, (
        f"the control bytes are not shown as escapes: {message!r}"
    )


EVE = "eve\x1b[31m red"


@pytest.mark.parametrize("mode", _modes())
def test_grading_reports_escape_control_bytes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    build_caches: Path,
    hostile_references: None,
    mode: str,
) -> None:
    """Grading a class with the escaping program and a student whose file name holds ESC: every report parses and none
    holds a raw ESC."""
    monkeypatch.setenv("TILEJUDGE_CACHE", str(cache_with_launcher(build_caches / mode)))
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(HSUM / "solution.py", folder / "alice.py")
    shutil.copy(PROGRAMS / "hx_report_escape.c", folder / "mallory.c")
    shutil.copy(HSUM / "solution.py", folder / f"{EVE}.py")
    out = tmp_path / "results"
    with marker_lock("hxescape"):
        done = run_cli("grade", str(HSUM), str(folder), "--out", str(out), "--sandbox", mode, "-j", "2", timeout=300)
        _assert_no_leftovers("hxescape")
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, (
        f"{done.returncode}\n{done.stdout}\n{done.stderr}"
    )
    _expect_no_raw_controls(done.stdout, "the grader's terminal output")
    _expect_no_raw_controls(done.stderr, "the grader's stderr")
    ET.parse(out / "junit.xml")
    students = {student["id"]: student for student in json.loads((out / "grades.json").read_text())["students"]}
    assert students["alice"]["verdict"] == "AC" and students["mallory"]["verdict"] == "RE", students.keys()
    assert students[EVE]["verdict"] == "AC", f"the student with ESC in the name was not graded: {list(students)}"
    for name in ("report.html", "grades.csv", "junit.xml"):
        data = (out / name).read_bytes()
        assert b"\x1b" not in data and b"\x00" not in data, f"{name} holds a raw ESC or NUL byte"


# ---------------------------------------------------------------- stdin


@pytest.fixture
def throwaway_hsum(
    tmp_path: Path, judge_process: JudgeRunner, monkeypatch: pytest.MonkeyPatch, hostile_references: None
) -> Path:
    """A copy of hsum and its cases in tmp_path (problems/ and cases/ side by side), judged once so nothing in it
    changes later."""
    copy = tmp_path / "throwaway" / "problems" / "hsum"
    shutil.copytree(HSUM, copy)
    shutil.copytree(HSUM_ANSWERS.parent, tmp_path / "throwaway" / "cases" / "hsum")
    settled = judge_process(copy, copy / "solution.py", "--sandbox", "rlimits")
    assert settled.verdict == "AC", settled.describe()
    monkeypatch.setitem(CASES, copy, CASES[HSUM])
    return copy


@pytest.mark.parametrize("mode", _modes())
def test_writing_through_stdin_is_refused(hostile: Hostile, throwaway_hsum: Path, mode: str) -> None:
    """Reopening stdin for writing, writing to fd 0, and writing the .in and .ans it names: all refused, RE 41.

    The judge reads a throw-away copy of hsum in tmp_path, which the harness
    snapshots: a successful write is reported as NotContained.
    """
    cases = throwaway_hsum.parents[1] / "cases" / "hsum" / "main"
    before = {path.name: path.read_bytes() for path in cases.iterdir()}
    run = hostile.run(throwaway_hsum, PROGRAMS / "hx_stdin_write.c", mode, "hxstdinw")
    changed = sorted(name for name, data in before.items() if (cases / name).read_bytes() != data)
    _expect_contained(not changed, f"case files changed: {changed}", run)
    _expect_accepted(run, ["c2", "c3"])
    _expect_refused(run, "c1", 41)


# ---------------------------------------------------------------- correct programs


@pytest.mark.parametrize("mode", _modes())
@pytest.mark.parametrize(
    ("source", "marker"),
    [
        pytest.param("hx_threads.cpp", "hxthreads", id="cpp-std-thread"),
        pytest.param("hx_threads.py", "hx_threads.py", id="python-threading"),
    ],
)
def test_threaded_solution_is_accepted(hostile: Hostile, mode: str, source: str, marker: str) -> None:
    """A correct solution that sums with four threads is AC: the limits leave room for thread stacks."""
    run = hostile.run(HSUM, PROGRAMS / source, mode, marker, cache=BUILT_ONCE)
    _expect_accepted(run, CASES[HSUM])


@pytest.mark.parametrize("mode", _modes())
def test_node_solution_is_accepted(judge_process: JudgeRunner, hostile_references: None, mode: str) -> None:
    """A correct JavaScript solution run with --cmd "node <file>" is AC under the 64 MiB limit."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs)")
    marker = "hx_sum.js"
    with marker_lock(marker):
        assert not _processes_marked(marker), f"processes marked {marker!r} exist before the run"
        run = judge_process(HSUM, None, "--sandbox", mode, "-j", "2", cmd=f"{node} {PROGRAMS / 'hx_sum.js'}")
        _assert_no_leftovers(marker)
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.describe()
    _expect_accepted(run, CASES[HSUM])
