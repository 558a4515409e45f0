"""``havhex gtp hex|havannah [options]``: a GTP engine on standard input and
output (docs/matches.md)."""
import argparse
import io
import sys

from ..gtp.players import MctsPlayer, RandomPlayer
from ..gtp.server import COLOURS, DEFAULT_SIZE, MAX_HAVANNAH_SIZE, MAX_HEX_SIDE, Engine
from .output import silence_stdout

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write(f"havhex gtp: {message}\n")
        raise SystemExit(2)


def _positive_int(text):
    if not (text.isascii() and text.isdigit()) or len(text) > 12 or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a positive whole number: {text!r}")
    return int(text)


def _count(text):
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}")
    return int(text)


def _seconds(text):
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1e9:
        raise argparse.ArgumentTypeError(f"not a number of seconds above 0: {text!r}")
    return value


def build_parser():
    parser = _Parser(
        prog="havhex gtp",
        description="A GTP engine over havhex's boards, on standard input and output.")
    parser.add_argument("game", choices=("hex", "havannah"))
    parser.add_argument("--size", type=_positive_int, default=None,
                        help=f"Hex N x N, Havannah base N (default {DEFAULT_SIZE['hex']} and "
                             f"{DEFAULT_SIZE['havannah']}; at most {MAX_HEX_SIDE} and "
                             f"{MAX_HAVANNAH_SIZE})")
    parser.add_argument("--rule", choices=("official", "contest"), default="official",
                        help="Havannah's ring rule (default official)")
    parser.add_argument("--swap", action="store_true", help="the pie rule is on")
    parser.add_argument("--player", choices=("random", "mcts"), default="mcts",
                        help="who chooses genmove's moves (default mcts)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--simulations", type=_positive_int, default=None,
                        help="MCTS simulations a move (default 1000)")
    budget.add_argument("--seconds", type=_seconds, default=None,
                        help="MCTS seconds a move")
    parser.add_argument("--seed", type=_count, default=None,
                        help="the players' random seed (default: a fresh one)")
    parser.add_argument("--colours", choices=tuple(COLOURS), default="havhex",
                        help="the colour words: havhex (Hex red/blue, Havannah white/black), "
                             "benzene (black moves first), morat (white moves first)")
    return parser


def main(argv=None):
    """Run the engine on standard input and output; 0 when it ends (quit or
    the end of the input), 2 for a usage error."""
    parser = build_parser()
    try:
        options = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    except SystemExit as exit:
        return exit.code if isinstance(exit.code, int) else 2
    limit = MAX_HEX_SIDE if options.game == "hex" else MAX_HAVANNAH_SIZE
    least = 1 if options.game == "hex" else 2
    if options.size is not None and not least <= options.size <= limit:
        parser.print_usage(sys.stderr)
        sys.stderr.write(f"havhex gtp: --size: {options.game} takes {least} to {limit}\n")
        return 2
    if options.player == "random":
        if options.simulations is not None or options.seconds is not None:
            parser.print_usage(sys.stderr)
            sys.stderr.write("havhex gtp: --simulations and --seconds are for --player mcts\n")
            return 2
        player = RandomPlayer(options.seed)
    else:
        player = MctsPlayer(simulations=options.simulations, seconds=options.seconds,
                            seed=options.seed)
    engine = Engine(options.game, size=options.size, rule=options.rule, swap=options.swap,
                    player=player, colours=options.colours)
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
            try:
                stdout.detach()
            except (ValueError, OSError):
                pass
    return 0
