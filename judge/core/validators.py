"""How an input validator says "valid": Kattis validators exit 42 (43: invalid), testlib validators exit 0.

A package rarely says which protocol its validator speaks, and a testlib
validator judged by the Kattis rule would fail on every valid input, so the
source decides when the package is silent: one that calls
``registerValidation`` is testlib's.
"""

from __future__ import annotations

from pathlib import Path

from ..model import Problem
from ..model.programfiles import KATTIS, TESTLIB

VALID, INVALID = 42, 43


def validator_protocol(problem: Problem, path: Path) -> str:
    """How a validator says "valid": as the package states, else testlib (exit 0) when its source registers as a testlib
    validator, else Kattis (exit 42, 43 for invalid)."""
    stated = problem.files.validator_protocols.get(path)
    if stated is not None:
        return stated
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    return TESTLIB if any(b"registerValidation" in f.read_bytes() for f in files) else KATTIS


def verdict(protocol: str, exit_code: int | None, crashed: bool) -> bool | None:
    """True valid, False invalid, None: the validator itself failed (a crash, a timeout, an exit code outside its
    protocol)."""
    if protocol == TESTLIB:
        return None if crashed or exit_code is None else exit_code == 0
    return {VALID: True, INVALID: False}.get(exit_code) if not crashed else None
