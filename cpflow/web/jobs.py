"""The worker processes that do the solving, so that the server's event loop never does.

Each worker is a process that runs one task at a time. A request waits in a bounded
queue for an idle worker (`Busy`, a 503, when the queue is full; `guards` asks too, before
a request's body is read). While its task runs, the server checks every POLL seconds
whether the client went away (`Gone`) or the task overran its time limit by more than the
grace (`Overdue`); either way the worker is killed, which really stops the solver, and a
fresh one takes its place. A worker that ended while idle (killed from outside) is replaced
too, and the request waits for the next one.

What the server answers itself, at once rather than behind a solve (the editor's board), runs in
a thread one request at a time (`Inline`), with a bounded line of its own.

Each worker leads a process group of its own, and dies with the server (on Linux, even
when the server is killed outright). Killing a worker kills its group; a solver program
it ran (CBC, HiGHS) dies with it, and the scratch folder it left is swept at once.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
from collections.abc import Awaitable, Callable
from contextlib import suppress

from cpflow.engines import children
from cpflow.web import tasks
from cpflow.web.limits import Limits

POLL = 0.1  # seconds between checks that the client is still there
READY = "ready"
log = logging.getLogger("cpflow.web")


class Busy(Exception):
    """Every worker is busy and the queue is full."""


class Gone(Exception):
    """The client went away before its answer was ready; its job was stopped."""


class Overdue(Exception):
    """A job ran past its time limit and the grace, and was stopped."""


class Died(Exception):
    """A worker process ended in the middle of a job (killed from outside, out of memory)."""


def _work(connection, limits: Limits, parent: int) -> None:
    """A worker's life: warm up, then run the tasks sent, one at a time, until the pipe closes."""
    os.setsid()  # a group of its own, for `Worker.stop` to kill whole; the terminal's Ctrl-C is the server's
    children.die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server ends the workers
    tasks.warm_up()
    connection.send(READY)
    while True:
        try:
            work, ask = connection.recv()
        except (EOFError, OSError):
            return
        connection.send(tasks.run(work, ask, limits))


class Worker:
    """One worker process and the pipe to it."""

    def __init__(self, context, limits: Limits):
        self.connection, theirs = context.Pipe()
        self.process = context.Process(
            target=_work, args=(theirs, limits, os.getpid()), daemon=True, name="cpflow-worker"
        )
        self.process.start()
        theirs.close()

    async def ready(self) -> None:
        """Wait until the worker has warmed up; Died if it ended instead."""
        if await self._receive() != READY:
            raise Died("the worker did not start")

    async def call(self, work: Callable, ask: dict):
        """Run one task in the worker and return what it sends back."""
        try:
            self.connection.send((work, ask))
        except OSError as error:  # the pipe is broken: the worker ended
            raise Died(f"the worker process ended ({self.process.exitcode})") from error
        return await self._receive()

    async def _receive(self):
        loop = asyncio.get_running_loop()
        readable = loop.create_future()
        fd = self.connection.fileno()
        loop.add_reader(fd, lambda: readable.done() or readable.set_result(None))
        try:
            await readable
        finally:
            loop.remove_reader(fd)
        try:
            return self.connection.recv()
        except (EOFError, OSError) as error:
            raise Died(f"the worker process ended ({self.process.exitcode})") from error

    def stop(self) -> None:
        """End the process and its group at once, whatever they are doing, and sweep their scratch folders."""
        if self.process.pid is not None and self.process.exitcode is None:
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.kill()
        self.process.join(timeout=5)
        self.connection.close()
        children.sweep()


class Jobs:
    """The workers, and the requests waiting for them."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.context = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing of the server's loop
        self.idle: asyncio.Queue[Worker] = asyncio.Queue()
        self.workers: set[Worker] = set()
        self.pending = 0  # requests running or waiting
        self.starting: set[asyncio.Task] = set()

    def start(self) -> None:
        for _ in range(self.limits.workers):
            self._add()

    def stop(self) -> None:
        for task in self.starting:
            task.cancel()
        for worker in self.workers:
            worker.stop()
        self.workers.clear()

    async def run(self, work: Callable[[dict, Limits], object], ask: dict, is_gone: Callable[[], Awaitable[bool]]):
        """`work(ask, limits)` done by a worker: ("ok", answer) or ("failed", tasks.Failure).

        `work` is a module-level function (a task of `tasks`), sent to the worker by name.

        Busy when the queue is full; Gone when `is_gone()` turns true first; Overdue when
        the task runs past its time limit and the grace.
        """
        self.check_room()
        self.pending += 1
        try:
            worker = await self._take(is_gone)
            while not worker.process.is_alive():  # ended while idle (killed from outside): the job goes to another
                log.warning("cpflow: a worker ended while idle (%s); it was replaced", worker.process.exitcode)
                self._replace(worker)
                worker = await self._take(is_gone)
            return await self._on(worker, work, ask, is_gone)
        finally:
            self.pending -= 1

    def check_room(self) -> None:
        """Busy when a request now would have to wait beyond the queue (asked before its body is read, too)."""
        if self.pending >= self.limits.workers + self.limits.queue:
            raise Busy(f"cpflow: the server is busy ({self.pending} requests in hand); try again shortly")

    async def _take(self, is_gone) -> Worker:
        """The next idle worker, waiting in line for one (Died when no worker is left to wait for)."""
        getting = asyncio.ensure_future(self.idle.get())

        async def gone_or_none_left() -> bool:
            if not self.workers:
                raise Died("no worker process could start")
            return await is_gone()

        try:
            await _watch(getting, gone_or_none_left, None)
        except BaseException:
            if getting.done() and not getting.cancelled():
                self.idle.put_nowait(getting.result())
            getting.cancel()
            raise
        return getting.result()

    async def _on(self, worker: Worker, work: Callable, ask: dict, is_gone):
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (ask.get("time_limit") or self.limits.time_limit) + self.limits.grace
        answer = asyncio.ensure_future(worker.call(work, ask))
        try:
            await _watch(answer, is_gone, deadline)
            result = answer.result()
        except BaseException as error:  # Gone, Overdue, Died, or the server shutting down: the job must stop
            answer.cancel()
            self._replace(worker)
            log.warning("cpflow: stopped a %s job (%s); its worker was replaced", work.__name__, error or "cancelled")
            raise
        self.idle.put_nowait(worker)
        return result

    def _add(self) -> None:
        worker = Worker(self.context, self.limits)
        self.workers.add(worker)
        task = asyncio.get_running_loop().create_task(self._when_ready(worker))
        self.starting.add(task)
        task.add_done_callback(self.starting.discard)

    async def _when_ready(self, worker: Worker) -> None:
        try:
            await worker.ready()
        except Died as error:
            log.error("cpflow: a worker failed to start: %s", error)
            self.workers.discard(worker)
            return
        self.idle.put_nowait(worker)

    def _replace(self, worker: Worker) -> None:
        self.workers.discard(worker)
        worker.stop()
        self._add()


class Inline:
    """Work the server answers itself, at once rather than behind a solve (the editor's board): in a
    thread, one at a time, so that a flood of it neither holds the event loop nor takes every core;
    Busy when `most` requests wait already."""

    def __init__(self, most: int):
        self.most, self.waiting, self.turn = most, 0, asyncio.Lock()

    async def run(self, work: Callable, *args):
        """`work(*args)` in a thread once the ones before it are done."""
        if self.waiting >= self.most:
            raise Busy(f"cpflow: the server is busy ({self.waiting} boards in hand); try again shortly")
        self.waiting += 1
        try:
            async with self.turn:
                return await asyncio.to_thread(work, *args)
        finally:
            self.waiting -= 1


async def _watch(future: asyncio.Future, is_gone, deadline: float | None) -> None:
    """Wait for `future`; Gone if the client leaves first, Overdue if the deadline passes first."""
    loop = asyncio.get_running_loop()
    while True:
        timeout = POLL if deadline is None else max(0.0, min(POLL, deadline - loop.time()))
        done, _ = await asyncio.wait({future}, timeout=timeout)
        if done:
            return
        if await is_gone():
            raise Gone("the client went away")
        if deadline is not None and loop.time() >= deadline:
            raise Overdue("the job ran past its time limit")
