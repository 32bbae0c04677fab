"""The tools layer: what a problem setter or the judge's maintainers run besides judging.

Owns verify (a package's self-check), stress (random search for a failing
input, shrinking, promoting), bench (measurements; its C programs are the
``.c`` files in ``bench_programs/``; installing peers is ``peers.py``; the
grading rows ``bench_grading.py``, the shared primitives ``bench_series.py``,
Markdown ``bench_markdown.py``).
May import ``judge.grade``, ``judge.core`` and everything below; never
``judge.cli``.
"""
