"""A slot pool's private folder on a memory filesystem, owned through a lock, and the removal of a dead pool's.

The folder holds what the judge keeps of each run (its output, stderr, the
checker's files), so a judge killed with SIGKILL would leave them behind,
run after run. Every run creates, fills, reads and removes two files or more
there: on a disk filesystem (ext4) creating a file costs a journal
transaction, 70 us each on an idle machine and several times that on a busy
one, as much as a tiny program's whole run; on ``/dev/shm`` (tmpfs) it costs
4 us. So the folder goes there where the machine has one, else in the
temporary folder. What it holds is bounded all the same: the launcher stops
every stream at the output limit. A sandboxed run never sees it: bwrap
gives a run a /dev of its own, and rlimits mode as root a fresh tmpfs on
/dev/shm (as on /tmp); rlimits mode as another user shows runs the judge's
own view of the machine wherever the folder is. The owner holds an exclusive ``flock`` on ``.owner`` in it for
its whole life; the kernel drops the lock when the owner dies however it dies,
so the next pool's start can tell a dead owner's folder from a live one's
without trusting a pid that may have been reused. The lock file is made under
another name and renamed into place once locked, so no other judge ever finds
an unlocked ``.owner`` in a live folder.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from pathlib import Path

PREFIX = "tilejudge-"
OWNER = ".owner"
MEMORY_FOLDER = Path("/dev/shm")


def parents() -> list[Path]:
    """Where private folders are made (the first) and looked for: the memory filesystem when this process may write
    there, and the temporary folder (where older judges made them, and the place on a machine without one)."""
    places = [MEMORY_FOLDER] if MEMORY_FOLDER.is_dir() and os.access(MEMORY_FOLDER, os.W_OK | os.X_OK) else []
    return [*places, Path(tempfile.gettempdir())]


def claim() -> tuple[Path, int]:
    """A new private folder (0711: runs may cross it to their scratch, never list it) and its lock's descriptor,
    which the caller keeps open for as long as it uses the folder."""
    root = Path(tempfile.mkdtemp(prefix=PREFIX, dir=parents()[0]))
    root.chmod(0o711)
    fresh = root / f"{OWNER}.new"
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.write(fd, f"{os.getpid()}\n".encode())
    os.rename(fresh, root / OWNER)
    return root, fd


def release(root: Path, fd: int) -> None:
    """Remove the folder, then let its lock go."""
    shutil.rmtree(root, ignore_errors=True)
    os.close(fd)


def reclaim(parent: Path | None = None) -> list[Path]:
    """Remove the private folders whose owner is gone. A folder without an owner file is not one of these (an older
    judge's, a uid lease folder) and is left alone, as is anything that is not a real folder."""
    removed = []
    for root in (found for place in ([parent] if parent else parents()) for found in place.glob(f"{PREFIX}*")):
        if root.is_symlink() or not root.is_dir():
            continue
        try:
            fd = os.open(root / OWNER, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # its owner lives
            os.close(fd)
            continue
        release(root, fd)
        removed.append(root)
    return removed
