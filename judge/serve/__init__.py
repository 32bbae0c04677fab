"""The serve layer: the judge as an HTTP service for a class or a contest (``tilejudge serve SITE``).

Owns the site's settings (``site.py``), its store (``store.py``: SQLite in WAL mode, users, tokens, submissions,
results with their history, the event log; ``migrations.py``: its schema version; ``backup.py``: its
backups; ``sources.py``: submitted files by hash; ``queue.py``: the submission's
states and the fair queue), accounts (``auth.py``), the judging threads (``workers.py``; on a Dask cluster:
``remote.py``), what a role may see (``feedback.py``), limits (``limits.py``, ``intake.py``; connections bounded
in time and per address: ``connections.py``), the HTTP API (``app.py``, ``access.py``, ``api_*.py``, ``events.py``,
``scoreboard.py``, ``views.py``) and the ICPC Contest API (``icpc.py``, ``icpc_objects.py``). It sits above grade
and core: a submission is judged by ``judge.grade.submissions.judge_submission``, the same path as ``grade``'s,
never a second one.
May import grade, core, the problem formats and everything below them, and the web stack of the ``[web]`` extra;
nothing of the judge imports it but ``judge.cli.cmd_serve``, inside its ``run``.
"""
