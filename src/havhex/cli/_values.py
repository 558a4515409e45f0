"""The values and the checks of the options that the table of ``arguments``
declares and a judge run seldom or never takes: the engine's and the
arbiter's (``havhex gtp``, ``havhex match``, ``havhex analyse``) and the
Dask options'.  Loaded only when one of them is read, so that a judge run
neither loads nor compiles them (its start-up is part of every run).

``arguments`` imports this module and hands it the options it checks; a
check that fails raises :class:`Refused`, which the parser turns into its
usage error (an import back would close a cycle).
"""

# The annotations are for type checkers only, in quotes, as in the modules
# a judge run loads.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Sequence, Tuple

    # The parsed command line, arguments.Arguments, and its options,
    # arguments.Option: arguments imports this module, and an import back,
    # even a type checker's, would close a cycle (tests/packaging/test_layers.py).
    _Arguments = Any
    _Option = Any

__all__ = ["Refused", "address", "check_gtp", "check_match", "fraction", "local_cluster",
           "openings", "seconds", "seconds_or_zero", "sprt_words", "take_game",
           "time_control"]


class Refused(Exception):
    """A command line that a check here refuses: the parser's usage error
    of ``command``, with this text."""


def usage_error(command: str, message: str) -> Refused:
    """The :class:`Refused` of ``message``, ``command``'s usage error."""
    return Refused(message)


def _count(text: str) -> int:
    """A count of ASCII digits, at least 1."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ValueError(f"expected a count at least 1, got {shortened(text)}")
    return int(text)


def shortened(value: str, most: int = 40) -> str:
    """``value`` as an error message quotes it: its first ``most`` characters."""
    return repr(value[:most]) + ("..." if len(value) > most else "")


# The most seconds a clock option takes: a number beyond any match, which
# keeps the deadlines computed from it finite.
_MOST_SECONDS = 1e9


def _number(value: str) -> float:
    """A float of plain ASCII notation: ``float()`` alone would also take
    ``' 2'``, ``'1_0'`` and other scripts' digits."""
    if not value.isascii() or "_" in value or value != value.strip():
        raise ValueError
    return float(value)


def _seconds_from(value: str, zero: bool) -> float:
    try:
        seconds = _number(value)
    except ValueError:
        seconds = float("nan")
    if not ((0 <= seconds if zero else 0 < seconds) and seconds < _MOST_SECONDS):
        least = "at least 0" if zero else "above 0"
        raise ValueError(f"expected a number of seconds {least}, got {shortened(value)}")
    return seconds


def seconds(value: str) -> float:
    """A number of seconds above 0."""
    return _seconds_from(value, zero=False)


def seconds_or_zero(value: str) -> float:
    """A number of seconds, 0 or more."""
    return _seconds_from(value, zero=True)


def fraction(value: str) -> float:
    """A number above 0 and at most 1 (a share of a win rate)."""
    try:
        number = _number(value)
    except ValueError:
        number = float("nan")
    if not 0 < number <= 1:
        raise ValueError(f"expected a number above 0 and at most 1, got {shortened(value)}")
    return number


def time_control(value: str) -> "Tuple[float, float]":
    """``BASE+INC`` or ``BASE`` seconds: ``(base, increment)``."""
    base, _, increment = value.partition("+")
    try:
        base_seconds = _number(base)
        increment_seconds = _number(increment) if increment else 0.0
    except ValueError:
        base_seconds = increment_seconds = float("nan")
    if not (0 < base_seconds < _MOST_SECONDS and 0 <= increment_seconds < _MOST_SECONDS):
        raise ValueError(f"expected BASE+INC seconds, BASE above 0 and INC at least 0, "
                         f"got {shortened(value)}")
    return base_seconds, increment_seconds


def openings(value: str) -> "Tuple[str, int, Optional[str]]":
    """``none``, ``all``, ``plies=N`` or ``file=PATH``: ``(kind, plies, path)``."""
    if value in ("none", "all"):
        return value, 2, None
    key, sign, rest = value.partition("=")
    if sign and key == "plies":
        try:
            return "random", _count(rest), None
        except ValueError:
            raise ValueError(f"plies=N takes a number of plies at least 1, got {value!r}") from None
    if sign and key == "file" and rest:
        return "file", 2, rest
    raise ValueError(f"expected none, all, plies=N or file=PATH, got {shortened(value)}")


_SPRT_KEYS = ("elo0", "elo1", "alpha", "beta")


def sprt_words(words: "Sequence[str]") -> "Dict[str, float]":
    """The four ``KEY=VALUE`` words of ``--sprt``, each key once: a dict of
    floats (the test itself is made, and its bounds checked, by
    ``havhex.match.stats.Sprt``)."""
    values: "Dict[str, float]" = {}
    for word in words:
        key, sign, value = word.partition("=")
        if not sign or key not in _SPRT_KEYS or key in values:
            raise ValueError(f"give elo0=, elo1=, alpha=, beta= once each, got {shortened(word)}")
        try:
            values[key] = _number(value)
        except ValueError:
            raise ValueError(f"{key}= takes a number, got {shortened(word)}") from None
    return values


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def take_game(arguments: "_Arguments", positional: "List[str]",
              counts: "Dict[str, int]", options: "Sequence[_Option]") -> None:
    """The engine's and the arbiter's one GAME, and the options they need."""
    command = arguments.command
    if len(positional) > 1:
        raise usage_error(command, f"unrecognized arguments: {' '.join(positional[1:])}")
    if positional:
        from ..games import get

        try:
            get(positional[0])
        except ValueError:
            from ..games import names

            listed = ", ".join(repr(name) for name in names())
            raise usage_error(command, f"argument GAME: invalid choice: "
                                        f"{positional[0][:40]!r} (choose from {listed})") from None
    missing = ([] if positional else ["GAME"]) + [
        option.label for option in options
        if option.required.get(command) and not counts.get(option.attribute)]
    if missing:
        raise usage_error(command, f"the following arguments are required: "
                                    f"{', '.join(missing)}")
    for option in options:
        times = option.required.get(command, 0)
        if counts.get(option.attribute, 0) < times:
            raise usage_error(command, f"argument {option.label}: expected {_times(times)} "
                                        f"or more, got {_times(counts[option.attribute])}")
    arguments.game = positional[0]


def check_gtp(arguments: "_Arguments", options: "Sequence[_Option]") -> None:
    """The engine's board and player: the bounds are the engine's own
    (``boardsize`` keeps to them too)."""
    from ..games import get

    descriptor = get(arguments.game)
    least, most = descriptor.min_size, descriptor.max_size
    if arguments.size is not None and not least <= arguments.size <= most:
        raise usage_error("gtp", f"argument --size: {arguments.game} takes {least} to "
                                  f"{most}, got {arguments.size}")
    for option in options:
        if option.attribute not in arguments.given:
            continue
        search_only = option.attribute in ("max_nodes", "threads")
        if arguments.player == "random" and (option.group == "budget" or search_only):
            raise usage_error("gtp", f"argument {option.label}: only with --player search"
                                     + ("" if search_only else " or mcts"))
        if arguments.player == "mcts" and search_only:
            raise usage_error("gtp", f"argument {option.label}: only with --player search")


def check_match(arguments: "_Arguments", options: "Sequence[_Option]") -> None:
    """The engines' words, the SPRT's bounds and the options that need
    another; the modules that check them load only for a match."""
    from ..match.engines import EngineSpec

    _check_match_bounds(arguments)

    specs = []
    for words in arguments.engine:
        try:
            specs.append(EngineSpec.from_options(words))
        except (ValueError, TypeError) as error:
            raise usage_error("match", f"argument --engine: {error}") from None
    arguments.specs = specs
    if arguments.sprt is not None:
        from ..match.stats import Sprt

        if len(specs) != 2:
            raise usage_error("match", "argument --sprt: takes a match of two engines, "
                                        f"got {len(specs)}")
        try:
            arguments.sprt = Sprt(**arguments.sprt)
        except ValueError as error:
            reason = str(error).removeprefix("sprt: ")
            raise usage_error("match", f"argument --sprt: {reason}") from None
    if arguments.resume and arguments.jsonl is None:
        raise usage_error("match", "argument --resume: needs --jsonl FILE (the games done "
                                    "are read from it)")


def _check_match_bounds(arguments: "_Arguments") -> None:
    """The board's size within the game's bounds and the clock within the
    arbiter's (havhex.match.arbiter.MAX_SECONDS): a usage error, not a
    traceback or a match lost on time."""
    from ..games import get
    from ..match.arbiter import MAX_SECONDS

    descriptor = get(arguments.game)
    least, most = descriptor.min_size, descriptor.max_size
    if arguments.size is not None and not least <= arguments.size <= most:
        raise usage_error("match", f"argument --size: {arguments.game} takes {least} to "
                                    f"{most}, got {arguments.size}")
    base, increment = arguments.tc if arguments.tc is not None else (None, None)
    for label, value in (("--st", arguments.st), ("--tc", base), ("--tc", increment),
                         ("--margin", arguments.margin)):
        if value is not None and value > MAX_SECONDS:
            raise usage_error("match", f"argument {label}: at most {MAX_SECONDS:.0f} seconds, "
                                        f"got {value:g}")


def address(value: str) -> str:
    """A scheduler's address, ``[PROTOCOL://]HOST:PORT``: checked here, since
    Dask takes a malformed one only to fail slowly."""
    protocol, separator, rest = value.rpartition("://")
    host, colon, port = rest.rpartition(":")
    if (value != value.strip() or not colon or not host or not port.isascii()
            or not port.isdigit() or not 0 < int(port) < 65536
            or (separator and not protocol)):
        raise ValueError(f"expected a scheduler address [PROTOCOL://]HOST:PORT, got {value!r}")
    return value


# Worker processes --cluster local:N may start, per core: each is a Python
# process of some 100 MB, and more than a few per core only share the cores.
_LOCAL_WORKERS_PER_CORE = 4


def _local_workers_limit() -> int:
    """The largest N of ``--cluster local:N`` on this machine."""
    import os

    return _LOCAL_WORKERS_PER_CORE * (os.cpu_count() or 1)


def local_cluster(value: str) -> str:
    """``local:N`` with 1 <= N <= :func:`_local_workers_limit` worker
    processes (a larger N would start processes until memory runs out)."""
    kind, colon, count = value.partition(":")
    if kind != "local" or not colon:
        raise ValueError(f"expected local:N, got {value!r}")
    limit = _local_workers_limit()
    digits = count.isascii() and count.isdigit()
    if digits and len(count.lstrip("0")) > len(str(limit)):
        number = limit + 1          # beyond the limit, however many digits
    else:
        try:
            number = _count(count)
        except ValueError:
            raise ValueError(f"expected local:N with N at least 1, got {value!r}") from None
    if number > limit:
        raise ValueError(f"expected local:N with N at most {limit} "
                         f"({_LOCAL_WORKERS_PER_CORE} per core), got {value[:40]!r}"
                         + ("..." if len(value) > 40 else ""))
    return f"local:{number}"
