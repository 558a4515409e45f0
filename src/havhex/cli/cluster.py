"""The command line's cluster front: ``--scheduler ADDRESS`` and ``--cluster
local:N`` turned into a run on a Dask cluster (:mod:`havhex._cluster.run`),
whose outputs the command writes as it writes its own."""

__all__ = ["cli_outputs"]

# The annotations are for type checkers only, in quotes, as in the modules
# a judge run loads.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterator, Optional

    from ..records.run import Summary
    from .arguments import Arguments


def cli_outputs(arguments: "Arguments",
                summary: "Optional[Summary]" = None) -> "Iterator[Iterator[str]]":
    """For each input, in order, an iterator over its output (one piece),
    as ``havhex.cli`` writes it: the command of ``arguments`` run on the
    cluster that ``--scheduler`` or ``--cluster`` names; ``summary`` (for
    replay) counts what was replayed."""
    from .._cluster.run import run_outputs

    local = None
    if arguments.cluster is not None:
        local = int(arguments.cluster.partition(":")[2])
    return run_outputs(arguments.command, arguments.files, arguments.format,
                       scheduler=arguments.scheduler, local_workers=local, ship=arguments.ship,
                       rule=arguments.rule, game=arguments.record_game, max_cells=arguments.max_cells,
                       summary=summary)
