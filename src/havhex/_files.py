"""Many input files judged side by side, one file on each thread.

One file judged on several threads pays for it: its reading is shared in
turns, its cases are dealt out, and every thread waits for the last case
before the next file begins.  Files side by side pay none of that: each
thread reads and judges a file of its own, as independent processes
would (docs/performance.md, "Parallel runs").  The last file, which nothing
else can be judged beside, gets every thread.
"""
from ._source import read_input
from ._threads import run_side_by_side

__all__ = ["judged_side_by_side"]


class _FileJob:
    """One file for :func:`havhex._threads.run_side_by_side`."""
    __slots__ = ("file", "parsed", "consume", "display")

    def __init__(self, file, parsed, consume, display):
        self.file = file
        self.parsed = parsed
        self.consume = consume
        self.display = display

    def run(self):
        _, source = read_input(self.file, self.consume)
        return self, source

    def cancel(self):
        self.parsed.cancel()

    def report(self):
        if self.display is not None:
            self.display(*self.parsed.progress())

    def close_display(self):
        if self.display is not None:
            self.display.close()
            self.display = None


def judged_side_by_side(files, threads, start, progress_for=None):
    """``(parsed input, source name)`` of each of ``files``, in order, read
    and judged with up to ``threads`` files at once.

    ``start(threads)`` gives a file's ``(parsed, consume)``: an engine input
    (``cancel()``, ``progress()``) and what reads the file's data (a file
    descriptor or bytes) into it and judges it on that many threads.  A
    file's fault is raised in its turn (after the files before it), and no
    file after it is read further.  ``progress_for(file)``, when given, is
    a progress display (or None) shown while the file is awaited.
    """
    files = list(files)
    made = []

    def jobs():
        for number, file in enumerate(files):
            # The last file has every thread: the others are idle once
            # the files before it are judged.
            parsed, consume = start(threads if number == len(files) - 1 else 1)
            display = progress_for(file) if progress_for is not None else None
            made.append(_FileJob(file, parsed, consume, display))
            yield made[-1]

    try:
        for job, source in run_side_by_side(jobs(), threads, lambda job: job.report(),
                                            0.1 if progress_for is not None else 0.05):
            job.report()
            job.close_display()
            made.remove(job)        # what it holds goes with the caller
            yield job.parsed, source
    finally:
        for job in made:
            job.close_display()
