"""The core layer: judging one submission, as code that knows no command line, store or report file.

Owns judging (``judging.py``: the run-and-check loop with near-limit re-runs
under a ``ReadersWriterLock``; ``case_order.py``: its runs on threads, or queued
one behind another; ``two_limits.py``: one run read at the limit and at limit ×
a margin, for verify; ``kinds.py``: the problem kinds as strategies, chosen
once; ``case_run.py``: one case's run as one value; ``pass_by_pass.py``:
interactive and multi-pass cases; ``answers.py``: submit-answer cases; ``stderr.py``: a failed run's
message; ``sample_output.py``: the excerpt of a sample case's output a result keeps), which results count
once a group is decided, in the cases' order (``decided.py``), the limits of one run, built once per
program and role (``run_limits.py``), classification by them (``limits.py``),
results and the overall verdict (``verdicts.py``), score rules as values
(``score_rules.py``: a group's points, never changing the results given), test data
(``testdata.py``: generate and hash; ``validators.py``: run the input validators; ``data_lock.py``: one judge
at a time makes the data) and time-limit inference
(``timelimit.py``); each phase with its wall and CPU time as it ends, for ``-v`` (``phases.py``);
which language runs a package's submissions (``runs_as.py``: a Kattis package's Python is
PyPy3).
May import ``judge.check``, ``judge.lang``, ``judge.run``, the model
(``judge.model``) and the shared base modules; never a package format
(``judge.problem``: the loaders put what judging needs into the model), nor
``grade``, ``tools`` or ``cli``.
"""

from ..lazy_exports import exports

__getattr__, __dir__, __all__ = exports(
    __name__,
    {
        ".answers": ("answer_set",),
        ".case_run": ("CaseRun", "Referee"),
        ".judging": ("JudgeOptions", "JudgeReport", "judge", "problem_referee", "run_case"),
        ".kinds": ("KINDS", "ProblemKind", "kind_of"),
        ".limits": ("classify",),
        ".run_limits": ("Role", "RunBudget", "judge_side_limits", "submission_limits", "trusted_limits"),
        ".rwlock": ("ReadersWriterLock",),
        ".score_rules": ("SCORE_RULES", "ScoreRule", "group_results", "score"),
        ".verdicts": ("CaseResult", "GroupResult", "OutputExcerpt", "overall_verdict"),
    },
)
