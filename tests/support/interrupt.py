"""Ctrl-C sent to a child process that runs compiled work: the child prints
"ready" before the work and "interrupted" (exit status 3) from its
KeyboardInterrupt handler; the test measures how long the work took to stop
after SIGINT."""
import os
import signal
import subprocess
import sys
import time


def seconds_to_stop(code, settle=0.5, timeout=30):
    """Run ``code`` in a child, send SIGINT ``settle`` seconds after its
    "ready" line, and return the seconds until its "interrupted" line
    (the child's status checked to be 3)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             env=env)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(settle)              # well into the work
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline().strip()
        stopped = time.monotonic() - sent
        assert line == "interrupted"
        assert child.wait(timeout=timeout) == 3
        return stopped
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
