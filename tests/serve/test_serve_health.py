"""``/healthz``, ``/metrics`` and the log, on a real server behind ``--proxy 127.0.0.1`` (so a request can come from
elsewhere by its ``X-Forwarded-For``), logging JSON lines to a file.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import PROBLEMS
from serving import Client, Server, add_user, write_site

AC = "import sys\nfor line in sys.stdin:\n    a, b = line.split()\n    print(int(a) + int(b))\n"
ELSEWHERE = {"X-Forwarded-For": "203.0.113.7"}  # a client the proxy on 127.0.0.1 forwarded
# one sample line of the text format: a name, optional labels, a value
SAMPLE = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*",?)*\})? \S+$')


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str, Path]]:
    root = tmp_path_factory.mktemp("health")
    shutil.copytree(PROBLEMS / "aplusb", root / "aplusb")
    folder = write_site(root / "site", f"problems:\n  - problem: {root / 'aplusb'}\nlanguages: [python3]\n")
    student = add_user(folder, "sam", "student")
    log = root / "serve.log"
    server = Server(
        folder, workers=1, jobs=1, extra=["--proxy", "127.0.0.1", "--log", str(log), "--log-json"], admin_password=False
    )
    server.start()
    try:
        yield server, student, log
    finally:
        server.stop()


def _samples(text: str) -> dict[str, float]:
    """Each sample line by its name and labels; every line must be a comment or a valid sample."""
    found = {}
    for line in text.splitlines():
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            continue
        assert SAMPLE.match(line), f"not the text format: {line!r}"
        key, value = line.rsplit(" ", 1)
        found[key] = float(value)
    return found


def test_healthz_reports_each_part_from_this_machine(site: tuple[Server, str, Path]) -> None:
    server, _, _ = site
    answer = httpx.get(server.url + "/healthz")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["status"] == "ok" and body["problems"] == "ready"
    assert body["store"]["writable"] is True
    assert body["workers"]["configured"] == 1 and body["workers"]["alive"] == 1
    assert body["sandbox"]["ready"] is True and body["sandbox"]["mode"] in ("bwrap", "rlimits", "none")
    assert body["queue"]["length"] == 0 and body["queue"]["oldest_seconds"] == 0


def test_from_elsewhere_only_staff_read_them(site: tuple[Server, str, Path]) -> None:
    server, student, _ = site
    for path in ("/healthz", "/metrics"):
        assert httpx.get(server.url + path, headers=ELSEWHERE).status_code == 401
        as_student = {**ELSEWHERE, "Authorization": f"Bearer {student}"}
        refused = httpx.get(server.url + path, headers=as_student)
        assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
        as_admin = {**ELSEWHERE, "Authorization": f"Bearer {server.admin_token()}"}
        assert httpx.get(server.url + path, headers=as_admin).status_code == 200


def test_metrics_count_a_judging_and_the_requests(site: tuple[Server, str, Path]) -> None:
    server, student, _ = site
    sam = Client(server, student)
    sid = sam.submit("aplusb", "sum.py", AC)["id"]
    assert sam.done(sid)["verdict"] == "AC"
    answer = httpx.get(server.url + "/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples = _samples(answer.text)
    assert samples["tilejudge_queue_length"] == 0 and samples["tilejudge_queue_oldest_age_seconds"] == 0
    assert samples['tilejudge_verdicts_total{verdict="AC"}'] == 1
    assert samples['tilejudge_judging_duration_seconds_count{language="python3"}'] == 1
    assert samples['tilejudge_judging_duration_seconds_bucket{language="python3",le="+Inf"}'] == 1
    assert samples['tilejudge_workers{state="idle"}'] + samples['tilejudge_workers{state="running"}'] == 1
    assert samples['tilejudge_workers{state="stopped"}'] == 0
    # the latency of the submission's reads is counted under its route's template, never under its id
    series = '{route="/api/v1/submissions/{sid}",method="GET",status="200"}'
    polled = f"tilejudge_http_request_duration_seconds_count{series}"
    assert samples[polled] >= 1
    assert not any(f"/submissions/{sid}" in key for key in samples)


def test_one_json_log_line_per_request_and_per_judging(site: tuple[Server, str, Path]) -> None:
    server, student, log = site
    sam = Client(server, student)
    sid = sam.submit("aplusb", "sum.py", AC)["id"]
    assert sam.done(sid)["verdict"] == "AC"
    assert httpx.get(server.url + "/api/v1/nothing-here").status_code == 404
    # a request's line is written once its answer has ended, which the client may see first: wait for it, bounded
    deadline = time.monotonic() + 30
    while "/api/v1/nothing-here" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = [json.loads(line) for line in log.read_text().splitlines()]  # each line is one JSON object
    judged = [line for line in lines if line["kind"] == "judging" and line["submission"] == sid]
    assert len(judged) == 1
    assert judged[0]["verdict"] == "AC" and judged[0]["language"] == "python3" and judged[0]["seconds"] > 0
    missing = [line for line in lines if line["kind"] == "http" and line["path"] == "/api/v1/nothing-here"]
    assert len(missing) == 1 and missing[0]["status"] == 404 and missing[0]["method"] == "GET"
    posts = [line for line in lines if line["kind"] == "http" and line["method"] == "POST"]
    assert posts and all(line["route"] == "/api/v1/submissions" and line["status"] == 202 for line in posts)
    assert "http GET" not in (server.log.read_text())  # the log went to the file, not to stderr


def test_a_clients_made_up_method_and_path_stay_one_series_and_one_line(site: tuple[Server, str, Path]) -> None:
    server, _, log = site
    for n in range(3):  # three made-up methods: one series "other", never three
        httpx.request(f"BREW{n}", server.url + "/api/v1/x%0A{%22kind%22:%22judging%22}")
    samples = _samples(httpx.get(server.url + "/metrics").text)
    methods = {re.search(r'method="([^"]*)"', key).group(1) for key in samples if "method=" in key}  # type: ignore[union-attr]
    assert "other" in methods and not any(method.startswith("BREW") for method in methods)
    forged = [json.loads(line) for line in log.read_text().splitlines() if "BREW" in line]
    assert len(forged) == 3 and all(line["kind"] == "http" and "\n" in line["path"] for line in forged)
