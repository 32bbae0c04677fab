"""Idle and half-sent connections are bounded in time and per address (issue 45, item 7), on a real server.

One server for the module, with a head timeout of one second and four
connections per address (``--head-timeout 1 --connections-per-address 4``),
driven over raw sockets as an attacker would: a connection that sends
nothing, a head dribbled a byte at a time, a body left half sent are each
closed once the bound has passed, and an address holding four connections
has its fifth closed at once while another address is served. Server-sent
event streams, long-lived but past their head, outlive the bound. The
addresses are loopback ones (127.0.0.2 to 127.0.0.7) other than the one the
module's own clients use, so that filling one leaves the others' alone; the
four connections that each wait for the head timeout are driven at once,
one address each, so that the module waits for it once.
"""

from __future__ import annotations

import contextlib
import re
import select
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import PROBLEMS, PROGRAMS
from serving import Client, Server, write_site

HEAD_TIMEOUT = 1.0
PER_ADDRESS = 4
SLACK = 4.0  # the most a loaded machine may add to a bound before the server's close is seen
AC_PY = (PROGRAMS / "aplusb" / "ac.py").read_text()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = write_site(
        tmp_path_factory.mktemp("connections"),
        f"title: Connections\nproblems:\n  - problem: {PROBLEMS / 'aplusb'}\nlanguages: [python3]\n",
    )
    bounds = ["--head-timeout", str(HEAD_TIMEOUT), "--connections-per-address", str(PER_ADDRESS)]
    started = Server(folder, workers=1, jobs=1, extra=bounds, admin_password=False).start()
    try:
        yield started
    finally:
        started.stop()


@contextlib.contextmanager
def connection(server: Server, source: str = "127.0.0.2") -> Iterator[socket.socket]:
    """A raw TCP connection to the server from the loopback address ``source``."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", server.port))
        yield sock
    finally:
        sock.close()


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server ends the connection within ``seconds`` (what it sends before is read and dropped)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select([sock], [], [], left)
        if readable:
            try:
                if not sock.recv(65536):
                    return True
            except ConnectionResetError:
                return True
    return False


def answer_of(sock: socket.socket, request: bytes, seconds: float = 30.0) -> bytes:
    """What the server sends back to ``request`` before it closes the connection or ``seconds`` pass: the head, and
    the body when its length is given (a stream's is not read), so that the next request's answer starts clean."""
    sock.sendall(request)
    found = b""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0 and not _complete(found):
        readable, _, _ = select.select([sock], [], [], left)
        if not readable:
            break
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        found += chunk
    return found


def _complete(answer: bytes) -> bool:
    head, ended, body = answer.partition(b"\r\n\r\n")
    if not ended:
        return False
    length = re.search(rb"(?im)^content-length: *([0-9]+)", head)
    return length is None or len(body) >= int(length.group(1))


GET = b"GET /api/v1 HTTP/1.1\r\nHost: judge\r\n\r\n"


def _silent_connection_is_closed_once_the_head_timeout_passes(server: Server, source: str) -> None:
    with connection(server, source) as sock:
        began = time.monotonic()
        assert closed_within(sock, HEAD_TIMEOUT + SLACK), "a silent connection stayed open"
        assert time.monotonic() - began >= HEAD_TIMEOUT * 0.9, "a silent connection was closed before its bound"


def _head_dribbled_a_byte_at_a_time_is_bounded_as_a_whole(server: Server, source: str) -> None:
    with connection(server, source) as sock:
        sock.sendall(b"GET /api/v1 HTTP/1.1\r\nHost: judge\r\nX-Slow: ")
        began = time.monotonic()
        gone = False
        while not gone and time.monotonic() - began < HEAD_TIMEOUT + SLACK:
            try:
                sock.sendall(b"a")  # each byte well inside the bound: no gap is long, the head never ends
            except (BrokenPipeError, ConnectionResetError):
                gone = True
                break
            gone = closed_within(sock, HEAD_TIMEOUT / 5)
        assert gone, "a head dribbled a byte at a time kept its connection past the bound"


def _half_sent_body_is_cut_and_the_server_still_answers(server: Server, source: str) -> None:
    with connection(server, source) as sock:
        sock.sendall(
            b"POST /api/v1/login HTTP/1.1\r\nHost: judge\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"name": "a'
        )
        assert closed_within(sock, HEAD_TIMEOUT + SLACK), "a half-sent body kept its connection"
    with connection(server, source) as sock:
        assert answer_of(sock, GET).startswith(b"HTTP/1.1 200"), "no answer after a half-sent body"


def _keep_alive_connection_takes_a_second_request_within_the_bound(server: Server, source: str) -> None:
    with connection(server, source) as sock:
        assert answer_of(sock, GET).startswith(b"HTTP/1.1 200")
        assert answer_of(sock, GET).startswith(b"HTTP/1.1 200"), "a kept-alive connection took no second request"
        assert closed_within(sock, HEAD_TIMEOUT + SLACK), "an idle kept-alive connection stayed open"


def test_silent_dribbled_half_sent_and_idle_kept_alive_connections_are_each_closed_at_the_bound(
    server: Server,
) -> None:
    """Four connections, each from an address of its own (so no address nears its bound of four), driven at once:
    each waits for the same one-second head timeout, which is paid once, not four times. Silent: closed once the
    bound has passed, not before. A head dribbled a byte at a time: no gap is long, yet the head as a whole is
    bounded. A half-sent body: cut, and the server answers the next connection (no traceback in its log). Kept
    alive: a second request is taken, then the idle connection is closed as a silent one is."""
    checks = [
        _silent_connection_is_closed_once_the_head_timeout_passes,
        _head_dribbled_a_byte_at_a_time_is_bounded_as_a_whole,
        _half_sent_body_is_cut_and_the_server_still_answers,
        _keep_alive_connection_takes_a_second_request_within_the_bound,
    ]
    with ThreadPoolExecutor(len(checks)) as pool:
        running = [pool.submit(check, server, f"127.0.0.{4 + n}") for n, check in enumerate(checks)]
        for done in running:
            done.result()  # a failed check raises its own assertion here
    assert "Traceback" not in server.log.read_text()  # a client gone mid-body is no crash of the server's


def _stream(sock: socket.socket, token: str) -> None:
    """Open the whole site's event stream on ``sock`` and read its first frame."""
    head = answer_of(
        sock, f"GET /api/v1/events HTTP/1.1\r\nHost: judge\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
    )
    assert head.startswith(b"HTTP/1.1 200"), head


def test_an_event_stream_outlives_the_head_timeout(server: Server) -> None:
    admin = Client(server, server.admin_token())
    with connection(server) as sock:
        _stream(sock, server.admin_token())
        assert not closed_within(sock, HEAD_TIMEOUT * 2.5)  # past the bound: a finished head, not an idle one
        sid = admin.submit("aplusb", "ac.py", AC_PY)["id"]
        seen = b""
        deadline = time.monotonic() + 30
        while b"event: submissions" not in seen and time.monotonic() < deadline:
            readable, _, _ = select.select([sock], [], [], deadline - time.monotonic())
            if readable:
                seen += sock.recv(65536)
        assert b"event: submissions" in seen and f'"id": {sid}'.encode() in seen
    admin.done(sid)


def test_one_address_holds_a_bounded_number_of_connections(server: Server) -> None:
    token = server.admin_token()
    with contextlib.ExitStack() as held:
        streams = [held.enter_context(connection(server, "127.0.0.2")) for _ in range(PER_ADDRESS)]
        for sock in streams:  # long-lived and past their heads: they hold their places
            _stream(sock, token)
        with connection(server, "127.0.0.2") as extra:  # one more from the same address: closed, nothing read
            assert answer_of(extra, GET, HEAD_TIMEOUT * 3) == b""  # a whole request, and no answer to it
        with connection(server, "127.0.0.3") as other:  # another address is served meanwhile
            assert answer_of(other, GET).startswith(b"HTTP/1.1 200")
        streams[0].close()  # one place freed: the address is served again, once the server has seen it close
        deadline, served = time.monotonic() + 10, False
        while not served and time.monotonic() < deadline:
            with connection(server, "127.0.0.2") as again:
                served = answer_of(again, GET, 2).startswith(b"HTTP/1.1 200")
        assert served


def test_a_named_proxy_is_not_counted_per_address() -> None:
    """Every client behind a ``--proxy`` shares its address: the proxy bounds them (``limit_conn``), not the count."""
    from judge.serve.connections import Bounds

    bounds = Bounds(exempt=("10.0.0.1", "192.168.0.0/24", "not an address"))
    assert not bounds.counts("10.0.0.1") and not bounds.counts("192.168.0.7")
    assert bounds.counts("10.0.0.2") and bounds.counts("2001:db8::1") and not Bounds(exempt=("*",)).counts("1.2.3.4")
