"""The service's own layers: a handler module never imports another, and the workflow knows nothing of HTTP.

A handler module answers requests (it has ``ROUTES``): the API's ``api_*``, the pages' ``pages_*``, the ICPC API's
``icpc*``, ``events`` and ``scoreboard``. What two of them share lives below them (the workflow, ``board``,
``event_stream``, ``page_shared``, ``session_ends``, ...), so each can be read, changed and tested alone; only the
route tables (``app``, ``pages_routes``) gather them. The workflow (``judge/serve/workflow/``) is what the service
does with no request in it: it imports no handler module, no web framework and not the HTTP errors. Read with
``ast`` (nothing is imported), the imports inside functions included.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SERVE = Path(__file__).resolve().parents[2] / "judge" / "serve"
HANDLER_NAME = re.compile(r"^(api_\w+|pages_\w+|icpc\w*|events|scoreboard)$")
# named like a handler module, but answering no request: the pages' route table, the ICPC objects' shapes, what the
# ICPC `access` endpoint lists, the awards it computes and the collections as one account sees them (pieces icpc.py
# answers with)
NOT_HANDLERS = {"pages_routes", "icpc_objects", "icpc_access", "icpc_awards", "icpc_views"}


def _modules() -> dict[str, Path]:
    """``judge/serve``'s modules by their name inside it (``workflow.rejudge``), the package's own ``__init__`` left
    out."""
    found = {}
    for path in SERVE.rglob("*.py"):
        parts = list(path.relative_to(SERVE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts:
            found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path) -> set[str]:
    """What ``name`` imports: ``judge/serve`` modules by their name inside it, anything else by its full name."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if not node.level:
                out.add(node.module or "")
                continue
            up = node.level - 1  # 1: this package; 2: its parent ...
            if up > len(package):  # above judge/serve: a judge module, not the service's
                out.add("judge." + (node.module or ""))
                continue
            base = package[: len(package) - up]
            target = ".".join([*base, node.module] if node.module else base)
            out.add(target)
            out |= {f"{target}.{alias.name}".lstrip(".") for alias in node.names}
    return out


def _handlers(modules: dict[str, Path]) -> set[str]:
    return {name for name in modules if HANDLER_NAME.match(name) and name not in NOT_HANDLERS}


def test_the_handler_modules_are_the_ones_that_answer_requests() -> None:
    """The rule below would hold vacuously if the names matched nothing or matched modules with no route."""
    modules = _modules()
    handlers = _handlers(modules)
    assert {
        "api_submissions",
        "api_accounts",
        "pages_student",
        "pages_staff",
        "icpc",
        "events",
        "scoreboard",
    } <= handlers
    for name in handlers:
        assert re.search(r"^ROUTES\b", modules[name].read_text(), re.M), f"{name} answers no request"
    for name in NOT_HANDLERS:
        assert not re.search(r"^ROUTES\b", modules[name].read_text(), re.M), f"{name} has routes: a handler module"


def test_no_handler_module_imports_another() -> None:
    modules = _modules()
    handlers = _handlers(modules)
    wrong = sorted(
        f"{name} imports {target}"
        for name in handlers
        for target in _imports(name, modules[name]) & handlers
        if target != name
    )
    assert wrong == []


def test_the_workflow_has_no_http_in_it() -> None:
    modules = _modules()
    handlers = _handlers(modules)
    workflow = {name: path for name, path in modules.items() if name == "workflow" or name.startswith("workflow.")}
    assert {"workflow", "workflow.submissions", "workflow.rejudge", "workflow.accounts"} <= set(workflow)
    http = {"http_errors", "access", "intake", "origin", "pages", "starlette", "jinja2", "uvicorn"}
    wrong = sorted(
        f"{name} imports {target}"
        for name, path in workflow.items()
        for target in _imports(name, path)
        if target in handlers or target.split(".")[0] in http
    )
    assert wrong == []


def test_the_checker_sees_an_import_between_handlers(tmp_path: Path) -> None:
    """The reading of imports above finds the three ways a handler could reach another."""
    sample = tmp_path / "pages_x.py"
    sample.write_text(
        "from .api_submissions import x\nfrom . import scoreboard\n\ndef f():\n    from .workflow import y\n"
    )
    found = _imports("pages_x", sample)
    assert {"api_submissions", "scoreboard", "workflow"} <= found
    nested = tmp_path / "rejudge.py"
    nested.write_text("from ..queue import requeue\nfrom ...lang import LANGUAGES\n")
    assert {"queue", "judge.lang"} <= _imports("workflow.rejudge", nested)


def test_the_workflow_holds_no_sql() -> None:
    """Its queries are the store modules' (``store_*``, ``queue``): the workflow says what, they say how."""
    sql = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b", re.I)
    found = [
        f"{path.relative_to(SERVE)}:{node.lineno}"
        for path in (SERVE / "workflow").glob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and sql.match(node.value)
    ]
    assert found == []


# The store's modules: the only ones that may hold SQL. ``queue`` is the judging queue's store (claim, finish,
# requeue: each a transaction on the submissions and results it owns, with its states); ``migrations`` writes the
# schema on a bare connection before a ``Store`` exists; ``backup`` reads a snapshot copy of the file through its
# own connection (the schema version, the sources it must carry), never the live store.
STORE_MODULES = re.compile(r"^(store|store_\w+|queue|migrations|backup)$")
SQL_TEXT = re.compile(
    r"\b(SELECT|WHERE|JOIN|GROUP BY|ORDER BY|PRAGMA|BEGIN IMMEDIATE|ROLLBACK)\b"
    r"|\bINSERT\s+(OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b|\bCREATE\s+(TABLE|INDEX)\b"
)
CURSOR_CALLS = {"execute", "executemany", "executescript", "cursor", "fetchone", "fetchall"}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (prose about the store may name its tables)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _sql_uses(source: str) -> list[str]:
    """Where ``source`` uses SQL: sqlite3 named, a cursor's method called, or SQL written in a string (an f-string's
    literal parts included)."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "sqlite3" for a in node.names):
            found.append(f"{node.lineno}: imports sqlite3")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlite3":
            found.append(f"{node.lineno}: imports from sqlite3")
        elif isinstance(node, ast.Name) and node.id == "sqlite3":
            found.append(f"{node.lineno}: uses sqlite3")
        elif isinstance(node, ast.Attribute) and node.attr in CURSOR_CALLS:
            found.append(f"{node.lineno}: calls .{node.attr}(")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if SQL_TEXT.search(node.value):
                found.append(f"{node.lineno}: SQL in {node.value[:40]!r}")
    return found


def test_no_sql_outside_the_store_modules() -> None:
    """Every query of the service is a function of a store module, named for what it fetches; a handler, the
    workflow or a helper calls it and never writes SQL or touches sqlite3 itself."""
    modules = _modules()
    assert {"store", "store_accounts", "store_submissions", "store_teams", "queue"} <= set(modules)
    wrong = [
        f"{path.relative_to(SERVE)}:{use}"
        for name, path in sorted(modules.items())
        if not STORE_MODULES.match(name)
        for use in _sql_uses(path.read_text())
    ]
    assert wrong == []


def test_the_sql_checker_sees_each_way_in() -> None:
    """The reading above finds sqlite3 named, a cursor used and SQL in a plain or formatted string, and leaves prose,
    HTTP method names and file reads alone."""
    source = (
        '"""Reads the users table: SELECTing is the store\'s."""\n'
        "import sqlite3\n"
        "def f(db, store, t):\n"
        '    """Why: WHERE it is."""\n'
        '    db.execute("x")\n'
        '    store.read("SELECT * FROM users")\n'
        '    store.one(f"SELECT id FROM {t} WHERE id = ?")\n'
        '    return "DELETE FROM tokens", "UPDATE users SET x = 1", sqlite3.Row\n'
    )
    found = _sql_uses(source)
    assert sorted({int(use.split(":")[0]) for use in found}) == [2, 5, 6, 7, 8], found
    assert len(found) == 8, found  # line 8: two strings and sqlite3 named; line 7: the f-string's two literal parts
    harmless = 'METHODS = {"GET", "DELETE", "UPDATE"}\ndef g(f):\n    return f.read(10), "Select a problem"\n'
    assert _sql_uses(harmless) == []
