"""A Dask worker killed while judging leaves no submission files behind for good.

``judge_on_worker`` writes each submission into a folder of its own. It used to
be made in the system's temporary folder, where a worker killed with SIGKILL
left ``/tmp/submission-*`` forever; now it lies inside the worker process's
private folder (``judge/run/private_root.py``), which the next slot pool
started on the machine removes once its owner is dead. No Dask is needed to
show it: a process makes the folder as a worker does and is killed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import REPO_ROOT

from judge.run import private_root

KILLED_WORKER = """
import os, signal
from judge.grade.cluster import submission_folder
with submission_folder() as folder:
    (folder / "main.c").write_text("int main(void) { return 0; }\\n")
    print(folder, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_workers_submission_is_removed_by_the_next_pool() -> None:
    done = subprocess.run([sys.executable, "-c", KILLED_WORKER], cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == -9, done.stderr
    folder = Path(done.stdout.strip())
    root = folder.parent
    assert (folder / "main.c").is_file() and folder.name.startswith("submission-")
    assert root.name.startswith(private_root.PREFIX) and (root / private_root.OWNER).is_file()
    assert root in private_root.reclaim(root.parent)  # what every slot pool's start does
    assert not folder.exists() and not root.exists()
