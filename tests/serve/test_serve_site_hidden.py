"""What a submitted program can read of the site a server judges it for: nothing, in bwrap and in rlimits mode.

The site lies where the sandbox's view shows the machine: under ``/usr/local/share``, a folder every mode shows
read-only (a site kept in a world-readable place, as an older version made its files: 0644 in 0755 folders). A
student's program, judged by a real server, tries to read the site's settings, store and key and another student's
source, by absolute path and through ``/proc`` (every process's ``root``, ``cwd`` and open descriptors), and prints
``LEAK`` for each thing it got, which makes it WA. The server runs in the site's folder (``cd SITE``), so the
judge's processes have it as their working folder. A compile ``#include``s ``site.yaml`` and the other source, and
its log must show that it found neither. A site an older version wrote has its modes tightened at the server's start.
``grade`` had the same defect with a class folder (each student's program read the others' sources), checked last.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PROBLEMS, PROGRAMS, require, run_cli
from serving import Client, Server, add_user, write_site

SLOW = pytest.mark.slow  # two servers, each started in 4 to 13 s; grading a class in each mode

SECRET = "SITESECRET-" + hashlib.sha256(str(os.getpid()).encode()).hexdigest()[:12]
BOB_SECRET = "BOBSECRET-" + hashlib.sha256(str(os.getpid() + 1).encode()).hexdigest()[:12]
BOB_SOURCE = f"# {BOB_SECRET}\n" + (PROGRAMS / "aplusb" / "ac.py").read_text()
BOB_DIGEST = hashlib.sha256(BOB_SOURCE.encode()).hexdigest()
OLD_SOURCE = b"what an older version stored\n"

PROBE = r"""
import os, sys

SITE, BOB = {site!r}, {bob!r}
MARKS = ({secret!r}.encode(), {bob_secret!r}.encode())
FILES = ["site.yaml", "site.sqlite", "site.sqlite-wal", "secret.key", "sources/" + BOB[:2] + "/" + BOB]
leaks = []


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read(1 << 20)
    except OSError:
        return None


def tried(path, how, any_bytes=False):
    data = read(path)
    if data is not None and (any(m in data for m in MARKS) or (any_bytes and data)):
        leaks.append(how + " " + path)


for name in FILES:
    tried(SITE + "/" + name, "path", any_bytes=True)
    tried("/proc/self/root" + SITE + "/" + name, "self-root", any_bytes=True)
for folder in (SITE, SITE + "/sources"):
    try:
        if os.listdir(folder):
            leaks.append("listed " + folder)
    except OSError:
        pass
for pid in [p for p in os.listdir("/proc") if p.isdigit()] + ["self", "thread-self"]:
    for name in FILES:
        tried("/proc/" + pid + "/root" + SITE + "/" + name, "root-of", any_bytes=True)
        tried("/proc/" + pid + "/cwd/" + name, "cwd-of", any_bytes=True)
    try:
        fds = os.listdir("/proc/" + pid + "/fd")
    except OSError:
        fds = []
    for fd in fds:
        where = "/proc/" + pid + "/fd/" + fd
        try:
            target = os.readlink(where)
        except OSError:
            continue
        if target.startswith(SITE):
            leaks.append("fd-to-site " + where + " " + target)
        if os.path.isdir(where):
            for name in FILES:
                tried(where + "/" + name, "fd-dir")
        elif not where.startswith("/proc/self/fd/0"):
            tried(where, "fd")
for line in sys.stdin:
    parts = line.split()
    if parts:
        print(int(parts[0]) + int(parts[1]))
for leak in leaks:
    print("LEAK", leak)
"""


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def _usable(mode: str) -> None:
    require("gcc")
    if os.geteuid() != 0:
        pytest.skip("only root's runs get another uid and a view of their own: as another user rlimits hides nothing")
    if mode == "bwrap":
        from judge.run.sandbox import bwrap_works

        problem = bwrap_works()
        if problem:
            pytest.skip(problem)


@pytest.fixture(scope="module", params=["bwrap", "rlimits"])
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """A server in the given mode for a site under /usr/local/share, with bob's secret source stored in it."""
    mode = request.param
    _usable(mode)
    package = tmp_path_factory.mktemp(f"hidden-{mode}") / "aplusb"
    shutil.copytree(PROBLEMS / "aplusb", package)
    root = Path("/usr/local/share") / f"tilejudge-test-site-{mode}-{os.getpid()}"
    try:
        folder = write_site(root, f"# {SECRET}\nproblems:\n  - problem: {package}\nlimits: {{per_minute: 100}}\n")
        tokens = {name: add_user(folder, name, "student") for name in ("alice", "bob")}
        # what an older version left: a source 0644 in 0755 folders, and a store anyone may read
        old = folder / "sources" / "00" / ("00" + "1" * 62)
        old.parent.mkdir(parents=True, mode=0o755)
        old.write_bytes(OLD_SOURCE)
        for path in (folder / "sources", old.parent):
            path.chmod(0o755)
        old.chmod(0o644)
        (folder / "site.sqlite").chmod(0o644)
        server = Server(folder, extra=["--sandbox", mode], cwd=folder).start()  # the judge's cwd: the site
        try:
            clients = {name: Client(server, token) for name, token in tokens.items()}
            clients["admin"] = Client(server, server.admin_token())
            bob = clients["bob"].done(clients["bob"].submit("aplusb", "bob.py", BOB_SOURCE)["id"])
            assert bob["verdict"] == "AC", bob
            yield {"site": folder, "mode": mode, **clients}
        finally:
            server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)


@SLOW
def test_sources_and_the_store_are_the_servers_alone(served: dict) -> None:
    site: Path = served["site"]
    sources = site / "sources"
    assert (sources / BOB_DIGEST[:2] / BOB_DIGEST).read_text() == BOB_SOURCE
    folders = [sources, *(p for p in sources.rglob("*") if p.is_dir())]
    files = [p for p in sources.rglob("*") if p.is_file()]
    assert len(files) == 2 and {oct(_mode(p)) for p in folders} == {"0o700"}, "older folders are tightened too"
    assert {oct(_mode(p)) for p in files} == {"0o600"}
    for name in ("site.sqlite", "secret.key"):
        assert _mode(site / name) == 0o600, name


@SLOW
def test_a_program_reads_nothing_of_the_site(served: dict) -> None:
    alice = served["alice"]
    probe = PROBE.format(site=str(served["site"]), bob=BOB_DIGEST, secret=SECRET, bob_secret=BOB_SECRET)
    view = alice.done(alice.submit("aplusb", "probe.py", probe)["id"])
    if view["verdict"] != "AC":
        shown = served["admin"].http.get(f"/submissions/{view['id']}").json()["result"]
        pytest.fail(f"{served['mode']}: {[case.get('output') for case in shown['cases']]} {view}")


@SLOW
@pytest.mark.parametrize("target", ["site.yaml", f"sources/{BOB_DIGEST[:2]}/{BOB_DIGEST}"], ids=["site", "source"])
def test_a_compile_cannot_include_the_site(served: dict, target: str) -> None:
    alice = served["alice"]
    source = f'#include "{served["site"] / target}"\nint main(void) {{ return 0; }}\n'
    view = alice.done(alice.submit("aplusb", "include.c", source, language="c")["id"])
    log = view["result"]["compile"]["log"]
    assert view["verdict"] == "CE" and "No such file or directory" in log, log
    assert SECRET not in log and BOB_SECRET not in log, log


@SLOW
@pytest.mark.parametrize("mode", ["bwrap", "rlimits"])
def test_grade_hides_the_class_from_each_student(mode: str, tmp_path: Path) -> None:
    """A class folder under /usr/local/share (0644 files, as a teacher's copy has them): alice's program tries bob's
    source, and the store of grade's results folder beside it, by path and through /proc. Both are hidden."""
    _usable(mode)
    package = tmp_path / "aplusb"
    shutil.copytree(PROBLEMS / "aplusb", package)
    root = Path("/usr/local/share") / f"tilejudge-test-class-{mode}-{os.getpid()}"
    probe = PROBE.format(site=str(root / "class"), bob="", secret=SECRET, bob_secret=BOB_SECRET)
    probe = probe.replace('"sources/" + BOB[:2] + "/" + BOB', '"bob.py", "../out/results.sqlite"')
    try:
        (root / "class").mkdir(parents=True)
        (root / "class" / "alice.py").write_text(probe)
        (root / "class" / "bob.py").write_text(BOB_SOURCE)
        out = root / "out"
        done = run_cli("grade", str(package), str(root / "class"), "--out", str(out), "--sandbox", mode, "-j", "2")
        assert done.returncode == 0, done.stderr
        rows = (out / "grades.csv").read_text().splitlines()
        assert {row.split(",")[0]: row.split(",")[3] for row in rows[1:]} == {"alice": "AC", "bob": "AC"}, (
            out / "grades.json"
        ).read_text()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_bwrap_covers_a_hidden_folder_it_would_show_and_binds_its_own_files_again() -> None:
    """The bwrap view itself (judge/run/sandbox.py): a hidden folder under /usr is an empty folder in the sandbox,
    but for a bound folder inside it (a problem's include/ inside a site), whose files are there."""
    _usable("bwrap")
    from judge.run.sandbox import Bind, bwrap_prefix

    root = Path("/usr/local/share") / f"tilejudge-test-view-{os.getpid()}"
    try:
        (root / "problem" / "include").mkdir(parents=True)
        (root / "site.yaml").write_text(f"# {SECRET}\n")
        (root / "problem" / "include" / "a.h").write_text("int a;\n")
        argv = bwrap_prefix([Bind(root / "problem" / "include")], [root])
        script = f"cat {root}/site.yaml; ls -A {root} {root}/problem; cat {root}/problem/include/a.h"
        done = subprocess.run([*argv, "--", "/bin/sh", "-c", script], capture_output=True, text=True, timeout=60)
        assert done.stdout.split() == [f"{root}:", "problem", f"{root}/problem:", "include", "int", "a;"], done
        assert "No such file or directory" in done.stderr and SECRET not in done.stdout
    finally:
        shutil.rmtree(root, ignore_errors=True)
