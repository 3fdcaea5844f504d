"""A soak of `cpflow serve`: minutes of mixed legal and hostile traffic, then how it answers and its memory.

python bench/soak.py [--minutes 10] [--connections 20] [--workers N] [--settle 5]

Starts `cpflow serve` on a free port (loopback only) and measures its idle memory (the
server process's RSS, its workers aside) and the latency of 20 normal solves. Then for the
given minutes, that many concurrent connections each send one kind of traffic after another,
picked at random by weight:

- legal, as the page sends it (same-origin, JSON or a screenshot's bytes): solves, hints and
  reads of small puzzles from puzzles/, a synthetic 5x5 screenshot to import, the page itself;
- hostile: stalled bodies (a 16 MiB screenshot sent but for its last byte, then held),
  oversized bodies (17 MiB, with a length and chunked), cross-site posts (text/plain or a
  multipart form with a foreign Origin, `Sec-Fetch-Site: cross-site`), slow readers (Swagger
  UI's script asked for and not read), headers a byte at a time, silent connections, bad JSON
  and bad puzzles, and picture bombs (a 30000x30000 PNG of 110 KB, one bit a pixel, with a
  bad-CRC chunk; one at a time).

After the traffic stops and `--settle` seconds pass, it measures the server's RSS and 20 normal
solves again, and prints two tables: each kind's outcomes (statuses, or what the connection
saw) and how many were not what that kind should get; then memory and latency against the
goals (solves under 100 ms, memory within 2x of idle). Exit 1 if a goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import socket
import statistics
import struct
import subprocess
import sys
import time
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
HOST = "127.0.0.1"
MiB = 1024 * 1024
EVIL = "https://evil.example"
HOLD = 5.0  # seconds a hostile connection holds on before it leaves


@dataclass
class Soak:
    """What every connection of the soak shares: the server's port, the bodies sent, the outcomes seen."""

    port: int
    puzzles: list[str]
    screenshot: bytes
    bomb: bytes
    own: dict[str, str]
    oversized: bytes = bytes(17 * MiB)  # the headers of the page's own fetch: same-origin
    seen: dict[str, collections.Counter] = field(default_factory=lambda: collections.defaultdict(collections.Counter))
    bombing: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(1))

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def head(self, method: str, path: str, extra: str = "") -> bytes:
        return f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n{extra}\r\n".encode()


Kind = Callable[[Soak, httpx.AsyncClient], Awaitable[str]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--connections", type=int, default=20)
    parser.add_argument("--workers", type=int, default=None, help="the server's worker processes (default: cores)")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after the traffic before measuring")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)
    port = free_port()
    server = start_server(port, args.workers)
    try:
        soak = Soak(port, small_puzzles(), screenshot(), picture_bomb(), {"origin": f"http://{HOST}:{port}"})
        soak.own["sec-fetch-site"] = "same-origin"
        before = measure(server, port)
        print(f"idle: server RSS {before['rss']:.0f} MiB; soaking for {args.minutes:g} min ...", flush=True)
        began = time.perf_counter()
        asyncio.run(traffic(soak, args.connections, args.minutes * 60))
        soaked = time.perf_counter() - began
        peak = rss_mib(server.pid, "VmHWM")
        time.sleep(args.settle)
        after = measure(server, port)
    finally:
        server.terminate()
        server.wait(timeout=30)
    print_outcomes(soak, soaked)
    met = print_measures(before, after, peak, args.settle)
    sys.exit(0 if met else 1)


# ---- the server ----


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_server(port: int, workers: int | None) -> subprocess.Popen:
    command = [sys.executable, "-m", "cpflow", "serve", "--host", HOST, "--port", str(port)]
    command += ["--workers", str(workers)] if workers else []
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            httpx.get(f"http://{HOST}:{port}/")
            return server
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    sys.exit("the server did not start")


def rss_mib(pid: int, field_name: str = "VmRSS") -> float:
    """A process's resident memory (VmRSS) or its peak (VmHWM), in MiB (Linux's /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1]) / 1024
    raise LookupError(field_name)


def workers_rss(pid: int) -> float:
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return sum(rss_mib(int(child)) for child in children if Path(f"/proc/{child}").exists())


def measure(server: subprocess.Popen, port: int, solves: int = 20) -> dict:
    """The server's RSS, its workers', and the seconds of `solves` normal solves one after another."""
    puzzle = (PUZZLES / "starter_5x5.txt").read_text()
    seconds = []
    with httpx.Client(base_url=f"http://{HOST}:{port}", timeout=60) as client:
        for _ in range(solves):
            began = time.perf_counter()
            answer = client.post("/api/solve", json={"puzzle": puzzle})
            seconds.append(time.perf_counter() - began)
            assert answer.json()["status"] == "solved", answer.text
    return {"rss": rss_mib(server.pid), "workers": workers_rss(server.pid), "seconds": seconds}


# ---- what is sent ----


def small_puzzles() -> list[str]:
    names = sorted(PUZZLES.glob("starter_*.txt")) + sorted(PUZZLES.glob("gen_5x5_*.txt"))
    names += sorted(PUZZLES.glob("gen_7x7_*.txt"))
    return [path.read_text() for path in names if not path.name.endswith(".solution.txt")]


def screenshot() -> bytes:
    """A synthetic screenshot of a 5x5 level (PNG), as the game shows it."""
    from cpflow.vision.synthetic import Shot, make_played

    return make_played(Shot(5, 5, (540, 1200), seed=1))[0]


def picture_bomb(side: int = 30_000) -> bytes:
    """A PNG of side x side black pixels, one bit each (about 110 KB at 30000; OpenCV makes 2.7 GB of
    colour pixels of it), with a `tEXt` chunk whose CRC is wrong (Pillow refuses it, OpenCV reads on)."""

    def chunk(kind: bytes, data: bytes, crc: int | None = None) -> bytes:
        crc = zlib.crc32(kind + data) if crc is None else crc
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    squeeze = zlib.compressobj(9)
    row = bytes(1 + (side + 7) // 8)  # filter byte 0, then eight black pixels a byte
    rows = b"".join(squeeze.compress(row) for _ in range(side)) + squeeze.flush()
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)  # one bit of grey a pixel
    text = chunk(b"tEXt", b"Comment\x00bomb", crc=0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + text + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


# ---- the kinds of traffic: each returns what it saw ----


async def solve(soak: Soak, client: httpx.AsyncClient) -> str:
    ask = {"puzzle": random.choice(soak.puzzles), "time_limit": 5}
    return str((await client.post("/api/solve", json=ask, headers=soak.own)).status_code)


async def hint(soak: Soak, client: httpx.AsyncClient) -> str:
    ask = {"puzzle": random.choice(soak.puzzles), "time_limit": 5}
    return str((await client.post("/api/hint", json=ask, headers=soak.own)).status_code)


async def read(soak: Soak, client: httpx.AsyncClient) -> str:
    ask = {"puzzle": random.choice(soak.puzzles)}
    return str((await client.post("/api/read", json=ask, headers=soak.own)).status_code)


async def import_shot(soak: Soak, client: httpx.AsyncClient) -> str:
    headers = {"content-type": "image/png", **soak.own}
    return str((await client.post("/api/import?name=shot.png", content=soak.screenshot, headers=headers)).status_code)


async def page(soak: Soak, client: httpx.AsyncClient) -> str:
    return str((await client.get("/")).status_code)


async def stalled_body(soak: Soak, client: httpx.AsyncClient) -> str:
    """A 16 MiB screenshot sent but for its last byte, then held; what the server answered, if anything."""
    size = 16 * MiB
    reader, writer = await asyncio.open_connection(HOST, soak.port)
    answer = asyncio.ensure_future(reader.read(200))
    piece = memoryview(bytes(256 * 1024))
    try:
        writer.write(soak.head("POST", "/api/import", f"Content-Type: image/png\r\nContent-Length: {size}\r\n"))
        for start in range(0, size - 1, len(piece)):
            writer.write(piece[: min(len(piece), size - 1 - start)])
            await writer.drain()
        done, _ = await asyncio.wait({answer}, timeout=HOLD)
        return status_of(answer.result()) if done else "held"
    except ConnectionError:  # refused while sending: the answer may have come first
        try:
            return status_of(await asyncio.wait_for(answer, 1))
        except (ConnectionError, TimeoutError):
            return "reset"
    finally:
        answer.cancel()
        writer.close()


def status_of(said: bytes) -> str:
    return said.split(b" ", 2)[1].decode() if said.startswith(b"HTTP/1.1 ") else "closed"


async def oversized(soak: Soak, client: httpx.AsyncClient) -> str:
    """17 MiB to /api/import, with its length said, or chunked."""
    body = soak.oversized
    headers = {"content-type": "image/png", **soak.own}

    async def pieces() -> AsyncIterator[bytes]:
        for start in range(0, len(body), 64 * 1024):
            yield body[start : start + 64 * 1024]

    content: bytes | AsyncIterator[bytes] = body if random.random() < 0.5 else pieces()
    try:
        return str((await client.post("/api/import", content=content, headers=headers)).status_code)
    except httpx.TransportError as error:
        return type(error).__name__


async def cross_site(soak: Soak, client: httpx.AsyncClient) -> str:
    """What another site's page can send: a text/plain or multipart POST, or a fetch its browser marks."""
    how = random.randrange(3)
    if how == 0:
        headers = {"content-type": "text/plain", "origin": EVIL}
        answer = await client.post("/api/import", content=soak.screenshot, headers=headers)
    elif how == 1:
        files = {"file": ("shot.png", soak.screenshot, "image/png")}
        answer = await client.post("/api/solve", files=files, headers={"origin": EVIL})
    else:
        ask = {"puzzle": random.choice(soak.puzzles)}
        answer = await client.post("/api/solve", json=ask, headers={"sec-fetch-site": "cross-site"})
    return str(answer.status_code)


async def slow_reader(soak: Soak, client: httpx.AsyncClient) -> str:
    """Swagger UI's script (1.5 MB) asked for eight times over and not read, then left."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (HOST, soak.port))
    _, writer = await asyncio.open_connection(sock=sock)
    writer.write(soak.head("GET", "/static-offline-docs/swagger-ui-bundle.js") * 8)
    await asyncio.sleep(HOLD)
    writer.close()
    return "held"


async def slow_headers(soak: Soak, client: httpx.AsyncClient) -> str:
    """A request's headers a byte every 0.2 s, never finished."""
    reader, writer = await asyncio.open_connection(HOST, soak.port)
    try:
        for byte in soak.head("GET", "/", "X-Slow: " + "a" * 100 + "\r\n")[: int(HOLD / 0.2)]:
            writer.write(bytes([byte]))
            await asyncio.sleep(0.2)
        return "held"
    except ConnectionError:
        return "reset"
    finally:
        writer.close()


async def silent(soak: Soak, client: httpx.AsyncClient) -> str:
    _, writer = await asyncio.open_connection(HOST, soak.port)
    await asyncio.sleep(HOLD)
    writer.close()
    return "held"


async def bad_json(soak: Soak, client: httpx.AsyncClient) -> str:
    bodies = [b'{"puzzle": ', b'{"puzzle": 5}', b"[]", json.dumps({"puzzle": "RR\n.\n"}).encode()]
    headers = {"content-type": "application/json", **soak.own}
    return str((await client.post("/api/solve", content=random.choice(bodies), headers=headers)).status_code)


async def bomb(soak: Soak, client: httpx.AsyncClient) -> str:
    if soak.bombing.locked():  # one at a time: a worker may take its time limit on one
        return "skipped"
    async with soak.bombing:
        headers = {"content-type": "image/png", **soak.own}
        answer = await client.post("/api/import?name=bomb.png", content=soak.bomb, headers=headers)
        return str(answer.status_code)


# kind: (how often, what it should get)
KINDS: dict[Kind, tuple[int, set[str]]] = {
    solve: (30, {"200", "503"}),
    hint: (10, {"200", "503"}),
    read: (10, {"200", "503"}),
    import_shot: (6, {"200", "503"}),
    page: (4, {"200"}),
    stalled_body: (6, {"held", "503", "reset"}),
    oversized: (4, {"413", "503"}),
    cross_site: (8, {"403"}),
    slow_reader: (3, {"held"}),
    slow_headers: (3, {"held", "reset"}),
    silent: (3, {"held"}),
    bad_json: (8, {"400", "422", "503"}),
    bomb: (2, {"400", "413", "422", "503", "skipped"}),
}


async def traffic(soak: Soak, connections: int, seconds: float) -> None:
    """`connections` clients, each sending kinds of traffic one after another until `seconds` have passed."""
    kinds, weights = list(KINDS), [weight for weight, _ in KINDS.values()]
    end = time.perf_counter() + seconds

    async def connection() -> None:
        async with httpx.AsyncClient(base_url=soak.url, timeout=60) as client:
            while time.perf_counter() < end:
                kind = random.choices(kinds, weights)[0]
                try:
                    said = await kind(soak, client)
                except (httpx.TransportError, OSError, TimeoutError) as error:
                    said = type(error).__name__
                soak.seen[kind.__name__][said] += 1

    await asyncio.gather(*(connection() for _ in range(connections)))


# ---- the tables ----


def print_outcomes(soak: Soak, seconds: float) -> None:
    total = sum(sum(seen.values()) for seen in soak.seen.values())
    print(f"\n{total} requests in {seconds:.0f} s ({total / seconds:.1f}/s)\n")
    print("| kind | requests | outcomes | not as expected |")
    print("|---|---|---|---|")
    for kind, (_, expected) in KINDS.items():
        seen = soak.seen[kind.__name__]
        outcomes = ", ".join(f"{said} {count}" for said, count in seen.most_common())
        wrong = sum(count for said, count in seen.items() if said not in expected)
        print(f"| {kind.__name__} | {sum(seen.values())} | {outcomes} | {wrong} |")


def print_measures(before: dict, after: dict, peak: float, settle: float) -> bool:
    median, most = statistics.median(after["seconds"]) * 1000, max(after["seconds"]) * 1000
    idle_median, idle_most = statistics.median(before["seconds"]) * 1000, max(before["seconds"]) * 1000
    ratio = after["rss"] / before["rss"]
    print(f"\n| measure | idle, before the soak | {settle:g} s after the soak | goal | met |")
    print("|---|---|---|---|---|")
    print(f"| server RSS, MiB | {before['rss']:.0f} | {after['rss']:.0f} ({ratio:.2f}x) | within 2x | {ratio <= 2} |")
    print(f"| server peak RSS (VmHWM), MiB | | {peak:.0f} | | |")
    print(f"| workers' RSS, MiB | {before['workers']:.0f} | {after['workers']:.0f} | | |")
    print(f"| solve median, ms | {idle_median:.0f} | {median:.0f} | < 100 | {median < 100} |")
    print(f"| solve max, ms | {idle_most:.0f} | {most:.0f} | < 100 | {most < 100} |")
    return ratio <= 2 and most < 100


if __name__ == "__main__":
    main()
