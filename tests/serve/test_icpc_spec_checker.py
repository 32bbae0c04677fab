"""The checker of the ICPC Contest API's answers (``tests/icpc_spec.py``) finds what it is there to find.

No server: the shape checks, the reading of ``access`` and the event feed's types are fed answers that are wrong in
one way each; with ``CCS_SPECS`` the strict validator is shown to refuse a property the spec does not define.
"""

from __future__ import annotations

import httpx
import pytest
from icpc_spec import ENDPOINTS, Report, _check_access, _check_feed, shape_problems, spec_root, validator


def test_a_missing_property_or_a_bad_time_is_found() -> None:
    assert shape_problems("groups", [{"id": "g", "name": "G"}]) == []
    assert shape_problems("groups", [{"id": "g"}]) == ["groups: ['name'] missing in {'id': 'g'}"]
    state = {"started": "2026-01-01T10:00:00Z", "ended": None, "finalized": None, "end_of_updates": None}
    assert shape_problems("state", state) == []
    assert shape_problems("state", state | {"started": "10:00"}) == ["state: started '10:00' is no time"]
    wrong = shape_problems("runs", [{"id": "1", "judgement_id": "1-1", "ordinal": 1, "judgement_type_id": "AC"}])
    assert wrong and "contest_time" in wrong[0] and "time" in wrong[0]


def test_an_endpoint_without_a_schema_check_or_not_served_is_found() -> None:
    def access(*types: str) -> httpx.Response:
        return httpx.Response(200, json={"capabilities": [], "endpoints": [{"type": t} for t in types]})

    report = Report(served={"contests", "teams"})
    _check_access(access("contest", "teams", "event-feed"), report)
    assert report.wrong == []
    _check_access(access("contest", "teams", "polls", "groups"), report)
    assert report.wrong == [
        "access lists 'polls': no schema check covers it (add it to icpc_spec.ENDPOINTS)",
        "access lists 'groups', which is not served",
    ]
    report = Report(served={"contests", "teams", "clarifications"})
    _check_access(access("contest", "teams"), report)
    assert report.wrong == ["'clarifications' is served and access does not list it"]
    report = Report(served={"contests", "teams", "runs"}, empty={"runs"})  # a team's runs, none shown to it
    _check_access(access("contest", "teams"), report)
    assert report.wrong == []


def test_a_feed_line_of_a_type_no_schema_covers_is_found() -> None:
    report = Report()
    _check_feed(200, ['{"type": "teams", "id": "t", "data": {"id": "t", "name": "T", "label": "t"}}'], None, report)
    assert report.wrong == [] and report.feed_types == {"teams"}
    _check_feed(
        200, ['{"type": "polls", "id": "p", "data": {}}', '{"type": "groups", "id": "g", "data": {}}'], None, report
    )
    assert report.wrong == [
        "event-feed: no schema check covers the type 'polls'",
        "event-feed groups: ['id', 'name'] missing in {}",
    ]
    _check_feed(200, [], None, report)
    assert report.wrong[-1] == "event-feed: 200, 0 lines"


def test_every_endpoint_of_the_spec_has_its_schema_in_the_checkout() -> None:
    root = spec_root()
    if root is None:
        pytest.skip("CCS_SPECS names no checkout of the spec: the schemas are validated only with one")
    names = {p.stem for p in (root / "json-schema").glob("*.json")}
    for endpoint, rule in ENDPOINTS.items():
        assert {rule.schema, rule.item or rule.schema} <= names, endpoint


def test_the_strict_validator_refuses_a_property_the_spec_does_not_define() -> None:
    if spec_root() is None:
        pytest.skip("CCS_SPECS names no checkout of the spec: the schemas are validated only with one")
    import jsonschema

    loose, strict = validator(), validator(strict=True)
    assert loose is not None and strict is not None
    group = {"id": "europe", "name": "Europe"}
    strict("group", group)
    loose("group", group | {"colour": "blue"})
    with pytest.raises(jsonschema.ValidationError, match="colour"):
        strict("group", group | {"colour": "blue"})


def test_an_object_missing_from_the_feed_or_differing_from_its_endpoint_is_found() -> None:
    from icpc_spec import _check_consistency

    teams = [{"id": "a", "name": "A", "label": "a"}, {"id": "b", "name": "B", "label": "b"}]
    report = Report(answers={"teams": teams, "state": {"started": None}, "scoreboard": {"rows": []}})
    feed = [
        {"type": "state", "id": None, "data": {"started": None}},
        {"type": "teams", "id": "a", "data": {"id": "a", "name": "old", "label": "a"}},
        {"type": "teams", "id": "a", "data": teams[0]},  # the last line of an object is the one compared
        {"type": "teams", "id": "c", "data": {"id": "c", "name": "C", "label": "c"}},
    ]
    _check_consistency(feed, report)
    assert report.wrong == ["teams/b: not found in the event feed", "teams/c: in the event feed, not in its endpoint"]
    report = Report(answers={"teams": teams[:1]})
    _check_consistency([{"type": "teams", "id": "a", "data": teams[0] | {"name": "renamed"}}], report)
    assert report.wrong == ["teams/a: the feed's last data differs from the endpoint's in ['name']"]
