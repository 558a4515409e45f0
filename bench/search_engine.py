"""A GTP engine whose player is a SearchPlayer of the tuning the command line
gives, for matches of one tuning against another (docs/engine.md):

    python bench/search_engine.py hex exploration=0 rave=3000

Each word is a SearchPlayer keyword and its value (``expand_visits`` and
``max_nodes`` integers, the rest numbers); the engine is otherwise
``havhex gtp``'s, on standard input and output.
"""
import io
import sys

from havhex.gtp.players import SearchPlayer
from havhex.gtp.server import Engine

_INTEGERS = ("expand_visits", "max_nodes", "endgame")


def main(argv):
    game, words = argv[0], argv[1:]
    tuning = {}
    for word in words:
        key, _, value = word.partition("=")
        tuning[key] = int(value) if key in _INTEGERS else float(value)
    engine = Engine(game, player=SearchPlayer(**tuning))
    out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n",
                           write_through=True)
    engine.serve(sys.stdin.buffer, out)
    out.detach()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
