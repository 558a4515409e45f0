"""The command line's cluster front: ``--scheduler ADDRESS`` and ``--cluster
local:N`` run the command's work units (:mod:`havhex.dask`'s plans and
sizes) through ``dask.distributed``, and give each input's output, in
order, as the command writes it without them."""
from .. import dask
from .._cluster.client import (connect, guarded, ship_units, stop_local_workers,
                               worker_count)
from .._cluster.judge import judge_task
from .._units import by_file, ordered_results

__all__ = ["cli_outputs"]


def _release(future):
    future.release()


def cli_outputs(arguments, summary=None):
    """For each input, in order, an iterator over its output (one piece),
    as ``havhex.cli`` writes it: the command of ``arguments`` run on the
    cluster that ``--scheduler`` or ``--cluster`` names; ``summary`` (for
    replay) counts what was replayed."""
    local = None
    if arguments.cluster is not None:
        local = int(arguments.cluster.partition(":")[2])
    client, cluster = connect(arguments.scheduler, local)
    results = None

    def submitter(task, *task_arguments):
        return lambda units: client.submit(task, *task_arguments, ship_units(client, units),
                                           pure=False)

    finished = False
    try:
        workers = worker_count(client)
        window = dask.TASKS_PER_WORKER * workers
        if arguments.command == "replay":
            from .._cluster.judge import replay_task

            plan = dask.plan_replay(arguments.files, arguments.ship, workers)
            results = ordered_results(plan, submitter(replay_task, arguments.rule,
                                                      arguments.format, arguments.kind,
                                                      arguments.max_cells), window, _release)
            for values in guarded(by_file(results)):
                for _, counts in values:
                    summary.add(counts)
                summary.files += 1
                yield iter(("".join(text for text, _ in values),))
            finished = True
            return
        plan = dask.plan_judge(arguments.files or ["-"], arguments.command, arguments.ship, workers)
        results = ordered_results(plan, submitter(judge_task, arguments.command, arguments.format),
                                  window, _release)
        for values in guarded(by_file(results)):
            yield iter(("".join(values),))
        finished = True
    finally:
        if cluster is not None and not finished:
            # Ctrl-C, SIGTERM or a fault: the busy workers are abandoned
            # first, so that the stop takes a fraction of a second.
            stop_local_workers(cluster)
        if results is not None:
            results.close()         # cancels the tasks in flight while the client is open
        client.close()
        if cluster is not None:
            cluster.close()
