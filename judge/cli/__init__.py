"""The command-line layer: one thin module per command (``cmd_*.py``), the parser and exit codes (``app.py``).

Owns argument parsing, printing (``render.py``, ``progress.py``) and the
mapping of outcomes to the documented exit codes; decides no policy of its
own. May import every other layer; nothing imports it but ``run_judge.py``
(``judge.cli.main`` is the entry point).
"""

from .app import main

__all__ = ["main"]
