"""Worker threads on the low-level ``_thread`` module.

``threading`` is not imported: with ``_weakrefset`` and ``collections``
behind it, its import adds about 1.5 to 3 ms to every ``havhex ... -j N``
run, a start-up cost no amount of parallel judging wins back.
"""
import _thread


class Worker:
    """Runs ``function()`` on a new thread from construction on.

    ``join`` waits for it; ``outcome`` then returns what it returned, or
    raises what it raised, in the calling thread.  Like a daemon thread, a
    worker does not keep the interpreter alive: whoever starts one joins it.
    """

    __slots__ = ("_done", "_result", "_error")

    def __init__(self, function):
        self._result = None
        self._error = None
        self._done = _thread.allocate_lock()
        self._done.acquire()
        try:
            _thread.start_new_thread(self._run, (function,))
        except BaseException:
            self._done.release()
            raise

    def _run(self, function):
        try:
            self._result = function()
        except BaseException as exc:  # handed to the joining thread
            self._error = exc
        finally:
            self._done.release()

    def join(self, timeout=None):
        """Wait until the function has returned (at most ``timeout``
        seconds); True once it has."""
        if self._done.acquire(timeout=-1 if timeout is None else max(timeout, 0)):
            self._done.release()
            return True
        return False

    def outcome(self):
        """The function's result, or its exception raised here; call after
        ``join`` has returned True."""
        if self._error is not None:
            raise self._error
        return self._result
