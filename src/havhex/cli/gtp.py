"""``havhex gtp hex|havannah [options]``: a GTP engine on standard input and
output (docs/matches.md).  Its options are read with every other command's,
in ``arguments``."""
import io
import sys

from .output import silence_stdout

__all__ = ["run"]

# The annotations are for type checkers only, in quotes, as in the modules
# a judge run loads.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Union

    from ..gtp.players import MctsPlayer, RandomPlayer, SearchPlayer
    from .arguments import Arguments


def _log(line: str) -> None:
    sys.stderr.write(f"havhex gtp: {line}\n")
    sys.stderr.flush()


def run(options: "Arguments") -> int:
    """Run the engine of the parsed command line ``options`` on standard
    input and output; 0 when it ends (quit or the end of the input), 130
    when interrupted (SIGINT, Ctrl-C)."""
    try:
        return _run(options)
    except KeyboardInterrupt:
        # Wherever it lands (the engine's modules loading, a search, the wait
        # for a command, the clean-up after the end of the input, which a
        # Ctrl-C that also ends the controller reaches first): the status a
        # shell gives an interrupted command, and no traceback.
        return 130


def _run(options: "Arguments") -> int:
    # Imported here, under run's guard against an interrupt.
    from ..gtp.players import DEFAULT_PLAYER_NODES, MctsPlayer, RandomPlayer, SearchPlayer
    from ..gtp.server import Engine

    if TYPE_CHECKING:
        assert options.game is not None     # the parser requires GAME
    player: "Union[RandomPlayer, MctsPlayer, SearchPlayer]"
    if options.player == "random":
        player = RandomPlayer(options.seed)
    elif options.player == "search":
        player = SearchPlayer(simulations=options.simulations, seconds=options.seconds,
                              seed=options.seed, max_nodes=options.max_nodes
                              if options.max_nodes is not None else DEFAULT_PLAYER_NODES,
                              threads=options.threads)
    else:
        player = MctsPlayer(simulations=options.simulations, seconds=options.seconds,
                            seed=options.seed)
    engine = Engine(options.game, size=options.size, rule=options.rule, swap=options.swap,
                    player=player, colours=options.colours,
                    log=_log if options.verbose else None)
    # Bytes in, read a bounded piece at a time and decoded line by line (see
    # Engine.serve); answers out as UTF-8 with LF, whatever the locale.
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    stdout = sys.stdout
    if hasattr(stdout, "buffer"):
        stdout = io.TextIOWrapper(stdout.buffer, encoding="utf-8", errors="replace",
                                  newline="\n", write_through=True)
    try:
        engine.serve(stdin, stdout)
    except BrokenPipeError:
        # The controller went away: nothing is left to answer.
        silence_stdout()
    finally:
        if stdout is not sys.stdout:
            if TYPE_CHECKING:
                assert isinstance(stdout, io.TextIOWrapper)     # the wrapper made above
            try:
                stdout.detach()
            except (ValueError, OSError):
                pass
    return 0
