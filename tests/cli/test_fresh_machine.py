"""What a newcomer meets first: the judge run from a virtual environment, wherever it lives.

A venv made under /tmp (as people do) puts the interpreter inside the folder
every sandbox replaces with its own scratch, and a pyenv shim is a shell
script that needs pyenv's state: the command's interpreter must be bound
wherever it lives, and a sandbox that cannot be set up must say so in one
line.
"""

from __future__ import annotations

import io
import json
import os
import shlex
import site
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from conftest import REPO_ROOT, JudgeRunner, needs, program

from judge.errors import JudgeError
from judge.lang import command
from judge.run import Bind, Isolation, RunLimits, RunSpec, SlotPool

MODES = [pytest.param("bwrap", marks=needs("bwrap"), id="bwrap"), pytest.param("rlimits", id="rlimits")]


@pytest.fixture(scope="module")
def tmp_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment under /tmp, made from the interpreter running the tests (itself a venv, in CI)."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    assert str(venv).startswith("/tmp/"), venv
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    # the judge's own packages (PyYAML, tqdm) from the environment running the tests, so the judge can run from it
    site_packages = next(venv.glob("lib/python*/site-packages"))
    (site_packages / "outer.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return venv


@pytest.mark.parametrize("mode", MODES)
def test_cmd_interpreter_of_a_venv_under_tmp_is_reachable(
    judge_process: JudgeRunner, tmp_venv: Path, mode: str
) -> None:
    run = judge_process("aplusb", None, "--sandbox", mode, "-j", "1", cmd=f"{tmp_venv}/bin/python3 {program('ac.py')}")
    assert run.returncode == 0 and run.verdict == "AC", run.describe()


@pytest.mark.parametrize("mode", MODES)
def test_judge_running_from_a_venv_under_tmp_with_cmd_on_its_path(tmp_venv: Path, tmp_path: Path, mode: str) -> None:
    """``--cmd "python3 sol.py"`` typed in an activated venv under /tmp, the judge itself running from it: the
    venv is bound for the judge's own Python and the command's interpreter lies inside that bind."""
    report = tmp_path / "report.json"
    env = {**os.environ, "PATH": f"{tmp_venv}/bin:{os.environ['PATH']}", "VIRTUAL_ENV": str(tmp_venv)}
    done = subprocess.run(
        [
            str(tmp_venv / "bin" / "python3"),
            "run_judge.py",
            "judge",
            "tests/fixtures/problems/aplusb",
            "--cmd",
            f"python3 {program('ac.py')}",
            "--sandbox",
            mode,
            "-j",
            "1",
            "--json",
            str(report),
        ],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"verdict": "AC"' in report.read_text()


def test_binds_cover_the_venv_and_its_base_once(tmp_venv: Path) -> None:
    argv = command.resolve(f"{tmp_venv}/bin/python3 {program('ac.py')}")
    shown = [b.path for b in command.binds(argv)]
    assert tmp_venv in shown  # the venv itself (pyvenv.cfg, site-packages), not only its bin/python3
    assert not any(tmp_venv in p.parents for p in shown)  # nothing bound again inside it
    assert all(not b.writable for b in command.binds(argv))
    base_home = Path(sys.base_prefix)
    if not str(base_home).startswith("/usr"):
        assert base_home in shown or any(p in base_home.parents for p in shown)


def test_outermost_keeps_folders_and_drops_what_they_contain() -> None:
    paths = [Path("/a/b/c"), Path("/a/b"), Path("/a/bc"), Path("/x/y"), Path("/a/b")]
    assert command.outermost(paths) == [Path("/a/b"), Path("/a/bc"), Path("/x/y")]


def test_each_symlink_hop_is_made_visible(tmp_path: Path) -> None:
    real = tmp_path / "real" / "tool"
    real.parent.mkdir()
    real.write_text("#!/bin/sh\n")
    (tmp_path / "hop").symlink_to(real)
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "tool").symlink_to("../hop")
    shown = [b.path for b in command.binds([str(tmp_path / "bin" / "tool")])]
    assert shown == [tmp_path / "bin" / "tool", tmp_path / "hop", real]


@needs("bwrap")
def test_a_sandbox_that_cannot_be_set_up_says_why_in_one_line(tmp_path: Path) -> None:
    with SlotPool(1, Isolation("bwrap")) as pool, pool.slot() as slot:
        spec = RunSpec(
            argv=["/bin/true"],
            limits=RunLimits(cpu=1, wall=5, memory_mib=64, output_bytes=1 << 10),
            stdout=tmp_path / "out",
            stderr=tmp_path / "err",
        )
        with pytest.raises(JudgeError) as raised:
            slot.run_untrusted(spec, [Bind(tmp_path / "no-such-folder")])
    message = str(raised.value)
    assert message.startswith("the sandbox could not be set up: bwrap:") and "no-such-folder" in message
    assert "\n" not in message


def test_a_pyenv_shim_is_replaced_by_the_interpreter_behind_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shim is a script needing pyenv's own state, which a sandboxed run lacks (it ended in exit 127)."""
    real = Path(sys.executable).resolve()
    shims, tools = tmp_path / "shims", tmp_path / "tools"
    shims.mkdir()
    tools.mkdir()
    (shims / "python3").write_text("#!/bin/sh\nexit 127\n")
    (tools / "pyenv").write_text(f"#!/bin/sh\n[ \"$1 $2\" = 'which python3' ] && echo {real}\n")
    for script in (shims / "python3", tools / "pyenv"):
        script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shims}:{tools}:/usr/bin:/bin")
    assert command.resolve("python3 -c pass")[0] == str(real)


def test_json_dash_writes_the_report_to_stdout_alone(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(REPO_ROOT / "run_judge.py"),
            "judge",
            str(REPO_ROOT / "tests/fixtures/problems/aplusb"),
            str(program("wa.py")),
            "--json",
            "-",
            "--sandbox",
            "none",
            "-j",
            "1",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)  # nothing but the JSON on stdout
    assert report["verdict"] == "WA" and len(report["cases"]) == 4
    assert "WA (wrong answer)" in done.stderr  # the summary still reaches the person, on stderr
    assert not (tmp_path / "-").exists()


def test_the_format_docs_and_the_readme_say_the_same_of_the_memory_limit() -> None:
    """They disagreed: the format page called it an address-space limit, the README a control-group limit. The
    README's details moved to docs/judging.md and docs/sandbox.md: all of them say the same."""
    row = next(
        line
        for line in (REPO_ROOT / "docs" / "problem-format.md").read_text().splitlines()
        if line.startswith("| `limits.memory`")
    )
    readme = (REPO_ROOT / "README.md").read_text()
    assert "control group" in row and "process tree" in row
    assert (
        "address-space limit per process" in row and "without usable control groups" in row
    )  # the fallback, named as such
    assert "whole process tree" in readme and "control group" in readme
    judging, sandbox = (
        " ".join((REPO_ROOT / "docs" / page).read_text().split()) for page in ("judging.md", "sandbox.md")
    )
    assert "the limit bounds the whole process tree through the run's control group" in judging
    assert "without usable control groups the limit falls back to an address-space rlimit" in judging
    assert "limits the whole process tree of a run through a **control group**" in sandbox
    assert "| no usable cgroup |" in sandbox and "per-process address-space rlimit" in sandbox


def _readme_commands() -> list[str]:
    """The commands of the README's set-up section, in order."""
    readme = (REPO_ROOT / "README.md").read_text()
    section = readme[readme.index("## Set-up: two commands") :]
    section = section[: section.index("\n## ", 3)]
    return [block.strip() for block in section.split("```")[1::2]]


def test_ci_runs_exactly_the_readmes_test_command_in_a_fresh_venv() -> None:
    judge_command, test_command = _readme_commands()[:2]
    ci = [
        line
        for line in (REPO_ROOT / ".ci" / "run").read_text().splitlines()
        if line and not line.startswith(("#", "set ", "cd "))
    ]
    assert ci == [test_command]
    for readme_command in (judge_command, test_command):  # a venv of its own: the machine's pip and Python only make it
        steps = [shlex.split(step) for step in readme_command.split("&&")]
        assert [step[0] for step in steps] == [".ci/setup-system", "python3", ".venv/bin/pip", ".venv/bin/python"], (
            readme_command
        )
        assert steps[1] == ["python3", "-m", "venv", ".venv"]
    assert "run_judge.py judge poj2893" in judge_command and (REPO_ROOT / ".gitignore").read_text().count(".venv/") == 1


@pytest.mark.parametrize("filtered", [True, False], ids=["data-filter", "python-3.11.2"])
def test_a_cluster_worker_unpacks_a_package_on_pythons_with_and_without_tar_filters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filtered: bool
) -> None:
    """Debian 12's Python (3.11.2) has no ``extractall(filter=...)``: every cluster task failed there."""
    from judge.grade import cluster

    if not filtered:
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    elif not hasattr(tarfile, "data_filter"):
        pytest.skip("this Python has no tar extraction filters")

    def packed(*members: tarfile.TarInfo, data: bytes = b"1 2\n") -> tarfile.TarFile:
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as tar:
            for member in members:
                tar.addfile(member, io.BytesIO(data) if member.isfile() else None)
        buffer.seek(0)
        return tarfile.open(fileobj=buffer)

    def file(name: str) -> tarfile.TarInfo:
        info = tarfile.TarInfo(name)
        info.size = 4
        return info

    def link(name: str, target: str) -> tarfile.TarInfo:
        info = tarfile.TarInfo(name)
        info.type, info.linkname = tarfile.SYMTYPE, target
        return info

    good = tmp_path / "good"
    cluster._extract(packed(file("problems/p/data/1.in"), link("problems/p/data/2.in", "1.in")), good)
    assert (good / "problems/p/data/2.in").read_bytes() == b"1 2\n"
    for bad in (file("../escaped"), link("problems/out", "../../etc/passwd")):
        with pytest.raises((JudgeError, tarfile.TarError)):
            cluster._extract(packed(bad), tmp_path / "bad" / "work")
    assert not (tmp_path / "bad" / "escaped").exists()
    try:  # an absolute name is refused, or (the data filter) made relative: never written where it points
        cluster._extract(packed(file(f"{tmp_path}/absolute")), tmp_path / "abs")
    except (JudgeError, tarfile.TarError):
        pass
    assert not (tmp_path / "absolute").exists()
