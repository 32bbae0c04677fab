"""What every request handler shares: the site, its store and sources, the ready problems, the workers, the bell."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from ..model import Problem
from .auth import Sessions
from .bell import Bell
from .feedback import sample_cases
from .site import Site
from .sources import Sources
from .store import Store
from .throttle import Throttle
from .workers import Workers


@dataclass
class Service:
    site: Site
    store: Store
    problems: dict[str, Problem]
    workers: Workers
    sessions: Sessions
    bell: Bell = field(default_factory=Bell)
    throttle: Throttle = field(default_factory=Throttle)  # failed log-ins, in memory (throttle.py says why)

    def __post_init__(self) -> None:
        self.sources = Sources(self.site.root)
        self.samples = {name: sample_cases(problem) for name, problem in self.problems.items()}
        self.store.changed.append(self.bell.ring)
        self._languages: list[dict[str, object]] | None = None

    def languages(self) -> list[dict[str, object]]:
        """The site's languages with their versions, probed once (a compiler's version does not change under us)."""
        if self._languages is None:
            from ..lang import LANGUAGES
            from ..lang.probe import version

            self._languages = [
                {
                    "id": name,
                    "title": LANGUAGES[name].title or name,
                    "extensions": list(LANGUAGES[name].extensions),
                    "installed": not LANGUAGES[name].missing(),
                    "version": version(LANGUAGES[name]) if not LANGUAGES[name].missing() else "",
                }
                for name in self.site.languages
            ]
        return self._languages

    def policy(self, problem: str) -> str:
        """The problem's feedback policy; a problem since taken off the site shows the least."""
        entry = self.site.problems.get(problem)
        return entry.feedback if entry is not None else "verdict"

    def sample_keys(self, problem: str) -> frozenset[str]:
        """The problem's sample cases as ``group/name`` (``feedback.sample_cases``): a name alone may be a secret
        case's too."""
        return self.samples.get(problem, frozenset())


def iso(moment: float | None) -> str | None:
    """A stored time (seconds since the epoch) as ISO 8601 in UTC, as the API shows every time."""
    if moment is None:
        return None
    return datetime.fromtimestamp(moment, timezone.utc).isoformat(timespec="milliseconds")
