"""The rush run twice: on a server judging with its own threads, then on one sending its work to local Dask workers.

Each run gets a fresh site (the store and the queue start empty) and its
own server, stopped with SIGTERM before the store is read; the Dask
scheduler and workers are processes of their own (``dask scheduler`` and
``dask worker`` as an operator starts them, with this judge importable),
stopped with their session however the run ends. The clients' plan
(``bench_rush.Rush``) is the same in both, so the two differ only in where
the judging happens.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..errors import SetupError
from ..text import table
from .bench_rush import Rush, _Clients, _Memory, account
from .bench_serve import REPO, _pct, _site, _start, _stop


def rush_bench(rush: Rush, cluster_workers: int = 2, log: Any = print, keep: Path | None = None) -> dict[str, Any]:
    """Both runs' figures (the cluster's skipped, with the reason, when ``cluster_workers`` is 0 or Dask is
    missing); ``keep``: a folder that receives each run's site, for a caller that reads the store again."""
    figures: dict[str, Any] = {"cpus": os.cpu_count(), "plan": asdict(rush), "load_before": os.getloadavg()[0]}
    figures["local"] = one_rush(rush, [], keep / "local" if keep else None)
    if cluster_workers:
        try:
            with dask_cluster(cluster_workers) as address:
                extra = ["--cluster", address]
                figures["cluster"] = one_rush(rush, extra, keep / "cluster" if keep else None, 2 * cluster_workers)
            figures["cluster"]["dask_workers"] = cluster_workers
            local, remote = figures["local"]["judged_per_second"], figures["cluster"]["judged_per_second"]
            figures["speed_up"] = remote / local if local else float("nan")
        except SetupError as exc:
            figures["cluster"] = {"skipped": str(exc)}
    figures["load_after"] = os.getloadavg()[0]
    show(figures, log)
    return figures


def one_rush(rush: Rush, extra: list[str], keep: Path | None, workers: int = 2) -> dict[str, Any]:
    """One rush on a fresh site and server: the clients' figures, the memory, and the store's accounting."""
    work = Path(tempfile.mkdtemp(prefix="tilejudge-bench-rush-"))
    proc = None
    try:
        site = _site(work)
        (site / "site.yaml").write_text("problems:\n  - problem: sum\n")  # the default limits, as a class has them
        proc, port, token = _start(site, workers, os.cpu_count() or 1, tuple(extra))
        clients = _Clients(port, rush, _students(port, token, rush.students))
        memory = _Memory(proc.pid)
        began = time.monotonic()
        clients.run(began + rush.seconds + max(120.0, 4 * rush.seconds))
        elapsed = time.monotonic() - began
        rss = memory.finish()
        _stop(proc)
        expected = {s.sid: s.expected for s in clients.sent if s.sid is not None}
        tally = account(site / "site.sqlite", expected)
        if keep is not None:
            shutil.copytree(site, keep)
    finally:
        if proc is not None:
            _stop(proc)
        shutil.rmtree(work, ignore_errors=True)
    posts = [s.post_ms for s in clients.sent if s.status]
    ms = {"p50": _pct(posts, 0.5), "p95": _pct(posts, 0.95), "p99": _pct(posts, 0.99), "max": max(posts)}
    waits, turns = tally.queue_wait_s or [0.0], tally.turnaround_s or [0.0]
    return {
        "submitted": len(clients.sent),
        "statuses": {str(k): v for k, v in sorted(clients.statuses.items())},
        "server_errors": sum(v for k, v in clients.statuses.items() if k >= 500 or k == 0),
        "unanswered": dict(clients.failures),
        "post_to_stored_ms": ms,
        "sent_late_p95_ms": _pct([s.late_ms for s in clients.sent], 0.95),
        "look_ms": {"p50": _pct(clients.look_ms or [0.0], 0.5), "p95": _pct(clients.look_ms or [0.0], 0.95)},
        "looks": len(clients.look_ms),
        "queue_wait_s": {"p50": _pct(waits, 0.5), "p95": _pct(waits, 0.95), "max": max(waits)},
        "turnaround_s": {"p50": _pct(turns, 0.5), "p95": _pct(turns, 0.95)},
        "accounting": {
            "accepted": tally.accepted,
            "stored": tally.stored,
            "lost": tally.lost,
            "unjudged": tally.unjudged,
            "unannounced": tally.unannounced,
            "judged_twice": tally.judged_twice,
            "wrong_verdict": tally.wrong_verdict,
            "sound": tally.sound,
        },
        "seen_by_students": sum(1 for s in clients.sent if s.verdict == s.expected),
        "judging_span_s": tally.judging_span_s,
        "judged_per_second": len(tally.turnaround_s) / tally.judging_span_s if tally.judging_span_s else 0.0,
        "drain_after_last_post_s": max(0.0, tally.judging_span_s - rush.seconds),
        "elapsed_s": elapsed,
        **rss,
    }


def _students(port: int, token: str, count: int) -> list[str]:
    from .bench_serve import Api

    admin = Api(port, token)
    tokens = []
    for n in range(count):
        status, made = admin.call("POST", "/users", {"name": f"student{n:04d}", "role": "student"})
        if status != 201 or not made:
            raise RuntimeError(f"the account student{n:04d} was refused: {status} {made}")
        tokens.append(made["token"])
    return tokens


@contextmanager
def dask_cluster(workers: int) -> Iterator[str]:
    """A Dask scheduler and ``workers`` one-thread worker processes on loopback, importing this judge; its address."""
    try:
        from distributed import Client
    except ImportError:
        raise SetupError("the cluster run needs Dask: pip install -r requirements-cluster.txt") from None
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    folder = Path(tempfile.mkdtemp(prefix="tilejudge-bench-dask-"))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        "DASK_TEMPORARY_DIRECTORY": str(folder),  # the scheduler's scratch too, removed with the folder
    }
    commands = [
        ["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        ["distributed.cli.dask_worker", address, "--nworkers", str(workers), "--nthreads", "1", "--no-dashboard"]
        + ["--local-directory", str(folder)],
    ]
    procs = []
    try:
        for n, command in enumerate(commands):
            with (folder / f"dask{n}.log").open("wb") as out:
                procs.append(
                    subprocess.Popen(
                        [sys.executable, "-m", *command],
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        env=env,
                        start_new_session=True,
                    )
                )
        try:
            with Client(address, timeout=60) as client:
                client.wait_for_workers(workers, timeout=120)
        except (OSError, TimeoutError) as exc:
            said = " | ".join((folder / f"dask{n}.log").read_text(errors="replace").splitlines()[-2:] for n in (0, 1))
            raise SetupError(f"the local Dask cluster did not start: {exc}; its logs end: {said}") from None
        yield address
    finally:
        for proc in reversed(procs):
            _stop(proc)  # the Dask scheduler and workers are process groups of their own, as the server is
        shutil.rmtree(folder, ignore_errors=True)


def show(f: dict[str, Any], log: Any) -> None:
    runs = [(name, f[name]) for name in ("local", "cluster") if name in f and "skipped" not in f[name]]
    rows = []
    for name, r in runs:
        a = r["accounting"]
        rows.append(
            [
                name,
                f"{r['post_to_stored_ms']['p50']:.0f} / {r['post_to_stored_ms']['p95']:.0f} / "
                f"{r['post_to_stored_ms']['p99']:.0f} ms",
                f"{r['queue_wait_s']['p50']:.1f} / {r['queue_wait_s']['p95']:.1f} s",
                f"{r['turnaround_s']['p95']:.1f} s",
                f"{r['look_ms']['p95']:.0f} ms",
                f"{a['accepted']}/{r['submitted']}",
                f"{len(a['lost'])}+{len(a['unjudged'])} / {len(a['judged_twice'])} / {len(a['wrong_verdict'])}",
                str(r["server_errors"]),
                f"{r['judged_per_second']:.1f}/s, drain {r['drain_after_last_post_s']:.0f} s",
                f"{r['sampled_peak_rss_mib']:.0f} MiB",
            ]
        )
    head = ["", "POST→stored p50/p95/p99", "queue wait p50/p95", "→judged p95", "GET p95", "accepted"]
    log(table(rows, [*head, "lost / twice / wrong", "5xx", "judged", "server RSS"]))
    p = f["plan"]
    log(
        f"{p['submissions']} submissions from {p['students']} students in {p['seconds']:.0f} s on {f['cpus']} CPUs, "
        f"load {f['load_before']:.1f} before, {f['load_after']:.1f} after"
        + (f"; cluster speed-up {f['speed_up']:.2f}x" if "speed_up" in f else "")
        + (f"; cluster skipped: {f['cluster']['skipped']}" if "skipped" in f.get("cluster", {}) else "")
    )
