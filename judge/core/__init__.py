"""The core layer: judging one submission, as code that knows no command line, store or report file.

Owns judging (``judging.py``: the run-and-check loop with near-limit re-runs
under a ``ReadersWriterLock``; ``interaction.py``: interactive and multi-pass
cases; ``answers.py``: submit-answer cases; ``stderr.py``: a failed run's
message), limits and classification (``limits.py``),
verdict aggregation as pure code (``verdicts.py``), test data (``testdata.py``:
generate, hash, validate) and time-limit inference (``timelimit.py``).
May import ``judge.check``, ``judge.lang``, ``judge.run``, ``judge.problem``
(model and formats) and the shared base modules; never ``grade``, ``tools``
or ``cli``.
"""
from .answers import answer_set
from .judging import JudgeOptions, JudgeReport, Referee, judge, problem_referee, run_case, run_on
from .limits import classify, run_limits
from .rwlock import ReadersWriterLock
from .timelimit import infer_time_limit
from .verdicts import CaseResult, GroupResult, group_results, meets_rule, overall_verdict

__all__ = [
    "CaseResult", "GroupResult", "JudgeOptions", "JudgeReport", "ReadersWriterLock", "Referee", "answer_set", "classify",
    "group_results", "infer_time_limit", "judge", "meets_rule", "overall_verdict", "problem_referee", "run_case", "run_limits", "run_on",
]
