"""The grade layer: a class of submissions judged, stored and reported.

Owns discovery of students in a class folder (``discovery.py``), the optional
roster and deadlines (``roster.py``), judging each student (``submissions.py``,
shared by both back ends), local grading and its result keys (``grading.py``),
Dask grading (``cluster.py``), the SQLite results store (``store.py``),
similarity hints (``similarity.py`` over ``fingerprints.py``, handed-out code in ``starter.py``) and the
reports (``view.py`` the rows they share, ``reports.py`` CSV/JSON/JUnit,
``report_html.py``, ``feedback.py`` one Markdown file per student). May import ``judge.core`` and everything below
it; never ``tools`` or ``cli``.
"""
