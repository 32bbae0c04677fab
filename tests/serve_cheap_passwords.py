"""``python run_judge.py ARGS...`` with the service's argon2 at its cheapest: how ``serving.Server`` starts a server
unless a test asks for the real cost (``real_passwords=True``).

Why: argon2id at the service's cost (64 MiB, 3 passes) takes a fifth of a CPU-second per hash or check, and the
servers of the service's tests made some sixty of them in the fast subset (log-ins, password changes, accounts made
with a password, the first start's admin): about 12 of its 100 CPU-seconds, spent on a cost none of those tests
is about. test_serve_throttle already swaps the hasher the same way in its in-process server. What the real cost
guarantees (each check takes its 64 MiB, and no more than a few run at once) is
test_serve_sessions.test_parallel_password_checks_are_bounded's, on a server started at the real cost.

Only the hasher changes: hashes keep argon2id's format (a stored hash names its own cost, so a site these servers
wrote is read by any server), and everything else is ``run_judge.py`` as a user starts it, run as ``__main__`` with
the checkout first on ``sys.path``, where ``python run_judge.py`` puts it.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENTRY = ROOT / "run_judge.py"


def main() -> None:
    sys.path[0] = str(ROOT)  # where ``python run_judge.py`` puts it: this checkout's judge, not an installed one
    try:
        from argon2 import PasswordHasher

        from judge.serve import auth
    except ImportError:  # no web stack: the command says so itself, as it does for a user
        pass
    else:
        auth._hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    sys.argv[0] = str(ENTRY)
    runpy.run_path(str(ENTRY), run_name="__main__")


if __name__ == "__main__":
    main()
