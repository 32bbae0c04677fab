"""The rows of ``list``, kept in the cache folder so that listing does not load and validate every package each time.

Loading a package (YAML, the language and checker registries, every file it
names) is most of what ``list`` would cost; its row changes only when one of
the files it was read from changes. So each row is stored with the stat
signature (mtime, size, inode) of everything the loader looked at: the
package's own files and folders (not its generated cases), the language
files layered under it, and the loader itself with the judge's version.
When all of them still match, the stored row is shown without importing the
loader; otherwise the package is loaded again (a broken one still fails with
its ``file:line`` error) and its row replaced.
"""
from __future__ import annotations

import json
import os

from .. import __version__

SPEC = "problem.yaml"  # judge.problem.SPEC_NAME, not imported: the model is what a cached list avoids importing
HEADERS = ["problem", "title", "time", "memory", "cases", "source"]
_JUDGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
_LOADER_FILES = tuple(os.path.join(_JUDGE, *parts) for parts in (("problem", "formats", "native.py"), ("problem", "model.py"), ("lang", "languages.yaml")))

Signature = list[int] | None


def _cache_file() -> str:
    # judge.run.files.cache_root's folder, without importing the run layer for it
    folder = os.environ.get("TILEJUDGE_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "tilejudge")
    return os.path.join(folder, "list-rows.json")


def _signature(path: str) -> Signature:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size, st.st_ino]


def _context() -> str:
    """What every row also depends on that is not a file: the judge's version and where the language files are looked for."""
    return json.dumps([__version__, os.environ.get("TILEJUDGE_LANGUAGES"), os.environ.get("XDG_CONFIG_HOME"), os.path.expanduser("~")])


def _package_paths(root: str, cases_dir: str) -> list[str]:
    """Every file and folder of the package but its generated cases: a file added, removed or edited changes one of them."""
    paths = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__" and os.path.join(folder, d) != cases_dir]
        paths.append(folder)
        paths += [os.path.join(folder, name) for name in files]
    return paths


def _paths_in(value: object) -> list[str]:
    """Every path a loaded package holds (its programs, case files, library folders, …), whatever field it is in: the
    loader looked at each of them, so a new field of the model is covered without being named here."""
    if isinstance(value, os.PathLike):
        return [os.fspath(value)]
    if isinstance(value, (tuple, list)):
        return [path for item in value for path in _paths_in(item)]
    if isinstance(value, dict):
        return _paths_in(list(value.values()))
    if hasattr(value, "__dataclass_fields__"):
        return _paths_in([getattr(value, name) for name in value.__dataclass_fields__])
    return []


def _load_row(root: str, shown_root: str) -> tuple[list[str], dict[str, Signature]]:
    from pathlib import Path

    from ..lang.registry import PROBLEM_FILE, user_file
    from ..problem.formats import load_problem

    problem = load_problem(Path(root), shown_root)
    lim = problem.limits
    row = [problem.name, problem.title, f"{lim.time:g}s", f"{lim.memory_mib} MiB", str(len(problem.cases)), problem.source]
    config = os.path.join(os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config"), "tilejudge", "languages.yaml")
    cases_dir = os.fspath(problem.cases_dir)
    named = [*_paths_in(problem), os.path.join(root, PROBLEM_FILE), os.fspath(user_file() or config), config, *_LOADER_FILES]
    paths = _package_paths(root, cases_dir) + [path for path in named if path != cases_dir]
    return row, {path: _signature(path) for path in paths}


def rows(roots: list[tuple[str, str]]) -> list[list[str]]:
    """The row of each package (its folder, and the folder as shown in errors), from the cache where it is still true."""
    cache_file = _cache_file()
    try:
        with open(cache_file, encoding="utf-8") as f:
            cache = json.load(f)
    except (OSError, ValueError):
        cache = {}
    context = _context()
    if not isinstance(cache, dict) or cache.get("context") != context:
        cache = {"context": context, "rows": {}}
    stored, result, changed = cache["rows"], [], False
    for root, shown_root in roots:
        key = os.path.realpath(root)
        entry = stored.get(key)
        if entry is None or any(_signature(path) != signature for path, signature in entry["deps"].items()):
            row, deps = _load_row(root, shown_root)
            entry = stored[key] = {"row": row, "deps": deps}
            changed = True
        result.append(entry["row"])
    if changed:
        from pathlib import Path

        from ..atomic import atomic_write

        try:
            atomic_write(Path(cache_file), json.dumps(cache))
        except OSError:  # a read-only home: listing still works, it just loads again next time
            pass
    return result
