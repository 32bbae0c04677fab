"""The model layer: owns the neutral problem model that every format is read into and every layer above ``judge.run``
works on.

A folder of its own so that folders equal layers: ``judge.check`` reads a
``CheckerSpec`` and the formats (``judge.problem.formats``) fill a
``Problem``, and neither has to reach into the other's package to do so.
May import the shared base modules only; nothing of the judge imports
anything here that knows a file format.
"""

from .grading import GraderNode, LegacyGrading
from .problem import (
    PROBLEM_TYPES,
    SPEC_NAME,
    CaseOrigin,
    CaseSpec,
    CheckerSpec,
    FromFile,
    Generated,
    Given,
    Group,
    Kind,
    Limits,
    Problem,
    TimeRule,
    answer_path,
    cases_dir_for,
    input_path,
)
from .programfiles import KATTIS, TESTLIB, ProgramFiles

__all__ = [
    "KATTIS",
    "PROBLEM_TYPES",
    "SPEC_NAME",
    "TESTLIB",
    "CaseOrigin",
    "CaseSpec",
    "CheckerSpec",
    "FromFile",
    "Generated",
    "GraderNode",
    "Given",
    "Group",
    "Kind",
    "LegacyGrading",
    "Limits",
    "Problem",
    "ProgramFiles",
    "TimeRule",
    "answer_path",
    "cases_dir_for",
    "input_path",
]
