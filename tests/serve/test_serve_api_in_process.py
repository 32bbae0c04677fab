"""The API's answers that the application alone decides, driven in the test's own process (``tests/in_process.py``).

A contest not yet open, with a queue of one, served by ``make_app`` over a store in a temporary folder: no server
process is started and no worker judges, so the one queued submission stays queued for as long as the test looks
(a live server needed a worker held by a sleeping submission, and its stop then waited for that judging). What is
tested is the mapping of the workflow's refusals to their HTTP answers on the API's own routes: a team's submission
to a closed contest is 409 ``closed``, its problem list empty, and a full queue is 503 ``queue_full`` with a
Retry-After. The order of the checks themselves is the workflow's (``test_serve_workflow.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("argon2", reason="the service's extra is not installed (pip install -r requirements-web.txt)")

from conftest import PROBLEMS, PROGRAMS  # noqa: E402
from in_process import InProcessClient  # noqa: E402

from judge.problem.formats import load  # noqa: E402
from judge.serve.app import make_app  # noqa: E402
from judge.serve.auth import Sessions, add_user, new_token  # noqa: E402
from judge.serve.service import Service  # noqa: E402
from judge.serve.site import load_site  # noqa: E402
from judge.serve.store import Store  # noqa: E402

AC_PY = (PROGRAMS / "aplusb" / "ac.py").read_text()


class Idle:
    """Workers that judge nothing: a poke is counted, the queue is left as it is."""

    def __init__(self) -> None:
        self.pokes = 0

    def poke(self) -> None:
        self.pokes += 1


def test_a_closed_contest_is_409_and_a_full_queue_503(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text(
        "kind: contest\nstart: 2999-01-01 10:00\nend: 2999-01-01 15:00\n"
        f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\nlanguages: [python3]\nlimits: {{queue: 1}}\n",
        encoding="utf-8",
    )
    store = Store(tmp_path)
    try:
        with store.tx() as db:
            tokens = {
                name: new_token(db, add_user(db, name, role).id)[1] for name, role in (("t1", "team"), ("j", "jury"))
            }
        workers = Idle()
        problems = {"aplusb": load(PROBLEMS / "aplusb", "aplusb")}
        service = Service(load_site(tmp_path, PROBLEMS), store, problems, workers, Sessions(b"k" * 32))  # type: ignore[arg-type]
        app = make_app(service)
        team, jury = (InProcessClient(app, headers={"Authorization": f"Bearer {tokens[name]}"}) for name in ("t1", "j"))
        body = {"problem": "aplusb", "files": [{"name": "a.py", "content": AC_PY}]}
        closed = team.post("/api/v1/submissions", json=body)
        assert closed.status_code == 409 and closed.json()["error"]["code"] == "closed", closed.text
        assert "not open yet" in closed.json()["error"]["message"]
        assert team.get("/api/v1/problems").json()["problems"] == []
        assert [p["id"] for p in jury.get("/api/v1/problems").json()["problems"]] == ["aplusb"]  # staff see them
        first = jury.post("/api/v1/submissions", json=body)
        assert first.status_code == 202 and first.json()["state"] == "queued", first.text
        full = jury.post("/api/v1/submissions", json=body)  # nothing judges the first: the queue of one is full
        assert full.status_code == 503, full.text
        assert full.json()["error"]["code"] == "queue_full" and int(full.headers["Retry-After"]) > 0
        assert store.one("SELECT COUNT(*) AS n FROM submissions")["n"] == 1 and workers.pokes == 1
    finally:
        store.close()
