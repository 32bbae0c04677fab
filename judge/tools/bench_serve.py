"""``bench --serve``: the service measured over loopback HTTP, as its clients see it.

A server (``run_judge.py serve``, a process of its own: the tools layer
never imports the service) on a throw-away site with one problem of one
case; the client is the standard library's ``http.client``, one keep-alive
connection per client thread. Measured: POST to stored (the answer comes
after the commit), POST to verdict for a C program that must be compiled
(against gcc compiling it alone, the floor) and for Python, and a burst of
distinct small C submissions from many clients at once: none lost, none
judged twice, submissions per second, and the server's peak memory.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from ..text import table

REPO = Path(__file__).resolve().parents[2]
RUN = os.urandom(6).hex()  # in every source: the build cache, kept between runs, must not answer for the compiler
SUM_C = (
    '#include <stdio.h>\nint main(void) {{ long a, b; scanf("%ld %ld", &a, &b); printf("%ld\\n", a + b); }}\n// {n} '
    + RUN
    + "\n"
)
SUM_PY = "a, b = map(int, input().split())\nprint(a + b)\n# {n} " + RUN + "\n"
PROBLEM = """title: Sum
source: bench --serve
limits: {time: 1, memory: 256, output: 1}
checker: {type: lines}
solutions: [solution.py]
groups:
  - name: main
    points: 100
    cases:
      - {name: one, file: data/one.in}
"""


class Api:
    """One client: a keep-alive connection and its token."""

    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        try:
            return self._call(method, path, body)
        except (http.client.RemoteDisconnected, ConnectionResetError):
            if method != "GET":  # a POST may have been stored: never sent twice
                raise
            self.conn.close()  # the server closed an idle keep-alive connection: a GET is asked again
            return self._call(method, path, body)

    def _call(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        self.conn.request(method, "/api/v1" + path, json.dumps(body) if body is not None else None, self.headers)
        answer = self.conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")

    def submit(self, language: str, name: str, text: str, wait: int = 0) -> tuple[int, Any]:
        body = {"problem": "sum", "language": language, "files": [{"name": name, "content": text}]}
        return self.call("POST", "/submissions" + (f"?wait={wait}" if wait else ""), body)


def _site(work: Path) -> Path:
    site = work / "site"
    (site / "sum" / "data").mkdir(parents=True)
    (site / "sum" / "problem.yaml").write_text(PROBLEM)
    (site / "sum" / "statement.md").write_text("Print a + b.\n")
    (site / "sum" / "solution.py").write_text("a, b = map(int, input().split())\nprint(a + b)\n")
    (site / "sum" / "data" / "one.in").write_text("2 40\n")
    (site / "site.yaml").write_text("problems:\n  - problem: sum\nlimits: {per_minute: 100000, queue: 100000}\n")
    return site


def _start(
    site: Path, workers: int, jobs: int, extra: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[bytes], int, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = site / "server.out"
    argv = [sys.executable, str(REPO / "run_judge.py"), "serve", str(site), "--port", str(port)]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*argv, "--workers", str(workers), "-j", str(jobs), *extra],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    for _ in range(600):
        if proc.poll() is not None:
            raise RuntimeError(f"the server ended at start: {log.read_text()}")
        token = next((line.rsplit(" ", 1)[-1] for line in log.read_text().splitlines() if "its API token" in line), "")
        if token:
            try:
                if Api(port, token).call("GET", "/me")[0] == 200:
                    return proc, port, token
            except OSError:
                pass
        time.sleep(0.1)
    raise RuntimeError("the server did not answer")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's process group (it and its launchers), SIGKILL if it has not ended in 30 s."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _wait_done(api: Api, ids: list[int], timeout: float = 900) -> dict[int, Any]:
    views: dict[int, Any] = {}
    deadline = time.monotonic() + timeout
    for sid in ids:
        while time.monotonic() < deadline:
            view = api.call("GET", f"/submissions/{sid}")[1]
            if view["state"] in ("done", "error"):
                views[sid] = view
                break
            time.sleep(0.05)
    return views


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _gcc_alone(work: Path, n: int) -> float:
    """gcc alone compiling the same kind of program with the registry's flags: the least a compiled verdict takes."""
    source = work / f"floor{n}.c"
    source.write_text(SUM_C.format(n=f"floor {n}"))
    start = time.perf_counter()
    subprocess.run(["gcc", "-O2", "-std=gnu17", "-pipe", "-o", str(work / "floor"), str(source), "-lm"], check=True)
    return time.perf_counter() - start


def serve_bench(quick: bool, log: Any = print) -> dict[str, Any]:
    """Every figure of ``bench --serve``; the server is stopped however this ends."""
    stored_n, verdict_n, clients, burst = (50, 5, 20, 100) if quick else (200, 15, 50, 500)
    work = Path(tempfile.mkdtemp(prefix="tilejudge-bench-serve-"))
    proc = None
    figures: dict[str, Any] = {"cpus": os.cpu_count()}
    try:
        site = _site(work)
        proc, port, token = _start(site, workers=2, jobs=os.cpu_count() or 1)
        admin = Api(port, token)
        tokens = [
            admin.call("POST", "/users", {"name": f"c{n}", "role": "student"})[1]["token"] for n in range(clients)
        ]
        first = Api(port, tokens[0])
        first.submit("python3", "warm.py", SUM_PY.format(n="warm"), wait=10)  # the first run pays for cold caches

        stored, made = [], []
        for n in range(stored_n):
            start = time.perf_counter()
            status, view = first.submit("python3", "s.py", SUM_PY.format(n=f"stored {n}"))
            stored.append(time.perf_counter() - start)
            if status != 202:
                raise RuntimeError(f"a submission was refused: {status} {view}")
            made.append(view["id"])
        _wait_done(first, made)  # the queue drained before the verdicts are timed
        figures["post_to_stored_ms"] = {"p50": _pct(stored, 0.5) * 1e3, "p95": _pct(stored, 0.95) * 1e3, "n": stored_n}

        took: dict[str, list[float]] = {"c": [], "python": [], "gcc": []}
        for n in range(verdict_n):  # interleaved, so that the machine's drifting load hits each alike
            took["gcc"].append(_gcc_alone(work, n))
            for language, template, name in (("c", SUM_C, "c"), ("python3", SUM_PY, "python")):
                start = time.perf_counter()
                status, view = first.submit(language, f"v.{'c' if name == 'c' else 'py'}", template.format(n=n), 10)
                took[name].append(time.perf_counter() - start)
                if status != 200 or view["verdict"] != "AC":
                    raise RuntimeError(f"not judged AC within 10 s: {status} {view}")
        for name in ("c", "python"):
            figures[f"post_to_verdict_{name}_ms"] = {
                "p50": _pct(took[name], 0.5) * 1e3,
                "p95": _pct(took[name], 0.95) * 1e3,
            }
        figures["gcc_alone_ms"] = statistics.median(took["gcc"]) * 1e3

        figures["burst"] = _burst(port, tokens, burst, admin)
        figures["server_peak_rss_mib"] = _peak_rss(proc.pid)
    finally:
        if proc is not None:
            _stop(proc)
        shutil.rmtree(work, ignore_errors=True)
    _show(figures, log)
    return figures


def _burst(port: int, tokens: list[str], total: int, admin: Api) -> dict[str, Any]:
    """``total`` distinct C submissions from ``len(tokens)`` clients at once; then every one checked."""
    per_client = total // len(tokens)
    ids: list[int] = []
    refused: list[int] = []
    lock = threading.Lock()

    def client(token: str, number: int) -> None:
        api = Api(port, token)
        for k in range(per_client):
            status, view = api.submit("c", "b.c", SUM_C.format(n=f"burst {number} {k}"))
            with lock:
                (ids.append(view["id"]) if status == 202 else refused.append(status))

    start = time.perf_counter()
    threads = [threading.Thread(target=client, args=(token, n)) for n, token in enumerate(tokens)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    accepted_in = time.perf_counter() - start
    views = _wait_done(admin, sorted(ids))
    elapsed = time.perf_counter() - start
    histories = [admin.call("GET", f"/submissions/{sid}/results")[1]["results"] for sid in ids]
    return {
        "submitted": per_client * len(tokens),
        "clients": len(tokens),
        "accepted": len(ids),
        "refused": refused,
        "judged": len(views),
        "accepted_verdicts": sum(1 for v in views.values() if v["verdict"] == "AC"),
        "judged_twice": sum(1 for h in histories if len(h) != 1),
        "seconds_to_accept_all": accepted_in,
        "seconds_to_judge_all": elapsed,
        "submissions_per_second": len(views) / elapsed,
    }


def _peak_rss(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _show(f: dict[str, Any], log: Any) -> None:
    b = f["burst"]
    rows = [
        ["POST → stored", f"{f['post_to_stored_ms']['p50']:.1f} ms", f"{f['post_to_stored_ms']['p95']:.1f} ms"],
        [
            "POST → verdict, C (compiled)",
            f"{f['post_to_verdict_c_ms']['p50']:.0f} ms",
            f"{f['post_to_verdict_c_ms']['p95']:.0f} ms",
        ],
        ["gcc alone, same program", f"{f['gcc_alone_ms']:.0f} ms", ""],
        [
            "POST → verdict, Python",
            f"{f['post_to_verdict_python_ms']['p50']:.0f} ms",
            f"{f['post_to_verdict_python_ms']['p95']:.0f} ms",
        ],
    ]
    log(table(rows, ["", "p50", "p95"]))
    log(
        f"burst: {b['submitted']} C submissions from {b['clients']} clients: {b['accepted']} accepted, "
        f"{b['judged']} judged ({b['accepted_verdicts']} AC), {b['judged_twice']} judged twice, "
        f"{b['submissions_per_second']:.1f} submissions/s on {f['cpus']} CPUs; "
        f"server peak memory {f['server_peak_rss_mib']:.0f} MiB"
    )
