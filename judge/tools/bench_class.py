"""A generated class for the scaling benchmark: a 3-case "sum of each pair" problem and as many Python submissions as
asked, a mix a real MOOC hands in.

Most submissions are distinct programs: built from randomly chosen and
ordered parts (how input is read, helpers with their own constants and
names), so they share the passages every solution to one problem shares
and little else. Some are near-copies of an earlier one (identifiers
renamed, re-indented, comments added: the same program to a fingerprint).
Some filled in the teacher's starter file. Every program is accepted, so
what is measured is the grading, not the verdicts. The same seed gives the
same class.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

STARTER = '''"""Assignment 1: print the sum of each pair. Fill in solve(); do not change the rest."""
import sys


class Reader:
    """Reads whitespace-separated integers from standard input, one pair at a time."""

    def __init__(self, stream):
        self.tokens = stream.read().split()
        self.position = 0

    def has_more(self):
        return self.position + 1 < len(self.tokens)

    def pair(self):
        first, second = self.tokens[self.position], self.tokens[self.position + 1]
        self.position += 2
        return int(first), int(second)


def solve(a, b):
    # TODO: your code here
    raise NotImplementedError


def main():
    reader = Reader(sys.stdin)
    out = []
    while reader.has_more():
        a, b = reader.pair()
        out.append(str(solve(a, b)))
    sys.stdout.write("\\n".join(out) + ("\\n" if out else ""))


if __name__ == "__main__":
    main()
'''
CASES = {
    "sample": "1 2\n3 4\n",
    "signs": "-5 7\n-1000000000000 1\n0 0\n",
    "many": "".join(f"{i * 7919 % 100003 - 50000} {i * 104729 % 99991}\n" for i in range(2000)),
}
PROBLEM_YAML = """title: Sum of each pair (scaling benchmark)
limits: {time: 2, memory: 128, output: 1}
checker: {type: lines}
solutions: [solution.py]
groups:
  - name: all
    points: 100
    cases:
""" + "".join(f"      - {{name: {name}, file: data/{name}.in}}\n" for name in CASES)
SOLUTION = (
    "import sys\nfor line in sys.stdin:\n    if line.strip():\n        a, b = map(int, line.split())\n"
    "        print(a + b)\n"
)

READERS = [
    (
        "data = sys.stdin.read().split()\n"
        "{pairs} = [({conv}(data[{i}]), {conv}(data[{i} + 1])) for {i} in range(0, len(data) - 1, 2)]\n"
    ),
    (
        "{pairs} = []\nfor {line} in sys.stdin:\n    {parts} = {line}.split()\n    if len({parts}) == 2:\n"
        "        {pairs}.append(({conv}({parts}[0]), {conv}({parts}[1])))\n"
    ),
    "{pairs} = [tuple(map({conv}, {line}.split())) for {line} in sys.stdin.readlines() if {line}.strip()]\n",
    (
        "{pairs} = []\n{it} = iter(open(0).read().split())\nfor {x} in {it}:\n"
        "    {pairs}.append(({conv}({x}), {conv}(next({it}))))\n"
    ),
]
HELPERS = [  # each keeps the sum right and has its own constants: distinct programs share little beyond the obvious
    "def {name}({a}, {b}):\n    {t} = {a} * {c1} + {b} * {c1}\n    return {t} // {c1}\n",
    "def {name}({a}, {b}):\n    {t} = [{a}, {b}, {c1}, -{c1}]\n    return sum({t})\n",
    (
        "def {name}({a}, {b}):\n    {t} = {a}\n    for _ in range({c2}):\n        {t} = {t} + {c1} - {c1}\n"
        "    return {t} + {b}\n"
    ),
    (
        "def {name}({a}, {b}):\n    if {a} > {c1} and {b} > {c1}:\n"
        "        return ({a} - {c1}) + ({b} - {c1}) + 2 * {c1}\n    return {a} + {b}\n"
    ),
    "def {name}({a}, {b}):\n    {t} = ({a} ^ {c1}) ^ {c1}\n    return {t} - (-{b})\n",
    (
        "def {name}({a}, {b}):\n    {t} = {{'left': {a}, 'right': {b}, 'pad': {c2}}}\n"
        "    return {t}['left'] + {t}['right']\n"
    ),
]
WORDS = [
    "val",
    "num",
    "tmp",
    "acc",
    "res",
    "item",
    "elem",
    "pair",
    "total",
    "value",
    "lhs",
    "rhs",
    "part",
    "cur",
    "nxt",
    "arr",
    "lst",
]


@dataclass(frozen=True)
class GeneratedClass:
    folder: Path
    problem: Path
    starter: Path
    kinds: dict[str, int]
    copies: dict[str, str]  # near-copy's id → the id of the program it copies


def _name(rng: random.Random, used: set[str]) -> str:
    while True:
        name = f"{rng.choice(WORDS)}_{rng.randrange(1000)}"
        if name not in used:
            used.add(name)
            return name


def _helpers(rng: random.Random, used: set[str]) -> tuple[str, list[str]]:
    """Two to four helpers, each returning the sum of its arguments its own way, and their names."""
    names = [_name(rng, used) for _ in range(rng.randint(2, 4))]
    parts = [
        rng.choice(HELPERS).format(
            name=name,
            c1=rng.randint(2, 10**6),
            c2=rng.randint(1, 9),
            a=_name(rng, used),
            b=_name(rng, used),
            t=_name(rng, used),
        )
        for name in names
    ]
    return "\n\n".join(parts), names


def _call(rng: random.Random, helpers: list[str], a: str, b: str) -> str:
    chain = f"{a} + {b}"
    for helper in helpers:
        chain = f"{helper}({chain}, 0)" if rng.random() < 0.5 else f"{helper}({a}, {b})"
    return chain


def _distinct(rng: random.Random) -> str:
    used: set[str] = set()
    helpers, called = _helpers(rng, used)
    names = {k: _name(rng, used) for k in ("pairs", "line", "parts", "it", "x", "i", "a", "b")}
    reader = rng.choice(READERS).format(conv="int", **names)
    return (
        f"import sys\n\n\n{helpers}\n\n{reader}for {names['a']}, {names['b']} in {names['pairs']}:\n"
        f"    print({_call(rng, called, names['a'], names['b'])})\n"
    )


def _near_copy(rng: random.Random, original: str) -> str:
    """The same program: identifiers renamed, two-space indentation, comments and blank lines added."""
    names = sorted(set(re.findall(r"\b[a-z]+_\d+\b", original)))
    renamed = {n: f"my{rng.choice(WORDS).title()}{i}" for i, n in enumerate(names)}
    text = re.sub(r"\b[a-z]+_\d+\b", lambda m: renamed[m.group()], original)
    lines = []
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        lines.append(
            " " * (indent // 2)
            + line.lstrip(" ")
            + ("  # my own idea" if line.endswith(":") and rng.random() < 0.3 else "")
        )
        if rng.random() < 0.1:
            lines.append("")
    return "# homework, written by me\n" + "\n".join(lines) + "\n"


def _starter_user(rng: random.Random) -> str:
    helpers, called = _helpers(rng, set())
    solve = f"{helpers}\n\ndef solve(a, b):\n    return {_call(rng, called, 'a', 'b')}\n"
    return STARTER.replace("def solve(a, b):\n    # TODO: your code here\n    raise NotImplementedError\n", solve)


def generate_class(where: Path, students: int, seed: int = 30) -> GeneratedClass:
    """Write the problem, the starter file and ``students`` submissions under ``where``: 60% distinct programs, 15%
    near-copies of one of them, 25% filled-in starter files."""
    rng = random.Random(seed)
    problem = where / "problem"
    (problem / "data").mkdir(parents=True, exist_ok=True)
    (problem / "problem.yaml").write_text(PROBLEM_YAML)
    (problem / "solution.py").write_text(SOLUTION)
    for name, text in CASES.items():
        (problem / "data" / f"{name}.in").write_text(text)
    starter = where / "starter.py"
    starter.write_text(STARTER)
    folder = where / f"class{students}"
    folder.mkdir(exist_ok=True)
    distinct: list[tuple[str, str]] = []
    kinds = {"distinct": 0, "near-copy": 0, "starter": 0}
    copies: dict[str, str] = {}
    for number in range(students):
        sid, roll = f"s{number:05d}", rng.random()
        if roll < 0.15 and distinct:
            original, source = rng.choice(distinct)
            kind, text = "near-copy", _near_copy(rng, source)
            copies[sid] = original
        elif roll < 0.40:
            kind, text = "starter", _starter_user(rng)
        else:
            kind, text = "distinct", _distinct(rng)
            distinct.append((sid, text))
        kinds[kind] += 1
        (folder / f"{sid}.py").write_text(text)
    return GeneratedClass(folder, problem, starter, kinds, copies)
