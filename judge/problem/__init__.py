"""The problem layer: owns the neutral model (``model.py``) and the package formats that fill it (``formats/``).

``judge.problem`` itself exports only the model, which every layer above
``judge.run`` may import. The formats (``judge.problem.formats``) read the
checker and language registries, so they may import ``judge.check`` and
``judge.lang``, and are imported only by ``judge.core`` and above.
"""
from .model import SPEC_NAME, CaseOrigin, CaseSpec, CheckerSpec, FromFile, Generated, Given, Group, Limits, Problem, answer_path, cases_dir_for, input_path

__all__ = ["SPEC_NAME", "CaseOrigin", "CaseSpec", "CheckerSpec", "FromFile", "Generated", "Given", "Group", "Limits", "Problem", "answer_path", "cases_dir_for", "input_path"]
