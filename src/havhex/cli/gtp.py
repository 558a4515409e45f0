"""``havhex gtp hex|havannah [options]``: a GTP engine on standard input and
output (docs/matches.md).  Its options are read with every other command's,
in ``arguments``."""
import io
import sys

from ..gtp.players import MctsPlayer, RandomPlayer
from ..gtp.server import Engine
from .output import silence_stdout

__all__ = ["run"]

# The annotations are for type checkers only, in quotes, as in the modules
# a judge run loads.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Union

    from .arguments import Arguments


def _log(line: str) -> None:
    sys.stderr.write(f"havhex gtp: {line}\n")
    sys.stderr.flush()


def run(options: "Arguments") -> int:
    """Run the engine of the parsed command line ``options`` on standard
    input and output; 0 when it ends (quit or the end of the input)."""
    if TYPE_CHECKING:
        assert options.game is not None     # the parser requires GAME
    player: "Union[RandomPlayer, MctsPlayer]"
    if options.player == "random":
        player = RandomPlayer(options.seed)
    else:
        player = MctsPlayer(simulations=options.simulations, seconds=options.seconds,
                            seed=options.seed)
    engine = Engine(options.game, size=options.size, rule=options.rule, swap=options.swap,
                    player=player, colours=options.colours,
                    log=_log if options.verbose else None)
    # Bytes in, decoded line by line (a byte that is not UTF-8 is one
    # replacement character of a command that then fails, never an
    # exception); answers out as UTF-8 with LF, whatever the locale.
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
    except KeyboardInterrupt:
        return 130
    finally:
        if stdout is not sys.stdout:
            if TYPE_CHECKING:
                assert isinstance(stdout, io.TextIOWrapper)     # the wrapper made above
            try:
                stdout.detach()
            except (ValueError, OSError):
                pass
    return 0
