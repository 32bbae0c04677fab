"""A real browser for the pages' tests: Debian's chromium driven by Playwright, and the checks every page gets.

No browser is ever downloaded: Playwright is given chromium's executable
path. Where chromium or the playwright package is missing, the tests are
skipped with a reason naming the package. ``Watched`` opens pages in a
context of its own (its own cookies: one user) and records every request
and console message, so a test can say that nothing left 127.0.0.1 and the
console stayed clean.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str:
    found = shutil.which("chromium") or (str(CHROMIUM) if CHROMIUM.exists() else None)
    if found is None:
        pytest.skip("chromium is not installed (Debian package chromium; .ci/setup-system installs it as root)")
    return found


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)


def sync_playwright() -> Any:
    try:
        from playwright.sync_api import sync_playwright as start
    except ImportError:
        pytest.skip("playwright is not installed (PyPI package playwright, in the dev extra)")
    return start()


@dataclass
class Watched:
    """One user's browser context, with every request URL and console error its pages made."""

    context: Any
    base: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    allowed: tuple[str, ...] = ()  # console errors a test caused on purpose (a stream it cut)
    refused: set[str] = field(default_factory=set)  # pages answered with an error status (a 404, a form's 413)

    def page(self, path: str = "") -> Any:
        page = self.context.new_page()
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("response", self._navigated)
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        if path:
            page.goto(self.base + path)
        return page

    def _navigated(self, response: Any) -> None:
        if response.request.is_navigation_request() and response.status >= 400:
            self.refused.add(response.url)

    def _console(self, message: Any) -> None:
        """An error on the console, but for the browser's note that a page it was shown came with an error status:
        the pages answer a refused form or another's submission with one, on purpose."""
        if message.type != "error":
            return
        if message.text.startswith("Failed to load resource") and message.location.get("url") in self.refused:
            return
        if not any(allowed in message.text for allowed in self.allowed):
            self.errors.append(f"{message.text} ({message.location.get('url')})")

    def log_in(self, name: str, password: str) -> Any:
        page = self.page("/login")
        page.fill("#name", name)
        page.fill("#password", password)
        page.click("form.stack button[type=submit]")
        page.wait_for_url(self.base + "/problems")
        return page

    def foreign(self) -> list[str]:
        """Requests to anywhere but this server (data: URLs are the page's own bytes)."""
        return [url for url in self.requests if not url.startswith((self.base + "/", "data:"))]
