"""Two runs joined directly (``run_direct``): every guarantee the relay gives, kept without a process in the path.

Each test runs a real submission and a real interactor (small Python
programs) in a real slot, in every sandbox mode this machine has, and each
would fail on bare pipes joined naively:

- the interactor's end-of-file reaches the submission at once (a judge
  holding the interactor's output open would leave the submission waiting
  until its wall limit);
- the submission's end-of-file reaches the interactor only once its run has
  ended (bare pipes: the interactor sees a crashing submission's output
  close, exits first with its WA, and the crash's RE is lost);
- neither side dies of SIGPIPE, or waits on a full pipe, because the other
  left first;
- an interactor that stopped reading before the submission ended is seen to
  have decided first, even when its exit is reported last;
- what the submission writes after the interactor has gone is counted
  against its output limit;
- the submission sees none of the judge's descriptors, and nothing it
  started outlives the pair.
The core's choice of path (the relay where a transcript is shown) is tested
end to end on the guessing game of ``test_interactive.py``.
"""

from __future__ import annotations

import base64
import os
import secrets
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import processes_with
from test_interactive import BINARY_SEARCH, SUBMISSIONS, kattis_guess

from judge.core import JudgeOptions, judge
from judge.core.submission import prepare_submission
from judge.problem.formats import load
from judge.run import PairResult, RunLimits, RunSpec, Slot, SlotPool, bwrap_works, resolve_sandbox, run_direct
from judge.verdict import Verdict

PYTHON = "/usr/bin/python3"
LIMITS = RunLimits(cpu=5, wall=10, memory_mib=256, output_bytes=1 << 20)


def _modes() -> list[str]:
    return ["none", "rlimits"] + (["bwrap"] if bwrap_works() is None else [])


@pytest.fixture(params=_modes())
def slot(request: pytest.FixtureRequest) -> Iterator[Slot]:
    isolation, _ = resolve_sandbox(request.param)
    with SlotPool(1, isolation) as pool, pool.slot() as one:
        yield one


def _python(code: str, *args: str) -> list[str]:
    """A command running ``code``: inline, since a launcher's arguments hold no newline and a sandbox sees no file
    of the test's."""
    return [PYTHON, "-c", f"import base64;exec(base64.b64decode('{base64.b64encode(code.encode()).decode()}'))", *args]


def _pair(slot: Slot, submission: str, interactor: str) -> PairResult:
    private = slot.private
    return run_direct(
        slot,
        RunSpec(_python(submission), LIMITS, stdout=private / "unused", stderr=private / "sub.err"),
        (),
        RunSpec(
            _python(interactor),
            LIMITS,
            stdout=private / "unused",
            stderr=private / "peer.err",
            cwd=private,
            env=slot.env,
        ),
    )


def test_the_interactors_end_of_file_reaches_the_submission_at_once(slot: Slot) -> None:
    """A pseudo-interactive interactor says everything, closes its output and waits for the answer: the submission
    reads to end-of-file and answers, where a judge holding the interactor's output open would keep it waiting."""
    pair = _pair(
        slot,
        "import sys\nprint(sum(map(int, sys.stdin.read().split())), flush=True)\n",
        "import os, sys\nprint(1, 2, flush=True)\nos.close(1)\n"
        "sys.exit(42 if sys.stdin.read().split() == ['3'] else 43)\n",
    )
    assert pair.path == "direct"
    assert (pair.submission.exit_code, pair.submission.killed) == (0, "none"), pair
    assert (pair.peer.exit_code, pair.peer.killed) == (42, "none"), pair
    assert not pair.peer_left  # it read on to the submission's end-of-file


def test_the_submissions_end_of_file_waits_for_its_run_to_end(slot: Slot) -> None:
    """The submission closes its output, then crashes a moment later: the interactor sees end-of-file only once the
    crash is reported, so it cannot exit first and turn the crash (RE) into its own WA."""
    pair = _pair(
        slot,
        "import os, sys, time\nos.close(1)\ntime.sleep(0.5)\nsys.exit(3)\n",
        "import sys\nsys.stdin.read()\nsys.exit(43)\n",
    )
    assert pair.submission.exit_code == 3
    assert pair.peer.exit_code == 43
    assert not pair.peer_first, "the interactor's WA must not stand over the submission's crash"


def test_the_submission_writing_after_the_interactor_left_is_not_killed(slot: Slot) -> None:
    """The interactor accepts after one line and exits; the submission writes on (more than a pipe holds) and
    exits 0: no SIGPIPE, no wait on a full pipe. It writes once its input ends, when the interactor has gone (the
    interactor's end-of-file reaches it at once, as tested above): the order holds without a sleep, at any load."""
    pair = _pair(
        slot,
        "import sys\nprint('done', flush=True)\nsys.stdin.read()\n"
        "for _ in range(200):\n    sys.stdout.write('x' * 1000 + '\\n')\nsys.stdout.flush()\n",
        "import sys\nsys.stdin.readline()\nsys.exit(42)\n",
    )
    assert pair.peer.exit_code == 42
    assert (pair.submission.exit_code, pair.submission.signal, pair.submission.killed) == (0, None, "none"), pair
    assert not pair.overflowed


def test_the_interactor_writing_after_the_submission_left_is_not_killed(slot: Slot) -> None:
    """The submission exits at once; the interactor then writes more than a pipe holds and exits with its own
    verdict, not of a broken pipe (a judge error) nor at its wall limit. It writes once its input ends, when the
    submission's run has ended (as tested above): the order holds without a sleep, at any load."""
    pair = _pair(
        slot,
        "pass\n",
        "import sys\nsys.stdin.read()\nsys.stdout.write('y' * 300000)\nsys.stdout.flush()\nsys.exit(43)\n",
    )
    assert pair.submission.exit_code == 0
    assert (pair.peer.exit_code, pair.peer.signal, pair.peer.killed) == (43, None, "none"), pair


def test_a_grandchild_of_the_interactor_still_reading_is_found_after_its_parent_left(slot: Slot) -> None:
    """The interactor hands its input to a grandchild whose parent exits at once (so the launcher, its subreaper,
    inherits it) and closes its own copy: when the submission's run ends the grandchild still holds that input, so
    the interactor did not decide first, though the interactor itself no longer reads.

    Nothing here waits on the clock but the submission: the grandchild reads to the end-of-file, which the judge
    passes on only after its look, and the interactor waits until the grandchild has gone (the end-of-file of a
    pipe whose writing end only the grandchild kept), so both outlast the look however loaded the machine."""
    pair = _pair(
        slot,
        "print(50, flush=True)\nimport time\ntime.sleep(0.3)\n",
        "import os, sys\nsys.stdin.readline()\ngone, alive = os.pipe()\n"
        "if os.fork() == 0:\n    if os.fork() == 0:\n        while os.read(0, 65536):\n            pass\n"
        "        os._exit(0)\n    os._exit(0)\n"
        "os.wait()\nos.close(alive)\nos.close(0)\nos.read(gone, 1)\nsys.exit(42)\n",
    )
    assert (pair.submission.exit_code, pair.peer.exit_code) == (0, 42), pair
    assert not pair.peer_left and not pair.peer_first


def test_an_interactor_that_stopped_reading_first_decided_first_looking_only_at_its_own_processes(
    slot: Slot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interactor rejects, stops reading and writing, and lingers: the submission crashes on the end-of-file and
    is reported ended first, yet the interactor decided first (no process held its input any more).

    Whether the interactor still reads is looked for among the processes under its launcher, not in the
    descriptor table of every process of the machine, which cost a loaded verify 0.2 s of wall time per interactive
    case. Twenty idle processes of the test's own beside the pair: none of them is looked at. (One pair for both:
    each lingering interactor costs a second.)"""
    bystanders = [subprocess.Popen(["sleep", "30"]) for _ in range(20)]
    looked: set[str] = set()
    listdir = os.listdir

    def counting(path: str = ".") -> list[str]:
        parts = str(path).split("/")
        if len(parts) == 4 and parts[1] == "proc" and parts[3] == "fd":
            looked.add(parts[2])
        return listdir(path)

    try:
        monkeypatch.setattr(os, "listdir", counting)
        pair = _pair(
            slot,
            "print(50, flush=True)\ninput()\ninput()\n",
            "import os, sys, time\nsys.stdin.readline()\nprint('no', flush=True)\nos.close(0)\nos.close(1)\n"
            "time.sleep(1)\nsys.exit(43)\n",
        )
    finally:
        monkeypatch.undo()
        for process in bystanders:
            process.kill()
            process.wait()
    assert pair.submission.exit_code == 1 and pair.peer.exit_code == 43
    assert pair.submission.ended < pair.peer.ended  # by the clock the submission ended first
    assert pair.peer_left and pair.peer_first
    assert looked, "the interactor's processes were looked at"
    assert not looked & {str(process.pid) for process in bystanders}, looked
    assert len(looked) <= 5, looked


def test_output_nobody_reads_counts_against_the_output_limit(slot: Slot) -> None:
    """After the interactor has gone, what the submission writes is the judge's to read: past the output limit the
    pipe closes, and the submission ends there rather than at its time limit."""
    pair = _pair(
        slot,
        "import sys\nprint('done', flush=True)\nwhile True:\n    sys.stdout.write('z' * 65536)\n",
        "import sys\nsys.stdin.readline()\nsys.exit(42)\n",
    )
    assert pair.overflowed
    assert pair.submission.killed == "none" and pair.submission.cpu < LIMITS.cpu


def test_the_submission_sees_none_of_the_judges_descriptors_and_nothing_outlives_the_pair(slot: Slot) -> None:
    marker = f"direct-pair-{secrets.token_hex(4)}"
    accept = "import sys\nsys.stdin.readline()\nsys.exit(42)\n"
    _pair(slot, "print('done', flush=True)\n", accept)  # the slot's launchers are started, and stay, from here on
    before = set(os.listdir("/proc/self/fd")), threading.active_count()
    pair = _pair(
        slot,
        "import os, subprocess, sys\n"
        "print(' '.join(sorted(os.listdir('/proc/self/fd'))), file=sys.stderr)\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', '{marker}'], start_new_session=True)\n"
        "print('done', flush=True)\n",
        accept,
    )
    assert pair.submission.exit_code == 0, (slot.private / "sub.err").read_text()
    seen = (slot.private / "sub.err").read_text().split()
    assert seen == ["0", "1", "2", "3"], seen  # its three streams and the folder listing them
    assert processes_with(marker) == []
    assert (set(os.listdir("/proc/self/fd")), threading.active_count()) == before


@pytest.mark.parametrize("transcripts", [False, True], ids=["verify", "judge"])
def test_the_core_joins_directly_where_no_transcript_is_shown(tmp_path: Path, transcripts: bool) -> None:
    """verify and time-limit inference show no exchange, so secret cases go directly; a sample case's exchange is
    the contestant's and always kept (the relay); ``judge`` and grading show every case's. The verdicts are the
    same on both paths: a crash after a correct search is RE, a rejection the interactor made first stands."""
    package = kattis_guess(
        tmp_path / "guess",
        submissions={
            "accepted/search.py": BINARY_SEARCH,
            "run_time_error/exit_after_correct.py": SUBMISSIONS["run_time_error/exit_after_correct.py"],
            "wrong_answer/crash_after_rejection.py": SUBMISSIONS["wrong_answer/crash_after_rejection.py"],
        },
    )
    (package / "data" / "sample").mkdir()
    for ext, text in (("in", "37\n"), ("ans", "\n")):
        (package / "data" / "sample" / f"1.{ext}").write_text(text)
    for case in ("01", "02", "04"):  # one secret case shows the direct path as well as four: each costs two PyPy runs
        for ext in ("in", "ans"):
            (package / "data" / "secret" / f"{case}.{ext}").unlink()
    problem = load(package)
    expected = {"accepted": Verdict.AC, "run_time_error": Verdict.RE, "wrong_answer": Verdict.WA}
    with SlotPool(1, resolve_sandbox(None)[0]) as pool:
        for folder, verdict in expected.items():
            source = next((package / "submissions" / folder).iterdir())
            program = prepare_submission(problem, source, pool)
            report = judge(problem, program, pool, JudgeOptions(transcripts=transcripts))
            assert report.verdict is verdict, report
            kept = {f"{c.group}/{c.name}": bool(c.transcript) for c in report.cases if c.verdict is not Verdict.SKIPPED}
            assert kept.pop("sample/1"), report
            assert kept == {"secret/03": transcripts}, kept
            assert {c.verdict for c in report.cases} == {verdict}, report  # the relayed sample's, the direct case's
