"""A contest package folder read into plain values (ccs-specs ``Contest_Package.md``), every fault one line.

What a site needs of a package: the contest (name, start, duration, freeze, penalty), the problems in their order
with labels and colours and where each one's Kattis package is, the organizations, groups and teams with their ids,
the accounts, and the submissions with their files. Nothing is written here: ``package_import.py`` makes the site
from what this returns, so a package that fails to read leaves nothing behind.

Where the files are: ``contest``, ``problems`` and ``accounts`` as JSON or YAML, as the spec allows; ``teams``,
``organizations``, ``groups`` and ``submissions`` as JSON (YAML taken too); ``teams.tsv``, ``groups.tsv`` and
``accounts.tsv`` as DOMjudge's older import files. A problem's package is a folder named by its id, at the top
(as BAPCtools lays a contest out) or under ``problems/``, or the zip ``problems/<id>/<id>.zip`` the spec lists.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from ..errors import SpecError
from .package_files import Item, find, objects, one_object, tsv_rows
from .package_zip import MAX_SUBMISSION, files_of
from .team_ids import is_identifier

# the spec's account types and the role each gets here; an analyst, staff or balloon runner has no role of that
# reach here (jury can judge), so those accounts are left out, and said so, rather than given more than they had
ROLE_OF = {"team": "team", "judge": "jury", "jury": "jury", "admin": "admin"}
DURATION = re.compile(r"(-)?(\d+):([0-5]\d):([0-5]\d(?:\.\d{1,3})?)")


@dataclass(frozen=True)
class PackageProblem:
    id: str
    label: str
    name: str
    rgb: str | None
    color: str | None
    source: Path  # the Kattis package: a folder, or a zip to unpack
    time_limit: float | None  # seconds, where the package states the limit the contest judged by


@dataclass(frozen=True)
class PackageTeam:
    id: str
    name: str
    display_name: str
    organization_id: str | None
    group_ids: tuple[str, ...]


@dataclass(frozen=True)
class PackageAccount:
    username: str
    role: str
    password: str | None
    team_id: str | None


@dataclass(frozen=True)
class PackageSubmission:
    id: str
    team_id: str
    problem_id: str
    language_id: str
    time: float
    files: tuple[tuple[str, bytes], ...]


@dataclass(frozen=True)
class ContestPackage:
    id: str | None
    name: str
    start: datetime
    end: datetime
    freeze: int  # minutes
    penalty: int
    problems: tuple[PackageProblem, ...]
    organizations: tuple[tuple[str, str, str | None, str | None], ...]  # id, name, formal name, country
    groups: tuple[tuple[str, str], ...]  # id, name
    teams: tuple[PackageTeam, ...]
    accounts: tuple[PackageAccount, ...]
    submissions: tuple[PackageSubmission, ...]
    left_out: tuple[str, ...]  # what the package holds that the site does not take, one line each


def read_package(root: Path) -> ContestPackage:
    """The package in the folder ``root`` (a zip is unpacked first, by the caller)."""
    left_out: list[str] = []
    contest = _contest(root)
    problems = _problems(root)
    organizations, groups, teams = _registration(root)
    accounts = _accounts(root, left_out)
    known = {team.id for team in teams}
    for account in accounts:
        if account.team_id is not None and account.team_id not in known:
            raise SpecError("accounts", None, f"the account '{account.username}' names no team '{account.team_id}'")
    submissions = _submissions(root, {p.id for p in problems}, known | _own_teams(accounts), left_out)
    return ContestPackage(
        *contest, tuple(problems), organizations, groups, teams, accounts, submissions, tuple(left_out)
    )


def _contest(root: Path) -> tuple[str | None, str, datetime, datetime, int, int]:
    path = find(root, "contest")
    if path is None:
        raise SpecError(root / "contest.yaml", None, "missing: a contest package needs contest.yaml or contest.json")
    item = one_object(path, path.name)
    name = item.text("name") or ""
    start = _moment(item, "start_time")
    length = _seconds(item, "duration", required=True)
    if length <= 0:
        raise item.fail("duration must be longer than 0:00:00")
    freeze = _seconds(item, "scoreboard_freeze_duration", required=False)
    if not 0 <= freeze <= length:
        raise item.fail("scoreboard_freeze_duration must be 0 to the contest's duration")
    penalty = item.data.get("penalty_time", 20)
    if isinstance(penalty, str) and DURATION.fullmatch(penalty):
        penalty = _seconds(item, "penalty_time", required=True) // 60
    if isinstance(penalty, bool) or not isinstance(penalty, int) or penalty < 0:
        raise item.fail(f"penalty_time must be whole minutes >= 0, got {penalty!r}")
    ident = _identifier(item, "id", required=False)
    return ident, name, start, start + timedelta(seconds=length), -(-freeze // 60), max(penalty, 1)


def _moment(item: Item, key: str) -> datetime:
    value = item.data.get(key)
    if value is None:
        raise item.fail(f"missing required field '{key}' (a site needs the contest's start)")
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value).strip())
        except ValueError:
            raise item.fail(f"{key}: '{value}' is not an ISO 8601 time (2014-06-25T10:00:00+01)") from None
    return moment if moment.tzinfo is not None else moment.astimezone()


def _seconds(item: Item, key: str, required: bool) -> int:
    """A duration, ``h:mm:ss(.uuu)``; a YAML ``5:00:00`` left unquoted arrives as YAML 1.1's base-60 number of
    seconds (18000), which is the same length."""
    value = item.data.get(key)
    if value is None:
        if required:
            raise item.fail(f"missing required field '{key}' (h:mm:ss)")
        return 0
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    match = DURATION.fullmatch(str(value).strip())
    if match is None or match.group(1):
        raise item.fail(f"{key}: '{value}' is not a duration (h:mm:ss)")
    return int(match.group(2)) * 3600 + int(match.group(3)) * 60 + round(float(match.group(4)))


def _identifier(item: Item, key: str, required: bool = True) -> str | None:
    value = item.text(key, required)
    if value is not None and not is_identifier(value):
        raise item.fail(f"{key} '{value}' is not an identifier (letters, digits, _ . -; at most 36)")
    return value


def _problems(root: Path) -> list[PackageProblem]:
    path = find(root, "problems")
    if path is None:
        raise SpecError(root / "problems.yaml", None, "missing: a contest package needs problems.yaml or problems.json")
    items = objects(path, path.name)
    if not items:
        raise SpecError(path.name, None, "lists no problem")
    if all(isinstance(item.data.get("ordinal"), int) for item in items):
        items.sort(key=lambda item: item.data["ordinal"])
    found: list[PackageProblem] = []
    for number, item in enumerate(items):
        ident = _identifier(item, "id") or ""
        if any(problem.id == ident for problem in found):
            raise item.fail(f"the problem '{ident}' is listed twice")
        label = item.text("label", required=False) or (chr(ord("A") + number) if number < 26 else ident)
        rgb = item.text("rgb", required=False)
        if rgb is not None and not re.fullmatch(r"#(?:[0-9A-Fa-f]{3}){1,2}", rgb):
            raise item.fail(f"rgb must be a colour such as '#00f', got {rgb!r}")
        source = _problem_source(root, ident)
        if source is None:
            raise item.fail(f"no package for the problem '{ident}' (a folder {ident}/ or problems/{ident}/{ident}.zip)")
        name = item.text("name", required=False) or ident
        limit = item.data.get("time_limit")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, float)) or limit <= 0):
            raise item.fail(f"time_limit must be seconds over 0, got {limit!r}")
        color = item.text("color", required=False)
        found.append(PackageProblem(ident, label, name, rgb, color, source, float(limit) if limit else None))
    return found


def _problem_source(root: Path, ident: str) -> Path | None:
    for folder in (root / ident, root / "problems" / ident):
        if (folder / "problem.yaml").is_file():
            return folder
    for archive in (root / "problems" / ident / f"{ident}.zip", root / "problems" / f"{ident}.zip"):
        if archive.is_file():
            return archive
    return None


def _registration(root: Path) -> tuple[tuple, tuple, tuple[PackageTeam, ...]]:
    organizations: dict[str, tuple[str, str, str | None, str | None]] = {}
    groups: dict[str, tuple[str, str]] = {}
    path = find(root, "organizations")
    for item in objects(path, path.name) if path else ():
        ident = _identifier(item, "id") or ""
        country = item.text("country", required=False)
        if country is not None and not re.fullmatch(r"[A-Z]{3}", country):
            raise item.fail(f"country '{country}' is not an ISO 3166-1 alpha-3 code (SWE)")
        name = item.text("name", required=False) or ident
        organizations[ident] = (ident, name, item.text("formal_name", required=False), country)
    path = find(root, "groups", ("json", "yaml", "yml", "tsv"))
    if path is not None and path.suffix == ".tsv":
        for line, row in tsv_rows(path, path.name, ("groups",)):
            ident = row[0].strip()
            if not is_identifier(ident) or len(row) < 2:
                raise SpecError(path.name, line, "each line is: group id <TAB> name")
            groups[ident] = (ident, row[1].strip())
    else:
        for item in objects(path, path.name) if path else ():
            ident = _identifier(item, "id") or ""
            groups[ident] = (ident, item.text("name", required=False) or ident)
    teams = _teams(root, organizations, groups)
    return tuple(organizations.values()), tuple(groups.values()), teams


def _teams(root: Path, organizations: dict, groups: dict) -> tuple[PackageTeam, ...]:
    path = find(root, "teams", ("json", "yaml", "yml", "tsv"))
    found: dict[str, PackageTeam] = {}
    if path is not None and path.suffix == ".tsv":
        for line, row in tsv_rows(path, path.name, ("teams",)):
            team = _tsv_team(path.name, line, row, organizations)
            if team.id in found:
                raise SpecError(path.name, line, f"the team '{team.id}' is listed twice")
            found[team.id] = team
    for item in objects(path, path.name) if path is not None and path.suffix != ".tsv" else ():
        ident = _identifier(item, "id") or ""
        if ident in found:
            raise item.fail(f"the team '{ident}' is listed twice")
        organization = _identifier(item, "organization_id", required=False)
        if organization is not None and organization not in organizations:
            raise item.fail(f"organization_id '{organization}' is in no organizations file")
        listed = item.data.get("group_ids") or []
        if not isinstance(listed, list) or any(str(g) not in groups for g in listed):
            raise item.fail(f"group_ids {listed!r} must be a list of the groups file's ids")
        name = item.text("name", required=False) or ident
        found[ident] = PackageTeam(
            ident, name, item.text("display_name", required=False) or "", organization, tuple(map(str, listed))
        )
    for team in found.values():
        for group in team.group_ids:
            groups.setdefault(group, (group, group))
    return tuple(found.values())


def _tsv_team(shown: str, line: int, row: list[str], organizations: dict) -> PackageTeam:
    """DOMjudge's teams.tsv line: number, external id, category id, name, institution name, its short name, its
    country, its external id. The team's id is its external id where it has one (what DOMjudge's API shows)."""
    cells = [cell.strip() for cell in row] + [""] * 8
    ident = cells[1] or cells[0]
    if not is_identifier(ident) or not cells[3]:
        raise SpecError(shown, line, "each line is: number, external id, category id, name, institution, ...")
    organization = None
    if cells[4] or cells[5]:
        organization = cells[7] or cells[5] or cells[4]
        if not is_identifier(organization):
            organization = re.sub(r"[^A-Za-z0-9_.-]+", "-", organization).strip(".-")[:36] or f"org-{line}"
        country = cells[6].upper() if re.fullmatch(r"[A-Za-z]{3}", cells[6]) else None
        organizations.setdefault(organization, (organization, cells[5] or cells[4], cells[4] or None, country))
    return PackageTeam(ident, cells[3], "", organization, (cells[2],) if is_identifier(cells[2]) else ())


def _accounts(root: Path, left_out: list[str]) -> tuple[PackageAccount, ...]:
    path = find(root, "accounts", ("json", "yaml", "yml", "tsv"))
    found: dict[str, PackageAccount] = {}
    rows: list[tuple[Item, str, str, str | None, str | None]] = []
    if path is not None and path.suffix == ".tsv":
        for line, row in tsv_rows(path, path.name, ("accounts",)):
            cells = [cell.strip() for cell in row] + [""] * 5
            rows.append((Item({}, path.name, line), cells[0], cells[2], cells[3] or None, cells[4] or None))
    else:
        for item in objects(path, path.name) if path else ():
            name = item.text("username", required=False) or item.text("id") or ""
            kind = item.text("type", required=False) or "team"
            rows.append((item, kind, name, item.text("password", required=False), item.text("team_id", False)))
    for item, kind, name, password, team in rows:
        if not name:
            raise item.fail("an account needs a username")
        if kind not in ROLE_OF:
            left_out.append(f"{item.file}:{item.line}: the {kind} account '{name}' (no such role here)")
            continue
        if name in found:
            raise item.fail(f"the account '{name}' is listed twice")
        if password is not None and not 8 <= len(password) <= 1024:
            raise item.fail(f"the account '{name}': a password is 8 to 1024 characters")
        found[name] = PackageAccount(name, ROLE_OF[kind], password, team if kind == "team" else None)
    taken = [a.team_id for a in found.values() if a.team_id is not None]
    if len(taken) != len(set(taken)):
        twice = next(t for t in taken if taken.count(t) > 1)
        raise SpecError(path.name if path else "accounts", None, f"two accounts are the team '{twice}'s: one each")
    return tuple(found.values())


def _own_teams(accounts: tuple[PackageAccount, ...]) -> set[str]:
    """Team accounts that name no team are teams of their own, their id the account's name."""
    return {a.username for a in accounts if a.role == "team" and a.team_id is None and is_identifier(a.username)}


def _submissions(root: Path, problems: set[str], teams: set[str], left_out: list[str]) -> tuple[PackageSubmission, ...]:
    """The submissions with their files; one by no team of the package (a jury's own test, which an export of the
    API lists too) is left out, and said so."""
    path = find(root, "submissions")
    found: list[PackageSubmission] = []
    for item in objects(path, path.name) if path else ():
        ident = _identifier(item, "id") or ""
        team, problem = item.text("team_id") or "", item.text("problem_id") or ""
        if team not in teams:
            left_out.append(f"{item.file}:{item.line}: the submission '{ident}', by '{team}', no team of the package")
            continue
        if problem not in problems:
            raise item.fail(f"the submission '{ident}' is for no problem of the package ('{problem}')")
        moment = _moment(item, "time").timestamp()
        refs = item.data.get("files") or [{"filename": "files.zip"}]
        filename = refs[0].get("filename") if isinstance(refs, list) and isinstance(refs[0], dict) else None
        if not isinstance(filename, str) or "/" in filename or filename in ("", ".", ".."):
            raise item.fail("files must be [{filename: files.zip, ...}]")
        archive = root / "submissions" / ident / filename
        if not archive.is_file():
            raise item.fail(f"the submission '{ident}' has no files: submissions/{ident}/{filename} is missing")
        shown = f"submissions/{ident}/{filename}"
        if archive.stat().st_size > MAX_SUBMISSION:
            raise SpecError(shown, None, f"over {MAX_SUBMISSION >> 10} KiB: no submission's files are that large")
        files = files_of(archive.read_bytes(), shown)
        found.append(PackageSubmission(ident, team, problem, item.text("language_id") or "", moment, tuple(files)))
    return tuple(found)
