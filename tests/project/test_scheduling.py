"""The suite's order and xdist schedule (scheduling.py): the slow tests first, the heaviest module first, a long
stretch of a module test by test and a quick one whole, from the times pytest's ``--durations`` printed."""

from __future__ import annotations

from pathlib import Path

from scheduling import DURATIONS, SPLIT_S, UNKNOWN_S, duration_key, order, plan, read_durations

SECONDS = {
    "test_quick.py::test_a": 0.2,
    "test_quick.py::test_b": 0.3,
    "test_long.py::test_x": SPLIT_S,
    "test_long.py::test_y": 1.0,
    "test_middle.py::test_m[GET /api/v1/runs]": SPLIT_S / 2,
    "test_hostile.py::test_bomb": 30.0,
}


def test_slow_tests_first_then_the_heaviest_module_with_its_tests_together_in_their_order() -> None:
    tests = [
        ("tests/test_quick.py::test_a", False),
        ("tests/run/test_hostile.py::test_new", True),  # not measured: counts as a slow test of unknown time
        ("tests/test_quick.py::test_b", False),
        ("tests/run/test_long.py::test_y", False),
        ("tests/test_middle.py::test_m[GET /api/v1/runs]", False),
        ("tests/run/test_long.py::test_x", False),
        ("tests/run/test_hostile.py::test_bomb", True),
        ("tests/test_new.py::test_n", False),
    ]
    assert [tests[index][0] for index in order(tests, SECONDS)] == [
        "tests/run/test_hostile.py::test_new",
        "tests/run/test_hostile.py::test_bomb",
        "tests/run/test_long.py::test_y",
        "tests/run/test_long.py::test_x",
        "tests/test_middle.py::test_m[GET /api/v1/runs]",
        "tests/test_quick.py::test_a",
        "tests/test_quick.py::test_b",
        "tests/test_new.py::test_n",  # UNKNOWN_S ties test_quick.py's 0.5 s; a tie keeps the collection's order
    ]
    assert UNKNOWN_S == 0.5


def test_a_long_stretch_is_cut_into_tests_and_a_quick_one_stays_whole() -> None:
    collection = [
        "tests/run/test_long.py::test_y",
        "tests/run/test_long.py::test_x",
        "tests/test_middle.py::test_m[GET /api/v1/runs]",
        "tests/test_quick.py::test_a",
        "tests/test_quick.py::test_b",
        "tests/run/test_long.py::test_z",  # the same module again, later (its fast part after its slow part)
    ]
    assert plan(collection, SECONDS) == [
        ("tests/run/test_long.py::test_y", ["tests/run/test_long.py::test_y"]),
        ("tests/run/test_long.py::test_x", ["tests/run/test_long.py::test_x"]),
        ("tests/test_middle.py (1)", ["tests/test_middle.py::test_m[GET /api/v1/runs]"]),
        ("tests/test_quick.py (2)", ["tests/test_quick.py::test_a", "tests/test_quick.py::test_b"]),
        ("tests/run/test_long.py (3)", ["tests/run/test_long.py::test_z"]),
    ]


def test_a_stretch_whose_module_fixture_is_most_of_its_time_stays_whole() -> None:
    """Cut, every worker would make the fixture again (a server started twice costs more than it balances)."""
    collection = ["tests/test_served.py::test_a", "tests/test_served.py::test_b"]
    seconds = {"test_served.py::test_a": SPLIT_S, "test_served.py::test_b": SPLIT_S}
    whole = [("tests/test_served.py (0)", collection)]
    assert plan(collection, seconds, {"test_served.py::test_a": SPLIT_S / 2}) == whole
    assert len(plan(collection, seconds, {"test_served.py::test_a": SPLIT_S / 4})) == 2  # under a quarter: cut
    # paid again on each other worker: with 3 workers, twice
    assert plan(collection, seconds, {"test_served.py::test_a": SPLIT_S / 4}, workers=3) == whole
    assert len(plan(collection, seconds, {"test_served.py::test_a": SPLIT_S / 9}, workers=3)) == 2


def test_durations_are_read_from_pytests_own_lines_whatever_the_folder(tmp_path: Path) -> None:
    text = tmp_path / "durations.txt"
    text.write_text(
        "# measured on an idle 2-core machine\n"
        "============================= slowest durations ==============================\n"
        "12.50s call     tests/run/test_long.py::test_x\n"
        "0.75s setup    tests/test_long.py::test_x\n"
        "0.25s teardown tests/test_middle.py::test_m[GET /api/v1/runs]\n"
        "(1200 durations < 0.005s hidden.)\n"
    )
    assert read_durations(text) == {"test_long.py::test_x": 13.25, "test_middle.py::test_m[GET /api/v1/runs]": 0.25}
    assert read_durations(text, phase="setup") == {"test_long.py::test_x": 0.75}
    assert duration_key("tests/serve/test_serve_api.py::test_a[x/y]") == "test_serve_api.py::test_a[x/y]"


def test_the_measured_times_are_in_the_suite() -> None:
    """Without them every test would count the same and the longest would no longer go first."""
    assert len(read_durations(DURATIONS)) >= 100, "tests/durations.txt holds too few pytest --durations lines"
