"""Running havhex with stderr on a pseudo-terminal (where the progress
line shows), and reading what the terminal showed."""
import os
import pty
import subprocess
import sys


def run_on_terminal(args, stdout, env, cwd=None):
    """``python -m havhex ARGS`` with stderr on a pseudo-terminal;
    ``(exit status, what the terminal showed)``."""
    main, child = pty.openpty()
    try:
        process = subprocess.Popen([sys.executable, "-m", "havhex", *map(str, args)],
                                   stdout=stdout, stderr=child, cwd=cwd, env=env)
        os.close(child)
        chunks = []
        while True:
            try:
                data = os.read(main, 4096)
            except OSError:         # EIO: every writer has closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        return process.wait(timeout=60), b"".join(chunks).decode(errors="replace")
    finally:
        os.close(main)
