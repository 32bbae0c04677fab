"""A batch judge: runs submitted programs on a problem's test cases under limits and reports verdicts.

Nothing in this package knows about any particular problem; problems are data
and programs under ``problems/<name>/``.
"""

__version__ = "1.0.0"  # the one place: pyproject.toml reads it, --version prints it
