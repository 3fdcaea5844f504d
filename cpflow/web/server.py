"""`cpflow serve`: bind the address, then the app on uvicorn until Ctrl-C; returns the command's exit code.

The address is bound here, before uvicorn or a worker starts, so that a port in use or a
host that cannot be bound is one line (`cpflow: port 8000 is in use`) and exit 2. uvicorn
runs with the limits' deadlines and cap on connections (`deadlines`: the oldest idle
connection makes room for a new one; not uvicorn's cap, which would answer 503 to everyone
while stalled clients held it), keep-alive timeout and header size; the cap is kept below
the process's limit on open files. The app answers only the Host names of the address bound
(`hosts`).
"""

from __future__ import annotations

import errno
import importlib.util
import socket
import sys
from collections.abc import Sequence
from functools import partial

from cpflow.web.limits import Limits

NEEDED = ("fastapi", "uvicorn", "fastapi_offline")


class Unbindable(Exception):
    """The address cannot be listened on: the one line that says why."""


def serve(host: str, port: int, limits: Limits | None = None, allowed_hosts: Sequence[str] = ()) -> int:
    """Serve the page and the API at host:port (0: a free port); 0 when stopped, 2 when the address cannot
    be bound or the web extra is not installed, 1 when the server fails to start otherwise."""
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        print(f"cpflow: serve needs {', '.join(missing)}: pip install 'cpflow[web]'", file=sys.stderr)
        return 2
    try:
        sockets = listen(host, port)
    except Unbindable as error:
        print(f"cpflow: {error}", file=sys.stderr)
        return 2
    try:
        return _run(host, sockets, limits or Limits(), allowed_hosts)
    finally:
        for sock in sockets:
            sock.close()


def listen(host: str, port: int) -> list[socket.socket]:
    """Listening sockets on every address `host` names (both 127.0.0.1 and ::1 for localhost), as uvicorn
    would open them; Unbindable when the name is unknown, an address is not this machine's or the port
    is taken."""
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise Unbindable(f"cannot bind to host {host}: {error.strerror}") from None
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(found):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:  # so that [::] does not also take 0.0.0.0's port
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind((address[0], port, *address[2:]))
            sock.listen(2048)
            port = sock.getsockname()[1]  # port 0 asks for a free port: then the same one on every address
    except OSError as error:
        for sock in sockets:
            sock.close()
        if error.errno == errno.EADDRINUSE:
            raise Unbindable(f"port {port} is in use") from None
        if error.errno == errno.EACCES:  # a port below 1024 without the privilege
            raise Unbindable(f"cannot listen on port {port}: {error.strerror}") from None
        raise Unbindable(f"cannot bind to host {host}: {error.strerror}") from None
    return sockets


def _run(host: str, sockets: list[socket.socket], limits: Limits, allowed_hosts: Sequence[str]) -> int:
    import uvicorn

    from cpflow.web.app import create_app
    from cpflow.web.deadlines import Connections, DeadlineProtocol
    from cpflow.web.hosts import Hosts

    port = sockets[0].getsockname()[1]
    hosts = Hosts.bound(host, port, [sock.getsockname()[0] for sock in sockets], allowed_hosts)
    shown = f"[{host}]" if ":" in host else host
    print(f"cpflow: the page is at http://{shown}:{port}/ and the API's documentation at /docs", file=sys.stderr)
    protocol = partial(
        DeadlineProtocol,
        header_timeout=limits.header_timeout,
        stall_timeout=limits.stall_timeout,
        cap=Connections(connection_cap(limits.max_connections)),
    )
    # uvicorn types `http` as a protocol class and `timeout_keep_alive` as int: it calls the one (a partial does
    # as well) and hands the other to loop.call_later (a float does as well)
    config = uvicorn.Config(
        create_app(limits, hosts),
        http=protocol,  # type: ignore[arg-type]
        ws="none",
        timeout_keep_alive=limits.idle_timeout,  # type: ignore[arg-type]
        h11_max_incomplete_event_size=limits.max_header_bytes,
        timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=sockets)
    except SystemExit as stop:  # uvicorn exits 3 when the app cannot start, after saying why
        return int(stop.code or 0) and 1
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C (or SIGTERM) again once it has shut down: stopped as asked
        return 0
    return 0 if server.started else 1


def connection_cap(most: int) -> int:
    """`most`, or fewer where the process may not open that many files beside its own (workers' pipes, the
    page's files, the listening sockets)."""
    try:
        import resource
    except ImportError:  # not Unix
        return most
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return most if soft == resource.RLIM_INFINITY else max(1, min(most, soft - OTHER_FILES))


OTHER_FILES = 64  # files the server keeps open beside its connections, with room to spare
