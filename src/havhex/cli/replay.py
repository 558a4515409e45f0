"""``havhex replay``: game records replayed, one line or JSON object per game.

Work is cut into units: a file, or a run of whole games of a large file
(cut where a game's tree closes).  With ``-j N`` the units go to N worker
processes (the per-game work is Python as much as compiled code, so threads
would queue on the interpreter); the output is the same, in input order.  A
file's output appears whole or not at all.

The units, their plan and what a unit prints are
:mod:`havhex.records.units`'s, shared with the cluster
(:mod:`havhex.cli.cluster`); this module chooses the sizes for local
worker processes and keeps the summary.
"""

__all__ = ["replay_outputs", "Summary"]

# A file larger than this is cut into runs of whole games of about this
# size for -j: a run of 1 MB is about 1,500 Hex 11x11 games, many times what
# it costs to hand a task to a worker process and take its output back, and
# small runs keep both workers busy to the end (docs/performance.md has the
# figures).
UNIT_BYTES = 1 << 20


class Summary:
    """Counts for the summary line."""

    def __init__(self):
        self.files = self.games = self.moves = self.wins = 0
        self.flags = {}

    def add(self, counts):
        games, moves, wins, flags = counts
        self.games += games
        self.moves += moves
        self.wins += wins
        for flag, count in flags.items():
            self.flags[flag] = self.flags.get(flag, 0) + count

    def line(self):
        from ..records import FLAGS

        flags = ", ".join(f"{self.flags.get(flag, 0)} {flag}" for flag in FLAGS)
        return (f"replayed {self.files} file{'s' * (self.files != 1)}: {self.games} "
                f"game{'s' * (self.games != 1)}, "
                f"{self.moves} moves, {self.wins} won on the board; {flags}")


def replay_outputs(files, rule, output_format, jobs, summary, game=None, max_cells=None):
    """For each file, in order, an iterator over its output text (one piece);
    the summary's counts grow as files are replayed.  ``game`` and
    ``max_cells`` (None: :data:`havhex.records.MAX_CELLS`) as for
    :func:`havhex.records.replay`."""
    from ..records.game import load
    from ..records.runs import record_files
    from ..records.units import replay_unit

    if max_cells is None:
        from ..records.game import MAX_CELLS as max_cells
    files = record_files(files)
    if jobs <= 1:
        for file in files:
            data, name = load(file)
            text, counts = replay_unit(data, name, rule, output_format, game=game,
                                       max_cells=max_cells)
            summary.files += 1
            summary.add(counts)
            yield iter((text,))
        return
    yield from _parallel(files, rule, output_format, jobs, summary, game, max_cells)


# Small files go to the workers in batches of up to this many.
BATCH_FILES = 64
# Tasks in flight per worker process: enough to keep every worker busy
# while results are taken in order, few enough that the output waiting to
# be written stays small.
TASKS_PER_WORKER = 4


def _parallel(files, rule, output_format, jobs, summary, game, max_cells):
    """The files' outputs, their units (:func:`havhex.records.units.plan_replay`,
    the cluster's planner, with this module's sizes) replayed by ``jobs``
    worker processes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from .._units import by_file, ordered_results
    from ..records.units import plan_replay, replay_task

    # fork where there is one: a worker starts in milliseconds with the
    # package already imported; elsewhere spawn.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        plan = plan_replay(files, False, UNIT_BYTES, BATCH_FILES)
        results = ordered_results(
            plan, lambda units: pool.submit(replay_task, rule, output_format, game, max_cells,
                                            units),
            TASKS_PER_WORKER * jobs)
        try:
            for values in by_file(results):
                for _, counts in values:
                    summary.add(counts)
                summary.files += 1
                yield iter(("".join(text for text, _ in values),))
        finally:
            results.close()         # cancels the tasks not yet started
