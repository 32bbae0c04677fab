"""``tilejudge export-contest SITE OUT``: a contest site written as a contest package (ccs-specs ``Contest_Package``).

The spec defines a package as what the Contest API serves, stored: the JSON of ``/contests/<id>/<endpoint>`` as
``<endpoint>.json``, the event feed as ``event-feed.ndjson``, a file an object references as
``<endpoint>/<id>/<filename>``. So the export asks this site's own ICPC API for each of them, as the jury (who sees
every submission, judgement and run, and the board unfrozen), in process and over no socket, and stores the
answers: what the CDS, the resolver or DOMjudge's and Kattis' importers read is then byte for byte what they would
read from the running server. It reads a snapshot of the store (SQLite's online backup) in a temporary folder,
with a jury account of its own made there, so the site is never written and a server may keep running on it.

Besides the API's answers: ``accounts.json`` (each account's name, type and team; no password and no hash: a
password is the site's secret, and an import gives the accounts new ones or tokens), each problem as a Kattis
package ``problems/<id>/<id>.zip`` (a problem in our own format is exported as ``tilejudge export`` does; one that
cannot be is left as a reference and said so), and each submission's files as ``submissions/<id>/files.zip``.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from ..errors import UsageError
from ..model import Problem
from ..problem.formats import load
from .auth import Sessions, add_user, new_token
from .backup import snapshot
from .service import Service
from .site import Site, judged_as, load_site
from .store import STORE_FILE, Store
from .store_package import accounts
from .telemetry import Log, Telemetry

# the endpoints stored as <endpoint>.json, in the order a reader meets them
ENDPOINTS = (
    "judgement-types",
    "languages",
    "problems",
    "groups",
    "organizations",
    "teams",
    "submissions",
    "judgements",
    "runs",
    "awards",
)
TYPE_OF_ROLE = {"team": "team", "student": "team", "teacher": "judge", "jury": "judge", "admin": "admin"}
EXPORTER = "tilejudge-export"


@dataclass(frozen=True)
class Exported:
    problems: int
    teams: int
    submissions: int
    references: tuple[str, ...]  # problems written as a reference only, with why

    def __str__(self) -> str:
        text = f"{self.problems} problem(s), {self.teams} team(s), {self.submissions} submission(s) with their files"
        return text + "".join(f"\n  problem {line}" for line in self.references)


def export_contest(site_root: Path, out: Path, problems_root: Path) -> Exported:
    """Write the contest site ``site_root`` as a contest package into the new or empty folder ``out``."""
    site = load_site(site_root, problems_root)
    if site.kind != "contest":
        raise UsageError(f"{site_root}: a {site.kind} site; a contest package is a contest's (kind: contest)")
    if not (site_root / STORE_FILE).is_file():
        raise UsageError(f"{site_root}: no store yet (serve the site once, or import a package into it)")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"{out}: not empty; export-contest writes into a new or empty folder")
    problems = {name: judged_as(load(entry.path), entry) for name, entry in site.problems.items()}
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tilejudge-export-") as folder:
        snapshot(site_root / STORE_FILE, Path(folder) / STORE_FILE)
        store = Store(Path(folder))
        try:
            return _export(site, store, problems, out)
        finally:
            store.close()


def _export(site: Site, store: Store, problems: dict[str, Problem], out: Path) -> Exported:
    with store.tx() as db:  # in the snapshot only: the site's store is never written
        token = new_token(db, add_user(db, EXPORTER, "jury").id, "export-contest")[1]
    service = Service(site, store, problems, None, Sessions(os.urandom(32)))  # type: ignore[arg-type]
    client = _InProcess(service, token)
    try:
        return _write_all(client.get, service, store, problems, out)
    finally:
        client.close()


def _write_all(get: Any, service: Service, store: Store, problems: dict[str, Problem], out: Path) -> Exported:
    references = {name: _problem(service.site, name, problem, out) for name, problem in problems.items()}
    base = "/api/contests/" + get("/api/contests").json()[0]["id"]
    _write(out / "api.json", get("/api").json())
    _write(out / "contest.json", get(base).json())
    _write(out / "state.json", get(base + "/state").json())
    found: dict[str, Any] = {}
    for endpoint in ENDPOINTS:
        found[endpoint] = get(f"{base}/{endpoint}").json()
        if endpoint == "problems":  # the spec's reference to each problem's package, stored beside it
            for problem in found[endpoint]:
                if references.get(problem["id"]) is None:
                    problem["package"] = [{"filename": f"{problem['id']}.zip", "mime": "application/zip"}]
        _write(out / f"{endpoint}.json", found[endpoint])
    _write(out / "scoreboard.json", get(base + "/scoreboard").json())
    (out / "event-feed.ndjson").write_bytes(get(base + "/event-feed?stream=false").content)
    _write(out / "accounts.json", _accounts(store))
    for submission in found["submissions"]:
        folder = out / "submissions" / submission["id"]
        folder.mkdir(parents=True)
        (folder / "files.zip").write_bytes(get(f"{base}/submissions/{submission['id']}/files").content)
    reasons = tuple(reason for reason in references.values() if reason)
    return Exported(len(problems), len(found["teams"]), len(found["submissions"]), reasons)


class _InProcess:
    """The app asked over httpx's ASGI transport: no socket, no server, no lifespan (so no judging threads start);
    its request log goes nowhere."""

    def __init__(self, service: Service, token: str) -> None:
        from .app import make_app

        app = make_app(service, telemetry=Telemetry(Log(io.StringIO())))
        self._loop = asyncio.new_event_loop()
        self._client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://export",
            headers={"Authorization": f"Bearer {token}"},
        )

    def get(self, path: str) -> httpx.Response:
        answer = self._loop.run_until_complete(self._client.get(path))
        if answer.status_code != 200:
            raise UsageError(f"export-contest: GET {path} answered {answer.status_code}: {answer.text[:200]}")
        return answer

    def close(self) -> None:
        self._loop.run_until_complete(self._client.aclose())
        self._loop.close()


def _write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _accounts(store: Store) -> list[dict[str, Any]]:
    """Every account but the export's own, as the spec's account objects: no password (see the module's note)."""
    found = []
    for row in accounts(store):
        if row["name"] == EXPORTER:
            continue
        account = {"id": row["name"], "username": row["name"], "type": TYPE_OF_ROLE.get(row["role"], "judge")}
        if row["team_id"] is not None:
            account["team_id"] = row["team_id"]
        found.append(account)
    return found


def _problem(site: Site, name: str, problem: Problem, out: Path) -> str | None:
    """``problems/<id>/<id>.zip``: a Kattis package's folder as it is, ours exported as Kattis'; what could not be
    written is said (the problem stays in ``problems.json`` as a reference)."""
    folder = out / "problems" / name
    folder.mkdir(parents=True)
    source = site.problems[name].path
    if problem.package_format != "native":
        _zip_folder(source, folder / f"{name}.zip")
        return None
    from ..problem.formats.kattis_export import export

    with tempfile.TemporaryDirectory(prefix="tilejudge-export-problem-") as temp:
        made = Path(temp) / name
        try:
            export(problem, made, lambda line: None)
        except (UsageError, OSError) as exc:
            shutil.rmtree(folder)
            return f"{name}: a reference only ({exc})"
        _zip_folder(made, folder / f"{name}.zip")
    return None


def _zip_folder(source: Path, target: Path) -> None:
    """The folder as a zip of its files (links followed inside it; a run's left-overs such as ``__pycache__`` not)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for path in sorted(source.rglob("*")):
            relative = path.relative_to(source)
            if path.is_file() and "__pycache__" not in relative.parts:
                archive.write(path, relative.as_posix())
