"""The language layer: which language a file is in, and how it becomes a runnable program.

Owns languages as data (``languages.yaml``; ``language.py`` one recipe, ``registry.py`` reading them: one
entry per language, one ``detect``/``is_source`` for every extension check),
submissions as source sets (``sources.py``: a file or a folder, and its entry
point, and the files a problem adds to it: ``Additions``), version probes (``probe.py``) and building (``build.py``: sandboxed
compiles, the build cache, ``build_or_fail`` for problem programs).
May import ``judge.run`` and the shared base modules (``judge.errors``,
``judge.text``); nothing above.
"""
from .build import BUILD_CACHE_VERSION, Program, build_or_fail, from_command, prepare, prepare_problem_program, prepare_program
from .language import Language, tool
from .sources import Additions, substitute, undefined_constants
from .registry import EXE, LANGUAGES, Registry, by_extension, detect, is_source, language, parse_entry, register, registry_for

__all__ = [
    "Additions", "substitute", "undefined_constants", "BUILD_CACHE_VERSION", "EXE", "LANGUAGES", "Language", "Program", "Registry", "build_or_fail", "by_extension", "detect",
    "from_command", "is_source", "language", "parse_entry", "prepare", "prepare_problem_program", "prepare_program", "register", "registry_for", "tool",
]
