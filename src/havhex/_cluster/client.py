"""The client's side of a run on a Dask cluster: Dask imported when first
needed (with what to install when it is missing), a client of a scheduler
or of a local cluster, shipped bytes scattered to the workers, and Dask's
own failures as one InputError."""
import os

from ..errors import InputError

# The annotations are for type checkers only, in quotes: a run imports
# nothing more than before.  Dask's objects are Any: Dask is an optional
# extra, which a type checker may not find.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import socket
    from types import ModuleType
    from typing import Any, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, TypeVar

    _T = TypeVar("_T")
    _Unit = Tuple[Any, ...]

__all__ = ["CONNECT_TIMEOUT", "require", "probe", "connect", "stop_local_workers", "worker_count", "shipped", "ship_units",
           "guarded", "default_client"]

# Seconds a client waits for the scheduler before giving up.
CONNECT_TIMEOUT = 5

_MISSING = ("havhex.dask needs Dask: install the extra with "
            "pip install \"havhex[dask]\" (dask[bag,dataframe] and distributed)")


def require(*modules: str) -> "List[ModuleType]":
    import importlib

    try:
        return [importlib.import_module(module) for module in modules]
    except ImportError as error:
        raise ImportError(f"{_MISSING} ({error})") from None


def _quiet_logging() -> None:
    """Dask's log lines (a worker restarted, a connection retried) would
    be lines on stderr that the same command does not print without Dask."""
    import logging

    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")
    require("distributed")         # sets up its loggers, some with levels of their own
    top = logging.getLogger("distributed")
    for handler in top.handlers:
        handler.setLevel(logging.CRITICAL)
    # A worker's start cut short by Ctrl-C leaves tasks that failed unseen.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    for name in list(logging.root.manager.loggerDict):
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)


# The most a scheduler's first message (its handshake: a few small frames)
# may announce; a larger one is not a Dask scheduler's.
_HANDSHAKE_BYTES_MAX = 1 << 16


def _host_port(address: str) -> "Optional[Tuple[str, int]]":
    """``(host, port)`` of a ``tcp://`` (or bare) address, None for another
    protocol (TLS, websockets: left to Dask)."""
    protocol, _, rest = address.rpartition("://")
    if protocol not in ("", "tcp"):
        return None
    host, _, port = rest.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host, int(port)


def _read_exactly(connection: "socket.socket", count: int, deadline: float) -> bytes:
    import time

    pieces: "List[bytes]" = []
    while count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        connection.settimeout(left)
        piece = connection.recv(min(count, 1 << 16))
        if not piece:
            raise ConnectionError("the connection was closed")
        pieces.append(piece)
        count -= len(piece)
    return b"".join(pieces)


def probe(address: str, timeout: "Optional[float]" = None) -> None:
    """Check that a Dask scheduler answers at ``address`` before handing it
    to ``distributed.Client``, which waits on a server that says nothing
    (an HTTP server, such as the dashboard beside the scheduler) past its
    own timeout, and takes a proxy's first bytes for a message length (and
    tries to allocate exabytes).  A Dask server speaks first: its
    handshake, a length-prefixed message of a few small frames.  Raises
    InputError, within ``timeout`` seconds (CONNECT_TIMEOUT), when the
    address does not answer so."""
    import socket
    import struct
    import time

    where = _host_port(address)
    if where is None:
        return
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    deadline = time.monotonic() + timeout

    def fail(why: str) -> InputError:
        return InputError(f"cannot reach the Dask scheduler at {address}: {why}")

    try:
        connection = socket.create_connection(where, timeout=timeout)
    except socket.timeout:
        raise fail(f"no answer within {timeout} s") from None
    except OSError as error:
        raise fail(error.strerror or str(error) or type(error).__name__) from None
    with connection:
        try:
            (total,) = struct.unpack("<Q", _read_exactly(connection, 8, deadline))
            if not 16 <= total <= _HANDSHAKE_BYTES_MAX:
                raise fail("it does not speak Dask's protocol (is it a scheduler's address?)")
            message = _read_exactly(connection, total, deadline)
        except (TimeoutError, socket.timeout):
            raise fail(f"no Dask handshake within {timeout} s (is it a scheduler's "
                       "address?)") from None
        except OSError as error:
            raise fail(error.strerror or str(error) or type(error).__name__) from None
    (frames,) = struct.unpack_from("<Q", message)
    if not 1 <= frames <= 64 or 8 * (frames + 1) > total:
        raise fail("it does not speak Dask's protocol (is it a scheduler's address?)")
    lengths = struct.unpack_from(f"<{frames}Q", message, 8)
    if 8 * (frames + 1) + sum(lengths) != total:
        raise fail("it does not speak Dask's protocol (is it a scheduler's address?)")


def _local_clusters() -> "Set[Any]":
    """The clusters this process has made (Dask keeps a weak set of them)."""
    try:
        # Dask is an optional extra: a type checker may not find it.
        from distributed.deploy.spec import (  # type: ignore[import-not-found, unused-ignore]
            SpecCluster)

        return set(SpecCluster._instances)
    except (ImportError, AttributeError, TypeError):
        return set()


# The warnings multiprocessing's resource tracker gives when this process
# ends with semaphores it still counts.
_TRACKER_SILENCE = "ignore::UserWarning:multiprocessing.resource_tracker"


def _start_resource_tracker_quietly() -> None:
    """A local cluster's worker processes share semaphores through
    multiprocessing's resource tracker, a child of this process that writes
    to its stderr.  A Ctrl-C can land inside the standard library's cleanup
    of one, after the semaphore is unlinked and before it is struck off the
    tracker's list; at the exit the tracker then warns about a "leaked"
    semaphore that is already gone, four lines after havhex's one.  Started
    here, before the cluster, with those warnings ignored, it still cleans
    up what an interrupted run leaves, silently."""
    from multiprocessing import resource_tracker

    saved = os.environ.get("PYTHONWARNINGS")
    os.environ["PYTHONWARNINGS"] = ",".join(filter(None, [saved, _TRACKER_SILENCE]))
    try:
        resource_tracker.ensure_running()
    finally:
        if saved is None:
            del os.environ["PYTHONWARNINGS"]
        else:
            os.environ["PYTHONWARNINGS"] = saved


# The thread pools of the numerical libraries that Dask's import loads
# (numpy's OpenBLAS starts a thread a core at once): a client only sends
# tasks and takes results, and on a machine it shares with workers those
# threads' start takes their cores.  Dask's nannies set the same for the
# workers; a value the user set is kept.
_LIBRARY_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def connect(scheduler: "Optional[str]" = None,
            local_workers: "Optional[int]" = None) -> "Tuple[Any, Any]":
    """``(client, cluster)``: a client of the scheduler at ``scheduler``, or
    of a local cluster of ``local_workers`` single-threaded worker
    processes (``cluster`` is None for a scheduler).  A scheduler that
    does not answer within CONNECT_TIMEOUT seconds is an InputError."""
    for name in _LIBRARY_THREADS:
        os.environ.setdefault(name, "1")
    _quiet_logging()
    (distributed,) = require("distributed")
    if scheduler is not None:
        probe(scheduler)
        try:
            client = distributed.Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s",
                                        set_as_default=False)
        except Exception as error:      # OSError, TimeoutError, ValueError for an address
            why = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {why}") from None
        return client, None
    import logging

    _start_resource_tracker_quietly()
    before = _local_clusters()
    try:
        cluster = distributed.LocalCluster(n_workers=local_workers, threads_per_worker=1,
                                           # a free port: the scheduler serves HTTP
                                           # even without a dashboard, and warns on
                                           # stderr when 8787 is taken
                                           processes=True, dashboard_address=":0",
                                           silence_logs=logging.CRITICAL)
    except BaseException:
        # Ctrl-C or SIGTERM while the cluster starts: the constructor gives
        # no cluster to close, and Dask's exit hook would close it with a
        # traceback.
        # Its close would wait for the start to finish; the worker processes
        # are daemonic, ended as this process ends.
        for started in _local_clusters() - before:
            started.shutdown_on_close = False
        raise
    try:
        client = distributed.Client(cluster, set_as_default=False)
    except BaseException:
        stop_local_workers(cluster)     # Ctrl-C here too stops at once
        cluster.close()
        raise
    return client, cluster


# Seconds a local worker is given to stop before it is killed, when a run
# ends early.
_STOP_GRACE = 0.05


def stop_local_workers(cluster: "Any") -> None:
    """Kill the local ``cluster``'s worker processes at once, when a run
    ends early (Ctrl-C, SIGTERM, a bad input): their tasks run on in a
    compiled kernel, and Dask's own close waits four seconds for them."""
    import asyncio

    async def stop_workers() -> None:
        # Nanny.close stops its worker within its timeout, then kills it;
        # the nanny, closing, does not start another.
        await asyncio.gather(*(worker.close(timeout=_STOP_GRACE)
                               for worker in list(cluster.workers.values())),
                             return_exceptions=True)

    try:
        cluster.sync(stop_workers)
    except Exception:
        pass            # cluster.close() does it the slow way


def worker_count(client: "Any") -> int:
    try:
        return max(1, len(client.scheduler_info()["workers"]))
    except Exception:
        return 1


def shipped(units: "Sequence[_Unit]") -> bool:
    """Whether any of ``units`` carries its input's bytes."""
    return any(unit[0] == "bytes" or (unit[0] == "range" and unit[2] is not None)
               for unit in units)


def ship_units(client: "Any", units: "List[_Unit]") -> "Any":
    """Shipped bytes go to the workers by ``scatter``, not inside the task
    graph (where Dask warns about large objects and the scheduler holds
    them)."""
    if not shipped(units):
        return units
    [future] = client.scatter([units], hash=False)
    return future


def _lost(error: BaseException) -> InputError:
    """A task Dask gave up on (its workers died too often)."""
    return InputError(f"the Dask cluster could not finish the run: {type(error).__name__}: "
                      f"{str(error).splitlines()[0] if str(error) else ''}".rstrip(": "))


def guarded(files: "Iterable[_T]") -> "Iterator[_T]":
    """Dask's own failures (a task whose workers kept dying, a scheduler
    gone) as one line."""
    (distributed,) = require("distributed")
    try:
        yield from files
    except (InputError, OSError, MemoryError, KeyboardInterrupt):
        raise
    except (distributed.client.FutureCancelledError, distributed.scheduler.KilledWorker,
            TimeoutError) as error:
        raise _lost(error) from None


def default_client() -> "Any":
    try:
        # Dask is an optional extra: a type checker may not find it.
        from distributed import default_client  # type: ignore[import-not-found, unused-ignore]

        return default_client()
    except (ImportError, ValueError):
        return None
