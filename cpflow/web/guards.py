"""The server's guards against hostile pages and clients, as ASGI middleware.

- `Gate`, around everything: a request whose line and headers are over the cap answers 431; one
  whose `Host:` is not the server's answers 421 (DNS
  rebinding, see `hosts`); a request that computes (any method but GET, HEAD and OPTIONS)
  sent by another site's page answers 403 (its browser says so: `Sec-Fetch-Site` other than
  `same-origin` or `none`, or an `Origin` that is not the server's own); and every answer
  carries `SECURITY_HEADERS`: a Content-Security-Policy that lets a page run only this
  server's own scripts and styles (no inline script, style or event handler, nothing from
  another site), no framing, no MIME sniffing.
- `BodyGuard`: reads the body of a request that computes before the app sees it, and refuses
  it, before reading it where it can: 415 a content type a browser would send from any page
  without asking (only JSON, or an image's bytes for `/api/import`, are taken), 413 a body
  over its path's cap, 503 a request that would wait beyond the queue or whose body does not
  fit in what is left of the bytes held across requests (`bodies`), 408 one that has not
  arrived `seconds` after its headers. Each refusal closes the connection.

A request's headers have their own deadline, and an answer nobody reads its own, in the
connection's protocol (`deadlines`), which also caps the open connections: the app never
sees a request before its headers.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

from starlette.responses import JSONResponse

from cpflow.web.bodies import LARGE, Budget, give_back
from cpflow.web.hosts import Hosts
from cpflow.web.jobs import Busy

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
SAFE = ("GET", "HEAD", "OPTIONS")  # they change and compute nothing here; every other method is guarded
CLOSE = {"connection": "close"}  # after a refusal the body is not read: the connection ends with the answer
SECURITY_HEADERS = [
    (b"content-security-policy", POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


class Gate:
    """Answers only requests whose Host `hosts` allows and whose line and headers hold at most
    `most_header_bytes` (431 past it: the connection's parser only caps headers still arriving, so many
    in one packet got through), and puts the security headers on every answer."""

    def __init__(self, app, hosts: Hosts, most_header_bytes: int):
        self.app, self.hosts, self.most_header_bytes = app, hosts, most_header_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def secured(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        sent = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        sent += sum(len(name) + len(value) + 4 for name, value in scope["headers"])  # ': ' and CRLF each
        if sent > self.most_header_bytes:
            said = f"cpflow: a request's line and headers hold {self.most_header_bytes} bytes at most"
            return await answer(431, said, CLOSE)(scope, receive, secured)
        headers = dict(scope["headers"])
        host = headers.get(b"host", b"").decode("latin-1")
        if not self.hosts.allows(host):
            return await answer(421, refused(host))(scope, receive, secured)
        if scope["method"] not in SAFE and (problem := cross_site(headers, host)):
            return await answer(403, problem, CLOSE)(scope, receive, secured)
        return await self.app(scope, receive, secured)


def cross_site(headers: dict[bytes, bytes], host: str) -> str | None:
    """Why a request comes from another site's page, as its browser tells (`Sec-Fetch-Site`, `Origin`), or
    None: a page of this server (same-origin), a person typing the address (none) or a client with no
    browser (neither header)."""
    site = headers.get(b"sec-fetch-site", b"same-origin").decode("latin-1")
    origin = headers.get(b"origin", b"").decode("latin-1")
    if site not in ("same-origin", "none"):
        return f"cpflow: refused a {site} request (Sec-Fetch-Site): {OWN_PAGE}"
    if origin and origin.partition("://")[2].lower() != host.lower():
        return f"cpflow: refused a request from another site's page ({origin}): {OWN_PAGE}"
    return None


OWN_PAGE = "only this server's own page (or a client that is no browser) may ask it to compute"


def refused(host: str) -> str:
    if not host:
        return "cpflow: a request must name its Host"
    name = host.rpartition(":")[0] if host.count(":") == 1 else host
    return (
        f"cpflow: this server does not answer requests for {host} (a defence against DNS rebinding); "
        f"start it with --allowed-host {name} to answer them"
    )


@dataclass(frozen=True)
class Takes:
    """What a path takes as a body: at most `most` bytes, sent as one of `types` (`image/` is any image)."""

    most: int
    types: tuple[str, ...]
    what: str  # for messages, e.g. "a JSON body"

    def takes_type(self, header: bytes) -> bool:
        """Whether a `Content-Type:` header is one of the types taken (a JSON body's charset and the like
        aside)."""
        kind = header.decode("latin-1").partition(";")[0].strip().lower()
        return any(kind == taken or (taken.endswith("/") and kind.startswith(taken)) for taken in self.types)

    def wrong_type(self, path: str) -> str:
        shown = " or ".join(taken + "*" if taken.endswith("/") else taken for taken in self.types)
        return f"cpflow: {path} takes {self.what}, sent with Content-Type: {shown}"


class Refused(Exception):
    """A request refused while its body is read: its status and one line."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, {**CLOSE, **(headers or {})}


class BodyGuard:
    """Reads the body of every request that computes before the app sees it, as `takes` (by path, else
    `default`) allows, within `seconds` of its headers and `most_held` bytes across requests; the app
    gets it whole in one message."""

    def __init__(self, app, default: Takes, seconds: float, most_held: int, takes: dict[str, Takes] | None = None):
        self.app, self.default, self.seconds, self.takes = app, default, seconds, takes or {}
        self.budget = Budget(most_held)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] in SAFE:
            return await self.app(scope, receive, send)
        takes = self.takes.get(scope["path"], self.default)
        body = Body(self.budget, takes, large=takes.most > self.default.most)
        try:
            body.admit(scope)
            replayed = await body.read(receive, self.seconds)
            if replayed is not None:  # else the client left while sending it: nobody to answer
                await self.app(scope, replayed, send)
        except Refused as refusal:
            await answer(refusal.status, refusal.message, refusal.headers)(scope, receive, send)
        finally:
            body.release()


class Body:
    """One request's body, read in pieces that count against the budget until the request ends."""

    def __init__(self, budget: Budget, takes: Takes, large: bool):
        self.budget, self.takes, self.large = budget, takes, large
        self.held = 0

    def admit(self, scope) -> None:
        """Refused unless the body may be read: its type, its declared length, room in the queue and the
        budget, all before a byte of it is read."""
        headers = dict(scope["headers"])
        if not self.takes.takes_type(headers.get(b"content-type", b"")):
            raise Refused(415, self.takes.wrong_type(scope["path"]))
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.takes.most):
            raise Refused(413, _too_large(self.takes.most))
        jobs = getattr(scope["app"].state, "jobs", None)
        try:
            if jobs is not None:
                jobs.check_room()
        except Busy as error:
            raise Refused(503, str(error), {"retry-after": "1"}) from None
        if length is not None and int(length) > self.budget.room(self.large):
            raise Refused(503, FULL, {"retry-after": "1"})

    async def read(self, receive, seconds: float):
        """The whole body, as a `receive` that gives it in one message, then passes on to `receive` (the app
        asks whether the client is still there); None when the client left first."""
        pieces: list[bytes] = []
        try:
            async with asyncio.timeout(seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    self._hold(len(message.get("body", b"")))
                    pieces.append(message.get("body", b""))
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            raise Refused(408, f"cpflow: the request's body did not arrive within {seconds:g} seconds") from None
        whole: list[bytes] = [b"".join(pieces)]
        pieces.clear()

        async def replayed():
            if whole:
                return {"type": "http.request", "body": whole.pop(), "more_body": False}  # the app's, not ours
            return await receive()

        return replayed

    def _hold(self, size: int) -> None:
        if self.held + size > self.takes.most:
            raise Refused(413, _too_large(self.takes.most))
        if not self.budget.take(size, self.large):
            raise Refused(503, FULL, {"retry-after": "1"})
        self.held += size

    def release(self) -> None:
        """Give the bytes back to the budget, and a large body's memory back to the system."""
        self.budget.give(self.held)
        if self.held >= LARGE:
            give_back()
        self.held = 0


FULL = "cpflow: the server holds as many request bodies as it takes at once; try again shortly"


def _too_large(most: int) -> str:
    return f"cpflow: the request is larger than this server's limit of {most} bytes"


def answer(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """An answer (an ASGI app) of `{"error": message}` with this status (and these headers)."""
    return JSONResponse({"error": message}, status, headers=headers)


def raw_answer(status: int, reason: str, message: str) -> bytes:
    """The bytes of a one-line JSON error answer that closes the connection, for the protocol to write
    itself (before there is a request for the app to answer)."""
    body = json.dumps({"error": message}).encode()
    head = [f"HTTP/1.1 {status} {reason}".encode(), b"content-type: application/json"]
    head += [b"content-length: %d" % len(body), b"connection: close"]
    head += [name + b": " + value for name, value in SECURITY_HEADERS]
    return b"\r\n".join(head) + b"\r\n\r\n" + body
