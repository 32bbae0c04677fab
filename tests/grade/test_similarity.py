"""Similarity hints through the fingerprint index (issue #30) find exactly what comparing every pair finds, and neither
handed-out code nor boilerplate shared by much of the class makes a pair.

The all-pairs way lives here, not in the product: every pair of one
language compared, each share counted character by character in a set,
common fingerprints found by counting every submission. The product's
index, candidate bound, interval arithmetic and bounded best list must
agree with it pair for pair and score for score.
"""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

import pytest

from judge.grade import similarity
from judge.grade.discovery import Student
from judge.grade.fingerprints import C_LIKE, SYNTAX, K, fingerprint
from judge.grade.roster import Roster, RosterLine
from judge.grade.starter import Handout, load_handout
from judge.lang import by_extension
from judge.tools.bench_class import STARTER, generate_class


def students_of(folder: Path) -> list[Student]:
    return [Student(p.stem, p, digest=hashlib.sha256(p.read_bytes()).hexdigest()) for p in sorted(folder.iterdir())]


def all_pairs(students: list[Student], threshold: float, handout: Handout, max_pairs: int) -> tuple[list[tuple], int]:
    """Every pair of one language, compared the plain way."""
    docs = []
    for s in students:
        lang = by_extension(s.source)
        prints = fingerprint(s.source.read_text(), SYNTAX.get(lang.name, C_LIKE), handout.of(s.id))
        docs.append((s, lang.name, list(zip(prints.hashes, prints.positions))))
    found = []
    for language in {d[1] for d in docs}:
        mine = [d for d in docs if d[1] == language]
        seen_in: dict[int, int] = {}
        for _, _, prints in mine:
            for h in {h for h, _ in prints}:
                seen_in[h] = seen_in.get(h, 0) + 1
        limit = max(10, -(-len(mine) // 100))
        common = {h for h, n in seen_in.items() if n > limit}

        def chars(prints: list[tuple[int, int]], keep: set[int] | None, common: set[int] = common) -> int:
            return len(
                {c for h, p in prints if h not in common and (keep is None or h in keep) for c in range(p, p + K)}
            )

        whole = {s.id: chars(prints, None) for s, _, prints in mine}  # each submission's own, counted once
        for (sa, _, pa), (sb, _, pb) in itertools.combinations(mine, 2):
            a, b, pa, pb = (sa, sb, pa, pb) if sa.id <= sb.id else (sb, sa, pb, pa)
            if a.digest == b.digest:
                if pa:
                    found.append((a.id, b.id, 1.0, (1.0, 1.0), True))
                continue
            shared = {h for h, _ in pa} & {h for h, _ in pb}
            shares = [
                chars(pa, shared) / whole[a.id] if shared else 0.0,
                chars(pb, shared) / whole[b.id] if shared else 0.0,
            ]
            if max(shares) >= threshold:
                found.append((a.id, b.id, round(max(shares), 3), tuple(round(x, 3) for x in shares), False))
    found.sort(key=lambda p: (-p[2], p[0], p[1]))
    return found[:max_pairs], max(0, len(found) - max_pairs)


def indexed(students: list[Student], threshold: float, handout: Handout) -> tuple[list[tuple], int]:
    result = similarity.similar_pairs(students, threshold, handout)
    return [(p["a"], p["b"], p["score"], tuple(p["shares"]), p["identical"]) for p in result["pairs"]], result["more"]


@pytest.mark.parametrize(
    "seed,size,threshold", [(1, 60, 0.8), (2, 90, 0.5), pytest.param(3, 120, 0.8, marks=pytest.mark.slow), (4, 40, 0.3)]
)
def test_index_finds_the_same_pairs_and_scores_as_all_pairs(
    tmp_path: Path, seed: int, size: int, threshold: float
) -> None:
    made = generate_class(tmp_path, size, seed)
    students = students_of(made.folder)
    (made.folder / "twin.py").write_bytes(next(made.folder.glob("*.py")).read_bytes())  # an identical file too
    students = students_of(made.folder)
    for handout in (Handout(), load_handout([made.starter], Roster())):
        expected = all_pairs(students, threshold, handout, similarity.MAX_PAIRS)
        assert expected[0], "the class must have pairs to compare"
        assert indexed(students, threshold, handout) == expected


def test_the_bounded_best_list_keeps_the_same_best_and_counts_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = generate_class(tmp_path, 80, 5)
    for i in range(4):  # a group of identical files: more identical pairs than are kept
        (made.folder / f"clone{i}.py").write_bytes((made.folder / "s00000.py").read_bytes())
    students = students_of(made.folder)
    monkeypatch.setattr(similarity, "MAX_PAIRS", 3)
    pairs, more = indexed(students, 0.4, Handout())
    assert len(pairs) == 3 and more > 3
    assert (pairs, more) == all_pairs(students, 0.4, Handout(), 3)


def test_starter_code_makes_no_pair_but_a_copy_beyond_it_does(tmp_path: Path) -> None:
    """Three students filled in the same template with their own few lines; one copied another's lines."""
    folder = tmp_path / "class"
    folder.mkdir()
    own = {"ann": "    return a + b\n", "ben": "    s = [a, b]\n    return sum(s)\n", "cat": "    return b - (-a)\n"}
    for sid, body in own.items():
        (folder / f"{sid}.py").write_text(
            STARTER.replace("    # TODO: your code here\n    raise NotImplementedError\n", body)
        )
    (folder / "dan.py").write_text(
        STARTER.replace(
            "    # TODO: your code here\n    raise NotImplementedError\n",
            "    # mine\n    s = [a, b]\n    return sum(s)\n",
        )
        + "\n"
    )
    starter = tmp_path / "starter.py"
    starter.write_text(STARTER)
    students = students_of(folder)
    without = {(p["a"], p["b"]) for p in similarity.similar_pairs(students)["pairs"]}
    assert {("ann", "ben"), ("ann", "cat"), ("ben", "cat")} <= without  # the template alone looks like copying
    handed = similarity.similar_pairs(students, handout=load_handout([starter], Roster()))
    assert [(p["a"], p["b"]) for p in handed["pairs"]] == [("ben", "dan")] and handed["handed_out"] == [
        str(starter.resolve())
    ]
    only_some = load_handout([], Roster({"ann": RosterLine(starter=(starter,)), "cat": RosterLine(starter=(starter,))}))
    assert ("ann", "cat") not in {
        (p["a"], p["b"]) for p in similarity.similar_pairs(students, handout=only_some)["pairs"]
    }


def test_boilerplate_in_much_of_the_class_makes_no_pair_but_a_small_ring_does(tmp_path: Path) -> None:
    """A block of code every one of 30 students has (past the limit of 10) is dropped; three copies of one program are
    not."""
    folder = tmp_path / "class"
    folder.mkdir()
    block = "".join(
        f"def helper{i}(values):\n    return sorted(values, key=lambda v: (v % {i + 7}, -v))[:{i + 2}]\n"
        for i in range(12)
    )
    for n in range(30):
        (folder / f"p{n:02d}.py").write_text(
            block + f"print(helper{n % 12}([{n}, {n * 3 + 1}, {n * n}]) + [{n % 5} * {n + 11}])\n"
        )
    ring = (
        "import sys\n{v} = 0\nfor line in sys.stdin:\n    for w in line.split():\n"
        "        {v} += int(w) * 3 - int(w) * 2\nprint({v} % 1000003, {v} // 7)\n"
    )
    for name, variable in (
        ("r1", "t"),
        ("r2", "total"),
        ("r3", "acc"),
    ):  # renamed: not identical files, the same program
        (folder / f"{name}.py").write_text(block + ring.format(v=variable))
    result = similarity.similar_pairs(students_of(folder))
    assert result["common_limit"] == {"python3": 10} and result["common_dropped"] > 0
    assert {(p["a"], p["b"]) for p in result["pairs"]} == {("r1", "r2"), ("r1", "r3"), ("r2", "r3")}


def test_regions_are_the_copied_lines(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    copied = (
        'int main() {\n  long long a, b;\n  while (scanf("%lld %lld", &a, &b) == 2) printf("%lld\\n", a + b);\n'
        "  return 0;\n}\n"
    )
    (folder / "a.c").write_text("#include <stdio.h>\n" + copied)
    (folder / "b.c").write_text(
        "#include <stdio.h>\n// mine\n\n" + copied.replace("a", "x").replace("b", "y").replace("mxin", "main")
    )
    pair = similarity.similar_pairs(students_of(folder))["pairs"][0]
    assert (pair["a"], pair["b"], pair["identical"]) == ("a", "b", False) and pair["score"] == 1.0
    assert pair["regions"][0][0]["lines"] == [2, 6] and pair["regions"][1][0]["lines"] == [4, 8]
    assert pair["regions"][0][0]["text"].startswith("int main()")


def test_a_missing_starter_file_is_a_usage_error(tmp_path: Path) -> None:
    from judge.errors import UsageError

    with pytest.raises(UsageError, match="no such starter file"):
        load_handout([tmp_path / "nope.py"], Roster())


def test_the_roster_names_a_students_own_starter_files_beside_it(tmp_path: Path) -> None:
    from judge.grade.roster import load_roster

    (tmp_path / "sections").mkdir()
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name,starter\nann,Ann,sections/a.py; sections/common.h\nben,Ben,\n")
    lines = load_roster(roster, None).lines
    assert (
        lines["ann"].starter == (tmp_path / "sections" / "a.py", tmp_path / "sections" / "common.h")
        and lines["ben"].starter == ()
    )
    with pytest.raises(Exception, match=r"roster: ann: .*a\.py: no such starter file"):
        load_handout([], load_roster(roster, None))


@pytest.mark.slow
def test_grade_starter_is_remembered_by_the_results_folder_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    """Graded with --starter, the class has no pair; re-graded without it (--only), the results folder still applies
    it."""
    import json

    from conftest import cli

    made = generate_class(tmp_path, 2, seed=7)
    body = "    # TODO: your code here\n    raise NotImplementedError\n"
    for sid, own in (("ann", "    return a + b\n"), ("ben", "    return b + a\n")):
        (made.folder / f"{sid}.py").write_text(STARTER.replace(body, own))
    for extra in made.folder.glob("s*.py"):
        extra.unlink()
    out = tmp_path / "results"
    first = cli(
        "grade", str(made.problem), str(made.folder), "--out", str(out), "--starter", str(made.starter), "-j", "2"
    )
    assert first.returncode == 0, first.stderr
    similarity = json.loads((out / "grades.json").read_text())["similarity"]
    assert similarity["pairs"] == [] and similarity["handed_out"] == [str(made.starter.resolve())]
    again = cli("grade", str(made.problem), str(made.folder), "--out", str(out), "--only", "ann")
    assert again.returncode == 0, again.stderr
    assert json.loads((out / "grades.json").read_text())["similarity"]["pairs"] == []
    without = cli("grade", str(made.problem), str(made.folder), "--out", str(tmp_path / "plain"))
    assert without.returncode == 0, without.stderr
    assert [
        (p["a"], p["b"]) for p in json.loads((tmp_path / "plain" / "grades.json").read_text())["similarity"]["pairs"]
    ] == [("ann", "ben")]
    bad = cli("grade", str(made.problem), str(made.folder), "--out", str(out), "--starter", str(tmp_path / "nope.py"))
    assert bad.returncode == 2 and "nope.py: no such starter file" in bad.stderr and "Traceback" not in bad.stderr


def test_every_near_copy_is_paired_with_its_original_and_filled_in_templates_are_not(tmp_path: Path) -> None:
    made = generate_class(tmp_path, 150, seed=11)
    result = similarity.similar_pairs(students_of(made.folder), handout=load_handout([made.starter], Roster()))
    assert result["more"] == 0
    pairs = {(p["a"], p["b"]): p["score"] for p in result["pairs"]}
    assert made.copies and all(pairs.get(tuple(sorted(pair))) == 1.0 for pair in made.copies.items())
    text = {p.stem: p.read_text() for p in made.folder.iterdir()}
    templates = {sid for sid, source in text.items() if "class Reader" in source}
    assert len(templates) > 10 and not [pair for pair in pairs if set(pair) <= templates]
