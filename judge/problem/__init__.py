"""The format layer: owns the package formats (``formats/``) that read a folder on disk into the neutral model of
``judge.model``.

Nothing is exported here; ``judge.problem.formats.load`` is the way in. The
formats read the checker and language registries, so they may import
``judge.check``, ``judge.lang``, ``judge.model`` and the base modules, and
are imported only by ``judge.core`` and above.
"""
