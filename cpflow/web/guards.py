"""The server's guards against hostile pages and clients, as ASGI middleware.

- `Gate`, around everything: a request whose `Host:` is not the server's answers 421 (DNS
  rebinding, see `hosts`), and every answer carries `SECURITY_HEADERS`: a
  Content-Security-Policy that lets a page run only this server's own scripts and styles
  (no inline script, style or event handler, nothing from another site), no framing, no
  MIME sniffing.
- `BodyGuard`: a body over its cap answers 413 (before it is read, or as soon as it passes
  the cap); one that has not arrived `seconds` after its headers answers 408 and the
  connection is closed.

A request's headers have their own deadline, and an answer nobody reads its own, in the
connection's protocol (`deadlines`): the app never sees a request before its headers.
"""

from __future__ import annotations

import asyncio
import json

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse

from cpflow.web.hosts import Hosts

POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",  # the page's empty icon (data:), a screenshot shown as it is read (blob:)
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = [
    (b"content-security-policy", POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


class Gate:
    """Answers only requests whose Host `hosts` allows, and puts the security headers on every answer."""

    def __init__(self, app, hosts: Hosts):
        self.app, self.hosts = app, hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def secured(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
        if not self.hosts.allows(host):
            return await answer(421, refused(host))(scope, receive, secured)
        return await self.app(scope, receive, secured)


def refused(host: str) -> str:
    if not host:
        return "cpflow: a request must name its Host"
    name = host.rpartition(":")[0] if host.count(":") == 1 else host
    return (
        f"cpflow: this server does not answer requests for {host} (a defence against DNS rebinding); "
        f"start it with --allowed-host {name} to answer them"
    )


class BodyGuard:
    """Refuses a request body over `most` bytes (`larger[path]` for the paths named) with 413, before it is
    read (or as soon as it passes), and one still arriving `seconds` after the headers with 408."""

    def __init__(self, app, most: int, seconds: float, larger: dict[str, int] | None = None):
        self.app, self.most, self.seconds, self.larger = app, most, seconds, larger or {}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        most = self.larger.get(scope["path"], self.most)
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > most:
            return await answer(413, _too_large(most))(scope, receive, send)
        deadline = asyncio.get_running_loop().time() + self.seconds
        seen, whole = 0, False

        async def guarded():
            nonlocal seen, whole
            if whole:  # a body read in time: later calls ask whether the client is still there
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                late = f"cpflow: the request's body did not arrive within {self.seconds:g} seconds"
                raise HTTPException(408, late, headers={"connection": "close"}) from None
            seen += len(message.get("body", b""))
            if seen > most:
                raise HTTPException(413, _too_large(most))
            whole = not message.get("more_body", False)
            return message

        return await self.app(scope, guarded, send)


def _too_large(most: int) -> str:
    return f"cpflow: the request is larger than this server's limit of {most} bytes"


def answer(status: int, message: str) -> JSONResponse:
    """An answer (an ASGI app) of `{"error": message}` with this status."""
    return JSONResponse({"error": message}, status)


def raw_answer(status: int, reason: str, message: str) -> bytes:
    """The bytes of a one-line JSON error answer that closes the connection, for the protocol to write
    itself (before there is a request for the app to answer)."""
    body = json.dumps({"error": message}).encode()
    head = [f"HTTP/1.1 {status} {reason}".encode(), b"content-type: application/json"]
    head += [b"content-length: %d" % len(body), b"connection: close"]
    head += [name + b": " + value for name, value in SECURITY_HEADERS]
    return b"\r\n".join(head) + b"\r\n\r\n" + body
