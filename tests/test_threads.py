"""Worker threads without ``threading`` (havhex._threads)."""
import subprocess
import sys
from pathlib import Path

import pytest

import havhex
from havhex._threads import Worker

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_a_worker_hands_back_its_result():
    worker = Worker(lambda: 6 * 7)
    assert worker.join() is True
    assert worker.outcome() == 42


def test_a_worker_raises_its_exception_in_the_joining_thread():
    def fail():
        raise ValueError("from the worker")

    worker = Worker(fail)
    assert worker.join(5) is True
    with pytest.raises(ValueError, match="from the worker"):
        worker.outcome()


def test_join_with_a_timeout_returns_false_while_the_worker_runs():
    import _thread

    gate = _thread.allocate_lock()
    gate.acquire()
    worker = Worker(lambda: gate.acquire(timeout=10))
    try:
        assert worker.join(0.01) is False
        assert worker.join(0) is False
    finally:
        gate.release()
    assert worker.join(10) is True
    assert worker.outcome() is True


def test_a_worker_that_raises_system_exit_still_finishes():
    worker = Worker(lambda: sys.exit(3))
    assert worker.join(5) is True
    with pytest.raises(SystemExit):
        worker.outcome()


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_judging_on_two_threads_does_not_import_threading(game):
    # The point of the module: ``threading`` costs -j runs milliseconds of
    # start-up.  Without ``site`` (-S), whose .pth files may import it first;
    # two cases or more, so that Hex starts its workers too.
    code = (
        "import sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from havhex.cli import main\n"
        "status = main([sys.argv[2], '-j', '2', '--quiet', sys.argv[3]])\n"
        "assert status == 0, status\n"
        "print(sorted(m for m in ('threading', 'array', 'concurrent.futures') if m in sys.modules))\n"
    )
    package_parent = str(Path(havhex.__file__).resolve().parent.parent)
    done = subprocess.run([sys.executable, "-S", "-c", code, package_parent, game,
                           str(EXAMPLES / f"{game}.in")],
                          capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
