"""The server's numbers and log lines: what ``/metrics`` shows in Prometheus' text format, and a line per request and
per judging on stderr or ``--log FILE`` (``--log-json``: one JSON object a line, for a collector).

The text format is written here rather than with ``prometheus-client``: four kinds of line and one escaping rule
are less than a dependency whose process-wide registry would be shared by every app a test makes. Counters and
histograms count from the server's start (Prometheus takes a restart's reset in its stride); what the store knows
(the queue) is read at each scrape instead.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TextIO

HTTP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
JUDGING_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)


def number(value: float) -> str:
    """A sample's value as the text format writes it (``+Inf`` included)."""
    if value == float("inf"):
        return "+Inf"
    return repr(float(value))


def labels(names: Iterable[str], values: Iterable[str]) -> str:
    """``{a="x",b="y"}`` with the format's escaping of backslash, double quote and newline."""
    pairs = []
    for name, value in zip(names, values):
        escaped = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        pairs.append(f'{name}="{escaped}"')
    return "{" + ",".join(pairs) + "}" if pairs else ""


def printable(text: str) -> str:
    """A text log line as it may reach a terminal: a client's path can carry control characters (a newline would
    forge a line, an escape sequence would repaint the screen), shown escaped instead."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}" for c in text)


def head(name: str, kind: str, text: str) -> list[str]:
    return [f"# HELP {name} {text}", f"# TYPE {name} {kind}"]


@dataclass
class Counter:
    name: str
    help: str
    label_names: tuple[str, ...]
    values: dict[tuple[str, ...], float] = field(default_factory=dict)

    def inc(self, key: tuple[str, ...], by: float = 1.0) -> None:
        self.values[key] = self.values.get(key, 0.0) + by

    def lines(self) -> list[str]:
        out = head(self.name, "counter", self.help)
        for key, value in sorted(self.values.items()):
            out.append(f"{self.name}{labels(self.label_names, key)} {number(value)}")
        return out


@dataclass
class Histogram:
    name: str
    help: str
    label_names: tuple[str, ...]
    buckets: tuple[float, ...]
    series: dict[tuple[str, ...], list[float]] = field(default_factory=dict)  # per bucket, then +Inf, then the sum

    def observe(self, key: tuple[str, ...], value: float) -> None:
        counts = self.series.setdefault(key, [0.0] * (len(self.buckets) + 2))
        for index, bound in enumerate(self.buckets):
            if value <= bound:
                counts[index] += 1
        counts[-2] += 1
        counts[-1] += value

    def lines(self) -> list[str]:
        out = head(self.name, "histogram", self.help)
        names = (*self.label_names, "le")
        for key, counts in sorted(self.series.items()):
            for bound, count in zip((*self.buckets, float("inf")), counts):
                out.append(f"{self.name}_bucket{labels(names, (*key, number(bound)))} {number(count)}")
            out.append(f"{self.name}_sum{labels(self.label_names, key)} {number(counts[-1])}")
            out.append(f"{self.name}_count{labels(self.label_names, key)} {number(counts[-2])}")
        return out


class Log:
    """One line per event, flushed at once; ``as_json`` writes each as a JSON object (time first) for a collector."""

    def __init__(self, stream: TextIO | None = None, as_json: bool = False) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.as_json = as_json
        self._lock = threading.Lock()

    def line(self, kind: str, fields: dict[str, Any], text: str) -> None:
        moment = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()) if not self.as_json else None
        if self.as_json:
            shown = json.dumps({"time": round(time.time(), 3), "kind": kind, **fields}, separators=(",", ":"))
        else:
            shown = printable(f"{moment} {kind} {text}")
        with self._lock:
            try:
                self.stream.write(shown + "\n")
                self.stream.flush()
            except (OSError, ValueError):  # a full disk or a closed stream must not fail a request or a judging
                pass


class Telemetry:
    """Everything counted since the start, and the log the counting writes to."""

    def __init__(self, log: Log | None = None) -> None:
        self.log = log or Log()
        self._lock = threading.Lock()
        self.http = Histogram(
            "tilejudge_http_request_duration_seconds",
            "Time to answer an HTTP request (an event stream: its whole life), by route template, method and status.",
            ("route", "method", "status"),
            HTTP_BUCKETS,
        )
        self.judging = Histogram(
            "tilejudge_judging_duration_seconds",
            "Time from a submission's claim by a worker to its stored result, by language.",
            ("language",),
            JUDGING_BUCKETS,
        )
        self.verdicts = Counter("tilejudge_verdicts_total", "Judgings finished and stored, by verdict.", ("verdict",))

    def request(self, method: str, path: str, route: str, status: int, seconds: float, client: str) -> None:
        shown_method = method if method in METHODS else "other"  # a client's made-up methods: one series, not many
        with self._lock:
            self.http.observe((route, shown_method, str(status)), seconds)
        fields = {"method": method, "path": path, "route": route, "status": status, "ms": round(seconds * 1000, 1)}
        fields["client"] = client
        self.log.line("http", fields, f"{method} {path} {status} {seconds * 1000:.1f}ms {client or '-'}")

    def judged(
        self, sid: int, attempt: int, problem: str, language: str, verdict: str, score: float, seconds: float
    ) -> None:
        with self._lock:
            self.judging.observe((language,), seconds)
            self.verdicts.inc((verdict,))
        fields = {"submission": sid, "attempt": attempt, "problem": problem, "language": language}
        fields |= {"verdict": verdict, "score": score, "seconds": round(seconds, 3)}
        text = f"submission {sid} attempt {attempt} {problem} {language} {verdict} {score:g} {seconds:.2f}s"
        self.log.line("judging", fields, text)

    def lines(self) -> list[str]:
        with self._lock:
            return [*self.verdicts.lines(), *self.judging.lines(), *self.http.lines()]
