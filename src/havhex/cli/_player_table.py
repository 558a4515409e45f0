"""The options of the commands that play, search or solve (gtp, match,
analyse, solve): the second part of the command line's table
(arguments.py holds the first and the parser), imported only when one of
those commands is read, so that a judge run's start-up never makes them."""
from ._table import (ANALYSE, GTP, MATCH, PLAYERS, SEARCHERS, SOLVE, Option, at_least,
                     file_name, one_of)

# The annotations are for type checkers only, in quotes.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Tuple

__all__ = ["searchers_options"]


def searchers_options() -> "Tuple[Option, ...]":
    return (
        Option(("--size",), "size", None,
               {"gtp": "the board: Hex N x N (default 11, at most 128), Havannah base N "
                       "(default 8, 2 to 64); boardsize changes it",
                "match": "the board: Hex N x N, Havannah base N",
                "solve": "with --openings all: the board, Hex N x N (at most 128), Havannah base N "
                         "(2 to 64)"},
               PLAYERS + SOLVE, at_least(1), "N", required={"match": 1}),
        Option(("--engine",), "engine", None,
               "one engine's words (as havhex.match.engines.EngineSpec takes them): "
               "cmd=COMMAND, its command line quoted as for a shell, and any of name=NAME, "
               "dialect=havhex|morat|benzene|castro, dir=DIR, stderr=FILE, "
               "init=GTP-COMMAND and arg=WORD (both repeatable), proto=gtp",
               MATCH, list, "SPEC", words="+", append=True, required={"match": 2}),
        Option(("--games",), "games", 2, "games per pair of engines and round (default 2)",
               MATCH, at_least(1), "N"),
        Option(("--rounds",), "rounds", 1, "rounds: each plays --games games of every pair "
               "(default 1)", MATCH, at_least(1), "N"),
        Option(("--pairing",), "pairing", "round-robin",
               "with three engines or more: every pair (round-robin, the default) or the "
               "first engine against each other (gauntlet)",
               MATCH, one_of("round-robin", "gauntlet")),
        Option(("--st",), "st", None, "seconds a move, on the arbiter's clock", MATCH,
               "seconds", "SECONDS"),
        Option(("--tc",), "tc", None,
               "BASE seconds a game plus INC seconds a move, on the arbiter's clock",
               MATCH, "time_control", "BASE+INC"),
        Option(("--margin",), "margin", 0.1,
               "seconds past the clock before a move loses on time (default 0.1)",
               MATCH, "seconds_or_zero", "SECONDS"),
        Option(("--openings",), "openings", ("none", 2, None),
               {"match": "none (the default), all (every one-move opening), plies=N (N "
                         "random moves) or file=PATH (the games of an SGF or .hgf file); each "
                         "is played twice, seats reversed",
                "solve": "all: solve every one-move opening of an empty board of --size N "
                         "instead of records"},
               MATCH + SOLVE, "openings", "{none,all,plies=N,file=PATH}"),
        Option(("--swap",), "swap", False, "the pie rule is on: the second player may swap",
               PLAYERS + SOLVE),
        Option(("--player",), "player", "search",
               "who chooses genmove's moves: search (the tree search in C, with RAVE "
               "and proofs; default), mcts (a plain UCT search, weaker) or random",
               GTP, one_of("search", "mcts", "random")),
        Option(("--simulations",), "simulations", None,
               {"gtp": "search, mcts: simulations a move (default: the clock's time, else "
                       "10000 for search, 1000 for mcts)",
                "analyse": "simulations a position (default 10000)"},
               GTP + ANALYSE, at_least(1, 10 ** 12 - 1), "N", group="budget"),
        Option(("--seconds",), "seconds", None,
               {"gtp": "search, mcts: seconds a move", "analyse": "seconds a position",
                "solve": "seconds a position (default: no limit); past them its answer is "
                         "unknown"},
               GTP + ANALYSE + SOLVE, "seconds", "SECONDS", group="budget"),
        Option(("--max-nodes",), "max_nodes", None,
               {"gtp": "search: the tree's bound, in nodes of 32 bytes (default 4000000: "
                       "128 MB)",
                "analyse": "the tree's bound, in nodes of 32 bytes (default 1000000: 32 MB)"},
               GTP + ANALYSE, at_least(1, 2 ** 31 - 2), "N"),
        Option(("--threads",), "threads", 1,
               "search: threads searching the one tree (default 1)",
               GTP, at_least(1, 256), "N"),
        Option(("--seed",), "seed", {"gtp": None, "match": 0, "analyse": 0},
               {"gtp": "the player's random seed (default: a fresh one)",
                "match": "the seed of random openings (default 0)",
                "analyse": "the search's random seed (default 0): with --simulations the "
                           "review is the same each time"},
               PLAYERS + ANALYSE, at_least(0, 10 ** 18 - 1), "N"),
        Option(("--threshold",), "threshold", 0.15,
               "flag a move that loses at least LOSS of its player's win rate (default "
               "0.15)", ANALYSE, "fraction", "LOSS"),
        Option(("--colours",), "colours", "havhex",
               "the colour words: havhex (Hex red/blue, Havannah white/black; default), "
               "benzene (black moves first), morat (white moves first)",
               GTP, one_of("havhex", "benzene", "morat")),
        Option(("--verbose",), "verbose", False,
               "after each genmove, a line on stderr: its time and simulations a second", GTP),
        Option(("--concurrency",), "concurrency", 1, "games played at once (default 1)",
               MATCH, at_least(1), "N"),
        Option(("--sprt",), "sprt", None,
               "a sequential probability ratio test of elo0 against elo1 (two engines): "
               "the match stops when it accepts one",
               MATCH, "sprt_words", "elo0=E0 elo1=E1 alpha=A beta=B", words=4),
        Option(("--records",), "records", None,
               "write a record of each game into DIR (SGF for Hex, .hgf for Havannah)",
               MATCH, file_name, "DIR"),
        Option(("--dat",), "dat", None, "write gogui-twogtp's results table to FILE",
               MATCH, file_name, "FILE"),
        Option(("--jsonl",), "jsonl", None, "write a JSON object a game to FILE, one a line",
               MATCH, file_name, "FILE"),
        Option(("--resume",), "resume", False,
               "go on with a stopped match: play only the games --jsonl FILE does not hold",
               MATCH),
        Option(("--before",), "before", 0,
               "solve each record's position N moves before its end (default 0: the last "
               "position, if the game is not over)", SOLVE, at_least(0), "N"),
        Option(("--memory",), "memory", 256,
               "the solver's table, in MB (default 256; at least 1): never more",
               SOLVE, at_least(1, 1 << 20), "MB"),
    )
