"""The launcher's C files read bottom-up: no part calls a part that calls it back, and the judge builds every part.

The same rule as test_architecture.py's for the Python modules, for ``judge/run/*.c``: a part uses another when
its code (comments left out) names a function or variable the other defines without ``static``. A helper every
child of the launcher shares lives in ``child.c``, below the parts that fork or confine (issue 48, item 3).
"""

from __future__ import annotations

import re
from pathlib import Path

from judge.run.launcher import LAUNCHER_PARTS

RUN = Path(__file__).resolve().parents[2] / "judge" / "run"
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
# a definition at the top level, not static: a function (its body opens on the line) or a variable
FUNCTION = re.compile(r"^(?!static\b|extern\b)[A-Za-z][^;{}()\n]*?\b(\w+)\s*\([^;]*\)\s*\{\s*$", re.M)
VARIABLE = re.compile(
    r"^(?!static\b|extern\b|struct\s+\w+\s*\{)[A-Za-z][\w \t*]*?\b(\w+)\s*(?:\[[^\]]*\])?\s*(?:=[^;]*)?;", re.M
)


def code(path: Path) -> str:
    """The file without comments and string literals: a name in either is not a use."""
    return STRING.sub('""', COMMENT.sub(" ", path.read_text()))


def uses() -> dict[str, set[str]]:
    """For each C part, the other parts whose shared names it uses."""
    texts = {path.name: code(path) for path in sorted(RUN.glob("*.c"))}
    owner = {}
    for name, text in texts.items():
        for pattern in (FUNCTION, VARIABLE):
            for symbol in pattern.findall(text):
                if symbol != "main":
                    owner[symbol] = name
    graph: dict[str, set[str]] = {name: set() for name in texts}
    for name, text in texts.items():
        for symbol in set(re.findall(r"\b\w+\b", text)) & owner.keys():
            if owner[symbol] != name:
                graph[name].add(owner[symbol])
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of the graph as the list of its parts (first repeated last), or [] when there is none."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_graph_is_read_from_the_sources() -> None:
    """The reading finds the uses it must: were it blind, the next test would pass on anything."""
    graph = uses()
    assert {"cgroup.c", "confine.c", "fresh.c", "output.c", "relay.c", "seccomp.c"} <= graph["launcher.c"]
    assert "confine.c" in graph["fresh.c"]


def test_no_part_calls_back_into_one_that_calls_it() -> None:
    found = cycle(uses())
    assert not found, "the launcher's C parts call each other in a circle: " + " -> ".join(found)


def test_the_launcher_is_built_from_every_part() -> None:
    """Every C file and header of judge/run is compiled and hashed into the launcher's digest (a new part left out
    would not be linked, or a change to it would not rebuild the cached launcher)."""
    parts = {path.name for path in LAUNCHER_PARTS}
    assert parts == {path.name for path in RUN.iterdir() if path.suffix in {".c", ".h"}}
