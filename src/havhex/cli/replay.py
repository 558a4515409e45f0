"""``havhex replay``: game records replayed, one line or JSON object per game.

Work is cut into units: a file, or a run of whole games of a large file
(cut where a game's tree closes).  With ``-j N`` the units go to N worker
processes (the per-game work is Python as much as compiled code, so threads
would queue on the interpreter); the output is the same, in input order.  A
file's output appears whole or not at all.
"""
import json
import os

from ..errors import InputError

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
        return (f"replayed {self.files} file{'s' * (self.files != 1)}: {self.games} games, "
                f"{self.moves} moves, {self.wins} won on the board; {flags}")


def _size_text(replayed):
    size = replayed.game.size
    return str(size) if isinstance(size, int) else f"{size[0]}x{size[1]}"


def text_line(name, replayed):
    """The text line of one game."""
    win = replayed.win
    won = (f"{win.player} won in move {win.move} ({'-'.join(win.kinds)})" if win
           else "no win")
    line = (f"{name} game {replayed.game.index}: {replayed.game.kind} {_size_text(replayed)}, "
            f"{replayed.moves} moves, {won}, recorded {replayed.recorded or '-'}, "
            f"ended by {replayed.end}")
    if replayed.illegal:
        line += f", illegal move {replayed.illegal[0]}: {replayed.illegal[1]}"
    if replayed.flags:
        line += f" [{' '.join(replayed.flags)}]"
    return line + "\n"


def json_line(name, replayed):
    return json.dumps({"file": name, **replayed.to_dict(witness=True)},
                      separators=(", ", ": ")) + "\n"


def replay_unit(data, name, rule, output_format, first_index=1, first_line=1):
    """``(text, counts)`` of the games in ``data`` (bytes of whole games)."""
    from ..records.game import read_bytes
    from ..records.replay import replay_games

    line_of = json_line if output_format == "json" else text_line
    pieces = []
    games = moves = wins = 0
    flags = {}
    for replayed in replay_games(read_bytes(data, name, None, first_index, first_line), rule):
        pieces.append(line_of(name, replayed))
        games += 1
        moves += replayed.moves
        if replayed.win:
            wins += 1
        for flag in replayed.flags:
            flags[flag] = flags.get(flag, 0) + 1
    return "".join(pieces), (games, moves, wins, flags)


def _unit_in_worker(path, start, stop, first_index, first_line, rule, output_format):
    """A worker process's unit: read its byte range, replay it."""
    from ..records.runs import read_range

    return replay_unit(read_range(path, start, stop), path, rule, output_format,
                       first_index, first_line)


def _large_file_size(file):
    """The size of a regular file larger than one unit, else None (standard
    input, small files, anything that is not a regular file)."""
    import stat

    if file == "-":
        return None
    try:
        status = os.stat(file)
    except OSError:
        return None              # load() says why, in the file's turn
    if not stat.S_ISREG(status.st_mode) or status.st_size <= UNIT_BYTES:
        return None
    return status.st_size


def replay_outputs(files, rule, output_format, jobs, summary):
    """For each file, in order, an iterator over its output text (one piece);
    the summary's counts grow as files are replayed."""
    from ..records.game import load
    from ..records.runs import record_files

    files = record_files(files)
    if jobs <= 1:
        for file in files:
            data, name = load(file)
            text, counts = replay_unit(data, name, rule, output_format)
            summary.files += 1
            summary.add(counts)
            yield iter((text,))
        return
    yield from _parallel(files, rule, output_format, jobs, summary)


def replay_batch(items, rule, output_format):
    """``replay_unit`` of several small files in one task: ``items`` are
    ``(data, name)`` pairs; one result per file."""
    return [replay_unit(data, name, rule, output_format) for data, name in items]


# Small files travel to the workers in batches of up to this many.
BATCH_FILES = 64


def _parallel(files, rule, output_format, jobs, summary):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from ..records.game import load
    from ..records.runs import runs_as_found

    # fork where there is one: a worker starts in milliseconds with the
    # package already imported; elsewhere spawn.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        # Each file's plan: ("fault", error), ("units", futures) or
        # ("batch", future, position in the batch).
        plans = []
        batch = []
        batch_bytes = 0
        batch_plans = []

        def send_batch():
            nonlocal batch, batch_bytes, batch_plans
            if batch:
                future = pool.submit(replay_batch, batch, rule, output_format)
                for plan in batch_plans:
                    plan[1] = future
            batch, batch_bytes, batch_plans = [], 0, []

        for file in files:
            # A file that cannot be read is reported in its turn, after the
            # output of the files before it, as without -j.
            try:
                size = _large_file_size(file)
                data, name = load(file) if size is None else (None, file)
            except InputError as error:
                plans.append(["fault", error])
                continue
            if data is not None:
                plan = ["batch", None, len(batch)]
                batch.append((data, name))
                batch_bytes += len(data)
                batch_plans.append(plan)
                plans.append(plan)
                if batch_bytes >= UNIT_BYTES or len(batch) >= BATCH_FILES:
                    send_batch()
                continue
            send_batch()
            plans.append(["units", [pool.submit(_unit_in_worker, file, start, stop, index, line,
                                                rule, output_format)
                                    for start, stop, index, line
                                    in runs_as_found(file, UNIT_BYTES)]])
        send_batch()
        try:
            for plan in plans:
                if plan[0] == "fault":
                    raise plan[1]
                if plan[0] == "batch":
                    results = [plan[1].result()[plan[2]]]
                else:
                    results = [future.result() for future in plan[1]]
                for _, counts in results:
                    summary.add(counts)
                summary.files += 1
                yield iter(("".join(text for text, _ in results),))
        except BaseException:
            for plan in plans:
                futures = plan[1] if plan[0] == "units" else [plan[1]] if plan[0] == "batch" else []
                for future in futures:
                    future.cancel()
            raise
