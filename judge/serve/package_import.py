"""``serve SITE --import PACKAGE``: a contest site made whole from a contest package (a folder or a zip), or nothing.

The site is made in a hidden folder beside ``SITE`` and renamed into place only once everything in it has been
checked: the package read (``package_read.py``), each problem's Kattis package loaded by the judge's own reader,
``site.yaml`` read back by the server's reader, the store written in one transaction. A fault anywhere removes the
hidden folder, so a bad package never leaves a half-made site that a server could start on.

What the site gets: ``site.yaml`` (a contest with the package's name, start, end, freeze and penalty; its problems
in order under ``problems/<id>`` with their labels and colours), the organizations and groups with their ids, a
team account per team with its team id kept (the team's account in ``accounts`` where one names it, else an
account named by the team's id), the judge and admin accounts (a password given is kept, as its hash), and the
submissions with their files, queued to be judged when the site is served. Judgements in the package are not
taken: this judge decides them again, which is what comparing two systems needs.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..errors import SpecError, UsageError
from ..lang import LANGUAGES, by_extension
from ..problem.formats import load
from .auth import Duplicate, add_user
from .package_read import ContestPackage, PackageSubmission, read_package
from .package_zip import check_folder, unpack
from .site import load_site
from .sources import Sources
from .store import Store
from .store_package import add_group, add_organization, add_submission, place_team
from .team_ids import TakenId


@dataclass(frozen=True)
class Imported:
    problems: int
    teams: int
    accounts: int
    submissions: int
    left_out: tuple[str, ...]

    def __str__(self) -> str:
        made = (
            f"{self.problems} problem(s), {self.teams} team(s), {self.accounts} account(s), "
            f"{self.submissions} submission(s) queued to be judged"
        )
        return made + "".join(f"\n  left out: {line}" for line in self.left_out)


def import_package(package: Path, site: Path, problems_root: Path) -> Imported:
    """Make the site folder ``site`` (new, or an empty folder) from the contest package ``package``."""
    if not package.exists():
        raise UsageError(f"{package}: no such contest package (a folder or a .zip)")
    if site.exists() and (not site.is_dir() or any(site.iterdir())):
        raise UsageError(f"{site}: exists and is not an empty folder; an import makes a new site")
    site.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{site.name}.importing-", dir=site.parent))
    try:
        root = _package_root(package, work / "package")
        contest = read_package(root)
        made = work / "site"
        made.mkdir(mode=0o700)
        counts = _make_site(contest, made, problems_root)
        if site.exists():
            site.rmdir()  # empty, checked above: the rename below needs the name free
        os.rename(made, site)
        return counts
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _package_root(package: Path, into: Path) -> Path:
    """The package's folder: itself, or its zip unpacked (a zip of the folder has the folder as its one entry)."""
    if package.is_dir():
        check_folder(package, str(package))
        return package
    into.mkdir()
    unpack(package, into, str(package))
    entries = [entry for entry in into.iterdir() if entry.name != "__MACOSX"]
    if len(entries) == 1 and entries[0].is_dir() and not any(into.glob("contest.*")):
        return entries[0]
    return into


def _make_site(contest: ContestPackage, site: Path, problems_root: Path) -> Imported:
    problems = site / "problems"
    problems.mkdir()
    entries = []
    for problem in contest.problems:
        target = problems / problem.id
        if problem.source.is_dir():
            shutil.copytree(problem.source, target)  # links (inside the package: checked) copied as files
        else:
            target.mkdir()
            unpack(problem.source, target, f"problems/{problem.id}")
        entry: dict[str, str] = {"problem": f"problems/{problem.id}", "name": problem.id, "label": problem.label}
        entry |= {"rgb": problem.rgb} if problem.rgb else {}
        entry |= {"color": problem.color} if problem.color else {}
        entry |= {"time_limit": problem.time_limit} if problem.time_limit else {}
        entries.append(entry)
    settings = {
        **({"id": contest.id} if contest.id else {}),
        "title": contest.name,
        "kind": "contest",
        "start": contest.start.isoformat(),
        "end": contest.end.isoformat(),
        "penalty": contest.penalty,
        **({"freeze": contest.freeze} if contest.freeze else {}),
        "problems": entries,
    }
    (site / "site.yaml").write_text(
        "# made by tilejudge serve --import from a contest package\n"
        + yaml.safe_dump(settings, sort_keys=False, allow_unicode=True),
        encoding="utf-8",
    )
    loaded = {}
    for problem in contest.problems:
        try:
            loaded[problem.id] = load(problems / problem.id, f"problems/{problem.id}")
        except UsageError as exc:
            raise UsageError(f"the problem '{problem.id}': {exc}") from None
    load_site(site, problems_root)  # what the server will read, read now
    store = Store(site)
    try:
        teams, accounts = _accounts(contest, store)
        submitted = _submissions(contest, store, site, teams, {n: len(p.cases) for n, p in loaded.items()})
    finally:
        store.close()
    return Imported(len(contest.problems), len(teams), accounts, submitted, contest.left_out)


def _accounts(contest: ContestPackage, store: Store) -> tuple[dict[str, int], int]:
    """The organizations, groups and accounts, in one transaction: each team's account number by its team id."""
    owners = {account.team_id: account for account in contest.accounts if account.team_id is not None}
    teams: dict[str, int] = {}
    made = 0
    with store.tx() as db:
        for ident, name, formal, country in contest.organizations:
            add_organization(store, db, ident, name, formal, country)
        for ident, name in contest.groups:
            add_group(store, db, ident, name)
        try:
            for team in contest.teams:
                account = owners.get(team.id)
                name = account.username if account else team.id
                display = team.display_name or (team.name if team.name != name else "")
                user = add_user(db, name, "team", display, account.password if account else None, team_id=team.id)
                place_team(db, user.id, team.organization_id, list(team.group_ids))
                teams[team.id], made = user.id, made + 1
            for account in contest.accounts:
                if account.team_id is None:
                    user = add_user(db, account.username, account.role, password=account.password)
                    made += 1
                    if account.role == "team":
                        teams[account.username] = user.id
        except (Duplicate, TakenId, ValueError) as exc:
            raise SpecError("accounts", None, str(exc)) from None
    return teams, made


def _submissions(
    contest: ContestPackage, store: Store, site: Path, teams: dict[str, int], cases: dict[str, int]
) -> int:
    sources = Sources(site)
    rows = [(found, _language(found)) for found in contest.submissions]
    stored = [
        [{"name": n, "sha256": sources.put(data), "size": len(data)} for n, data in found.files] for found, _ in rows
    ]
    numbered = all(found.id.isdigit() and len(found.id) < 16 for found, _ in rows)
    with store.tx() as db:
        for (found, language), files in sorted(zip(rows, stored), key=lambda pair: pair[0][0].time):
            wanted = int(found.id) if numbered else None
            add_submission(
                store,
                db,
                wanted,
                teams[found.team_id],
                found.problem_id,
                language,
                files,
                found.time,
                cases[found.problem_id],
            )
    return len(rows)


def _language(found: PackageSubmission) -> str:
    """The judge's language for a package's ``language_id`` (``cpp``, ``python3``, ``java`` are ours too), else the
    one its first file's extension names."""
    known = LANGUAGES.get(found.language_id)
    if known is None:
        known = by_extension(Path(found.files[0][0]))
    if known is None:
        raise SpecError("submissions", None, f"the submission '{found.id}': no language here for '{found.language_id}'")
    return known.name
