"""Commands run on input that never ends: a pipe fed forever, or a file
such as /dev/zero, each waited for with a time limit far beyond the
fraction of a second a refusal takes."""
import subprocess
import sys

import pytest

TIMEOUT = 120

# Writes bytes.fromhex(argv[1]) once, then bytes.fromhex(argv[2]) forever
# (until the reader closes the pipe); with an empty body, waits forever.
PRODUCER = """
import sys, time
out = sys.stdout.buffer
out.write(bytes.fromhex(sys.argv[1]))
out.flush()
body = bytes.fromhex(sys.argv[2])
if not body:
    time.sleep(3600)
body = body * (65536 // len(body))
while True:
    out.write(body)
"""


def finish(process, name):
    """Wait for ``process`` (killed at the timeout, which fails the test);
    its CompletedProcess."""
    try:
        out, err = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"{name}: still reading after {TIMEOUT} s")
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def on_endless_pipe(command, head, body):
    """``command`` run on a pipe fed ``head``, then ``body`` forever."""
    producer = subprocess.Popen([sys.executable, "-c", PRODUCER, head.hex(), body.hex()],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        reader = subprocess.Popen(command, stdin=producer.stdout,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        producer.stdout.close()         # the reader holds the only reading end
        return finish(reader, f"{' '.join(command[-3:])} on an endless pipe")
    finally:
        producer.kill()
        producer.wait()
