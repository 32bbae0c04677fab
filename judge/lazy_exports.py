"""Lazy exports for the layer packages: a name of ``judge.run`` (say) is imported from its module when first used.

Every command pays at start-up for each module it imports (``bench
--startup`` measures it). A layer's ``__init__`` that imported all of its
modules made a command that needs one of them pay for the whole layer, and
through it for the layers below: judging a batch problem imported the
interactive relay, the Kattis reader and YAML. With lazy exports the
package keeps its one public list of names (``from ..run import SlotPool``
still works, and the architecture test still sees which layer imports
which), while only the modules actually used are imported.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def exports(
    package: str, table: dict[str, tuple[str, ...]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``__getattr__``, ``__dir__`` and ``__all__`` for ``package``: ``table`` maps a submodule (".slots") to the
    names it provides, each ``"name"`` or ``"exported=name"`` for a name exported under another one."""
    where: dict[str, tuple[str, str]] = {}
    for module, names in table.items():
        for entry in names:
            exported, _, own = entry.partition("=")
            where[exported] = (module, own or exported)

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, own = where[name]
        value = getattr(importlib.import_module(module, package), own)
        setattr(sys.modules[package], name, value)  # the next use is a plain attribute
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__, sorted(where)
