"""``serve --cluster``: the service's submissions judged by Dask workers, as ``grade --cluster`` judges a class.

Slow: a local Dask cluster of two worker processes, and a server sending
its work there. The verdicts, the cases' events and the worker that judged
each (in the staff's view of the result) come back over HTTP.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PROBLEMS, PROGRAMS, require
from serving import Client, Server, add_user, write_site

pytestmark = pytest.mark.slow


def test_submissions_are_judged_on_the_cluster(tmp_path: Path) -> None:
    require("g++")
    # imported here, not at collection: Dask's import is a second of every pytest process's start
    distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed")
    from judge.run import build_launcher

    build_launcher()  # workers share the build cache: no worker needs to build it
    folder = write_site(tmp_path / "site", f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\n")
    student = add_user(folder, "kit", "student")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        server = Server(folder, extra=["--cluster", local.scheduler_address]).start()
        try:
            kit, jury = Client(server, student), Client(server, server.admin_token())
            ac = kit.submit("aplusb", "ac.py", (PROGRAMS / "aplusb" / "ac.py").read_text())["id"]
            wa = kit.submit("aplusb", "wa.cpp", '#include <cstdio>\nint main() { std::puts("0"); }\n', "cpp")["id"]
            two = kit.http.post(
                "/submissions",
                json={
                    "problem": "aplusb",
                    "language": "python3",
                    "files": [
                        {
                            "name": "main.py",
                            "content": "from add import add\nimport sys\n"
                            "for line in sys.stdin:\n    print(add(*map(int, line.split())))\n",
                        },
                        {"name": "add.py", "content": "def add(a, b):\n    return a + b\n"},
                    ],
                },
            ).json()["id"]
            assert [kit.done(sid)["verdict"] for sid in (ac, wa, two)] == ["AC", "WA", "AC"]
            result = jury.http.get(f"/submissions/{ac}").json()["result"]
            assert result["worker"].startswith("tcp://127.0.0.1:")
            assert "worker" not in kit.http.get(f"/submissions/{ac}").json()["result"]  # the staff's to see
            runs = [e for e in jury.http.get(f"/submissions/{ac}").json()["result"]["cases"] if e["verdict"] == "AC"]
            assert len(runs) == 4
        finally:
            server.stop()
