"""``bench --serve --rush``: a class's last minutes before a deadline, driven at a server over loopback.

Hundreds of students send a few small programs each in the last minutes,
more of them the nearer the deadline (the arrival rate rises linearly to
twice its mean), and each student's page asks for its submission's state
every few seconds until it is judged. The server is the real one (a process
of its own, as ``bench --serve`` starts it: tools never import the service)
with the site's default limits, so a refusal the defaults would give a real
class shows here too. Measured: POST to stored (the answer comes after the
commit) while judging runs, the queue's wait (the store's ``submitted`` to the
judging's ``started``), the server's resident memory sampled from ``/proc``,
and the accounting read from the store afterwards (``account``): every
accepted submission stored once and judged once with the verdict its program
earns, none stored that no client was told of. Then the same rush judged by
two local Dask workers (``serve --cluster``), and the speed-up.
"""

from __future__ import annotations

import heapq
import http.client
import json
import random
import sqlite3
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bench_serve import RUN

WRONG_EVERY = 10  # one submission in ten prints a wrong sum: its verdict must come back WA, not AC
C_EVERY = 4  # one in four is C (compiled), the rest Python
SUM_C = (
    '#include <stdio.h>\nint main(void) {{ long a, b; scanf("%ld %ld", &a, &b); printf("%ld\\n", a + b{extra}); }}\n'
)
SUM_PY = "a, b = map(int, input().split())\nprint(a + b{extra})\n"


@dataclass(frozen=True)
class Rush:
    """The rush's size: ``submissions`` from ``students`` within ``seconds``, sent by ``senders`` connections."""

    students: int = 500
    submissions: int = 2000
    seconds: float = 300.0
    senders: int = 48  # connections from this one address: under serve's 128 per address, as behind a NAT
    poll: float = 5.0  # seconds between a student's looks at their pending submission

    def scaled(self, scale: float) -> Rush:
        """A smaller rush for a quick run: every count and the duration times ``scale`` (at least a few of each)."""
        return Rush(
            max(4, round(self.students * scale)),
            max(8, round(self.submissions * scale)),
            max(2.0, self.seconds * scale),
            max(4, min(self.senders, round(self.submissions * scale / 2))),
            self.poll,
        )


@dataclass
class Sent:
    """What the clients saw of one planned submission."""

    number: int
    student: int
    expected: str  # AC or WA
    status: int = 0  # the POST's HTTP status; 0: no answer (a connection error)
    sid: int | None = None
    post_ms: float = 0.0
    late_ms: float = 0.0  # how long after its planned time it was sent (the senders were all busy)
    verdict: str | None = None  # as the student's last look saw it


@dataclass
class Tally:
    """The accounting of one rush, from the store (never from what the clients believe)."""

    accepted: int = 0
    stored: int = 0
    lost: list[int] = field(default_factory=list)  # told 202, not in the store
    unjudged: list[int] = field(default_factory=list)  # stored, but no result by the end of the rush's bound
    unannounced: list[int] = field(default_factory=list)  # in the store, no client was told of it
    judged_twice: list[int] = field(default_factory=list)  # more than one result or attempt
    wrong_verdict: list[int] = field(default_factory=list)  # a verdict other than its program's
    queue_wait_s: list[float] = field(default_factory=list)
    turnaround_s: list[float] = field(default_factory=list)  # submitted to judged
    judging_span_s: float = 0.0  # first submitted to last judged

    @property
    def sound(self) -> bool:
        return not (self.lost or self.unjudged or self.unannounced or self.judged_twice or self.wrong_verdict)


def account(store: Path, expected: dict[int, str]) -> Tally:
    """The rush's accounting from the site's store (read-only): ``expected`` maps every id a client was given to
    the verdict its program earns. A submission with no current result, with two results, or with an attempt past
    the first counts against the server."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=30)
    db.row_factory = sqlite3.Row
    try:
        subs = {row["id"]: row for row in db.execute("SELECT id, submitted, started, attempt, state FROM submissions")}
        results: dict[int, list[sqlite3.Row]] = {}
        for row in db.execute("SELECT submission_id, verdict, judged, started, current FROM results ORDER BY id"):
            results.setdefault(row["submission_id"], []).append(row)
    finally:
        db.close()
    tally = Tally(accepted=len(expected), stored=len(subs))
    tally.unannounced = sorted(set(subs) - set(expected))
    first, last = float("inf"), 0.0
    for sid, verdict in sorted(expected.items()):
        sub, kept = subs.get(sid), results.get(sid, [])
        if sub is None or not kept:
            (tally.lost if sub is None else tally.unjudged).append(sid)
            continue
        if len(kept) > 1 or sub["attempt"] != 1:
            tally.judged_twice.append(sid)
        current = next((r for r in kept if r["current"]), kept[-1])
        if current["verdict"] != verdict:
            tally.wrong_verdict.append(sid)
        tally.queue_wait_s.append(current["started"] - sub["submitted"])
        tally.turnaround_s.append(current["judged"] - sub["submitted"])
        first, last = min(first, sub["submitted"]), max(last, current["judged"])
    tally.judging_span_s = max(0.0, last - first)
    return tally


def _program(number: int) -> tuple[str, str, str, str]:
    """The ``number``th submission: language, file name, source (distinct: the build cache must not answer), and
    the verdict it earns."""
    wrong = number % WRONG_EVERY == WRONG_EVERY - 3
    extra = " + 1" if wrong else ""
    tag = f"rush {number} {RUN}"
    if number % C_EVERY == 0:
        return "c", "main.c", SUM_C.format(extra=extra) + f"// {tag}\n", "WA" if wrong else "AC"
    return "python3", "main.py", SUM_PY.format(extra=extra) + f"# {tag}\n", "WA" if wrong else "AC"


def _plan(rush: Rush) -> list[tuple[float, int]]:
    """(seconds from the start, student) per submission: the rate rises linearly to the deadline, and each student
    sends about the same number, spread over the rush."""
    rng = random.Random(50)
    students = [n % rush.students for n in range(rush.submissions)]
    rng.shuffle(students)
    return [(_plan_time(rush, k), students[k]) for k in range(rush.submissions)]


def _plan_time(rush: Rush, number: int) -> float:
    """The density of sending times rises linearly from 0 to twice the mean at the deadline: ``t = T * sqrt(u)``."""
    return rush.seconds * ((number + 0.5) / rush.submissions) ** 0.5


class _Conn:
    """One sender's keep-alive connection; the token is each request's (one sender serves many students).

    The server closes a connection left idle for 5 s (uvicorn's keep-alive), and a request sent as it closes it is
    lost unanswered; a POST is never sent twice (it may have been stored), so a connection idle for ``IDLE`` is
    replaced before it is used, as a browser does. Each failure's kind is kept in ``failures``."""

    IDLE = 3.0

    def __init__(self, port: int, failures: Counter[str]) -> None:
        self.port, self.failures = port, failures
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.used = time.monotonic()

    def call(self, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        if time.monotonic() - self.used > self.IDLE:
            self._fresh()
        for again in (False, True):
            try:
                self.conn.request(method, "/api/v1" + path, json.dumps(body) if body is not None else None, headers)
                answer = self.conn.getresponse()
                data = answer.read()
                self.used = time.monotonic()
                return answer.status, json.loads(data) if data.startswith(b"{") else None
            except (http.client.HTTPException, OSError) as exc:
                self.failures[f"{method} {type(exc).__name__}"] += 1
                self._fresh()
                if method != "GET" or again:  # a POST may have been stored: never sent twice
                    return 0, None
        return 0, None

    def _fresh(self) -> None:
        self.conn.close()
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        self.used = time.monotonic()


class _Clients:
    """The senders: a third of them send the planned POSTs, the rest the students' looks at their pending
    submissions, each kind from its own heap of due work: as in a class, where each student has a browser of their
    own, a POST never waits for a free connection behind others' looks (``late_ms`` says when it did wait)."""

    def __init__(self, port: int, rush: Rush, tokens: list[str]) -> None:
        self.port, self.rush, self.tokens = port, rush, tokens
        self.start = time.monotonic()
        self.heaps: dict[str, list[tuple[float, int]]] = {"post": [], "look": []}  # (due, index into sent)
        self.sent: list[Sent] = []
        self.look_ms: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.failures: Counter[str] = Counter()  # requests that got no answer, by method and error
        self.pending = 0
        self.cond = threading.Condition()
        for number, (at, student) in enumerate(_plan(rush)):
            self.sent.append(Sent(number, student, _program(number)[3]))
            heapq.heappush(self.heaps["post"], (self.start + at, number))
        self.pending = len(self.sent)

    def run(self, deadline: float) -> None:
        """Send the plan, and look until each submission is judged or ``deadline``; the senders are daemons, so an
        interrupted bench ends without waiting for them."""
        posters = max(1, self.rush.senders // 3)
        kinds = ["post"] * posters + ["look"] * max(1, self.rush.senders - posters)
        threads = [threading.Thread(target=self._sender, args=(kind, deadline), daemon=True) for kind in kinds]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def _next(self, kind: str, deadline: float) -> int | None:
        heap = self.heaps[kind]
        with self.cond:
            while self.pending and time.monotonic() < deadline and (heap or kind == "look"):
                if heap and heap[0][0] <= time.monotonic():
                    return heapq.heappop(heap)[1]
                wait = (heap[0][0] - time.monotonic()) if heap else 1.0
                self.cond.wait(max(0.0, min(wait, deadline - time.monotonic(), 1.0)))
            return None

    def _later(self, index: int) -> None:
        with self.cond:
            heapq.heappush(self.heaps["look"], (time.monotonic() + self.rush.poll, index))
            self.cond.notify()

    def _done(self) -> None:
        with self.cond:
            self.pending -= 1
            self.cond.notify_all()

    def _sender(self, kind: str, deadline: float) -> None:
        conn = _Conn(self.port, self.failures)
        while (index := self._next(kind, deadline)) is not None:
            entry = self.sent[index]
            token = self.tokens[entry.student]
            if kind == "post":
                language, name, text, _ = _program(entry.number)
                planned = self.start + _plan_time(self.rush, entry.number)
                began = time.monotonic()
                body = {"problem": "sum", "language": language, "files": [{"name": name, "content": text}]}
                status, view = conn.call("POST", "/submissions", token, body)
                entry.post_ms, entry.late_ms = (time.monotonic() - began) * 1e3, (began - planned) * 1e3
                entry.status = status
                with self.cond:
                    self.statuses[status] += 1
                if status == 202 and view:
                    entry.sid = view["id"]
                    self._later(index)
                else:
                    self._done()
                continue
            began = time.monotonic()
            status, view = conn.call("GET", f"/submissions/{entry.sid}", token)
            with self.cond:
                self.look_ms.append((time.monotonic() - began) * 1e3)
                self.statuses[status] += 1
            if status == 200 and view and view["state"] in ("done", "error"):
                entry.verdict = view["verdict"]
                self._done()
            else:
                self._later(index)
        conn.conn.close()


class _Memory:
    """The server's resident set sampled from ``/proc`` twice a second; its kernel-kept peak read at the end too."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak_kib, self.stop = pid, 0, threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _field(self, name: str) -> int:
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith(name + ":"):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    def _sample(self) -> None:
        while not self.stop.wait(0.5):
            self.peak_kib = max(self.peak_kib, self._field("VmRSS"))

    def finish(self) -> dict[str, float]:
        self.stop.set()
        self.thread.join()
        return {"sampled_peak_rss_mib": self.peak_kib / 1024, "kernel_peak_rss_mib": self._field("VmHWM") / 1024}
