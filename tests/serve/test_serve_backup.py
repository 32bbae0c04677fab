"""Backups (issue 50, item 3): ``serve SITE --backup FILE`` while the server judges, and ``--restore`` into a new site.

The backup is taken while one submission is being judged and others wait in
the queue, with the server running (it holds the site's lock throughout); the
restored site's server has every submission and its source, judges again what
was waiting or being judged when the copy was taken, and judges a new one. A
restore takes a new or empty folder only, and an archive that holds anything a
backup does not write is refused before anything is made.
"""

from __future__ import annotations

import gzip
import io
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import httpx
import pytest
from conftest import FIXTURES, PROBLEMS, PROGRAMS, REPO_ROOT, cli
from serving import Client, Server, add_user, write_site

SITE_YAML = f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\n"


def serve_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO_ROOT / "run_judge.py"), "serve", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
    )


def wait_for(kit: Client, sid: int, state: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while kit.http.get(f"/submissions/{sid}").json()["state"] != state:
        assert time.monotonic() < deadline, f"submission {sid} never {state}"
        time.sleep(0.05)


@pytest.mark.slow
def test_a_backup_taken_while_judging_restores_into_a_site_that_judges_on(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", SITE_YAML)
    token = add_user(site, "kit", "student")
    programs = {name: (PROGRAMS / "aplusb" / name).read_text() for name in ("ac.py", "wa.py", "re_exception.py")}
    programs["slow.py"] = "import time\ntime.sleep(0.4)  # on each case: the copy is made while it is judged\n"
    programs["slow.py"] += programs["ac.py"]
    verdicts = {"slow.py": "AC", "ac.py": "AC", "wa.py": "WA", "re_exception.py": "RE"}
    server = Server(site, workers=1, jobs=1, extra=["--stop-grace", "0"]).start()  # its stop waits for no judging
    try:
        kit = Client(server, token)
        sent = {kit.submit("aplusb", name, programs[name])["id"]: name for name in verdicts}
        wait_for(kit, min(sent), "running")  # the slow one is being judged, the rest wait behind it
        done = cli("serve", str(site), "--backup", str(tmp_path / "site.tar.gz"), timeout=120)  # in this process
        assert done.returncode == 0, done.stderr
        assert "4 submission(s), 4 source file(s)" in done.stdout
        assert httpx.get(server.url + "/api/v1", timeout=10).status_code == 200  # it served on throughout
    finally:
        server.stop()
    assert (tmp_path / "site.tar.gz").stat().st_mode & 0o777 == 0o600  # password hashes and the session key

    restored = tmp_path / "restored"
    done = cli("serve", str(restored), "--restore", str(tmp_path / "site.tar.gz"), timeout=120)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(f"file:{restored / 'site.sqlite'}?mode=ro", uri=True) as db:
        states = dict(db.execute("SELECT id, state FROM submissions").fetchall())
    db.close()
    assert states[min(sent)] == "running" and set(states) == set(sent)  # the copy was taken mid-judging
    again = Server(restored, workers=1, jobs=1).start()
    try:
        kit = Client(again, token)  # the account and its token came along
        for sid, name in sent.items():
            assert kit.done(sid)["verdict"] == verdicts[name]
            assert kit.http.get(f"/submissions/{sid}/source").json()["files"][0]["content"] == programs[name]
        new = kit.submit("aplusb", "ac.py", (PROGRAMS / "aplusb" / "ac.py").read_text() + "# later\n")["id"]
        assert new == max(sent) + 1 and kit.done(new)["verdict"] == "AC"
    finally:
        again.stop()


def archive_with(path: Path, name: str, kind: bytes = tarfile.REGTYPE) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        info = tarfile.TarInfo(name)
        info.type = kind
        info.linkname = "/etc/passwd" if kind == tarfile.SYMTYPE else ""
        tar.addfile(info, io.BytesIO(b"") if kind == tarfile.REGTYPE else None)
    return path


@pytest.mark.parametrize(
    ("name", "kind"),
    [("../outside", tarfile.REGTYPE), ("site.yaml", tarfile.SYMTYPE), ("sources/ab/not-a-digest", tarfile.REGTYPE)],
)
def test_a_restore_refuses_what_no_backup_holds(tmp_path: Path, name: str, kind: bytes) -> None:
    from judge.errors import UsageError
    from judge.serve.backup import restore

    archive = archive_with(tmp_path / "odd.tar.gz", name, kind)
    with pytest.raises(UsageError, match="is not something a backup holds"):
        restore(archive, tmp_path / "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["odd.tar.gz"]  # no site, no staging folder left


def test_a_restore_never_overwrites_a_site_and_a_backup_needs_a_store(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", SITE_YAML)
    done = serve_cli(str(site), "--backup", str(tmp_path / "b.tar.gz"))
    assert done.returncode == 2 and "no site.sqlite here" in done.stderr and len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "b.tar.gz").exists()
    archive_with(tmp_path / "b.tar.gz", "site.yaml")
    done = serve_cli(str(site), "--restore", str(tmp_path / "b.tar.gz"))
    assert done.returncode == 2 and "a site is never overwritten" in done.stderr
    assert (site / "site.yaml").read_text() == SITE_YAML


def test_a_restore_checks_every_source_against_its_name(tmp_path: Path) -> None:
    """A backup of the last release's site (no server: the copy reads the store, never writes it) whose source
    bytes were changed after is refused whole; unchanged, it restores with the store as it was."""
    from judge.errors import UsageError
    from judge.serve.backup import backup, restore

    old = FIXTURES / "sites" / "main-0d9489d"
    site = write_site(tmp_path / "site", SITE_YAML)
    (site / "site.sqlite").write_bytes(gzip.decompress((old / "site.sqlite.gz").read_bytes()))
    shutil.copytree(old / "sources", site / "sources")
    before = (site / "site.sqlite").read_bytes()
    summary = backup(site, tmp_path / "b.tar.gz")
    assert (summary.schema, summary.submissions, summary.sources) == (1, 2, 2)
    assert (site / "site.sqlite").read_bytes() == before
    with tarfile.open(tmp_path / "b.tar.gz") as tar, tarfile.open(tmp_path / "bad.tar.gz", "w:gz") as bad:
        for member in tar:
            data = tar.extractfile(member).read()
            if member.name.startswith("sources/"):
                data = data.replace(b"print", b"print ")
                member.size = len(data)
            bad.addfile(member, io.BytesIO(data))
    with pytest.raises(UsageError, match="missing or damaged"):
        restore(tmp_path / "bad.tar.gz", tmp_path / "new")
    assert not (tmp_path / "new").exists() and not [p for p in tmp_path.iterdir() if "restoring" in p.name]
    (tmp_path / "empty").mkdir()
    assert restore(tmp_path / "b.tar.gz", tmp_path / "empty") == summary
    with sqlite3.connect(tmp_path / "empty" / "site.sqlite") as db:
        assert db.execute("SELECT count(*) FROM submissions").fetchone()[0] == 2
    db.close()
    assert not (tmp_path / "empty" / "backup.json").exists()
