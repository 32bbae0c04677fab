"""Where the judge keeps its cache and looks for the user's language file: each rule stated once, the environment first.

Every command reads these paths before anything else (a warm ``list``
too), so this module imports ``os`` alone.
"""

from __future__ import annotations

import os

JUDGE_FOLDER = os.path.dirname(
    os.path.realpath(__file__)
)  # the judge package itself: its own language file and its code


def cache_folder() -> str:
    """The judge's cache folder (``TILEJUDGE_CACHE``, else ``~/.cache/tilejudge``); not created here."""
    return os.environ.get("TILEJUDGE_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "tilejudge")


def user_language_file() -> str:
    """Where the user's language file is looked for (it may not exist): ``TILEJUDGE_LANGUAGES``, else
    ``tilejudge/languages.yaml`` in the config home. The one statement of that rule: the registry reads it too."""
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.environ.get("TILEJUDGE_LANGUAGES") or os.path.join(config_home, "tilejudge", "languages.yaml")


def language_files(problem_root: str) -> list[str]:
    """Where the language files layered under a package are looked for, found or not: the user's, the judge's own,
    the package's."""
    return [
        user_language_file(),
        os.path.join(JUDGE_FOLDER, "lang", "languages.yaml"),
        os.path.join(problem_root, "languages.yaml"),
    ]
