"""The check layer: deciding whether an output is right.

Owns the pure comparators (``compare.py``, reading output and answer in chunks
through ``streams.py``, splitting only what follows the start both share:
``shared_start.py``) and the CPU budget they run against inside the judge's
process (``budget.py``), the checker programs speaking the
testlib or Kattis protocol (``programs.py``), the files a checker attaches to
a result (``attachments.py``), how an interactor or multi-pass validator is
called and what its exit means (``interactor_protocols.py``) and the checker-type registry
(``registry.py``). May import ``judge.lang``, ``judge.run``, the problem model
(``judge.model``) and the shared base modules; nothing above.
"""

from ..lazy_exports import exports

__getattr__, __dir__, __all__ = exports(
    __name__,
    {
        ".attachments": ("Attachment",),
        ".compare": (
            "CheckOutcome",
            "compare_exact",
            "compare_floats",
            "compare_kattis_default",
            "compare_lines",
            "compare_tokens",
        ),
        ".programs": (
            "BuiltinChecker",
            "Checker",
            "KattisChecker",
            "TestlibChecker",
        ),
        ".registry": (
            "CHECKER_TYPES",
            "KATTIS_CUSTOM",
            "KATTIS_DEFAULT",
            "CheckerType",
            "Option",
            "checker_type",
            "make_checker",
            "native_types",
            "option",
            "register",
        ),
    },
)
