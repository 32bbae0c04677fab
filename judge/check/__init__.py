"""The check layer: deciding whether an output is right.

Owns the pure comparators (``compare.py``), the checker programs speaking the
testlib or Kattis protocol (``programs.py``) and the checker-type registry
(``registry.py``). May import ``judge.lang``, ``judge.run``, the problem model
(``judge.problem.model``) and the shared base modules; nothing above.
"""
from .compare import CheckOutcome, compare_exact, compare_floats, compare_kattis_default, compare_lines, compare_tokens
from .programs import CHECKER_MEMORY_MIB, BuiltinChecker, Checker, KattisChecker, TestlibChecker, checker_limits
from .registry import CHECKER_TYPES, KATTIS_CUSTOM, KATTIS_DEFAULT, CheckerType, Option, checker_type, make_checker, native_types, option, register

__all__ = [
    "CHECKER_MEMORY_MIB", "CHECKER_TYPES", "KATTIS_CUSTOM", "KATTIS_DEFAULT", "BuiltinChecker", "CheckOutcome", "Checker", "CheckerType",
    "KattisChecker", "Option", "TestlibChecker", "checker_limits", "checker_type", "compare_exact", "compare_floats",
    "compare_kattis_default", "compare_lines", "compare_tokens", "make_checker", "native_types", "option", "register",
]
