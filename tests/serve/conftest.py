"""The tests of judge/serve: the HTTP service, its workflow without HTTP, its pages and the ICPC API.

Their fixtures and hooks come from tests/conftest.py, their helpers from the modules beside it (harness.py,
serving.py, ...; ``pythonpath`` in pyproject.toml puts tests/ on the path). Re-exported here: a conftest.py
is imported under the bare name ``conftest``, the last one loaded wins, so each re-exports harness.py for the
``from conftest import ...`` of the tests."""

from harness import *  # noqa: F403
