"""The grade layer: a class of submissions judged, stored and reported.

Owns discovery of students and judging each one (``submissions.py``, shared by
both back ends), local grading and its result keys (``grading.py``), Dask
grading (``cluster.py``), the SQLite results store (``store.py``) and the
report files (``reports.py``). May import ``judge.core`` and everything below
it; never ``tools`` or ``cli``.
"""
