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

from ..filecache import loader_context, still_true
from ..locations import cache_folder

SPEC = "problem.yaml"  # judge.problem.SPEC_NAME, not imported: the model is what a cached list avoids importing
HEADERS = ["problem", "title", "time", "memory", "cases", "source"]


def _load_row(root: str, shown_root: str) -> tuple[list[str], dict[str, list[int] | None]]:
    from pathlib import Path

    from ..problem.formats import load, read_from

    problem = load(Path(root), shown_root)
    lim = problem.limits
    row = [
        problem.name,
        problem.title,
        f"{lim.time:g}s",
        f"{lim.memory_mib} MiB",
        str(len(problem.cases)),
        problem.source,
    ]
    return row, read_from(problem)


def rows(roots: list[tuple[str, str]]) -> list[list[str]]:
    """The row of each package (its folder, and the folder as shown in errors), from the cache where it is still
    true."""
    cache_file = os.path.join(cache_folder(), "list-rows.json")
    try:
        with open(cache_file, encoding="utf-8") as f:
            cache = json.load(f)
    except (OSError, ValueError):
        cache = {}
    context = loader_context()
    if not isinstance(cache, dict) or cache.get("context") != context:
        cache = {"context": context, "rows": {}}
    stored, result, changed = cache["rows"], [], False
    for root, shown_root in roots:
        key = os.path.realpath(root)
        entry = stored.get(key)
        if entry is None or not still_true(entry["deps"]):
            row, deps = _load_row(root, shown_root)
            entry = stored[key] = {"row": row, "deps": deps}
            changed = True
        result.append(entry["row"])
    if changed:
        from ..atomic import atomic_write

        try:
            atomic_write(cache_file, json.dumps(cache))
        except OSError:  # a read-only home: listing still works, it just loads again next time
            pass
    return result
