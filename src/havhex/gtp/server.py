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

Bad input costs no more than its own line: a line of more than
:data:`MAX_LINE` bytes is read no further than that, skipped to its end and
answered with one failure; a failure quotes at most a few words of the
command (and of a file, nothing).
"""
from __future__ import annotations

import math
import time
from functools import partial
from itertools import chain

from .. import _version, games
from ..errors import InputError
from ._load import MAX_RECORD_BYTES, Refused, load
from .players import RandomPlayer
from .protocol import ProtocolError, answer, parse_command

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import (IO, Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional,
                        Tuple, Union)

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

__all__ = ["Engine", "COLOUR_FAMILIES", "COLOURS", "COMMANDS", "MAX_LINE",
           "MAX_RECORD_BYTES", "MAX_ANALYSIS_SECONDS"]

# The longest command line read, in bytes before its newline: GTP's commands
# are a few words, and a longer line is read no further (memory stays bounded
# whatever comes in) and answered with a failure.
MAX_LINE = 65536
# What a failure keeps of the input: a few words of an argument, the start of
# a line too long, a path; and a failure's whole text at most.
_SHOWN = 24
_SHOWN_PATH = 100
_HEAD = 128
_MAX_FAILURE = 400

# The colour words ``colours`` may choose: havhex's own, then those of the
# engine families whose controllers an engine may face.
COLOUR_FAMILIES = ("havhex", "benzene", "morat")
# Either swap word is taken in every game (controllers say both).
SWAP_WORDS = ("swap-pieces", "swap")

# The commands, in list_commands' order.
_COMMON = ("protocol_version", "name", "version", "known_command", "list_commands",
           "boardsize", "clear_board", "play", "genmove", "undo", "showboard", "quit",
           "final_score", "winner", "all_legal_moves", "all_legal", "history", "loadsgf",
           "param_game", "swap", "time", "time_settings", "time_left",
           "hexgui-analyze_commands", "candidates", "candidate_rates")


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
# With a player that analyses (SearchPlayer): the candidates as text, and
# their win rates in percent on the cells.
_ANALYZE_SEARCH = ("\nstring/Candidates/candidates\n"
                   "pspairs/Candidate Win Rates/candidate_rates")
# The longest analysis a command may ask for, in seconds.
MAX_ANALYSIS_SECONDS = 3600.0
# The share of a byo-yomi move's seconds the search takes: the rest goes
# to the pipes and the answer, which take milliseconds, so that a move
# lasts as long as an engine's that takes its full time (docs/engine.md).
_MOVE_SHARE = 0.98
# The candidates listed when the command does not say how many.
_CANDIDATES = 10


class _Failure(Exception):
    """A command that fails: its text is the GTP failure's."""


def _integer(text: str, what: str) -> int:
    """A non-negative integer argument (ASCII digits only: ``int`` would
    take other scripts' digits and a thousand digits of nothing)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise _Failure(f"{what} is not a number: {_shown(text)}")
    return int(text)


def _seconds(text: str, what: str) -> float:
    try:
        value = float(text) if text.isascii() and len(text) < 32 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise _Failure(f"{what} is not a number of seconds: {_shown(text)}")
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
            "candidates": self._candidates,
            "candidate_rates": self._candidate_rates,
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
        raise _Failure(f"not a colour: {_shown(word)} (this engine's colours are "
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
        move = self._parse_move(text)
        try:
            self.board.play(move)
        except InputError as error:
            raise _Failure(f"illegal move: {self._refusal(move, error)}")

    def _refusal(self, move: str, error: InputError) -> str:
        """Why the board refused ``move``, its cell named as moves are (the
        board's own messages give a cell's coordinates, which GTP does not
        use, and quote a name whole)."""
        if move == self.descriptor.swap_move:
            # Why a swap is refused names no cell.
            return _one_line(error)
        try:
            name = self.board.cell_name(move)
        except (InputError, ValueError):
            shape = self.shape
            board = (f"{shape[1]} x {shape[0]}" if isinstance(shape, tuple)
                     else f"{self.descriptor.size_letter} = {shape}")
            return f"{_shown(move)} is not a cell of this board ({board})"
        # The turn and the end of the game are checked before: a cell the
        # board refuses holds a stone.
        return f"{name} is taken"

    # The loop -------------------------------------------------------------

    def handle(self, line: str) -> Optional[str]:
        """The whole answer to ``line`` (ending in its empty line), None for
        a line that holds no command.  Whatever the line's length, a failure
        quotes a few words of it; MAX_LINE is serve's, which reads no line
        further than that."""
        try:
            command = parse_command(line)
        except ProtocolError as error:
            # An id too long to repeat: the answer has none.
            return _failure(None, str(error))
        if command is None:
            return None
        handler = self._handlers.get(command.name)
        if handler is None:
            return answer(command.id, "unknown command", ok=False)
        try:
            return answer(command.id, handler(command.args))
        except _Failure as failure:
            return _failure(command.id, str(failure))
        except (InputError, ValueError, OverflowError, MemoryError) as error:
            return _failure(command.id, f"{command.name} failed: {_one_line(error)}")
        except Exception as error:     # a bug here must not end the engine's game
            return _failure(command.id, f"internal error in {command.name}: "
                            f"{type(error).__name__}: {_one_line(error)}")

    def _too_long(self, head: str) -> str:
        """The failure for a line too long, of which ``head`` is the start:
        it repeats the line's id when the id ends within ``head``."""
        try:
            command = parse_command(head)
        except ProtocolError:
            command = None
        # A name after the id: the id ends within the head, it is whole.
        command_id = command.id if command is not None and command.name else None
        # Its start as the command reads (control characters dropped), if any.
        start = "".join(char for char in " ".join(head.split()) if char.isprintable())
        return _failure(command_id, f"the line is longer than {MAX_LINE} bytes"
                        + (f": {_shown(start)}" if start else ""))

    def serve(self, stdin: Iterable[Union[str, bytes]], stdout: IO[str]) -> None:
        """Answer every command line of ``stdin`` (text, or bytes read as
        UTF-8) on ``stdout`` (flushed after each answer) until ``quit`` or
        the end of the input.  A stream with ``readline`` is read at most
        MAX_LINE + 1 bytes at a time, so that neither a line without end nor
        one of gigabytes is ever held (see MAX_LINE)."""
        readline = getattr(stdin, "readline", None)
        lines: Iterable[Tuple[str, bool]]
        if readline is None:
            lines = _cut_lines(stdin)
        else:
            first = readline(MAX_LINE + 1)
            if not first:
                return
            if isinstance(first, (bytes, bytearray)):
                self._serve_bytes(first, readline, stdout)
                return
            lines = _text_lines(first, readline)
        for line, whole in lines:
            text = self.handle(line) if whole else self._too_long(line)
            if text is not None:
                stdout.write(text)
                stdout.flush()
            if self.finished:
                break

    def _serve_bytes(self, first: Union[bytes, bytearray],
                     readline: Callable[[int], Union[bytes, bytearray]],
                     stdout: IO[str]) -> None:
        """serve on a binary stream, whose first line (MAX_LINE + 1 bytes at
        most) is ``first``: havhex gtp's loop, whose reading of a line costs
        what iterating the stream costs."""
        limit = MAX_LINE
        # The stream's reading, called from C until the end's empty bytes.
        pieces = chain((first,), iter(partial(readline, limit + 1), b""))
        answer_line = self.handle
        text: Optional[str]
        for piece in pieces:
            if len(piece) > limit and not piece.endswith(b"\n"):
                _drop_rest(readline, limit + 1)
                text = self._too_long(piece[:_HEAD].decode("utf-8", "replace"))
            else:
                # A byte that is not UTF-8 is a replacement character in a
                # command that then fails, never an exception.
                text = answer_line(piece.decode("utf-8", "replace"))
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
        """The game's picture of the board (its descriptor's board_text),
        after a line saying whose turn it is or who won, in this engine's
        colour words, and the words' meaning when they are not the
        board's."""
        board = self.board
        if board.winner is not None:
            status = f"{self.words[self._players().index(board.winner)]} wins"
        elif board.is_over:
            status = "a draw: the board is full"
        else:
            status = f"{self.words[self._seat_to_move()]} to move"
        moves = board.moves
        if moves:
            status += (f"; {len(moves)} move{'s' * (len(moves) != 1)}, the last "
                       f"{self._move_name(moves[-1])}")
        lines = [status, self.descriptor.board_text(board)]
        players = self._players()
        if tuple(self.words) != tuple(players):
            lines.append(f"here {players[0]} is {self.words[0]} and {players[1]} is "
                         f"{self.words[1]} (colours {self.colours})")
        return "\n" + "\n".join(lines)

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
        before = _integer(args[1], "move number") if len(args) == 2 else None
        shown = _shown(args[0], _SHOWN_PATH)
        if args[0] == "-":
            # "-" is standard input to the readers: here, the commands.
            raise _Failure("cannot load '-': loadsgf takes a file")
        try:
            record, moves = load(args[0], self.descriptor, self.rule, before)
        except Refused as refused:
            raise _Failure(f"cannot load {shown}: {refused}")
        if record.setup:
            # Setup stones: the record's own board, swaps allowed as records
            # use them.
            board = record.board(self.rule)
            for move in moves:
                board.play(move)
            self.board, self.shape, self.swap = board, record.size, True
            self.time_left = [self.game_time, self.game_time]
        else:
            swap = self.swap or any(isinstance(move, str) for move in moves)
            self._replace_board(record.size, swap, moves)
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
            raise _Failure(f"unknown parameter: {_shown(args[0])}")
        return self._set_swap(args[1:], "param_game allow_swap")

    def _swap(self, args: Tuple[str, ...]) -> str:
        return self._set_swap(args, "swap")

    def _time(self, args: Tuple[str, ...]) -> str:
        """morat's ``time``: ``-m SECONDS`` a move, ``-g SECONDS`` a game
        (the clock of both players), ``-r SECONDS`` left; 0 for ``-m`` or
        ``-g`` is none of it.  Without options, the settings."""
        if not args:
            seconds = getattr(self.player, "seconds", None)
            return f"move {seconds if seconds is not None else 'none'}"
        if len(args) % 2 or any(key not in ("-m", "-g", "-i", "-f", "-r") for key in args[::2]):
            raise _Failure("time takes -m, -g, -i, -f, -r and a value each")
        options = {key: (_integer(value, key) if key == "-i" else _seconds(value, key))
                   for key, value in zip(args[::2], args[1::2])}
        if "-m" in options:
            self._set_move_time(options["-m"] or None)
        if "-g" in options:
            self.game_time = options["-g"] or None
            self.time_left = [self.game_time, self.game_time]
        if "-r" in options:
            self.time_left = [options["-r"], options["-r"]]
        return ""

    def _time_settings(self, args: Tuple[str, ...]) -> str:
        """GTP's clock, M seconds of main time then Canadian byo-yomi of B
        seconds for N stones, which replaces the clock before it: with no
        main time a move gets B/N less a fiftieth (left for the pipes and
        the answer: the search stops on time, and the controller's clock
        counts the command's way there and back too);
        with main time a move gets a twentieth of what is left of it (see
        MctsPlayer).  No clock, the player's own budget again: all three 0,
        or B > 0 with N = 0 (GTP's words for no time limits)."""
        if len(args) != 3:
            raise _Failure("time_settings takes main time, byo-yomi time and stones")
        main = _seconds(args[0], "main time")
        byo_yomi = _seconds(args[1], "byo-yomi time")
        stones = _integer(args[2], "byo-yomi stones")
        if byo_yomi and not stones:
            main = 0.0
        self._set_move_time(_MOVE_SHARE * byo_yomi / stones if not main and byo_yomi and stones
                            else None)
        self.game_time = main or None
        self.time_left = [self.game_time, self.game_time]
        return ""

    def _set_move_time(self, seconds: Optional[float]) -> None:
        """The clock's time for a move (None: none, the player's own budget)
        to a player that takes one."""
        set_move_time = getattr(self.player, "set_move_time", None)
        if set_move_time is not None:
            set_move_time(seconds)

    def _time_left(self, args: Tuple[str, ...]) -> str:
        if len(args) != 3:
            raise _Failure("time_left takes a colour, seconds and stones")
        seat = self._seat_of(args[0])
        self.time_left[seat] = _seconds(args[1], "time left")
        _integer(args[2], "stones")
        return ""

    def _analyze_commands(self, args: Tuple[str, ...]) -> str:
        if getattr(self.player, "analyse", None) is not None:
            return _ANALYZE + _ANALYZE_SEARCH
        return _ANALYZE

    def _analysis(self, args: Tuple[str, ...], command: str) -> Any:
        """The player's analysis of the position, searched ``args[0]``
        seconds (none: the player's budget for a move)."""
        analyse = getattr(self.player, "analyse", None)
        if analyse is None:
            raise _Failure(f"{command}: this player does not analyse (--player search does)")
        seconds = None
        if args:
            seconds = _seconds(args[0], "analysis time")
            if not 0 < seconds <= MAX_ANALYSIS_SECONDS:
                raise _Failure(f"analysis time must be more than 0 and at most "
                               f"{MAX_ANALYSIS_SECONDS:g} seconds")
        if self.board.is_over:
            raise _Failure("the game is over")
        return analyse(self.board, seconds)

    def _candidates(self, args: Tuple[str, ...]) -> str:
        """``candidates [SECONDS [N]]``: the N best moves (default 10) of
        a search of the position, best first, one a line under the
        answer's sign: the move, its
        visits, its win rate for the player to move and, when proven,
        ``win`` or ``loss``."""
        if len(args) > 2:
            raise _Failure("candidates takes seconds and a count")
        count = _integer(args[1], "count") if len(args) == 2 else _CANDIDATES
        analysis = self._analysis(args[:1], "candidates")
        lines = []
        for move, visits, rate, proven in analysis.moves[:count]:
            line = f"{self._move_name(move)} {visits} {rate:.3f}"
            lines.append(line + f" {proven}" if proven else line)
        # The table stands alone under the answer's sign, as showboard's.
        return "\n" + "\n".join(lines)

    def _candidate_rates(self, args: Tuple[str, ...]) -> str:
        """``candidate_rates [SECONDS]``: HexGui's point-string pairs of
        the searched moves: each cell's win rate in percent, W or L when
        proven."""
        if len(args) > 1:
            raise _Failure("candidate_rates takes seconds")
        analysis = self._analysis(args, "candidate_rates")
        pairs = []
        for move, visits, rate, proven in analysis.moves:
            if isinstance(move, str) or not (visits or proven):
                continue            # a swap has no cell; an unvisited move no rate
            label = "W" if proven == "win" else "L" if proven == "loss" else f"{rate * 100:.0f}"
            pairs.append(f"{self._move_name(move)} {label}")
        return " ".join(pairs)


def _one_line(error: BaseException) -> str:
    """An error's text on one line (an answer's text may hold several, a
    reason should not)."""
    return " ".join(str(error).split())


def _shown(text: str, most: int = _SHOWN) -> str:
    """``text`` quoted for a failure, cut after ``most`` characters: an
    answer repeats a few words of the input, never a whole line."""
    if len(text) <= most:
        return repr(text)
    return repr(text[:most]) + "..."


def _failure(command_id: Optional[int], text: str) -> str:
    """The failure answer of ``text``, cut to _MAX_FAILURE characters: a
    reason that quotes more than it should still makes a short answer."""
    if len(text) > _MAX_FAILURE:
        text = text[:_MAX_FAILURE - 3] + "..."
    return answer(command_id, text, ok=False)


def _cut_lines(stdin: Iterable[Union[str, bytes]]) -> Iterator[Tuple[str, bool]]:
    """The lines of an iterable of lines as ``(text, whole)``: ``whole``
    False for a line of more than MAX_LINE bytes (characters for text),
    whose text is then its first _HEAD characters."""
    for line in stdin:
        cut = len(line) > MAX_LINE and len(_text(line).rstrip("\r\n")) > MAX_LINE
        yield _text(line[:_HEAD] if cut else line), not cut


def _text_lines(first: str, readline: Callable[[int], str]) -> Iterator[Tuple[str, bool]]:
    """The lines of a text stream as ``(text, whole)`` (see _cut_lines),
    read MAX_LINE + 1 characters at a time, from ``first``."""
    line = first
    while line:
        if len(line) > MAX_LINE and not line.endswith("\n"):
            _drop_rest(readline, MAX_LINE + 1)
            yield line[:_HEAD], False
        else:
            yield line, True
        line = readline(MAX_LINE + 1)


def _drop_rest(readline: Callable[[int], Union[str, bytes, bytearray]], limit: int) -> None:
    """Read and drop the rest of a line too long, a piece at a time, up to
    its newline or the end of the input."""
    while True:
        rest = readline(limit)
        if not rest or _ends_line(rest):
            return


def _ends_line(piece: Union[str, bytes, bytearray]) -> bool:
    if isinstance(piece, (bytes, bytearray)):
        return piece.endswith(b"\n")
    return piece.endswith("\n")


def _text(line: Union[str, bytes]) -> str:
    if isinstance(line, (bytes, bytearray)):
        return line.decode("utf-8", "replace")
    return line
