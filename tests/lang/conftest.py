"""The tests of judge/lang: languages, builds and their cache, compile errors, toolchains a submission cannot replace.

Their fixtures and hooks come from tests/conftest.py, their helpers from the modules beside it (harness.py,
serving.py, ...; ``pythonpath`` in pyproject.toml puts tests/ on the path). Re-exported here: a conftest.py
is imported under the bare name ``conftest``, the last one loaded wins, so each re-exports harness.py for the
``from conftest import ...`` of the tests."""

from harness import *  # noqa: F403
