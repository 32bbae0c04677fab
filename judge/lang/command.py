"""``--cmd``: any command line as a program, and the host files it needs to see inside a sandbox.

A sandboxed run sees the system's folders and nothing else of the machine,
so a command's interpreter must be made visible wherever it lives: a
virtual environment under /tmp (which the sandbox replaces by its own
scratch), a Python built by pyenv in the home folder, a symlink whose
target lies outside the bound folders. What is bound is read-only and is
the smallest set that lets the command start: the files named on the line
with every hop of their symlinks, the virtual environment and the
installation its interpreter comes from.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

from ..errors import UsageError
from ..run import Bind, inside

SYSTEM = (Path("/usr"), Path("/bin"), Path("/lib"), Path("/lib64"), Path("/sbin"))  # what every sandbox shows read-only


def resolve(line: str) -> list[str]:
    """The words of a command line, its program found on the judge's PATH and file arguments made absolute,
    so the run's own folder does not matter."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise UsageError(f"--cmd: {exc}") from None
    if not words:
        raise UsageError("--cmd: empty command")
    exe = shutil.which(words[0]) or (str(Path(words[0]).absolute()) if Path(words[0]).is_file() else None)
    if exe is None:
        raise UsageError(f"--cmd: '{words[0]}' not found")
    exe = _behind_shim(exe, words[0])
    rest = [str(Path(w).absolute()) if Path(w).is_file() else w for w in words[1:]]
    return [exe, *rest]


def binds(argv: list[str]) -> tuple[Bind, ...]:
    """Read-only binds that make ``argv`` runnable in a sandbox: outermost paths only, none of the system's."""
    wanted: list[Path] = []
    for word in argv:
        if word.startswith("/") and os.path.exists(word):
            wanted += _link_hops(Path(word))
    wanted += _installation(Path(argv[0]))
    return tuple(Bind(path) for path in outermost(p for p in wanted if not _is_system(p)))


def outermost(paths: Iterable[Path]) -> list[Path]:
    """The paths that no other one contains, in sorted order: binding a file inside a bound folder again fails
    when it is a symlink (bwrap cannot create a file in a read-only bind) and adds nothing when it is not."""
    kept: list[Path] = []
    for path in sorted(set(paths)):  # a folder sorts before what it contains
        if not inside(path, kept):
            kept.append(path)
    return kept


def _link_hops(path: Path) -> list[Path]:
    """The path and every symlink target on the way to the real file, each bound so that each hop resolves."""
    hops = [path]
    seen = {path}
    while hops[-1].is_symlink() and len(hops) < 40:
        target = Path(os.path.normpath(hops[-1].parent / os.readlink(hops[-1])))
        if target in seen:
            break
        seen.add(target)
        hops.append(target)
    return hops


def _installation(exe: Path) -> list[Path]:
    """Folders an interpreter reads at start-up: its virtual environment (``pyvenv.cfg`` beside ``bin/``), the base
    installation that environment names, and the prefix ``P`` of a real interpreter ``P/bin/NAME`` whose library
    folder ``P/lib/NAME…`` exists (a Python, PyPy, Node or Ruby installed outside /usr)."""
    found: list[Path] = []
    venv = exe.parent.parent
    config = venv / "pyvenv.cfg"
    if config.is_file():
        found.append(venv)
        home = _config_home(config)
        if home is not None and home.name == "bin":
            found.append(home.parent)
    real = exe.resolve()
    prefix = real.parent.parent
    stem = real.name.rstrip("0123456789.-")
    if real.parent.name == "bin" and stem and any(prefix.glob(f"lib/{stem}*")):
        found.append(prefix)
    return found


def _config_home(config: Path) -> Path | None:
    """The ``home`` folder a virtual environment's ``pyvenv.cfg`` names (where its base interpreter lives)."""
    for line in config.read_text(errors="replace").splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "home" and value.strip():
            return Path(value.strip())
    return None


def _behind_shim(exe: str, name: str) -> str:
    """The real program behind a pyenv shim: the shim is a shell script that needs pyenv's own state and
    environment, neither of which a sandboxed run has."""
    if Path(exe).parent.name != "shims" or shutil.which("pyenv") is None:
        return exe
    found = subprocess.run(["pyenv", "which", name], capture_output=True, text=True, check=False)
    real = found.stdout.strip()
    return real if found.returncode == 0 and os.path.isfile(real) else exe


def _is_system(path: Path) -> bool:
    """Inside the folders every sandbox already shows read-only."""
    return inside(path, SYSTEM)
