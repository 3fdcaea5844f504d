"""cpflow under hostile input, faults and load: each case run as an attacker or an unlucky user would.

python bench/abuse.py [CASE_FILTER]

Runs every case whose name contains CASE_FILTER (default: all) through the installed
`cpflow`, in processes of their own, and prints one table: case, expected, seen, pass.
Exits 1 if any case failed. The cases need the shared large set (../shared/puzzles/large)
for the engines' time limits and cbc's long runs; the rest make their own boards.
"""

from __future__ import annotations

import asyncio
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from common import SHARED

CPFLOW = [sys.executable, "-m", "cpflow"]
DASK = str(Path(sys.executable).with_name("dask"))  # Dask's command, beside this Python
SLOW_FOR_CBC = SHARED / "large" / "adc2015_36x36_Q01.txt"  # cbc runs for minutes on it
WORST_FOR_LIMITS = SHARED / "large" / "adc2015_20x36_Q34.txt"  # the worst overshoot once, for every MIP


@dataclass(frozen=True)
class Outcome:
    expected: str
    seen: str
    passed: bool


CASES: dict[str, Callable[[Path], Outcome]] = {}


def case(name: str):
    def register(run: Callable[[Path], Outcome]) -> Callable[[Path], Outcome]:
        CASES[name] = run
        return run

    return register


def main() -> None:
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    print("| case | expected | seen | pass |")
    print("|---|---|---|---|")
    failed = 0
    for name, run in CASES.items():
        if only not in name:
            continue
        with tempfile.TemporaryDirectory(prefix="cpflow-abuse-") as scratch:
            try:
                outcome = run(Path(scratch))
            except Exception as error:  # a case that breaks is a failed case, and the others still run
                outcome = Outcome("-", f"the case broke: {type(error).__name__}: {error}", False)
        failed += not outcome.passed
        print(f"| {name} | {outcome.expected} | {outcome.seen} | {'yes' if outcome.passed else 'NO'} |", flush=True)
    sys.exit(1 if failed else 0)


# Big boards -----------------------------------------------------------------------------------


def corner_to_corner(side: int) -> str:
    """A side x side board whose one colour joins two opposite corners (every other cell blank)."""
    rows = [["."] * side for _ in range(side)]
    rows[0][0] = rows[-1][-1] = "A"
    return "".join("".join(row) + "\n" for row in rows)


def big_board(side: int, limit: int) -> Callable[[Path], Outcome]:
    def run(scratch: Path) -> Outcome:
        board = scratch / f"corner_{side}x{side}.txt"
        board.write_text(corner_to_corner(side))
        command = CPFLOW + ["solve", str(board), "--time-limit", str(limit)]
        began = time.perf_counter()
        done = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = done.communicate()
        seconds = time.perf_counter() - began
        mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024  # the largest child so far
        verdict = (out.strip().splitlines() or [""])[0] if done.returncode in (0, 1, 3) else err.strip()[-60:]
        clean = "Traceback" not in err
        seen = f"exit {done.returncode}, {verdict[:60]!r}, {seconds:.1f} s, peak {mib} MiB"
        expected = f"a verdict (solved, unsolvable) or stopped at {limit} s, no traceback"
        return Outcome(expected, seen, clean and done.returncode in (0, 1, 3) and seconds < limit + 5)

    return run


for _side, _limit in ((250, 60), (256, 60)):
    case(f"{_side}x{_side} board, one colour corner to corner")(big_board(_side, _limit))


# Child solvers and their files ---------------------------------------------------------------


def cbc_processes(tmp: Path) -> list[int]:
    """The pids of cbc processes whose command line names a file under `tmp`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if (
            argv
            and b"cbc" in Path(argv[0].decode(errors="replace")).name.encode()
            and str(tmp).encode() in b" ".join(argv)
        ):
            found.append(int(entry.name))
    return found


def left_behind(tmp: Path) -> str:
    """What a run left: cbc processes still running and files in its temp folder."""
    time.sleep(1)
    files = [p for p in tmp.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files) // 2**20
    return f"{len(cbc_processes(tmp))} cbc, {len(files)} files ({size} MiB)"


def cbc_running(tmp: Path, command: list[str], env: dict) -> subprocess.Popen:
    """`command` started with TMPDIR=tmp, once cbc is running under it."""
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        if cbc_processes(tmp):
            time.sleep(1)  # cbc has read its model and is solving
            return process
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("cbc never started")


def killed_during_cbc(how: signal.Signals) -> Callable[[Path], Outcome]:
    def run(scratch: Path) -> Outcome:
        env = dict(os.environ, TMPDIR=str(scratch))
        solve = CPFLOW + ["solve", str(SLOW_FOR_CBC), "--engine", "ilp-cbc", "--time-limit", "600"]
        process = cbc_running(scratch, solve, env)
        process.send_signal(how)
        process.wait(timeout=30)
        seen = left_behind(scratch)
        if how == signal.SIGKILL:  # nothing runs after SIGKILL: the next run sweeps what was left
            tiny = scratch / "tiny.txt"
            tiny.write_text("AB\nAB\n")
            subprocess.run(CPFLOW + ["solve", str(tiny), "--engine", "ilp-cbc"], env=env, capture_output=True)
            tiny.unlink()
            seen += "; after the next run: " + left_behind(scratch)
        passed = seen.startswith("0 cbc") and seen.endswith("0 files (0 MiB)")
        return Outcome("0 cbc, 0 files" + (" after the next run" if how == signal.SIGKILL else ""), seen, passed)

    return run


for _signal in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
    case(f"{_signal.name} to `solve --engine ilp-cbc`")(killed_during_cbc(_signal))


@case("time limit during `solve --engine ilp-cbc`")
def cbc_time_limit(scratch: Path) -> Outcome:
    env = dict(os.environ, TMPDIR=str(scratch))
    began = time.perf_counter()
    command = CPFLOW + ["solve", str(SLOW_FOR_CBC), "--engine", "ilp-cbc", "--time-limit", "2"]
    subprocess.run(command, env=env, capture_output=True)
    seconds = time.perf_counter() - began
    seen = f"{seconds:.1f} s, " + left_behind(scratch)
    return Outcome("0 cbc, 0 files", seen, seen.endswith("0 cbc, 0 files (0 MiB)"))


@case("`serve` stopped during a cbc request")
def serve_stopped(scratch: Path) -> Outcome:
    import httpx

    env = dict(os.environ, TMPDIR=str(scratch))
    with served(env) as url:
        body = {"puzzle": SLOW_FOR_CBC.read_text(), "engine": "ilp-cbc", "time_limit": 30}
        asking = subprocess.Popen(
            [sys.executable, "-c", f"import httpx; httpx.post({url + '/api/solve'!r}, json={body!r}, timeout=60)"]
        )
        for _ in range(600):
            if cbc_processes(scratch):
                break
            time.sleep(0.05)
        httpx.get(url + "/")  # the server is alive while cbc runs
    asking.kill()
    seen = left_behind(scratch)
    return Outcome("0 cbc, 0 files", seen, seen.startswith("0 cbc, 0 files"))


# Time limits ----------------------------------------------------------------------------------


@case("every engine at --time-limit 1")
def engines_at_one_second(scratch: Path) -> Outcome:
    from cpflow.board.formats import load
    from cpflow.engines import catalog, pipeline

    (puzzle,) = load(WORST_FOR_LIMITS)
    worst = []
    for engine in catalog.available():
        pipeline.solve(load(SHARED / "large" / "ahle-gen_40x20_001.txt")[0], engine, time_limit=0.1)  # imports
        began = time.perf_counter()
        pipeline.solve(puzzle, engine, time_limit=1)
        worst.append((time.perf_counter() - began, engine))
    seen = ", ".join(f"{engine} {seconds:.2f} s" for seconds, engine in worst)
    return Outcome(f"each at most 1.5 s on {WORST_FOR_LIMITS.stem}", seen, max(worst)[0] <= 1.5)


# The server -----------------------------------------------------------------------------------


class served:
    """`cpflow serve` on a free port, for a `with` block; stopped with SIGTERM after it."""

    def __init__(self, env: dict | None = None, *options: str):
        self.env, self.options = env, options

    def __enter__(self) -> str:
        import httpx

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        command = CPFLOW + ["serve", "--port", str(self.port), *self.options]
        self.process = subprocess.Popen(command, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{self.port}"
        for _ in range(300):
            try:
                httpx.get(url + "/")
                return url
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("cpflow serve did not start")

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@case("2,000 clients sending a byte a second")
def slow_clients(scratch: Path) -> Outcome:
    import httpx

    with served() as url:
        port = int(url.rsplit(":", 1)[1])
        began = time.perf_counter()
        held, answered = asyncio.run(_trickle(port, 2000, httpx_get=lambda: httpx.get(url + "/", timeout=10)))
        seconds = time.perf_counter() - began
    seen = f"{held} still open after {seconds:.0f} s; the page {'answered' if answered else 'did not answer'} meanwhile"
    return Outcome("all dropped within 60 s, the page answered", seen, held == 0 and answered)


async def _trickle(port: int, clients: int, httpx_get) -> tuple[int, bool]:
    """Open `clients` connections that send a request's head one byte a second; how many the server still
    holds after 60 s, and whether a normal request was answered meanwhile."""
    head = b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n" + b"x" * 100

    async def trickle() -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            return
        try:
            for byte in head:
                writer.write(bytes([byte]))
                await writer.drain()
                try:
                    await asyncio.wait_for(reader.read(1), timeout=1.0)
                    return  # the server answered (a 4xx) or closed the connection: dropped
                except TimeoutError:
                    continue  # still held: the next byte
        except OSError:
            return
        finally:
            writer.close()

    tasks = [asyncio.create_task(trickle()) for _ in range(clients)]
    await asyncio.sleep(3)
    answered = (await asyncio.to_thread(httpx_get)).status_code == 200
    done, pending = await asyncio.wait(tasks, timeout=60)
    held = len(pending)
    for task in pending:
        task.cancel()
    return held, answered


@case("requests with another site's Host")
def bad_host(scratch: Path) -> Outcome:
    import httpx

    with served() as url:
        codes = [httpx.get(url + "/", headers={"Host": host}).status_code for host in ("evil.example", "evil:8000")]
        good = httpx.get(url + "/").status_code
    seen = f"{codes[0]}, {codes[1]}; own Host {good}"
    return Outcome("4xx for both; own Host 200", seen, all(400 <= c < 500 for c in codes) and good == 200)


@case("100 concurrent solves")
def concurrent_solves(scratch: Path) -> Outcome:
    import httpx

    from cpflow.board.formats import parse, parse_solution
    from cpflow.board.verify import violations

    text = Path(__file__).resolve().parent.parent.joinpath("puzzles", "gen_10x10_01.txt").read_text()
    puzzle = parse(text, "board")[0]

    async def ask(http) -> tuple[int, bool]:
        answer = await http.post("/api/solve", json={"puzzle": text})
        if answer.status_code != 200:
            return answer.status_code, True
        return 200, violations(puzzle, parse_solution(puzzle, answer.text)) == []

    async def all_at_once(url: str):
        async with httpx.AsyncClient(base_url=url, timeout=120) as http:
            return await asyncio.gather(*(ask(http) for _ in range(100)))

    with served() as url:
        answers = asyncio.run(all_at_once(url))
        alive = httpx.get(url + "/").status_code
    ok = sum(code == 200 for code, _ in answers)
    busy = sum(code == 503 for code, _ in answers)
    valid = all(v for _, v in answers)
    seen = f"{ok} solved, {busy} busy (503), {100 - ok - busy} other; every answer valid: {valid}; then {alive}"
    return Outcome("200 or 503 each, all valid, still serving", seen, ok + busy == 100 and valid and alive == 200)


# Input that never ends, clusters that cannot work ---------------------------------------------


@case("a FIFO that stays open")
def fifo(scratch: Path) -> Outcome:
    pipe = scratch / "puzzles"
    os.mkfifo(pipe)
    solving = subprocess.Popen(CPFLOW + ["solve", str(pipe)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with open(pipe, "w") as writer:
        writer.write("AB\nAB\n\n")
        writer.flush()
        began = time.perf_counter()
        first = _line_within(solving, 30)
        seconds = time.perf_counter() - began
    solving.wait(timeout=30)
    seen = f"first answer after {seconds:.1f} s with the writer still open: {first!r}"
    return Outcome("the answer before the writer closes", seen, bool(first) and seconds < 30)


def _line_within(process: subprocess.Popen, seconds: float) -> str:
    import selectors

    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        return process.stdout.readline().strip() if selector.select(seconds) else ""


@case("`--cluster local:0`")
def no_workers(scratch: Path) -> Outcome:
    board = scratch / "board.txt"
    board.write_text("AB\nAB\n")
    began = time.perf_counter()
    done = subprocess.run(CPFLOW + ["solve", str(board), "--cluster", "local:0"], capture_output=True, text=True)
    seconds = time.perf_counter() - began
    lines = done.stderr.strip().splitlines()
    seen = f"exit {done.returncode} in {seconds:.1f} s: {lines[-1] if lines else ''!r}"
    return Outcome("exit 2 at once, one line", seen, done.returncode == 2 and len(lines) == 1 and seconds < 10)


@case("a Dask scheduler whose workers all died")
def dead_workers(scratch: Path) -> Outcome:
    board = scratch / "board.txt"
    board.write_text(corner_to_corner(30))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    scheduler = subprocess.Popen(
        [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        [DASK, "worker", f"tcp://127.0.0.1:{port}", "--nworkers", "1", "--no-dashboard"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        time.sleep(8)
        os.killpg(worker.pid, signal.SIGKILL)
        began = time.perf_counter()
        command = CPFLOW + ["solve", str(board), "--cluster", f"tcp://127.0.0.1:{port}"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        seconds = time.perf_counter() - began
    finally:
        scheduler.terminate()
        scheduler.wait(timeout=30)
    lines = done.stderr.strip().splitlines()
    seen = f"exit {done.returncode} in {seconds:.1f} s: {lines[-1] if lines else ''!r}"
    return Outcome("one line within 30 s", seen, done.returncode != 0 and len(lines) == 1 and seconds <= 30)


if __name__ == "__main__":
    main()
