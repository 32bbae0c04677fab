"""The language layer: which language a file is in, and how it becomes a runnable program.

Owns languages as data (``languages.yaml``; ``language.py`` one recipe, ``registry.py`` reading them: one
entry per language, one ``detect``/``is_source`` for every extension check),
submissions as source sets (``sources.py``: a file or a folder, and its entry
point, and the files a problem adds to it: ``Additions``; ``toolfolders.py``: the folders tools made in a project),
version probes (``probe.py``) and building (``build.py``: sandboxed compiles, the build cache sealed by ``seal.py``,
``build_or_fail`` for problem programs).
May import ``judge.run`` and the shared base modules (``judge.errors``,
``judge.text``); nothing above.
"""

from ..lazy_exports import exports

__getattr__, __dir__, __all__ = exports(
    __name__,
    {
        ".build": (
            "BUILD_CACHE_VERSION",
            "Program",
            "build_or_fail",
            "from_command",
            "prepare",
            "prepare_problem_program",
            "prepare_program",
        ),
        ".language": ("Language", "tool"),
        ".sources": ("Additions", "is_binary", "saved_name", "substitute", "undefined_constants"),
        ".toolfolders": ("tool_folder",),
        ".registry": (
            "EXE",
            "LANGUAGES",
            "Registry",
            "by_extension",
            "detect",
            "is_source",
            "marked",
            "parse_entry",
            "register",
            "registry_for",
        ),
    },
)
