"""Grading on a Dask cluster: the same judging, run by ``dask worker`` processes on any number of machines.

Dask is imported only here, and only with ``grade --cluster``. The unit of
work is one submission: a task carries the submission's name and bytes and
a reference to the problem package, which is packed once, identified by the
hash of its bytes, scattered to every worker and unpacked into that worker's
cache, so workers share no file system with the
coordinator. A worker that dies has its tasks re-run elsewhere by the
scheduler; the coordinator stays the only writer of the results store, so a
re-run can never store a second row. Each worker runs as many judgings at
once as it has threads (``dask worker --nthreads``, default: its cores).
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import io
import os
import posixpath
import shutil
import tarfile
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..core import ReadersWriterLock
from ..errors import JudgeError, SetupError, UsageError
from ..model import Problem
from ..problem.formats import load_problem
from ..run import Isolation, SlotPool, cache_root, claim_private, release_private
from .discovery import Student
from .submissions import Results, invalid_report, judge_error_report, judge_submission

_run_lock = (
    ReadersWriterLock()
)  # one per worker process: a near-limit re-run waits for every other judging of this worker
_unpack_lock = threading.Lock()


def pack(problem: Problem) -> bytes:
    """The whole problem folder (its spec may name references under submissions/), its cases and the folders it takes
    files from outside itself (``libraries``, ``include``), as a tar in the problems/<name> + cases/<name> layout the
    loader expects, each outside folder at the same place relative to the problem."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as tar:
        tar.add(problem.root, arcname=f"problems/{problem.name}")
        if problem.cases_dir.is_dir():
            tar.add(problem.cases_dir, arcname=f"cases/{problem.name}")
        outside = [*problem.files.libraries, *([problem.files.include] if problem.files.include else [])]
        for folder in outside:
            if folder.resolve().is_relative_to(problem.root.resolve()):
                continue
            place = posixpath.normpath(
                f"problems/{posixpath.relpath(folder.resolve().as_posix(), problem.root.resolve().parent.as_posix())}"
            )
            if place.startswith(".."):
                raise UsageError(
                    f"{folder}: the problem takes files from a folder outside the one holding it; "
                    "cluster workers could not be given it"
                )
            tar.add(folder, arcname=place)
    return buffer.getvalue()


def _unpacked(package_hash: str, name: str, data: bytes) -> Path:
    """This machine's copy of the package, unpacked once per hash; a rename makes it appear whole or not at all,
    and when another worker process of the machine wins the race, its copy is used."""
    root = cache_root() / "packages" / package_hash
    with _unpack_lock:
        if not root.is_dir():
            root.parent.mkdir(parents=True, exist_ok=True)
            work = Path(tempfile.mkdtemp(prefix="unpack-", dir=root.parent))
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
                _extract(tar, work)
            try:
                os.rename(work, root)
            except OSError:
                if not root.is_dir():
                    raise
                shutil.rmtree(work, ignore_errors=True)
    return root / "problems" / name


def _extract(tar: tarfile.TarFile, work: Path) -> None:
    """Unpack only plain files, folders and links that stay inside ``work``: tarfile's "data" filter where this
    Python has it (3.11.4 and 3.10.12 on), the same refusals by hand before (Debian 12 ships Python 3.11.2)."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(work, filter="data")
        return
    for member in tar.getmembers():
        name = posixpath.normpath(member.name)
        target = (
            posixpath.normpath(posixpath.join(posixpath.dirname(name), member.linkname))
            if member.issym()
            else member.linkname
        )
        escapes = [
            part for part in (name, target if member.issym() or member.islnk() else "") if part.startswith(("/", ".."))
        ]
        if escapes or not (member.isfile() or member.isdir() or member.issym() or member.islnk()):
            raise JudgeError(
                f"the problem package sent to this worker holds {member.name!r}, which would land outside its folder"
            )
    tar.extractall(work)


_private: list[Path] = []  # this worker process's private folder, once claimed
_private_lock = threading.Lock()


@contextmanager
def submission_folder() -> Iterator[Path]:
    """A fresh folder for one submission's files, inside this worker process's private folder.

    The private folder is claimed once and held for the process's life
    (``judge/run/private_root.py``), as the service's workers hold theirs: a
    Dask worker killed while judging leaves its submissions there, and the
    next slot pool started on the machine removes them, where the system's
    temporary folder would keep them for good."""
    with _private_lock:
        if not _private:
            root, lock = claim_private()
            atexit.register(release_private, root, lock)
            _private.append(root)
    with tempfile.TemporaryDirectory(prefix="submission-", dir=_private[0]) as folder:
        yield Path(folder)


def judge_on_worker(
    package_hash: str,
    name: str,
    package: bytes,
    student: str,
    filename: str,
    source: bytes,
    mode: str,
    all_cases: bool = False,
    language: str = "",
    more: dict[str, bytes] | None = None,
) -> dict[str, Any]:
    """A Dask task: judge one submission on this worker; returns the report with the worker's address.

    ``language`` names the language instead of detecting it; ``more`` holds further files of a multi-file submission
    (the service's), judged with ``filename`` as one folder.
    """
    from distributed import get_worker

    from ..lang import LANGUAGES

    address = get_worker().address
    problem = load_problem(_unpacked(package_hash, name, package))
    with submission_folder() as folder:
        path = Path(folder) / filename
        if more:
            path = Path(folder) / "submission"
            path.mkdir()
            for file_name, data in {filename: source, **more}.items():
                (path / file_name).write_bytes(data)
        else:
            path.write_bytes(source)
        entry = Student(student, path)
        try:
            with SlotPool(1, Isolation(mode), conceal=problem.folders) as pool:
                lang = LANGUAGES[language] if language else None
                report = judge_submission(problem, entry, pool, _run_lock, all_cases, lang)
        except SetupError as exc:
            report = judge_error_report(problem, entry, str(exc))
    if report["verdict"] == "JE":  # a worker's own problem (a missing compiler): say which worker
        report["message"] = f"on worker {address}: {report.get('message', '')}"
    return {**report, "worker": address}


def check_environment(client: Any, address: str) -> None:
    """The scheduler unpickles tasks and the workers run them: both must import this judge, or every task would fail."""
    # Only builtins travel: a function of this module could not even be unpickled where the judge is missing.
    probe = functools.partial(eval, "__import__('importlib.util').util.find_spec('judge') is not None")
    hint = (
        "install the judge where they run (pip install 'tilejudge[cluster]') "
        "and start them from that environment (see docs/grading.md)"
    )
    try:
        scheduler_ok = client.run_on_scheduler(probe)
    except Exception as exc:  # the scheduler could not even run the probe
        raise SetupError(f"the Dask scheduler at {address} cannot run the judge's probe ({exc}); {hint}") from None
    if not scheduler_ok:
        raise SetupError(f"the Dask scheduler at {address} cannot import the judge; {hint}")
    workers = client.run(probe)
    if not workers:
        raise SetupError(f"the Dask scheduler at {address} has no workers")
    missing = sorted(w for w, ok in workers.items() if not ok)
    if missing:
        raise SetupError(f"{len(missing)} Dask worker(s) cannot import the judge ({', '.join(missing[:3])}); {hint}")


def cluster_results(
    problem: Problem, students: list[Student], isolation: Isolation, address: str, all_cases: bool = False
) -> Results:
    """Submit one task per submission to the scheduler at ``address`` and yield results as they complete."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SetupError(
            "--cluster needs Dask: pip install 'tilejudge[cluster]' (or -r requirements-cluster.txt)"
        ) from None
    invalid = [s for s in students if s.source is None]
    judgeable = [s for s in students if s.source is not None]
    for student in invalid:
        yield student.id, invalid_report(problem, student), "coordinator"
    if not judgeable:
        return
    try:
        client = Client(address, timeout=30)
    except OSError as exc:
        raise SetupError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    with client:
        check_environment(client, address)
        packed = pack(problem)
        # Workers unpack by the hash of these very bytes: a long-lived worker never reuses a stale unpack.
        package_hash = hashlib.sha256(packed).hexdigest()
        package = client.scatter(packed, broadcast=True, hash=False)
        futures = {
            client.submit(
                judge_on_worker,
                package_hash,
                problem.name,
                package,
                s.id,
                s.source.name,
                s.source.read_bytes(),
                isolation.mode,
                all_cases,
                key=f"judge-{package_hash[:12]}-{s.id}-{i}",
                pure=False,
            ): s
            for i, s in enumerate(judgeable)
        }
        try:
            for future in as_completed(futures):
                student = futures[future]
                try:
                    report = future.result()
                except Exception as exc:  # the task itself failed, e.g. its workers kept dying: that student's JE
                    yield (
                        student.id,
                        judge_error_report(
                            problem, student, f"the cluster could not judge it: {type(exc).__name__}: {exc}"
                        ),
                        "scheduler",
                    )
                    continue
                yield student.id, report, str(report.pop("worker"))
        finally:
            client.cancel(list(futures))
