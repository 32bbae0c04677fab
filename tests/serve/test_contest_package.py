"""Contest packages (ccs-specs ``Contest_Package.md``): ``serve SITE --import PACKAGE`` and ``export-contest``.

Our own small package (``tests/fixtures/contest_package``, written to the spec's examples) is imported, served, its
submissions judged by real programs, the site exported while its server runs, the export imported and judged
again, and the two exports compared: teams, organizations, groups, problems, accounts, submissions with their files
and verdicts, nothing lost. A bad package is refused in one line naming the file (and line), leaving no site and
no half-made folder. Where ``TILEJUDGE_CONTEST_PACKAGE`` names a local copy of a published contest's package
(docs/serve.md says which and where from), the same round trip runs on it; the test fetches nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import time
import zipfile
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from cli_in_process import run_in_process
from conftest import FIXTURES
from serving import Client, Server, add_user

PACKAGE = FIXTURES / "contest_package"
EXPECTED = {"1": "AC", "2": "WA", "3": "AC", "4": "RTE"}
REAL = "TILEJUDGE_CONTEST_PACKAGE"


def tilejudge(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """The command run in this process (``cli_in_process``): what it decides and says, without a start-up's cost."""
    code, out, err = run_in_process(list(args), timeout)
    return subprocess.CompletedProcess(list(args), code, out, err)


def imported(package: Path, site: Path) -> str:
    done = tilejudge("serve", str(site), "--import", str(package))
    assert done.returncode == 0, done.stderr
    return done.stdout


def exported(site: Path, out: Path) -> None:
    done = tilejudge("export-contest", str(site), str(out))
    assert done.returncode == 0, done.stderr


def judged(server: Server, count: int, token: str | None = None, timeout: float = 300) -> dict[str, str]:
    """Each submission's verdict (the judgement type of its last judgement), once all ``count`` are judged; asked
    with ``token``, else the token of the admin its first start made."""
    token = token or server.admin_token()
    http = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=60)
    cid = http.get("/api/contests").json()[0]["id"]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        verdicts = {
            j["submission_id"]: j.get("judgement_type_id") for j in http.get(f"/api/contests/{cid}/judgements").json()
        }
        if len(verdicts) >= count and all(verdicts.values()):
            return verdicts
        time.sleep(0.3)
    raise AssertionError(f"not all {count} submissions judged in {timeout} s: {verdicts}")


def read(folder: Path, name: str) -> Any:
    return json.loads((folder / name).read_text())


def unzipped(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def refused(package: Path, site: Path) -> str:
    """The one line an import refusing ``package`` prints; no site and no hidden folder beside it are left."""
    before = set(site.parent.iterdir()) if site.parent.exists() else set()
    done = tilejudge("serve", str(site), "--import", str(package))
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not site.exists()
    assert set(site.parent.iterdir()) == before  # nothing half-made beside it
    return done.stderr.strip()


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The fixture package imported and judged, exported while served, imported and judged again, exported again."""
    tmp = tmp_path_factory.mktemp("package")
    first, second = tmp / "first", tmp / "second"
    said = imported(PACKAGE, first)
    servers = [Server(first).start()]
    try:
        found: dict[str, Any] = {"said": said, "first": judged(servers[0], 4), "server": servers[0]}
        exported(first, tmp / "out1")  # while its server runs: the export reads a snapshot
        imported(tmp / "out1", second)
        token = add_user(second, "checker", "jury")  # the admin came with the package: no new one is made
        servers.append(Server(second).start())
        found["second"] = judged(servers[1], 4, token)
        exported(second, tmp / "out2")
        found["out1"], found["out2"] = tmp / "out1", tmp / "out2"
        yield found
    finally:
        for server in servers:
            server.stop()


@pytest.mark.slow
def test_an_imported_package_keeps_its_ids_and_its_submissions_are_judged(round_trip: Any) -> None:
    assert round_trip["first"] == EXPECTED
    assert "left out: accounts.yaml:15: the analyst account 'anna'" in round_trip["said"]
    out = round_trip["out1"]
    teams = {team["id"]: team for team in read(out, "teams.json")}
    assert set(teams) == {"team-001", "45", "team-003"}
    assert teams["45"]["organization_id"] == "uu.se" and teams["45"]["display_name"] == "Off By One (Uppsala)"
    assert teams["team-001"]["group_ids"] == ["univ", "nordic"]
    assert {o["id"]: o["formal_name"] for o in read(out, "organizations.json")}["kth.se"] == (
        "KTH Royal Institute of Technology"
    )
    assert {g["id"] for g in read(out, "groups.json")} == {"univ", "nordic"}
    problems = [(p["id"], p["label"], p["rgb"], p["color"], p["time_limit"]) for p in read(out, "problems.json")]
    assert problems == [("addition", "A", "#00f", "blue", 2.0), ("echo", "B", "#808080", "gray", 2.5)]
    contest = read(out, "contest.json")
    assert (contest["name"], contest["duration"], contest["scoreboard_freeze_duration"]) == (
        "Tile Judge Spring Contest",
        "5:00:00.000",
        "1:00:00.000",
    )
    assert (contest["id"], contest["start_time"]) == ("tiles-spring", "2026-03-01T09:00:00.000Z")


@pytest.mark.slow
def test_a_password_the_package_gives_logs_in(round_trip: Any) -> None:
    server = round_trip["server"]
    cid = read(round_trip["out1"], "contest.json")["id"]
    assert httpx.get(f"{server.url}/api/contests/{cid}/teams", auth=("team45", "four-five-under")).status_code == 200
    assert httpx.get(f"{server.url}/api/contests/{cid}/teams", auth=("team45", "wrong-password")).status_code == 401


@pytest.mark.slow
def test_the_export_imported_again_loses_nothing(round_trip: Any) -> None:
    out1, out2 = round_trip["out1"], round_trip["out2"]
    assert round_trip["second"] == round_trip["first"]
    for name in ("teams.json", "organizations.json", "groups.json", "problems.json", "contest.json"):
        assert read(out1, name) == read(out2, name), name
    assert read(out1, "accounts.json") == [a for a in read(out2, "accounts.json") if a["id"] != "checker"]
    keys = ("id", "team_id", "problem_id", "language_id", "time")
    assert [{k: s[k] for k in keys} for s in read(out1, "submissions.json")] == [
        {k: s[k] for k in keys} for s in read(out2, "submissions.json")
    ]
    for submission in read(out1, "submissions.json"):
        files = f"submissions/{submission['id']}/files.zip"
        assert unzipped(out1 / files) == unzipped(out2 / files) == unzipped(PACKAGE / files)
    for problem in ("addition", "echo"):
        assert unzipped(out1 / "problems" / problem / f"{problem}.zip") == unzipped(
            out2 / "problems" / problem / f"{problem}.zip"
        )


@pytest.mark.slow
def test_the_export_holds_what_the_tools_read(round_trip: Any) -> None:
    out = round_trip["out1"]
    feed = [json.loads(line) for line in (out / "event-feed.ndjson").read_text().splitlines() if line.strip()]
    kinds = {event["type"] for event in feed}
    assert {"contest", "problems", "teams", "organizations", "groups", "submissions", "judgements", "runs"} <= kinds
    verdicts = {
        e["data"]["submission_id"]: e["data"].get("judgement_type_id") for e in feed if e["type"] == "judgements"
    }
    assert verdicts == EXPECTED
    board = read(out, "scoreboard.json")["rows"]
    assert board[0]["team_id"] == "team-001" and board[0]["score"]["num_solved"] == 2
    assert any(award["id"] == "winner" and award["team_ids"] == ["team-001"] for award in read(out, "awards.json"))
    assert {j["judgement_type_id"] for j in read(out, "judgements.json")} == {"AC", "WA", "RTE"}
    assert read(out, "runs.json")
    accounts = read(out, "accounts.json")
    assert all("password" not in account for account in accounts)
    assert {(a["username"], a["type"], a.get("team_id")) for a in accounts} >= {
        ("team001", "team", "team-001"),
        ("team45", "team", "45"),
        ("judy", "judge", None),
    }


def test_a_zipped_package_imports_as_its_folder_does(tmp_path: Path) -> None:
    archive = tmp_path / "tiles-spring.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for path in sorted(PACKAGE.rglob("*")):
            if path.is_file():
                out.write(path, "tiles-spring/" + path.relative_to(PACKAGE).as_posix())
    said = imported(archive, tmp_path / "site")
    assert "2 problem(s), 3 team(s), 4 account(s), 4 submission(s)" in said
    db = sqlite3.connect(tmp_path / "site" / "site.sqlite")
    assert sorted(row[0] for row in db.execute("SELECT team_id FROM icpc_teams")) == ["45", "team-001", "team-003"]
    assert [row[0] for row in db.execute("SELECT id FROM submissions ORDER BY id")] == [1, 2, 3, 4]
    db.close()


def _copy(tmp_path: Path) -> Path:
    package = tmp_path / "package"
    shutil.copytree(PACKAGE, package)
    return package


def test_a_bad_colour_is_refused_naming_the_file_and_line(tmp_path: Path) -> None:
    package = _copy(tmp_path)
    text = (package / "problems.yaml").read_text().replace("rgb: '#808080'", "rgb: grey-ish")
    (package / "problems.yaml").write_text(text)
    assert refused(package, tmp_path / "sites" / "site").startswith("problems.yaml:8: rgb must be a colour")


def test_broken_json_is_refused_with_its_line(tmp_path: Path) -> None:
    package = _copy(tmp_path)
    (package / "teams.json").write_text('[\n  {"id": "a", "name": "A"},\n  {"id": "b" "name": "B"}\n]\n')
    assert "teams.json:3: invalid JSON" in refused(package, tmp_path / "sites" / "site")


def test_a_team_of_no_organization_is_refused(tmp_path: Path) -> None:
    package = _copy(tmp_path)
    teams = json.loads((package / "teams.json").read_text())
    teams[2]["organization_id"] = "mit.edu"
    (package / "teams.json").write_text(json.dumps(teams, indent=1))
    line = refused(package, tmp_path / "sites" / "site")
    assert "teams.json:" in line and "organization_id 'mit.edu' is in no organizations file" in line


def test_a_problem_package_that_fails_to_load_leaves_no_site(tmp_path: Path) -> None:
    package = _copy(tmp_path)
    (package / "echo" / "problem.yaml").write_text("name: Echo\nlimits: [not, a, mapping]\n")
    assert "echo" in refused(package, tmp_path / "sites" / "site")


@pytest.mark.parametrize(
    "entry",
    [
        ("../escape.txt", 0o100644, b"out"),
        ("/etc/evil", 0o100644, b"out"),
        ("pkg/link", 0o120777, b"/etc/passwd"),
    ],
    ids=["climbs-out", "absolute", "symlink"],
)
def test_a_hostile_zip_is_refused_whole(tmp_path: Path, entry: tuple[str, int, bytes]) -> None:
    archive = tmp_path / "hostile.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for path in sorted(PACKAGE.rglob("*")):
            if path.is_file():
                out.write(path, "pkg/" + path.relative_to(PACKAGE).as_posix())
        info = zipfile.ZipInfo(entry[0])
        info.external_attr = entry[1] << 16
        out.writestr(info, entry[2])
    line = refused(archive, tmp_path / "sites" / "site")
    assert "hostile.zip" in line and ("outside" in line or "symbolic link" in line)
    assert not (tmp_path / "escape.txt").exists()


def test_domjudge_tsv_files_keep_their_ids(tmp_path: Path) -> None:
    package = _copy(tmp_path)
    for name in ("teams.json", "accounts.yaml", "groups.json", "organizations.json", "submissions.json"):
        (package / name).unlink()
    (package / "groups.tsv").write_text("File_Version\t1\n12\tUniversities\n")
    (package / "teams.tsv").write_text(
        "teams\t1\n"
        "1\tkth-1\t12\tStack Smashers\tKTH Royal Institute of Technology\tKTH\tSWE\tkth.se\n"
        "2\t\t12\tOff By One\tUppsala University\tUppsala\tSWE\tuu.se\n"
    )
    (package / "accounts.tsv").write_text("accounts\t1\nteam\tStack Smashers\tteam001\tslide-the-tiles\tkth-1\n")
    imported(package, tmp_path / "site")
    db = sqlite3.connect(tmp_path / "site" / "site.sqlite")
    rows = db.execute(
        "SELECT u.name, t.team_id, t.organization_id, t.group_ids FROM users u JOIN icpc_teams t ON t.user_id = u.id"
        " ORDER BY t.team_id"
    ).fetchall()
    assert rows == [("2", "2", "uu.se", '["12"]'), ("team001", "kth-1", "kth.se", '["12"]')]
    assert db.execute("SELECT name, country FROM organizations WHERE id = 'kth.se'").fetchone() == ("KTH", "SWE")
    db.close()


def test_a_site_that_exists_is_not_overwritten(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "site.yaml").write_text("problems: [poj2893]\n")
    done = tilejudge("serve", str(site), "--import", str(PACKAGE))
    assert done.returncode != 0 and "not an empty folder" in done.stderr
    assert (site / "site.yaml").read_text() == "problems: [poj2893]\n"


def _real_package(tmp_path: Path) -> Path:
    """The published package ``TILEJUDGE_CONTEST_PACKAGE`` names, copied with its contest moved to now (it is over:
    a team could not submit), all else as published."""
    source = os.environ.get(REAL)
    if not source:
        pytest.skip(f"{REAL} names no local copy of a published contest package (docs/serve.md)")
    package = tmp_path / "real"
    shutil.copytree(source, package, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    contest = package / "contest.yaml"
    start = (datetime.now(timezone.utc) - timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = [
        f"start_time: {start}" if line.startswith("start_time:") else line for line in contest.read_text().splitlines()
    ]
    contest.write_text("\n".join(lines) + "\n")
    return package


@pytest.mark.slow
def test_a_published_contest_package_round_trips(tmp_path: Path) -> None:
    package = _real_package(tmp_path)
    problems = yaml.safe_load((package / "problems.yaml").read_text())
    tried: dict[str, tuple[Path, str]] = {}
    for problem in problems:  # the first three problems with both an accepted and a wrong Python submission
        folder = package / problem["id"] / "submissions"
        right, wrong = sorted((folder / "accepted").glob("*.py")), sorted((folder / "wrong_answer").glob("*.py"))
        if right and wrong and len(tried) < 6:
            tried[f"{problem['id']}/ok"], tried[f"{problem['id']}/wa"] = (right[0], "AC"), (wrong[0], "WA")
    assert tried, "the package has no problem with accepted and wrong_answer Python submissions"
    first = tmp_path / "first"
    imported(package, first)
    token = add_user(first, "visitors", "team")
    server = Server(first).start()
    try:
        client = Client(server, token)
        ids = {
            key: client.submit(key.split("/")[0], path.name, path.read_text(), "python3")["id"]
            for key, (path, _) in tried.items()
        }
        verdicts = judged(server, len(ids))
        assert {key: verdicts[str(ids[key])] for key in ids} == {key: want for key, (_, want) in tried.items()}
        exported(first, tmp_path / "out1")
    finally:
        server.stop()
    second = tmp_path / "second"
    imported(tmp_path / "out1", second)
    checker = add_user(second, "checker", "jury")
    server = Server(second).start()
    try:
        assert judged(server, len(ids), checker) == verdicts
    finally:
        server.stop()
    exported(second, tmp_path / "out2")
    for name in ("problems.json", "teams.json", "contest.json"):
        assert read(tmp_path / "out1", name) == read(tmp_path / "out2", name), name
    assert [p["id"] for p in read(tmp_path / "out1", "problems.json")] == [p["id"] for p in problems]


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("id: -bad-", "site.yaml:2: id must be an identifier"),
        ("problems: [{problem: poj2893, rgb: blue}]", "site.yaml:2: rgb must be a colour"),
        ("problems: [{problem: poj2893, time_limit: 0}]", "site.yaml:2: time_limit must be seconds over 0"),
    ],
    ids=["id", "rgb", "time_limit"],
)
def test_the_site_keys_an_import_writes_are_checked_with_their_line(tmp_path: Path, line: str, said: str) -> None:
    from conftest import REPO_ROOT

    from judge.errors import SpecError
    from judge.serve.site import load_site

    text = "kind: contest\n" + line + "\nstart: 2026-03-01 10:00\nend: 2026-03-01 15:00\n"
    if not line.startswith("problems"):
        text += "problems: [poj2893]\n"
    (tmp_path / "site.yaml").write_text(text)
    with pytest.raises(SpecError) as refusal:
        load_site(tmp_path, REPO_ROOT / "problems")
    assert said in str(refusal.value)


def test_a_class_site_is_no_contest_to_export(tmp_path: Path) -> None:
    site = tmp_path / "class"
    site.mkdir()
    (site / "site.yaml").write_text("problems: [poj2893]\n")
    done = tilejudge("export-contest", str(site), str(tmp_path / "out"))
    assert done.returncode == 2 and "a class site; a contest package is a contest's" in done.stderr
    assert not (tmp_path / "out").exists()
