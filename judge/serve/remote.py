"""``serve --cluster ADDR``: submissions judged by the Dask workers ``grade --cluster`` uses, not on this machine.

The unit of work is ``judge.grade.cluster.judge_on_worker``, the task grade
sends: each problem is packed once at start, scattered to every worker and
named by its hash; a task carries one submission's files and language. A
worker reports the whole judging at its end, so the service records the
cases then, one event each, as if they had come one by one. A task in flight
when the server stops is released with the server's client; the restarted
server queues that submission again under a new attempt, as for local work.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..errors import SetupError
from ..grade.cluster import check_environment, judge_on_worker, pack
from ..model import Problem


class Remote:
    def __init__(self, address: str, problems: dict[str, Problem], mode: str) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise SetupError(
                "--cluster needs Dask: pip install 'tilejudge[cluster]' (or -r requirements-cluster.txt)"
            ) from None
        try:
            self.client = Client(address, timeout=30)
        except OSError as exc:
            raise SetupError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        check_environment(self.client, address)
        self.mode = mode
        self.packages: dict[str, tuple[str, Any]] = {}
        for name, problem in problems.items():
            packed = pack(problem)
            digest = hashlib.sha256(packed).hexdigest()
            self.packages[name] = (digest, self.client.scatter(packed, broadcast=True, hash=False))

    def judge(
        self, problem: Problem, site_name: str, key: str, files: list[tuple[str, bytes]], language: str
    ) -> dict[str, Any]:
        """One submission judged on some worker (this thread waits); the report names the worker."""
        digest, package = self.packages[site_name]
        (first, data), more = files[0], dict(files[1:])
        future = self.client.submit(
            judge_on_worker,
            digest,
            problem.name,
            package,
            key,
            first,
            data,
            self.mode,
            False,
            language,
            more or None,
            key=f"serve-{digest[:12]}-{key}",
            pure=False,
        )
        return future.result()

    def close(self) -> None:
        self.client.close()
