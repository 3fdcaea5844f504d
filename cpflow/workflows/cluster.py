"""A batch on a Dask cluster (`--cluster ADDRESS`): the one module that imports Dask, and only when used.

A scheduler and its workers are started with Dask's own commands (`dask scheduler`,
`dask worker tcp://HOST:8786`), or here in-process: `local:N` starts a LocalCluster of N
worker processes, closed when the batch ends. Each item is one task; answers come back in
input order (the futures are waited on in order, each released once read), so output and
progress look as a local run's.

Faults: a worker that dies mid-task has its tasks run again on the others (the scheduler
reassigns them: `distributed.scheduler.allowed-failures`, 3 by default, before it calls a
task a killer); a task that raises is retried RETRIES times; a task that killed too many
workers is reported for its item only. Ctrl-C cancels the batch's futures.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext, suppress
from importlib.metadata import version

from cpflow.engines.children import scratch, sweep
from cpflow.errors import ClusterUnavailable
from cpflow.workflows.items import LOCAL, Failed

RETRIES = 2  # a task that raised (a lost connection, say) is run again this many times
CONNECT_SECONDS = 10  # to reach a scheduler
WORKERS_SECONDS = 20  # for a first worker to join a scheduler that has none
GONE_SECONDS = 10  # with no worker left this long while answers are awaited, the batch is given up
LOOK_SECONDS = 0.5  # between looks at the workers (and for an interrupt) while an answer is awaited
# One thread per worker process (generation is Python, held by the GIL); no dashboard; the scheduler's
# health page on a free local port rather than 8787, which another cluster may hold.
LOCAL_CLUSTER = {
    "threads_per_worker": 1,
    "processes": True,
    "host": "127.0.0.1",
    "scheduler_port": 0,
    "dashboard_address": None,
    "scheduler_kwargs": {"dashboard_address": "127.0.0.1:0"},
    "silence_logs": logging.CRITICAL,  # cpflow says what went wrong itself, in one line
}
# The workers' statistical profiler samples every task's stack 100 times a second: on the generator's
# Python that cost a LocalCluster 6-9% of its time (80 boards of 20x20 on 2 workers: 10.4-10.8 s against 11.1-11.9 s).
LOCAL_CONFIG = {"distributed.worker.profile.enabled": False}
INSTALL = "--cluster needs Dask: pip install 'cpflow[dask]' (or pip install 'dask[distributed]')"


def each_on_cluster(
    work: Callable, items: Sequence, address: str, setup: Callable[[], object] | None = None, label: str = "work"
) -> Iterator:
    """`work` on each item as a task of the cluster at `address`, answers in the order given; tasks are
    named `cpflow-LABEL-BATCH-NUMBER` on the scheduler (and its dashboard)."""
    with connected(address) as client, interrupts_noted() as interrupted:
        check_versions(client, here())
        if setup:
            client.run(setup)
        batch = uuid.uuid4().hex[:8]
        keys = [f"cpflow-{label}-{batch}-{number}" for number in range(len(items))]
        pending = deque(client.map(work, items, key=keys, retries=RETRIES, pure=False))
        try:
            while pending:
                yield _answer(client, pending[0], items[len(items) - len(pending)], address, interrupted)
                pending.popleft()  # released: the cluster may forget it
        finally:  # done, interrupted (Ctrl-C) or abandoned: nothing of this batch is left running
            client.cancel(list(pending))


def _answer(client, future, item, address: str, interrupted: threading.Event):
    """The task's answer; Failed for an item whose task killed worker after worker. ClusterUnavailable
    when the cluster has had no worker for GONE_SECONDS: the scheduler would wait for one forever.
    KeyboardInterrupt once an interrupt was noted, even if the one it raised was lost."""
    from distributed import KilledWorker

    alone_since = None
    while True:
        if interrupted.is_set():
            raise KeyboardInterrupt
        try:
            return future.result(timeout=LOOK_SECONDS)
        except KilledWorker:
            name = getattr(item, "name", None) or "a task"
            return Failed(f"cpflow: {name}: its task killed every worker that ran it (out of memory?)")
        except TimeoutError:
            if client.nthreads():
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > GONE_SECONDS:
                raise ClusterUnavailable(
                    f"every worker of the Dask cluster at {address} is gone (none for {GONE_SECONDS} s); "
                    "what is printed above was finished"
                ) from None


@contextmanager
def interrupts_noted() -> Iterator[threading.Event]:
    """An event set on Ctrl-C or SIGTERM while the batch runs; the wait for answers raises
    KeyboardInterrupt when it sees it (within LOOK_SECONDS).

    The handler raises nothing itself: Python runs a signal's handler wherever the main thread
    is, and Dask's futures are often being finalized there. A KeyboardInterrupt raised in a
    `__del__` is printed with its traceback and dropped ("Exception ignored in:
    Future.__del__"); the batch then waited on workers the interrupt had killed and ended
    10 s later in a wrong error (seen under load).
    """
    noted = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return

    def note(signum, frame):
        noted.set()

    before = {signum: signal.signal(signum, note) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield noted
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
    if noted.is_set():  # came after the last answer was awaited: the batch still ends as interrupted
        raise KeyboardInterrupt


@contextmanager
def connected(address: str) -> Iterator:
    """A Dask client of the scheduler at `address`, or of a LocalCluster started for 'local[:N]'."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterUnavailable(INSTALL) from None
    local = address == LOCAL or address.startswith(LOCAL + ":")
    with scratch() if local else nullcontext() as folder:  # the workers' files (Dask's locks) go with it
        cluster = None
        try:
            if local:
                workers = int(address.partition(":")[2] or os.cpu_count() or 1)
                with dask.config.set({**LOCAL_CONFIG, "temporary-directory": str(folder)}):
                    cluster = LocalCluster(n_workers=workers, **LOCAL_CLUSTER)
                address = cluster.scheduler_address
            client = _client(Client, address)
            try:
                _wait_for_workers(client, address)
                yield client
            except BaseException:  # Ctrl-C, or abandoned: workers deep in a solve would take seconds to close politely
                if cluster is not None:
                    _end_now(
                        cluster
                    )  # before the client closes: its close waited on busy workers (a hang seen under load)
                raise
            finally:
                client.close()
        except BaseException:
            if cluster is not None:
                _end_now(cluster)
            raise
        finally:
            if cluster is not None:
                cluster.close()
                sweep()  # the scratch folders of workers killed mid-solve


def _end_now(cluster) -> None:
    """End the worker processes this LocalCluster started, at once."""
    for nanny in list(cluster.workers.values()):
        pid = getattr(nanny, "pid", None)
        if pid:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _client(Client, address: str):
    try:
        return Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as error:
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {error}") from None


def _wait_for_workers(client, address: str) -> None:
    try:
        client.wait_for_workers(1, timeout=WORKERS_SECONDS)
    except TimeoutError:
        raise ClusterUnavailable(f"the Dask scheduler at {address} has no workers after {WORKERS_SECONDS} s") from None


def here() -> str:
    """This process's cpflow version."""
    return version("cpflow")


def check_versions(client, mine: str) -> None:
    """ClusterUnavailable unless every worker runs cpflow `mine` (asked of each worker now)."""
    found = client.run(version, "cpflow", on_error="return")  # by reference: no cpflow code needed to run it
    problem = mismatch({worker: None if isinstance(v, Exception) else v for worker, v in found.items()}, mine)
    if problem:
        raise ClusterUnavailable(problem)


def mismatch(versions: dict[str, str | None], mine: str) -> str | None:
    """What is wrong with the workers' cpflow versions ({address: version, None when not installed}), if anything."""
    for worker, theirs in sorted(versions.items()):
        if theirs is None:
            return f"worker {worker} has no cpflow installed; this is {mine}"
        if theirs != mine:
            return f"worker {worker} runs cpflow {theirs}, this is {mine}"
    return None
