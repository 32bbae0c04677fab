"""The language registry: languages are data (``languages.yaml``), and this is the one place that maps a file to its
language.

Adding a language is adding an entry to ``languages.yaml``, to a user file
(``$TILEJUDGE_LANGUAGES`` or ``~/.config/tilejudge/languages.yaml``) or to a
problem's own ``languages.yaml``; no code changes. The spec validator,
discovery of student submissions, Kattis packages, verify and the CLI all ask
``detect`` and ``is_source`` here instead of checking extensions themselves.
The files are read on first use, so commands that never touch a language do
not pay for parsing them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

from ..errors import SpecError, UsageError
from ..filecache import code_signature, recall, remember, signatures
from ..locations import user_language_file
from .language import Language
from .sources import folder_sources

BUILTIN_FILE = Path(__file__).with_name("languages.yaml")
ENTRY_RULES = ("all", "file", "class", "scripts")
EXE = "exe"  # a ready executable: the fallback for a file with the execute bit and no known extension


class _Entry:
    """Where an entry is (file and line), so every mistake in a user's or a problem's file is reported there."""

    def __init__(self, path: Path, line: int | None, name: str) -> None:
        self.path, self.line, self.name = path, line, name

    def error(self, message: str) -> SpecError:
        return SpecError(self.path, self.line, f"language '{self.name}': {message}")

    def words(self, value: Any, key: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not value or not all(isinstance(v, (str, int, float)) for v in value):
            raise self.error(f"{key}: expected a non-empty list of words")
        return tuple(str(v) for v in value)


_KEYS = {
    "title",
    "aliases",
    "extensions",
    "headers",
    "shebang",
    "package",
    "version",
    "compile",
    "run",
    "entry",
    "main_pattern",
    "class_pattern",
    "class_name",
    "package_pattern",
    "rename",
    "env",
    "paths",
    "time_factor",
    "address_space",
    "oom_markers",
    "error_pattern",
    "markers",
}


def parse_entry(name: str, data: Any, path: Path, line: int | None = None) -> Language:
    """One registry entry; every mistake names the file, line and entry, since a user or a problem may write these."""
    here = _Entry(path, line, name)
    if not isinstance(data, dict):
        raise here.error("expected a mapping")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise here.error(f"unknown key '{unknown[0]}'")
    if "run" not in data:
        raise here.error("'run' is required")
    steps = data.get("compile") or []
    if steps and not isinstance(steps[0], list):
        steps = [steps]
    entry = data.get("entry", "file")
    if entry not in ENTRY_RULES:
        raise here.error(f"entry must be one of {', '.join(ENTRY_RULES)}")
    for key in ("shebang", "main_pattern", "class_pattern", "package_pattern", "rename", "error_pattern"):
        try:
            re.compile(data.get(key) or "")
        except re.error as exc:
            raise here.error(f"{key}: {exc}") from None
    env = data.get("env") or {}
    if not isinstance(env, dict):
        raise here.error("env must be a mapping")
    return Language(
        name=name,
        run=here.words(data["run"], "run"),
        title=str(data.get("title", name)),
        aliases=tuple(str(a).lower() for a in data.get("aliases") or ()),
        extensions=tuple(str(e).lower() for e in data.get("extensions") or ()),
        headers=tuple(str(e).lower() for e in data.get("headers") or ()),
        shebang=data.get("shebang"),
        package=str(data.get("package", "")),
        version=here.words(data["version"], "version") if data.get("version") else (),
        compile=tuple(here.words(step, "compile") for step in steps),
        entry=entry,
        main_pattern=data.get("main_pattern"),
        class_pattern=data.get("class_pattern"),
        class_name=data.get("class_name"),
        package_pattern=data.get("package_pattern"),
        rename=data.get("rename"),
        env={str(k): str(v) for k, v in env.items()},
        paths=tuple(str(p) for p in data.get("paths") or ()),
        time_factor=float(data.get("time_factor", 1.0)),
        limit_address_space=bool(data.get("address_space", True)),
        oom_markers=tuple(str(m).encode() for m in data.get("oom_markers") or ()),
        error_pattern=data.get("error_pattern"),
        markers=tuple(str(m) for m in data.get("markers") or ()),
    )


def read_file(path: Path) -> list[Language]:
    """Every entry of a registry file, in the file's order (the order decides which entry claims a shared extension);
    remembered until the file changes, so that a warm command reads no YAML."""
    key, context = os.path.realpath(path), code_signature("lang")
    remembered = recall("languages", key, context)
    if isinstance(remembered, list):
        return remembered
    entries = _parse_file(path)
    remember("languages", key, context, entries, signatures([key]))
    return entries


def _parse_file(path: Path) -> list[Language]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        text = path.read_text(encoding="utf-8")
        node = yaml.compose(text, Loader=loader)
        data = yaml.load(text, Loader=loader)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SpecError(
            path,
            mark.line + 1 if mark is not None else None,
            f"not valid YAML ({getattr(exc, 'problem', None) or exc})",
        ) from None
    if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
        raise SpecError(path, None, "expected a mapping of language names to entries")
    lines = {str(key.value): key.start_mark.line + 1 for key, _ in node.value}
    return [parse_entry(str(name), entry, path, lines.get(str(name))) for name, entry in data.items()]


def user_file() -> Path | None:
    """The user's own registry file, if there is one."""
    path = Path(user_language_file())
    return (
        path if os.environ.get("TILEJUDGE_LANGUAGES") or path.is_file() else None
    )  # a named file must exist: reading it says so


class Registry(MutableMapping[str, Language]):
    """Languages by name, read lazily: the judge's file, then the user's file; a problem's file layers on top with
    ``extended``."""

    def __init__(self, files: tuple[Path, ...] | None = None, base: Registry | None = None) -> None:
        self._files = files
        self._base = base
        self._entries: dict[str, Language] | None = None
        self.changed_here = False  # a language added or removed by this process, in no file: see formats.load

    def _load(self) -> dict[str, Language]:
        if self._entries is None:
            entries = dict(self._base._load()) if self._base is not None else {}
            files = (
                self._files
                if self._files is not None
                else tuple(p for p in (BUILTIN_FILE, user_file()) if p is not None)
            )
            for path in files:
                for lang in read_file(path):
                    entries[lang.name] = lang
            self._entries = entries
        return self._entries

    def __getitem__(self, name: str) -> Language:
        return self._load()[name]

    def __setitem__(self, name: str, lang: Language) -> None:
        self._load()[name] = lang
        self.changed_here = True

    def __delitem__(self, name: str) -> None:
        del self._load()[name]
        self.changed_here = True

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def extended(self, path: Path | None) -> Registry:
        """This registry with a problem's own file on top (``self`` when there is none)."""
        return self if path is None or not path.is_file() else Registry((path,), base=self)

    def language(self, name: str) -> Language:
        """The language called ``name`` or one of its aliases (``--lang``, time factors); unknown is a usage error."""
        key = name.lower()
        for lang in self.values():
            if key == lang.name or key in lang.aliases:
                return lang
        raise UsageError(f"unknown language '{name}' (known: {', '.join(self)}; `languages` lists them)")

    def by_extension(self, path: Path) -> Language | None:
        """The language of a source file: the first entry claiming its extension, unless a later one's shebang
        matches."""
        suffix = path.suffix.lower()
        if not suffix:
            return None
        claims = [lang for lang in self.values() if suffix in lang.extensions]
        if len(claims) > 1:
            first = _first_line(path)
            for lang in claims:
                if lang.shebang and re.search(lang.shebang, first):
                    return lang
            claims = [lang for lang in claims if not lang.shebang] or claims
        return claims[0] if claims else None

    def is_source(self, path: Path) -> bool:
        """A regular file in one of the registered languages (what grading and verify look for in a folder)."""
        return path.is_file() and not path.is_symlink() and self.by_extension(path) is not None

    def marked(self, folder: Path) -> Language | None:
        """The language a folder names by holding one of its marker files (``build`` or ``run``: the folder is built
        and run by its own scripts, whatever sources it holds), if any."""
        if not folder.is_dir():
            return None
        return next(
            (lang for lang in self.values() if any(_regular(folder / name) for name in lang.markers)),
            None,
        )

    def detect(self, path: Path) -> Language:
        """The language of a file (extension, then the execute bit: 'exe') or of a folder (the one a marker file names,
        else the one language of its sources)."""
        marked = self.marked(path)
        if marked is not None:
            return marked
        if path.is_dir():
            found = sorted(
                {
                    lang.name
                    for lang in map(self.by_extension, folder_sources(path, self.by_extension))
                    if lang is not None
                }
            )
            if len(found) == 1:
                return self[found[0]]
            if not found:
                raise UsageError(f"{path}: no source file of a known language in the folder")
            raise UsageError(f"{path}: sources in several languages ({', '.join(found)}); use --lang")
        found_lang = self.by_extension(path)
        if found_lang is not None:
            return found_lang
        if path.is_file() and os.access(path, os.X_OK):
            return self[EXE]
        raise UsageError(
            f"{path}: cannot tell the language from '{path.suffix.lower() or 'no extension'}'; "
            "use --lang (`languages` lists them)"
        )


def _regular(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def _first_line(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            return handle.readline(256).decode("utf-8", "replace")
    except OSError:
        return ""


LANGUAGES = Registry()


PROBLEM_FILE = "languages.yaml"


def registry_for(problem_root: Path) -> Registry:
    """The languages a problem's submissions may use: the judge's and the user's, with the problem's own file on top."""
    return LANGUAGES.extended(problem_root / PROBLEM_FILE)


def register(lang: Language) -> Language:
    """Add (or replace) a language in the judge's registry; everything that detects languages sees it at once."""
    LANGUAGES[lang.name] = lang
    return lang


def by_extension(path: Path) -> Language | None:
    return LANGUAGES.by_extension(path)


def is_source(path: Path) -> bool:
    return LANGUAGES.is_source(path)


def detect(path: Path) -> Language:
    return LANGUAGES.detect(path)


def marked(folder: Path) -> Language | None:
    return LANGUAGES.marked(folder)


def language(name: str) -> Language:
    return LANGUAGES.language(name)
