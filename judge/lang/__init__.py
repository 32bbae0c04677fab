"""The language layer: which language a file is in, and how it becomes a runnable program.

Owns the language registry (``registry.py``: one entry per language, one
``detect``/``is_source`` for every extension check) and building (``build.py``:
sandboxed compiles, the build cache, ``build_or_fail`` for problem programs).
May import ``judge.run`` and the shared base modules (``judge.errors``,
``judge.text``); nothing above.
"""
from .build import BUILD_CACHE_VERSION, Program, build_or_fail, from_command, prepare, prepare_problem_program, prepare_program
from .registry import EXE, LANGUAGES, Language, by_extension, detect, is_source, language, register, tool

__all__ = [
    "BUILD_CACHE_VERSION", "EXE", "LANGUAGES", "Language", "Program", "build_or_fail", "by_extension", "detect", "from_command",
    "is_source", "language", "prepare", "prepare_problem_program", "prepare_program", "register", "tool",
]
