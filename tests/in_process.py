"""The service's application driven in the test's own process, without a server: httpx's ASGI transport.

For tests of what the application answers (throttling, the ICPC API's
objects) where a real server's start would only cost time. Starlette's own
TestClient warns that its httpx support is deprecated; the transport sets
the client's address just as well. The application's lifespan (workers,
the contest clock) does not run here: tests that need it start a server.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx


class InProcessClient:
    """One client's requests to ``app`` from ``address``, its cookies kept between them, ``headers`` on each."""

    def __init__(self, app: Any, address: str = "127.0.0.1", headers: dict[str, str] | None = None) -> None:
        self.app, self.address, self.headers = app, address, headers or {}
        self.cookies = httpx.Cookies()

    def request(self, method: str, url: str, **options: Any) -> httpx.Response:
        async def send() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app, client=(self.address, 40000))
            async with httpx.AsyncClient(
                transport=transport, base_url="http://127.0.0.1", cookies=self.cookies, headers=self.headers
            ) as http:
                response = await http.request(method, url, **options)
                self.cookies = http.cookies
                return response

        return asyncio.run(send())

    def get(self, url: str, **options: Any) -> httpx.Response:
        return self.request("GET", url, **options)

    def post(self, url: str, **options: Any) -> httpx.Response:
        return self.request("POST", url, **options)
