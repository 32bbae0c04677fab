"""The checker-type registry: one entry per ``checker.type``, carrying everything every part of the judge needs to know.

An entry names its spec options (with their kinds and defaults), whether it
needs a ``checker.program``, the factory that makes the checker, and how it
maps to the Kattis format. The native spec validator, the Kattis import and
the Kattis export all read this registry, so adding a checker type is adding
one entry (``register``); an unknown type is an error everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..lang import Program
from ..model import CheckerSpec
from ..run import RunLimits
from .compare import compare_exact, compare_floats, compare_kattis_default, compare_lines, compare_tokens
from .programs import BuiltinChecker, Checker, KattisChecker, TestlibChecker


@dataclass(frozen=True)
class Option:
    """A ``checker.<name>`` key of problem.yaml: its kind (bool, or float for a number >= 0) and default."""

    kind: type
    default: Any


@dataclass(frozen=True)
class CheckerType:
    """One checker type.

    ``make(spec, program, limits)`` returns the checker; ``program`` is
    the prepared ``checker.program`` when ``needs_program``, ``limits`` the
    checker's run limits, which the core builds (a comparison in the judge's
    own process is held to their CPU time). ``kattis_flags``
    gives the Kattis default output validator's flags that compare the same
    way; ``kattis_program`` says the program itself is a Kattis output
    validator; with neither, the type has no Kattis equivalent and export
    refuses it. ``native`` is False for types only a Kattis import produces.
    """

    name: str
    make: Callable[[CheckerSpec, Program | None, RunLimits], Checker]
    options: dict[str, Option] = field(default_factory=dict)
    needs_program: bool = False
    kattis_flags: Callable[[CheckerSpec], list[str]] | None = None
    kattis_program: bool = False
    native: bool = True


def option(spec: CheckerSpec, name: str) -> Any:
    """A checker option's value: what the spec says, else the registry's default."""
    if name in spec.options:
        return spec.options[name]
    return checker_type(spec.type).options[name].default


def _builtin(
    compare: Callable[[Path, Path, CheckerSpec], Any],
) -> Callable[[CheckerSpec, Program | None, RunLimits], Checker]:
    """A comparison of ``compare.py``: it reads the files itself, in bounded pieces."""
    return lambda spec, program, limits: BuiltinChecker(
        lambda output, answer, args: compare(output, answer, spec), spec.type, limits.cpu, streams=True
    )


def _program_checker(
    kind: type[TestlibChecker] | type[KattisChecker],
) -> Callable[[CheckerSpec, Program | None, RunLimits], Checker]:
    def make(spec: CheckerSpec, program: Program | None, limits: RunLimits) -> Checker:
        if program is None:
            raise UsageError(f"checker type '{spec.type}' needs its program prepared before judging")
        return kind(program, limits)

    return make


def _case_flags(spec: CheckerSpec) -> list[str]:
    return ["case_sensitive"] if option(spec, "case_sensitive") else []


KATTIS_DEFAULT = "kattis-default"  # what a Kattis package without its own output validator uses
KATTIS_CUSTOM = "kattis"  # what a Kattis package's own output validator is

CHECKER_TYPES: dict[str, CheckerType] = {
    entry.name: entry
    for entry in (
        CheckerType(
            "exact",
            _builtin(lambda o, a, spec: compare_exact(o, a)),
            kattis_flags=lambda spec: ["case_sensitive", "space_change_sensitive"],
        ),
        CheckerType(
            "lines", _builtin(lambda o, a, spec: compare_lines(o, a)), kattis_flags=lambda spec: ["case_sensitive"]
        ),
        CheckerType(
            "tokens",
            _builtin(lambda o, a, spec: compare_tokens(o, a, option(spec, "case_sensitive"))),
            options={"case_sensitive": Option(bool, True)},
            kattis_flags=_case_flags,
        ),
        CheckerType(
            "float",
            _builtin(lambda o, a, spec: compare_floats(o, a, option(spec, "abs_tol"), option(spec, "rel_tol"))),
            options={"abs_tol": Option(float, 0.0), "rel_tol": Option(float, 0.0)},
            kattis_flags=lambda spec: [
                "case_sensitive",
                "float_absolute_tolerance",
                repr(option(spec, "abs_tol")),
                "float_relative_tolerance",
                repr(option(spec, "rel_tol")),
            ],
        ),
        CheckerType("testlib", _program_checker(TestlibChecker), needs_program=True),
        CheckerType(KATTIS_CUSTOM, _program_checker(KattisChecker), needs_program=True, kattis_program=True),
        CheckerType(
            KATTIS_DEFAULT,
            lambda spec, program, limits: BuiltinChecker(
                compare_kattis_default, "default output validator", limits.cpu, streams=True
            ),
            kattis_flags=lambda spec: [],
            native=False,
        ),
    )
}


def register(entry: CheckerType) -> CheckerType:
    """Add (or replace) a checker type; the spec validator, judging and export see it at once."""
    CHECKER_TYPES[entry.name] = entry
    return entry


def checker_type(name: str) -> CheckerType:
    """The entry for ``name``; an unknown type is an error, never silently some other checker."""
    try:
        return CHECKER_TYPES[name]
    except KeyError:
        raise UsageError(f"unknown checker type '{name}' (known: {', '.join(CHECKER_TYPES)})") from None


def native_types() -> list[str]:
    """The types a problem.yaml may name."""
    return [name for name, entry in CHECKER_TYPES.items() if entry.native]


def make_checker(spec: CheckerSpec, program: Program | None, limits: RunLimits) -> Checker:
    """The checker a problem asks for; ``program`` is the prepared custom checker, if any, ``limits`` its run's."""
    return checker_type(spec.type).make(spec, program, limits)
