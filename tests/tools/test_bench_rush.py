"""``bench --serve --rush``: the rush's accounting on a small rush against a real server, and that it can fail.

One quick rush (20 submissions from 5 students in 1.5 s, a tenth of them
wrong answers, a quarter in C) runs once for the module on the server's own workers (the
cluster run is ``test_serve_cluster``'s to cover; the full rush is a
benchmark, not a test). Its store is kept, and copies of it are doctored
the ways a broken server would leave it (a submission lost, judged twice,
given another's verdict, stored without the client being told): each must
show in the accounting.
"""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import cli

from judge.tools.bench_rush import Rush, account
from judge.tools.bench_rush_run import rush_bench

SCALE = 0.01
# A student looks at a pending submission every half second, not every five: at five the rush's last submissions
# were judged within a second and then waited four more for a look, the run's longest part. What is checked is
# that each look saw its verdict, not how often students look. The submissions come within 1.5 s, not the scaled
# rush's 3: the clients wait out the plan's seconds whatever the server does, and what is checked (each stored and
# judged once, each student told) does not depend on how far apart they come; the server is judging while they do.
SMALL = replace(Rush().scaled(SCALE), poll=0.5, seconds=1.5)


@pytest.fixture(scope="module")
def rush(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    keep = tmp_path_factory.mktemp("rush") / "sites"
    figures = rush_bench(SMALL, cluster_workers=0, log=lambda _: None, keep=keep)
    return figures, keep / "local" / "site.sqlite"


def test_a_small_rush_is_stored_and_judged_once_each(rush: tuple[dict[str, Any], Path]) -> None:
    figures, _ = rush
    local = figures["local"]
    assert (SMALL.submissions, SMALL.students) == (20, 5)
    assert local["submitted"] == 20 and figures["plan"]["students"] == 5
    assert local["accounting"]["accepted"] == local["accounting"]["stored"] == 20
    assert local["accounting"]["sound"], local["accounting"]
    assert local["server_errors"] == 0 and set(local["statuses"]) <= {"200", "202"}
    assert local["seen_by_students"] == 20  # every student's own look saw the verdict their program earns
    assert 0 < local["post_to_stored_ms"]["p50"] <= local["post_to_stored_ms"]["p95"]
    assert local["queue_wait_s"]["p95"] >= 0 and local["sampled_peak_rss_mib"] > 10
    assert "cluster" not in figures


def _expected(store: Path) -> dict[int, str]:
    """What the clients were told: each stored id, and the verdict its program earns (the rush's wrong answers
    print ``a + b + 1``, which the store's source names)."""
    db = sqlite3.connect(store)
    try:
        rows = db.execute("SELECT submission_id, verdict FROM results WHERE current = 1").fetchall()
    finally:
        db.close()
    return dict(rows)


def _doctored(store: Path, folder: Path, *sql: str) -> Path:
    """A copy of the store in ``folder`` (made) with ``sql`` applied, as a broken server might have left it."""
    folder.mkdir()
    copy = folder / "site.sqlite"
    for suffix in ("", "-wal", "-shm"):
        if Path(str(store) + suffix).exists():
            shutil.copy(str(store) + suffix, str(copy) + suffix)
    db = sqlite3.connect(copy)
    with db:
        for statement in sql:
            db.execute(statement)
    db.close()
    return copy


def test_the_accounting_finds_lost_doubled_and_wrong_submissions(
    rush: tuple[dict[str, Any], Path], tmp_path: Path
) -> None:
    _, store = rush
    expected = _expected(store)
    assert len(expected) == 20 and set(expected.values()) == {"AC", "WA"}
    assert account(store, expected).sound
    first, second, third, fourth = sorted(expected)[:4]

    lost = account(
        _doctored(
            store,
            tmp_path / "lost",
            f"DELETE FROM results WHERE submission_id = {first}",
            f"DELETE FROM events WHERE submission_id = {first}",
            f"DELETE FROM submissions WHERE id = {first}",
        ),
        expected,
    )
    assert lost.lost == [first] and not lost.sound

    tally = account(
        _doctored(
            store,
            tmp_path / "broken",
            f"DELETE FROM results WHERE submission_id = {second}",
            f"INSERT INTO results(submission_id, attempt, judged, verdict, score, max_score, report, current, started)"
            f" SELECT submission_id, attempt + 1, judged, verdict, score, max_score, report, 0, started FROM results"
            f" WHERE submission_id = {third}",
            f"UPDATE results SET verdict = 'TLE' WHERE submission_id = {fourth}",
        ),
        expected,
    )
    assert tally.unjudged == [second] and tally.judged_twice == [third] and tally.wrong_verdict == [fourth]
    assert not tally.sound

    told_less = {sid: verdict for sid, verdict in expected.items() if sid != first}
    unannounced = account(store, told_less)
    assert unannounced.unannounced == [first] and not unannounced.sound


@pytest.mark.parametrize(
    "args",
    [["--rush"], ["--serve", "--rush", "--rush-scale", "0"], ["--serve", "--rush", "--dask-workers", "-1"]],
)
def test_a_rush_asked_wrongly_is_refused_in_one_line(args: list[str]) -> None:
    done = cli("bench", *args)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
