"""Load on `cpflow serve`: many clients at once posting the classic boards to /api/solve.

python bench/serve.py [--requests 200] [--clients 20] [--workers N] [--queue N] [--slow N]

Starts `cpflow serve` on a free port, fires the requests (the classic set's boards in
turn) from that many concurrent clients, checks every answer (a solved board's paths pass
cpflow's verifier, and every status is the one an in-process solve gives), and prints
requests, answers, 503s, errors, throughput and latency percentiles. With `--slow N`, N
more connections send a request's headers one byte a second all the while (slowloris),
and a second table says how many the server dropped and how long it held them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import time

from common import puzzles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=None, help="the server's worker processes (default: cores)")
    parser.add_argument("--queue", type=int, default=None, help="the server's queue (default: its own)")
    parser.add_argument("--slow", type=int, default=0, help="connections sending their headers a byte a second")
    args = parser.parse_args()
    boards = [(path.name, path.read_text()) for path in puzzles("zucker")]
    expected = expected_statuses(boards)
    port = free_port()
    server = start_server(port, args.workers, args.queue)
    try:
        results, wall, held = asyncio.run(load(port, boards, args))
    finally:
        server.terminate()
        server.wait(timeout=30)
    report(results, expected, wall, args)
    if args.slow:
        report_slow(held, args.slow)


def expected_statuses(boards: list[tuple[str, str]]) -> dict[str, str]:
    """Each board's status from an in-process solve, to check the server's answers against."""
    from cpflow.board.formats import parse
    from cpflow.engines.pipeline import solve

    return {name: solve(parse(text, name)[0]).status.value for name, text in boards}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int, workers: int | None, queue: int | None) -> subprocess.Popen:
    """`cpflow serve` in a process of its own, once it answers."""
    import httpx

    command = [sys.executable, "-m", "cpflow", "serve", "--port", str(port)]
    command += ["--workers", str(workers)] if workers else []
    command += ["--queue", str(queue)] if queue is not None else []
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/")
            time.sleep(2)  # the workers warm up (import the solver) before they take requests
            return server
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    sys.exit("cpflow serve did not start")


async def load(port: int, boards, args) -> tuple[list[dict], float, list[float | None]]:
    """The requests' results and wall time, and how long the server held each slow connection (None: to
    the end), the slow ones opened first and kept dribbling for at least 15 s."""
    stop = asyncio.Event()
    slow = [asyncio.ensure_future(slow_client(port, stop)) for _ in range(args.slow)]
    began = time.perf_counter()
    results = await fire(f"http://127.0.0.1:{port}", boards, args.requests, args.clients)
    wall = time.perf_counter() - began
    if slow:
        await asyncio.sleep(max(0.0, 15 - wall))
    stop.set()
    return results, wall, await asyncio.gather(*slow)


async def slow_client(port: int, stop: asyncio.Event) -> float | None:
    """A connection sending a request's headers one byte a second until `stop`: the seconds until the server
    closed it, or None if it was still open."""
    began = time.perf_counter()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return 0.0  # refused at once
    headers = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: {'a' * 100}\r\n".encode()

    async def dribble() -> None:
        for byte in headers:
            writer.write(bytes([byte]))
            await asyncio.sleep(1)

    dribbling = asyncio.ensure_future(dribble())
    waiting = asyncio.ensure_future(stop.wait())
    try:
        while True:
            reading = asyncio.ensure_future(reader.read(65536))
            await asyncio.wait([reading, waiting], return_when=asyncio.FIRST_COMPLETED)
            if not reading.done():
                reading.cancel()
                return None
            try:
                if not reading.result():
                    return time.perf_counter() - began
            except ConnectionError:
                return time.perf_counter() - began
    finally:
        dribbling.cancel()
        waiting.cancel()
        writer.close()


def report_slow(held: list[float | None], count: int) -> None:
    dropped = [seconds for seconds in held if seconds is not None]
    most = f"{max(dropped):.1f}" if dropped else "-"
    print(f"\n{count} slow connections (headers at one byte a second)")
    print("| slow connections | dropped by the server | still open at the end | held at most s |")
    print("|---|---|---|---|")
    print(f"| {count} | {len(dropped)} | {count - len(dropped)} | {most} |")


async def fire(url: str, boards, requests: int, clients: int) -> list[dict]:
    """`requests` posts from `clients` concurrent clients, each waiting for its answer before the next."""
    import httpx

    todo = list(range(requests))
    results: list[dict] = []

    async def client() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=120) as http:
            while todo:
                name, text = boards[todo.pop() % len(boards)]
                began = time.perf_counter()
                try:
                    answer = await http.post("/api/solve", json={"puzzle": text, "name": name})
                    status, body = answer.status_code, answer.text
                except httpx.HTTPError as error:
                    status, body = 0, str(error)
                seconds = time.perf_counter() - began
                results.append({"board": name, "text": text, "status": status, "body": body, "seconds": seconds})

    await asyncio.gather(*(client() for _ in range(clients)))
    return results


def is_valid(result: dict, expected: dict[str, str]) -> bool:
    """Whether an answer is the record a solve gives: the right status, and paths that pass the verifier."""
    from cpflow.board.formats import parse, parse_solution
    from cpflow.board.verify import violations

    record = json.loads(result["body"])
    if record.get("status") != expected[result["board"]]:
        return False
    if record["status"] != "solved":
        return record["paths"] == {}
    puzzle = parse(result["text"], result["board"])[0]
    return violations(puzzle, parse_solution(puzzle, result["body"])) == []


def report(results: list[dict], expected: dict[str, str], wall: float, args) -> None:
    ok = [r for r in results if r["status"] == 200]
    valid = sum(is_valid(r, expected) for r in ok)
    busy = sum(r["status"] == 503 for r in results)
    errors = len(results) - len(ok) - busy
    latencies = sorted(r["seconds"] for r in ok) or [0.0]
    cut = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    workers = args.workers or "cores"
    queue = "default" if args.queue is None else args.queue
    print(f"{len(results)} requests from {args.clients} clients; server: {workers} workers, queue {queue}")
    print("| requests | ok | valid | 503 | errors | seconds | requests/s | p50 ms | p95 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    p50, p95, p99 = (1000 * cut[k - 1] for k in (50, 95, 99))
    row = [len(results), len(ok), valid, busy, errors, f"{wall:.2f}", f"{len(results) / wall:.1f}"]
    print("| " + " | ".join(str(x) for x in row) + f" | {p50:.0f} | {p95:.0f} | {p99:.0f} |")
    if valid != len(ok) or errors:
        sys.exit("some answers were wrong or failed")


if __name__ == "__main__":
    main()
