"""A GTP engine over havhex's live boards: ``Engine.handle(line)`` answers
one command line, ``Engine.serve(stdin, stdout)`` answers them all until
``quit`` or the end of the input.

Colour words.  Seat 0 moves first.  The words an engine takes and answers
with depend on ``colours``, and are the game's descriptor's
(``colour_words``):

==========  ======================  ======================
colours     Hex (first, second)     Havannah (first, second)
==========  ======================  ======================
havhex      red, blue               white, black
benzene     black, white            black, white
morat       white, black            white, black
==========  ======================  ======================

Each word is taken whole or by its first letter, in any case; havhex's own
words (``red``, ``blue`` in Hex) are taken whatever ``colours`` says.
Answers (``final_score``'s ``R+``/``B+``/``W+``, ``winner``) use the words
of ``colours``.  Cells are havhex's names (``a1`` top left in Hex, Little
Golem's ``A1`` in Havannah); the swap is ``swap-pieces`` (Hex) or ``swap``
(Havannah), either word taken in either game.

A command never ends the engine but ``quit``: a command it cannot do is a
GTP failure (``? illegal move: ...``, ``? unknown command``).  ``genmove``
in a finished game answers ``resign``, as morat does.
"""
from __future__ import annotations

import math
import time

from .. import _version, games
from ..errors import InputError
from ..records import read as read_records
from ..records.game import implied_game
from .players import RandomPlayer
from .protocol import answer, parse_command

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import (IO, Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple,
                        Union)

    from ..descriptor import Descriptor

    # A command's handler: its arguments -> the text of its answer.
    _Handler = Callable[[Tuple[str, ...]], str]

    # The tables by game, which __getattr__ makes when asked for.
    COLOURS: Mapping[str, Mapping[str, Tuple[str, str]]]
    COMMANDS: Mapping[str, Tuple[str, ...]]
    # Deprecated (havhex.games and the descriptors say these now).
    GAMES: Tuple[str, ...]
    DEFAULT_SIZE: Mapping[str, int]
    MAX_HEX_SIDE: int
    MAX_HAVANNAH_SIZE: int

__all__ = ["Engine", "COLOUR_FAMILIES", "COLOURS", "COMMANDS"]

# The colour words ``colours`` may choose: havhex's own, then those of the
# engine families whose controllers an engine may face.
COLOUR_FAMILIES = ("havhex", "benzene", "morat")
# Either swap word is taken in every game (controllers say both).
SWAP_WORDS = ("swap-pieces", "swap")
# The largest record loadsgf reads: a record of a few bytes must not make a
# board of gigabytes.
_MAX_CELLS = 128 * 128

# The commands, in list_commands' order.
_COMMON = ("protocol_version", "name", "version", "known_command", "list_commands",
           "boardsize", "clear_board", "play", "genmove", "undo", "showboard", "quit",
           "final_score", "winner", "all_legal_moves", "all_legal", "history", "loadsgf",
           "param_game", "swap", "time", "time_settings", "time_left",
           "hexgui-analyze_commands")


def _commands(descriptor: Descriptor) -> Tuple[str, ...]:
    """The commands of an engine of ``descriptor``'s game: the swap move is
    a command of its own where it is not the pie rule's switch (``swap``)."""
    if descriptor.swap_move in _COMMON:
        return _COMMON
    return _COMMON + (descriptor.swap_move,)


def __getattr__(name: str) -> Any:
    # The tables by game, made from the registry when asked for.
    if name == "COLOURS":
        return {family: {game: games.get(game).colour_words.get(family,
                                                               games.get(game).players)
                         for game in games.names()}
                for family in COLOUR_FAMILIES}
    if name == "COMMANDS":
        return {game: _commands(games.get(game)) for game in games.names()}
    old = _DEPRECATED.get(name)
    if old is not None:
        import warnings

        warnings.warn(f"havhex.gtp.server.{name} is deprecated: use {old[0]}",
                      DeprecationWarning, stacklevel=2)
        return old[1]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_DEPRECATED: Dict[str, Tuple[str, Callable[[], Any]]] = {
    "GAMES": ("havhex.games.names()", lambda: games.names()),
    "DEFAULT_SIZE": ("havhex.games.get(game).default_size",
                     lambda: {game: games.get(game).default_size for game in games.names()}),
    "MAX_HEX_SIDE": ("the game's descriptor's max_size", lambda: 128),
    "MAX_HAVANNAH_SIZE": ("the game's descriptor's max_size", lambda: 64),
}

# HexGui's analyze commands: type/label/command, one a line.
_ANALYZE = ("string/Final Score/final_score\n"
            "string/Winner/winner\n"
            "plist/All Legal Moves/all_legal_moves\n"
            "string/History/history\n"
            "none/Show Board/showboard")


class _Failure(Exception):
    """A command that fails: its text is the GTP failure's."""


def _integer(text: str, what: str) -> int:
    """A non-negative integer argument (ASCII digits only: ``int`` would
    take other scripts' digits and a thousand digits of nothing)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise _Failure(f"{what} is not a number: {text[:20]!r}")
    return int(text)


def _seconds(text: str, what: str) -> float:
    try:
        value = float(text) if text.isascii() and len(text) < 32 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise _Failure(f"{what} is not a number of seconds: {text[:20]!r}")
    return value


class Engine:
    """A GTP engine for ``game`` (a name :func:`havhex.games.get` knows) on
    a board of ``size`` (None: the game's default size; Hex N x N, Havannah
    base N), the ring ``rule`` of a game that has one, the pie rule when
    ``swap``; ``player`` chooses the moves of
    ``genmove`` (default: a RandomPlayer); ``colours`` names the players
    (see the module's text); ``log``, when given, is called with one line
    of text after each ``genmove`` (the move, its time and, for a search,
    its simulations a second)."""

    descriptor: Descriptor
    game: str
    rule: str
    swap: bool
    player: Any
    colours: str
    words: Tuple[str, str]
    shape: Union[int, Tuple[int, int]]
    board: Any
    finished: bool
    time_left: List[Optional[float]]
    game_time: Optional[float]
    log: Optional[Callable[[str], Any]]

    def __init__(self, game: str, size: Optional[int] = None, rule: str = "official",
                 swap: bool = False, player: Any = None, colours: str = "havhex",
                 log: Optional[Callable[[str], Any]] = None) -> None:
        descriptor = games.get(game)
        rules = descriptor.rules or ("official", "contest")
        if rule not in rules:
            raise ValueError(f"rule is one of {', '.join(rules)}, not {rule!r}")
        if colours not in COLOUR_FAMILIES:
            raise ValueError(f"colours is one of {', '.join(COLOUR_FAMILIES)}, "
                             f"not {colours!r}")
        self.descriptor = descriptor
        self.game = game
        self.rule = rule
        self.swap = bool(swap)
        self.player = player if player is not None else RandomPlayer()
        self.colours = colours
        self.log = log
        # A game has two players: the descriptor's tuples of colour words,
        # typed Tuple[str, ...], hold two words.
        self.words = descriptor.colour_words.get(  # type: ignore[assignment]
            colours, descriptor.players)
        size = descriptor.default_size if size is None else size
        self.shape = (size, size) if descriptor.rectangular else size
        self.board = self._new_board(self.shape, self.swap)
        self.finished = False           # set by quit
        self.time_left = [None, None]   # seconds, from time_left / morat's time -g
        # A game's clock (time_settings' main time, morat's -g), which each
        # new game starts with again.
        self.game_time = None
        self._handlers: Dict[str, _Handler] = {
            "protocol_version": self._protocol_version,
            "name": self._name,
            "version": self._version,
            "known_command": self._known_command,
            "list_commands": self._list_commands,
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo,
            "showboard": self._showboard,
            "quit": self._quit,
            "final_score": self._final_score,
            "winner": self._winner,
            "all_legal_moves": self._all_legal,
            "all_legal": self._all_legal,
            "history": self._history,
            "loadsgf": self._loadsgf,
            "param_game": self._param_game,
            "swap": self._swap,
            "time": self._time,
            "time_settings": self._time_settings,
            "time_left": self._time_left,
            "hexgui-analyze_commands": self._analyze_commands,
        }
        if descriptor.swap_move not in self._handlers:
            self._handlers[descriptor.swap_move] = self._swap_move

    # The board ------------------------------------------------------------

    def _new_board(self, shape: Union[int, Tuple[int, int]], swap: bool) -> Any:
        return self.descriptor.new_board(shape, self.rule, swap)

    def _replace_board(self, shape: Union[int, Tuple[int, int]], swap: bool,
                       moves: Iterable[Any]) -> None:
        """A new board of ``shape`` with ``moves`` played on it, which
        becomes the engine's board only when every move went on."""
        board = self._new_board(shape, swap)
        for move in moves:
            board.play(move)
        self.board, self.shape, self.swap = board, shape, swap
        self.time_left = [self.game_time, self.game_time]

    def _seat_of(self, word: str) -> int:
        """The seat a colour word names; a failure for any other word."""
        lowered = word.lower()
        for seat, colour in enumerate(self.words):
            if lowered in (colour, colour[0]):
                return seat
        for seat, colour in enumerate(self.descriptor.players):
            if lowered == colour:
                return seat
        raise _Failure(f"not a colour: {word[:20]!r} (this engine's colours are "
                       f"{self.words[0]} and {self.words[1]})")

    def _seat_to_move(self) -> int:
        return self._players().index(self.board.to_move)

    def _players(self) -> Tuple[str, ...]:
        return self.descriptor.players

    def _move_name(self, move: Any) -> str:
        if isinstance(move, str):
            return move
        name: str = self.board.cell_name(move)
        return name

    def _parse_move(self, text: str) -> str:
        """havhex's move for a move word: a cell name or a swap word."""
        word = text.lower()
        if word in SWAP_WORDS:
            return self.descriptor.swap_move
        if word in ("pass", "resign"):
            raise _Failure(f"illegal move: {word} (a game ends only when it is won)")
        refused = self.descriptor.refused_words.get(word)
        if refused is not None:
            raise _Failure(f"illegal move: {word} ({refused})")
        return text

    def _play_move(self, seat: int, text: str) -> None:
        if self.board.is_over:
            raise _Failure("illegal move: the game is over")
        if seat != self._seat_to_move():
            raise _Failure(f"illegal move: it is {self.words[self._seat_to_move()]}'s turn")
        try:
            self.board.play(self._parse_move(text))
        except InputError as error:
            raise _Failure(f"illegal move: {_one_line(error)}")

    # The loop -------------------------------------------------------------

    def handle(self, line: str) -> Optional[str]:
        """The whole answer to ``line`` (ending in its empty line), None for
        a line that holds no command."""
        command = parse_command(line)
        if command is None:
            return None
        handler = self._handlers.get(command.name)
        if handler is None:
            return answer(command.id, "unknown command", ok=False)
        try:
            return answer(command.id, handler(command.args))
        except _Failure as failure:
            return answer(command.id, str(failure), ok=False)
        except (InputError, ValueError, OverflowError, MemoryError) as error:
            return answer(command.id, f"{command.name} failed: {_one_line(error)}", ok=False)
        except Exception as error:     # a bug here must not end the engine's game
            return answer(command.id, f"internal error in {command.name}: "
                          f"{type(error).__name__}: {_one_line(error)}", ok=False)

    def serve(self, stdin: Iterable[Union[str, bytes]], stdout: IO[str]) -> None:
        """Answer every command line of ``stdin`` (text, or bytes read as
        UTF-8) on ``stdout`` (flushed after each answer) until ``quit`` or
        the end of the input."""
        for line in stdin:
            if isinstance(line, (bytes, bytearray)):
                line = line.decode("utf-8", "replace")
            text = self.handle(line)
            if text is not None:
                stdout.write(text)
                stdout.flush()
            if self.finished:
                break

    # Commands -------------------------------------------------------------

    def _protocol_version(self, args: Tuple[str, ...]) -> str:
        return "2"

    def _name(self, args: Tuple[str, ...]) -> str:
        return "havhex"

    def _version(self, args: Tuple[str, ...]) -> str:
        return _version.__version__

    def _known_command(self, args: Tuple[str, ...]) -> str:
        return "true" if args and args[0] in self._handlers else "false"

    def _list_commands(self, args: Tuple[str, ...]) -> str:
        return "\n".join(self._handlers)

    def _boardsize(self, args: Tuple[str, ...]) -> str:
        least, most = self.descriptor.min_size, self.descriptor.max_size
        shape: Union[int, Tuple[int, int]]
        if self.descriptor.rectangular:
            if len(args) not in (1, 2):
                raise _Failure("boardsize takes N or W H")
            cols = _integer(args[0], "board size")
            rows = _integer(args[1], "board size") if len(args) == 2 else cols
            if not (least <= rows <= most and least <= cols <= most):
                raise _Failure(f"unacceptable size ({least} to {most} a side)")
            shape = (rows, cols)
        else:
            if len(args) not in (1, 2) or (len(args) == 2 and args[0] != args[1]):
                raise _Failure(f"boardsize takes the size {self.descriptor.size_letter}")
            shape = _integer(args[0], "board size")
            if not least <= shape <= most:
                raise _Failure(f"unacceptable size ({least} to {most})")
        self._replace_board(shape, self.swap, ())
        return ""

    def _clear_board(self, args: Tuple[str, ...]) -> str:
        self._replace_board(self.shape, self.swap, ())
        return ""

    def _play(self, args: Tuple[str, ...]) -> str:
        if len(args) != 2:
            raise _Failure("play takes a colour and a move")
        self._play_move(self._seat_of(args[0]), args[1])
        return ""

    def _swap_move(self, args: Tuple[str, ...]) -> str:
        self._play_move(self._seat_to_move(), self.descriptor.swap_move)
        return ""

    def _genmove(self, args: Tuple[str, ...]) -> str:
        if len(args) != 1:
            raise _Failure("genmove takes a colour")
        seat = self._seat_of(args[0])
        if self.board.is_over:
            return "resign"
        if seat != self._seat_to_move():
            raise _Failure(f"it is {self.words[self._seat_to_move()]}'s turn")
        start = time.perf_counter()
        move = self.player.genmove(self.board, self.time_left[seat])
        seconds = time.perf_counter() - start
        left = self.time_left[seat]
        if left is not None:
            # The clock runs down between the controller's time_left
            # commands too (a controller may send time_settings only).
            self.time_left[seat] = max(0.0, left - seconds)
        if move == "resign":
            return "resign"
        self.board.play(move)
        name = self._move_name(move)
        if self.log is not None:
            line = f"genmove {self.words[seat]} {name}: {seconds:.3f} s"
            simulations = getattr(self.player, "last_simulations", None)
            if simulations:
                line += (f", {simulations} simulations, "
                         f"{simulations / max(seconds, 1e-9):.0f} simulations/s")
            self.log(line)
        return name

    def _undo(self, args: Tuple[str, ...]) -> str:
        if not len(self.board):
            raise _Failure("cannot undo: no move")
        self.board.undo()
        return ""

    def _showboard(self, args: Tuple[str, ...]) -> str:
        return "\n" + self.descriptor.board_text(self.board)

    def _quit(self, args: Tuple[str, ...]) -> str:
        self.finished = True
        return ""

    def _final_score(self, args: Tuple[str, ...]) -> str:
        if not self.board.is_over:
            return "cannot score"
        if self.board.winner is None:
            return "0"
        seat = self._players().index(self.board.winner)
        return self.words[seat][0].upper() + "+"

    def _winner(self, args: Tuple[str, ...]) -> str:
        if not self.board.is_over:
            return "unknown"
        if self.board.winner is None:
            return "draw"
        return self.words[self._players().index(self.board.winner)]

    def _all_legal(self, args: Tuple[str, ...]) -> str:
        refused = self.descriptor.refused_words
        return " ".join(self._move_name(move) for move in self.board.legal_moves()
                        if not (isinstance(move, str) and move in refused))

    def _history(self, args: Tuple[str, ...]) -> str:
        return " ".join(self._move_name(move) for move in self.board.moves)

    def _loadsgf(self, args: Tuple[str, ...]) -> str:
        if len(args) not in (1, 2):
            raise _Failure("loadsgf takes a file and a move number")
        last = _integer(args[1], "move number") if len(args) == 2 else None
        if args[0] == "-":
            # "-" is standard input to the readers: here, the commands.
            raise _Failure("cannot load -: loadsgf takes a file")
        try:
            # A record without GM[] is of the engine's game, unless its
            # extension says (.hgf: Havannah).
            known = implied_game(args[0]) is not None
            game = next(iter(read_records(args[0], game=None if known else self.game,
                                          max_cells=_MAX_CELLS)), None)
        except (ValueError, OSError) as error:
            # ValueError: an InputError, or an engine's game whose records
            # havhex does not read.
            raise _Failure(f"cannot load {args[0]}: {_one_line(error)}")
        if game is None:
            raise _Failure(f"cannot load {args[0]}: no game in it")
        if game.game != self.game:
            raise _Failure(f"cannot load {args[0]}: a game of {game.game}, not {self.game}")
        # loadsgf FILE N: the position before move N.
        moves = [move for _, move in game.moves]
        if last is not None:
            moves = moves[:max(0, last - 1)]
        ended = [i for i, move in enumerate(moves) if move in ("resign", "forfeit", "pass")]
        if ended:
            moves = moves[:ended[0]]
        if game.setup:
            board = game.board(self.rule)
            for move in moves:
                board.play(move)
            self.board, self.shape, self.swap = board, game.size, True
            self.time_left = [self.game_time, self.game_time]
        else:
            swap = self.swap or any(isinstance(move, str) for move in moves)
            self._replace_board(game.size, swap, moves)
        return ""

    def _set_swap(self, args: Tuple[str, ...], command: str) -> str:
        if len(args) != 1 or args[0] not in ("0", "1"):
            raise _Failure(f"{command} takes 0 or 1")
        swap = args[0] == "1"
        if swap != self.swap:
            try:
                self._replace_board(self.shape, swap, self.board.moves)
            except InputError:
                raise _Failure("cannot turn the swap off: the game has a swap")
        return ""

    def _param_game(self, args: Tuple[str, ...]) -> str:
        if not args:
            return f"[bool] allow_swap {int(self.swap)}"
        if args[0] != "allow_swap":
            raise _Failure(f"unknown parameter: {args[0][:40]!r}")
        return self._set_swap(args[1:], "param_game allow_swap")

    def _swap(self, args: Tuple[str, ...]) -> str:
        return self._set_swap(args, "swap")

    def _time(self, args: Tuple[str, ...]) -> str:
        """morat's ``time``: ``-m SECONDS`` a move, ``-g SECONDS`` a game
        (the clock of both players); without options, the settings."""
        if not args:
            seconds = getattr(self.player, "seconds", None)
            return f"move {seconds if seconds is not None else 'none'}"
        if len(args) % 2 or any(key not in ("-m", "-g", "-i", "-f", "-r") for key in args[::2]):
            raise _Failure("time takes -m, -g, -i, -f, -r and a value each")
        options = {key: (_integer(value, key) if key == "-i" else _seconds(value, key))
                   for key, value in zip(args[::2], args[1::2])}
        if options.get("-m") and hasattr(self.player, "set_move_time"):
            self.player.set_move_time(options["-m"])
        if "-g" in options:
            self.game_time = options["-g"] or None
            self.time_left = [self.game_time, self.game_time]
        if "-r" in options:
            self.time_left = [options["-r"], options["-r"]]
        return ""

    def _time_settings(self, args: Tuple[str, ...]) -> str:
        if len(args) != 3:
            raise _Failure("time_settings takes main time, byo-yomi time and stones")
        main = _seconds(args[0], "main time")
        byo_yomi = _seconds(args[1], "byo-yomi time")
        stones = _integer(args[2], "byo-yomi stones")
        if main == 0 and stones and byo_yomi and hasattr(self.player, "set_move_time"):
            # A tenth of the period is left for the pipes and the
            # controller's own clock, which a late move loses on.
            self.player.set_move_time(0.9 * byo_yomi / stones)
        self.game_time = main or None
        self.time_left = [self.game_time, self.game_time]
        return ""

    def _time_left(self, args: Tuple[str, ...]) -> str:
        if len(args) != 3:
            raise _Failure("time_left takes a colour, seconds and stones")
        seat = self._seat_of(args[0])
        self.time_left[seat] = _seconds(args[1], "time left")
        _integer(args[2], "stones")
        return ""

    def _analyze_commands(self, args: Tuple[str, ...]) -> str:
        return _ANALYZE


def _one_line(error: BaseException) -> str:
    """An error's text on one line (an answer's text may hold several, a
    reason should not)."""
    return " ".join(str(error).split())
