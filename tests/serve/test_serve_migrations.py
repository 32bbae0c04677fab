"""Upgrades (issue 50, item 2): a site made by an older judge opens, migrates in one transaction, and serves on.

The test data is a site made by main at 0d9489d, the release before the store
had a sessions table (``tests/fixtures/sites/main-0d9489d``: its store,
gzipped, the two sources it names, and its accounts' passwords and tokens in
``accounts.json``). A copy of it is served by this judge; a store newer than
this judge is refused in one line; a migration that fails, or is killed, leaves
the file's bytes as they were.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from conftest import FIXTURES, PROBLEMS, PROGRAMS, REPO_ROOT, cli
from serving import Client, Server

OLD = FIXTURES / "sites" / "main-0d9489d"
ACCOUNTS = json.loads((OLD / "accounts.json").read_text())["accounts"]


def old_site(folder: Path) -> Path:
    """A copy of the old site, its ``site.yaml`` naming this checkout's aplusb."""
    folder.mkdir(parents=True)
    (folder / "site.sqlite").write_bytes(gzip.decompress((OLD / "site.sqlite.gz").read_bytes()))
    shutil.copytree(OLD / "sources", folder / "sources")
    shutil.copy(OLD / "secret.key", folder / "secret.key")
    (folder / "site.yaml").write_text(f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\n")
    return folder


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def schema_of(path: Path) -> tuple[str, list[str]]:
    """The version the store's meta names, and its tables."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        version = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0]
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    db.close()
    return version, tables


@pytest.mark.slow
def test_a_site_made_by_the_last_release_is_migrated_and_served_on(tmp_path: Path) -> None:
    from judge.serve.migrations import LATEST

    site = old_site(tmp_path / "site")
    assert schema_of(site / "site.sqlite") == ("1", ["events", "meta", "results", "sqlite_sequence", "submissions",
                                                     "tokens", "users"])  # fmt: skip
    server = Server(site, workers=1, jobs=1).start()
    try:
        assert "the store was at schema version 1: migrated to" in server.log.read_text()
        kit, ted = Client(server, ACCOUNTS["kit"]["token"]), Client(server, ACCOUNTS["ted"]["token"])
        assert kit.http.get("/me").json()["user"]["name"] == "kit"
        for sid, verdict, name in ((1, "AC", "ac.py"), (2, "WA", "wa.py")):
            assert kit.http.get(f"/submissions/{sid}").json()["verdict"] == verdict
            assert ted.http.get(f"/submissions/{sid}").json()["verdict"] == verdict
            sent = kit.http.get(f"/submissions/{sid}/source").json()["files"]
            assert sent[0]["content"] == (PROGRAMS / "aplusb" / name).read_text()
        # the old password logs in, into a session: the table the migration added
        with httpx.Client(base_url=server.url + "/api/v1", timeout=60) as browser:
            login = browser.post("/login", json={"name": "kit", "password": ACCOUNTS["kit"]["password"]})
            assert login.status_code == 200, login.text
            assert browser.get("/me").json()["user"]["name"] == "kit"
        again = kit.submit("aplusb", "ac.py", (PROGRAMS / "aplusb" / "ac.py").read_text())["id"]
        assert again == 3 and kit.done(again)["verdict"] == "AC"
        # a question to the teacher: the clarifications table the migration added (step 4)
        asked = kit.http.post("/clarifications", json={"text": "Is the input on one line?", "problem": "aplusb"})
        assert asked.status_code == 201, asked.text
        assert [c["text"] for c in ted.http.get("/clarifications").json()] == ["Is the input on one line?"]
    finally:
        server.stop()
    version, tables = schema_of(site / "site.sqlite")
    assert version == str(LATEST) and {"sessions", "clarifications"} <= set(tables)
    assert schema_of(site / "site.sqlite.v1.bak")[0] == "1"  # the copy taken before, as it was


def test_a_store_newer_than_the_judge_is_refused_in_one_line(tmp_path: Path) -> None:
    from judge.serve.migrations import LATEST

    site = old_site(tmp_path / "site")
    with sqlite3.connect(site / "site.sqlite") as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    db.close()
    before = digest(site / "site.sqlite")
    done = cli("serve", str(site), "--add-user", "newer", timeout=60)  # in this process: the refusal is the command's
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "schema version 99" in done.stderr and f"this judge's {LATEST}" in done.stderr
    assert digest(site / "site.sqlite") == before


def failing(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE half (x)")
    raise sqlite3.OperationalError("a step that breaks")


def test_a_failing_step_leaves_the_store_exactly_as_it_was(tmp_path: Path) -> None:
    from judge.errors import SetupError
    from judge.serve.migrations import LATEST, STEPS, Step, migrate

    site = old_site(tmp_path / "site")
    store = site / "site.sqlite"
    before = digest(store)
    db = sqlite3.connect(store, isolation_level=None)
    with pytest.raises(
        SetupError, match=rf"from schema version 1 to {LATEST + 1} failed \(a step that breaks\); it is"
    ):
        migrate(db, store, (*STEPS, Step(LATEST + 1, "breaks", failing)))
    db.close()
    assert digest(store) == before
    assert schema_of(store) == ("1", ["events", "meta", "results", "sqlite_sequence", "submissions", "tokens", "users"])


KILLED = """
import os, signal, sqlite3, sys
from pathlib import Path
from judge.serve.migrations import STEPS, Step, migrate
store = Path(sys.argv[1])
db = sqlite3.connect(store, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
migrate(db, store, (*STEPS, Step(STEPS[-1].version + 1, "dies", lambda db: os.kill(os.getpid(), signal.SIGKILL))))
"""


def test_a_migration_killed_halfway_leaves_the_store_as_it_was(tmp_path: Path) -> None:
    """SIGKILL after the last step ran, inside the transaction: the next open finds version 1, whole, and migrates."""
    from judge.serve.migrations import LATEST
    from judge.serve.store import Store

    site = old_site(tmp_path / "site")
    before = digest(site / "site.sqlite")
    done = subprocess.run(
        [sys.executable, "-c", KILLED, str(site / "site.sqlite")], cwd=REPO_ROOT, capture_output=True, timeout=60
    )
    assert done.returncode == -9, done.stderr
    assert digest(site / "site.sqlite") == before
    assert schema_of(site / "site.sqlite")[0] == "1"
    store = Store(site)
    try:
        assert store.migrated is not None and (store.migrated.was, store.migrated.now) == (1, LATEST)
        assert [row["name"] for row in store.read("SELECT name FROM users ORDER BY id")] == ["kit", "ted", "admin"]
    finally:
        store.close()


def test_a_store_of_the_morning_builds_with_sessions_at_version_1_migrates(tmp_path: Path) -> None:
    """The builds between the sessions table and its step made it outside any step and still wrote version 1: the
    step that adds it finds it there and keeps its rows."""
    from judge.serve.migrations import FIRST, LATEST, SESSIONS
    from judge.serve.store import Store

    with sqlite3.connect(tmp_path / "site.sqlite") as db:
        db.executescript(FIRST + ";" + SESSIONS)
        db.execute("INSERT INTO meta VALUES ('schema', '1')")
        db.execute("INSERT INTO users(name, role, created) VALUES ('early', 'student', 0)")
        db.execute("INSERT INTO sessions(digest, user_id, csrf, created, expires) VALUES ('d', 1, 'c', 0, 9e9)")
    db.close()
    store = Store(tmp_path)
    try:
        assert store.migrated is not None and (store.migrated.was, store.migrated.now) == (1, LATEST)
        assert store.one("SELECT digest FROM sessions")["digest"] == "d"
    finally:
        store.close()
