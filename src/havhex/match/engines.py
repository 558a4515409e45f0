"""The players of a match: an engine process speaking GTP over pipes
(:class:`GtpPlayer`) or a Python callable (:class:`CallablePlayer`), both
driven by seat (0 moves first) and havhex moves.

The arbiter adjudicates; a player only talks.  What can go wrong with an
engine is raised as :class:`EngineFailure` with the kind the results name:
``"on time"`` (no answer before the deadline: the process is killed, since
a late answer would be read as the answer to the next command),
``"disconnects"`` (end of file, the process gone) or ``"protocol"`` (text
that is not a GTP answer).  A ``?`` answer to a command the engine must
take is :class:`CommandRefused`.
"""
from __future__ import annotations

import operator
import os
import select
import shlex
import signal
import subprocess
import time
# ClockSettings is a NamedTuple at run time; the rest of typing is imported
# for type checkers only.
from typing import NamedTuple

from .. import games
from ..gtp.protocol import ProtocolError, Response, parse_response
from .arbiter import SettingError, excerpt, shortened
from .dialects import DIALECTS, detect

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import (IO, Any, Callable, Dict, FrozenSet, List, NoReturn, Optional, Sequence,
                        Tuple, Union)

    from .dialects import Dialect

    # Deprecated: havhex.games.names(), which __getattr__ gives.
    GAMES: Tuple[str, ...]

__all__ = ["EngineSpec", "EngineFailure", "CommandRefused", "GtpPlayer", "CallablePlayer",
           "make_player", "ClockSettings"]

# How long close() lets an engine act on ``quit`` before it is killed.
_QUIT_GRACE = 1.0
_READ_CHUNK = 65536
# The longest line of an answer the arbiter reads, in bytes: far past any
# line an engine has reason to write (a row of the largest board's
# showboard, a name), and what bounds the arbiter's memory for an engine
# that streams a line without end.  A longer line is a protocol fault.
LINE_LIMIT = 1 << 16
# The longest answer, all its lines, in bytes (a list_commands of hundreds
# of commands is a few kilobytes).
ANSWER_LIMIT = 1 << 20
# The longest genmove answer taken as a move: a cell name, a swap word,
# ``resign``.  A longer one is a protocol fault, never parsed (a cell name
# of 400,000 letters would cost seconds off the clock).
MOVE_LIMIT = 64
# The longest wait of one poll(), in milliseconds: poll() takes a C int, and
# a clock of a million seconds must not overflow it.
_MOST_POLL_MS = 1 << 30
# While a process is watched without a pidfd, the longest wait before
# looking whether it has ended.
_EXIT_CHECK_MS = 500
_POSIX = os.name == "posix"


class ClockSettings(NamedTuple):
    """A match's clock: ``per_move`` seconds a move (``st=``), or a game's
    ``base`` seconds plus ``increment`` seconds a move (``tc=base+inc``)."""
    per_move: Optional[float] = None
    base: Optional[float] = None
    increment: float = 0.0


class EngineFailure(Exception):
    """An engine that cannot go on: ``kind`` is ``"disconnects"``,
    ``"on time"`` or ``"protocol"``."""

    kind: str
    message: str

    def __init__(self, kind: str, message: str = "") -> None:
        super().__init__(f"{kind}: {message}" if message else kind)
        self.kind = kind
        self.message = message


class CommandRefused(Exception):
    """The engine answered ``?`` to a command it must take; ``text`` is its
    answer."""

    command: str
    text: str

    def __init__(self, command: str, text: str) -> None:
        super().__init__(f"{command!r} refused: {text}")
        self.command = command
        self.text = text


_OPTION_KEYS = ("cmd", "name", "dialect", "dir", "stderr", "init", "arg", "proto")


class EngineSpec:
    """What the user says about one engine, cutechess-cli's ``--engine``:
    a ``command`` (an argv; a str is split as a shell would, without one)
    or a Python ``player`` callable, a shown ``name``, a ``dialect``
    (None: found from the engine's ``name`` and ``list_commands``), the
    working folder ``cwd``, a ``stderr`` file (default: discarded) and
    ``init`` commands sent after each start."""

    command: Optional[Tuple[str, ...]]
    player: Optional[Callable[..., Any]]
    name: Optional[str]
    dialect: Optional[str]
    cwd: Optional[str]
    stderr: Optional[str]
    init: Tuple[str, ...]

    def __init__(self, command: Union[str, Sequence[str], None] = None,
                 name: Optional[str] = None, dialect: Optional[str] = None,
                 cwd: Optional[str] = None, stderr: Optional[str] = None,
                 init: Sequence[str] = (), player: Optional[Callable[..., Any]] = None) -> None:
        if (command is None) == (player is None):
            raise ValueError("an engine is a command or a Python callable, exactly one of them")
        if isinstance(command, str):
            command = shlex.split(command)
        if command is not None:
            command = tuple(str(word) for word in command)
            if not command:
                raise ValueError("an engine's command is empty")
        if player is not None and not callable(player):
            raise TypeError(f"an engine's player must be callable, not {type(player).__name__}")
        if dialect is not None and dialect not in DIALECTS:
            raise ValueError(f"unknown dialect {dialect!r} (known: {', '.join(DIALECTS)})")
        self.command = command
        self.player = player
        self.name = name
        self.dialect = dialect
        self.cwd = cwd
        self.stderr = stderr
        self.init = tuple(init)

    def __repr__(self) -> str:
        what = self.command if self.command is not None else self.player
        return f"EngineSpec({what!r}, name={self.name!r}, dialect={self.dialect!r})"

    @classmethod
    def from_options(cls, words: Sequence[str]) -> EngineSpec:
        """The spec of cutechess-cli-like words: ``cmd=...``, ``name=A``,
        ``dialect=morat``, ``dir=...``, ``stderr=FILE``, ``init=CMD`` and
        ``arg=WORD`` (both repeatable; an ``arg`` is appended to the
        command), ``proto=gtp`` (the only protocol).  ValueError names a
        word that is not one of them."""
        found: Dict[str, str] = {}
        init: List[str] = []
        extra: List[str] = []
        for word in words:
            key, sign, value = word.partition("=")
            if not sign or key not in _OPTION_KEYS:
                raise ValueError(f"engine option {word!r} is not one of "
                                 f"{', '.join(key + '=' for key in _OPTION_KEYS)}")
            if key == "init":
                init.append(value)
                continue
            if key == "arg":
                extra.append(value)
                continue
            if key == "proto" and value != "gtp":
                raise ValueError(f"engine option proto={value}: havhex match speaks gtp only")
            if key in found:
                raise ValueError(f"engine option {key}= is given twice")
            if not value:
                raise ValueError(f"engine option {key}= has no value")
            found[key] = value
        if "cmd" not in found:
            raise ValueError("an engine needs cmd=COMMAND")
        try:
            command = shlex.split(found["cmd"])
        except ValueError as error:
            raise ValueError(f"engine option cmd={found['cmd']!r}: {error}") from None
        return cls(command + extra, name=found.get("name"), dialect=found.get("dialect"),
                   cwd=found.get("dir"), stderr=found.get("stderr"), init=init)


def __getattr__(name: str) -> Any:
    if name == "GAMES":
        import warnings

        warnings.warn("havhex.match.engines.GAMES is deprecated: use havhex.games.names()",
                      DeprecationWarning, stacklevel=2)
        return games.names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class GtpPlayer:
    """One engine process speaking GTP over pipes.  ``start()`` spawns it
    and asks ``name``, ``version`` and ``list_commands``; the arbiter then
    calls ``new_game``, ``play``, ``genmove`` and ``claimed_winner``."""

    spec: EngineSpec
    game: str
    name: str
    version: str
    dialect: Optional[Dialect]
    commands: FrozenSet[str]
    process: Optional[subprocess.Popen[bytes]]
    size: Optional[int]

    def __init__(self, spec: EngineSpec, game: str) -> None:
        self.descriptor = games.get(game)
        if spec.command is None:
            raise ValueError("a GtpPlayer runs a command; use CallablePlayer for a callable")
        self.spec = spec
        self.game = game
        self.name = spec.name or ""
        self.version = ""
        self.dialect = DIALECTS[spec.dialect] if spec.dialect else None
        self.commands = frozenset()
        self.process = None
        self.size = None
        self._buffer = bytearray()
        self._stderr: Optional[IO[bytes]] = None
        self._poll: Optional[select.poll] = None
        # A descriptor that becomes readable when the process ends (Linux's
        # pidfd), watched beside its output: an engine that exits while a
        # child of it keeps the pipe open sends no end of file.
        self._pidfd: Optional[int] = None
        self._fds = (-1, -1)
        # Set once the process is seen to have ended (the pidfd is then
        # readable for ever, and is no more polled).
        self._ended = False
        self._clock: Optional[ClockSettings] = None
        self._sent = 0
        # A forwarded play sent with the next command.
        self._pending: Optional[str] = None
        # Whether this game's swap is played (a dialect whose swap exchanges
        # the players' colours speaks of each seat by the other's colour
        # from then on).
        self._swapped = False
        # The time_left form this engine takes in this game (its index in
        # the dialect's forms), None once it has refused them all.
        self._time_left_form: Optional[int] = 0
        self._swap_word: Optional[str] = None
        self.notes: List[str] = []

    def __repr__(self) -> str:
        if TYPE_CHECKING:
            assert self.spec.command is not None    # __init__ checks
        return f"<GtpPlayer {self.name or self.spec.command[0]!r} alive={self.alive}>"

    def _note(self, text: str) -> None:
        """Keep what the arbiter saw that decides nothing (a refused clock
        command): the game's result lists it."""
        text = f"{self.name}: {text}"
        if text not in self.notes:
            self.notes.append(text)

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self, timeout: float = 30.0) -> None:
        """Spawn the engine and learn its name, version and commands (and
        its dialect when the spec does not say)."""
        if TYPE_CHECKING:
            assert self.spec.command is not None    # __init__ checks
        self.close()
        if self.spec.stderr:
            self._stderr = open(self.spec.stderr, "ab")
        try:
            self.process = subprocess.Popen(
                self.spec.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr if self._stderr is not None else subprocess.DEVNULL,
                cwd=self.spec.cwd, bufsize=0, close_fds=True,
                # Its own process group, so that a kill reaches what a
                # wrapper script started too.
                start_new_session=_POSIX)
        except OSError as error:
            self._close_stderr()
            raise EngineFailure("disconnects",
                                f"cannot start {self.spec.command[0]!r}: {error}") from None
        self._buffer.clear()
        self._sent = 0
        self._pending = None
        self._poll = select.poll()
        if TYPE_CHECKING:
            # Pipes, asked for above.
            assert self.process.stdin is not None and self.process.stdout is not None
        # The pipes' descriptors, looked up once: every command uses both.
        self._fds = (self.process.stdin.fileno(), self.process.stdout.fileno())
        self._poll.register(self._fds[1], select.POLLIN | select.POLLHUP)
        self._ended = False
        self._pidfd = _process_descriptor(self.process.pid)
        if self._pidfd is not None:
            self._poll.register(self._pidfd, select.POLLIN)
        deadline = time.monotonic() + timeout
        shown = self._ask("name", deadline)
        version = self._ask("version", deadline)
        listed = self._ask("list_commands", deadline)
        self.version = version.text.strip() if version.ok else ""
        self.commands = frozenset(listed.text.split()) if listed.ok else frozenset()
        engine_name = shown.text.strip() if shown.ok else ""
        if not self.spec.name:
            self.name = " ".join(filter(None, [engine_name, self.version])) or self.spec.command[0]
        if self.spec.dialect is None:
            self.dialect = detect(engine_name, self.commands)
        if TYPE_CHECKING:
            assert self.dialect is not None         # the spec's (__init__) or detected
        for command in self.dialect.setup(self.game):
            if command.split()[0] in self.commands:
                self._must(command, deadline)
        for command in self.spec.init:
            self._must(command, deadline)

    def restart(self, timeout: float = 30.0) -> None:
        """A fresh process after a death (or to clear a confused engine)."""
        self.start(timeout)

    def new_game(self, size: int, swap: bool = False, rule: str = "official",
                 clock: Optional[ClockSettings] = None, timeout: float = 30.0) -> None:
        """Set the board and clock for a new game: the dialect's
        ``boardsize``, ``clear_board``, swap and time commands."""
        # The last move of the game before is the engine's no more.
        self._pending = None
        self._swapped = False
        self._time_left_form = 0
        self.notes = []
        if self.dialect is None or not self.alive:
            self.start(timeout)
        if TYPE_CHECKING:
            assert self.dialect is not None         # start() sets it
        swap_word = self.dialect.swap_word(self.game)
        if swap and swap_word is None:
            raise SettingError(f"{self.name}: the {self.dialect.name} dialect has no swap move")
        # Looked for in the engine's answers only in a game with the pie
        # rule (elsewhere a swap is no move, and the game ends at it).
        self._swap_word = swap_word if swap else None
        deadline = time.monotonic() + timeout
        self._must(self.dialect.boardsize(self.game, size), deadline)
        self._must("clear_board", deadline)
        self.size = size
        for command in self.dialect.swap_setup(swap, self.game):
            # An engine of the family that lacks the command plays
            # without it (its refusal of a swap move then shows it).
            if not self.commands or command.split()[0] in self.commands:
                self._must(command, deadline)
        for command in self.dialect.time_commands(self.game, clock, self.commands):
            response = self._ask(command, deadline)
            if not response.ok:
                # The arbiter's clock still holds the engine to its time:
                # a refusal is kept, not a lost game.
                self._note(f"refused {command!r} ({shortened(response.text, 80)}): the clock "
                           f"is not told so")
        self._clock = clock

    def play(self, seat: int, move: Any, timeout: float = 30.0) -> None:
        """Tell the engine a move the arbiter accepted, now."""
        if TYPE_CHECKING:
            # new_game() has set the dialect and the size.
            assert self.dialect is not None and self.size is not None
        # The swap's colour is the swapper's before it: a dialect that
        # exchanges colours speaks of the seats by the other's after it.
        command = self.dialect.play(self.game, self.size, seat, move, self._swapped)
        if move == self.descriptor.swap_move:
            self._swapped = True
        self._must(command, time.monotonic() + timeout)

    def forward(self, seat: int, move: Any, timeout: float = 30.0) -> None:
        """Tell the engine a move with its next command: the ``play`` goes
        out in the same write (GTP engines answer commands in order), so
        that the engine wakes once a move, not twice.  A refusal is raised
        by that next command's call, as CommandRefused naming the
        ``play``.  A play still pending (two forwards in a row) is sent
        first, on its own, within ``timeout``."""
        if TYPE_CHECKING:
            # new_game() has set the dialect and the size.
            assert self.dialect is not None and self.size is not None
        pending, self._pending = self._pending, None
        if pending is not None:
            self._must(pending, time.monotonic() + timeout)
        self._pending = self.dialect.play(self.game, self.size, seat, move, self._swapped)
        if move == self.descriptor.swap_move:
            self._swapped = True

    def genmove(self, seat: int, timeout: float, time_left: Optional[float] = None) -> str:
        """The engine's move for ``seat``, its answer's text as it wrote
        it (stripped).  Under a game clock the time left goes first, where
        the dialect takes it."""
        if TYPE_CHECKING:
            assert self.dialect is not None         # new_game() sets it
        deadline = time.monotonic() + timeout
        if self._clock is not None and time_left is not None:
            self._tell_time(seat, time_left, deadline)
        text = self._must(self.dialect.genmove(self.game, seat, self._swapped), deadline).strip()
        if len(text) > MOVE_LIMIT:
            # A whole answer, so the engine stays in step: it is not killed.
            raise EngineFailure("protocol", f"{self.name}: an answer to 'genmove' of {len(text)} "
                                            f"characters (a move has at most {MOVE_LIMIT})")
        if self._swap_word is not None and text.lower() == self._swap_word:
            # On the engine's own board from now on, whatever the arbiter
            # makes of it.
            self._swapped = True
        return text

    def _tell_time(self, seat: int, time_left: float, deadline: Optional[float]) -> None:
        """The time ``seat`` has left, before its genmove, where the
        dialect tells it."""
        if TYPE_CHECKING:
            assert self.dialect is not None
        for command in self.dialect.move_time_commands(
                self.game, seat, self._clock, time_left, self.commands, self._swapped):
            if command.startswith("time_left "):
                self._tell_time_left(seat, time_left, deadline)
            else:
                response = self._ask(command, deadline)
                if not response.ok:
                    self._note(f"refused {command!r} ({shortened(response.text, 80)})")

    def _tell_time_left(self, seat: int, time_left: Optional[float],
                        deadline: Optional[float]) -> None:
        """``time_left`` in the first form the engine takes (the dialect's
        own, then the others it lists), found once a game: an engine that
        refuses every form is noted and told no more."""
        if TYPE_CHECKING:
            assert self.dialect is not None and time_left is not None
        if self._time_left_form is None:
            return
        forms = self.dialect.time_left_forms(self.game, seat, time_left, self._swapped)
        for index in range(self._time_left_form, len(forms)):
            response = self._ask(forms[index], deadline)
            if response.ok:
                self._time_left_form = index
                return
            self._note(f"refused {forms[index]!r} ({shortened(response.text, 80)})")
        self._time_left_form = None
        self._note("took no form of time_left: its clock is not told so")

    def parse_move(self, text: str, board: Any) -> Any:
        """havhex's move for the engine's answer ``text`` on ``board`` (a
        live board of this game): a cell, the swap, ``"resign"`` or
        ``"pass"``; ValueError for anything else (legality is the
        arbiter's)."""
        if TYPE_CHECKING:
            assert self.dialect is not None         # new_game() sets it
        word = text.strip().lower()
        if word in ("resign", "pass"):
            return word
        # The game's size (new_game's), the board's only outside a game.
        size = self.size if self.size is not None else self.descriptor.board_size(board)
        return self.dialect.parse_cell(self.game, size, word, self._swapped)

    def check_board(self, board: Any, timeout: float = 10.0) -> Optional[str]:
        """Whether the engine's board agrees with the arbiter's ``board``
        (asked after a swap): None when it does, or when the engine shows
        no board in a layout its dialect reads (a note then says so); else
        what differs, one line."""
        if TYPE_CHECKING:
            assert self.dialect is not None and self.size is not None
        expected = self.dialect.engine_board(self.game, self.size, board.moves)
        if expected is None or (self.commands and "showboard" not in self.commands):
            return None
        response = self._ask("showboard", time.monotonic() + timeout)
        seen = self.dialect.read_board(self.game, self.size, response.text) \
            if response.ok else None
        if seen is None:
            self._note("showboard not read: its board is not checked after the swap")
            return None
        if seen == expected:
            return None
        colours = [self.dialect.colour(self.game, 0), self.dialect.colour(self.game, 1)]

        def listed(stones: Dict[str, int]) -> str:
            return " ".join(f"{colours[colour]} {cell}" for cell, colour in sorted(stones.items()))

        return shortened(f"board disagrees after the swap: the engine shows "
                         f"{listed(seen) or 'no stone'}, havhex's board is "
                         f"{listed(expected)} in {self.dialect.name}'s words", 300)

    def claimed_winner(self, timeout: float = 10.0) -> Optional[int]:
        """The seat the engine says has won (``final_score`` or
        ``winner``), None when it does not say, refuses or cannot."""
        if not self.alive or self.dialect is None:
            return None
        if self.commands:
            names = [name for name in dict.fromkeys(
                [self.dialect.result_command, "final_score", "winner"])
                if name in self.commands]
        else:
            # An engine that lists nothing is asked its family's command only.
            names = [self.dialect.result_command] if self.dialect.result_command else []
        deadline = time.monotonic() + timeout
        for name in names:
            try:
                response = self._ask(name, deadline)
            except EngineFailure:
                return None
            if response.ok:
                return self.dialect.parse_result(response.text, self.game, self._swapped)
        return None

    def interrupt(self) -> None:
        """Kill the engine and its process group now, from any thread (a
        match interrupted by Ctrl-C or SIGTERM): the thread that talks to it
        then reads the end of its output, and close() reaps it."""
        process = self.process
        if process is None:
            return
        try:
            if _POSIX:
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
        except OSError:
            pass

    def close(self) -> None:
        """``quit``, a moment to act on it, then kill; safe to call twice."""
        process, self.process = self.process, None
        if process is not None:
            if process.poll() is None:
                if TYPE_CHECKING:
                    assert process.stdin is not None    # a pipe (start)
                try:
                    process.stdin.write(b"quit\n")
                    process.stdin.close()
                except OSError:
                    pass
                try:
                    process.wait(_QUIT_GRACE)
                except subprocess.TimeoutExpired:
                    _kill_group(process)
        self._let_go(process)

    def __enter__(self) -> GtpPlayer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    # The wire.

    def _close_stderr(self) -> None:
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def _kill(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            _kill_group(process)
        self._let_go(process)

    def _let_go(self, process: Optional[subprocess.Popen[bytes]]) -> None:
        """Close what the ended ``process`` (or None) leaves open here."""
        if process is not None:
            if TYPE_CHECKING:
                # Pipes (start).
                assert process.stdin is not None and process.stdout is not None
            for pipe in (process.stdin, process.stdout):
                try:
                    pipe.close()
                except OSError:
                    pass
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        self._poll = None
        self._close_stderr()

    def _fail(self, kind: str, message: str) -> NoReturn:
        """Kill the engine and raise: after a failure its next answer
        could not be matched to a command."""
        if TYPE_CHECKING:
            assert self.spec.command is not None    # __init__ checks
        self._kill()
        raise EngineFailure(kind, f"{self.name or self.spec.command[0]}: {message}")

    def _must(self, command: str, deadline: Optional[float]) -> str:
        response = self._ask(command, deadline)
        if not response.ok:
            raise CommandRefused(command, response.text)
        return response.text

    def _ask(self, command: str, deadline: Optional[float]) -> Response:
        """Send one command (after a forwarded ``play`` still pending) and
        read its answer before ``deadline`` (a time.monotonic() value; None
        waits for ever)."""
        if self.process is None:
            raise EngineFailure("disconnects", f"{self.name}: the engine is not running")
        pending, self._pending = self._pending, None
        # Each command carries an id, so that an engine that answers twice
        # (or not at all and then late) is caught at once instead of having
        # every later answer taken for the one before.
        lines = ""
        if pending is not None:
            self._sent += 1
            lines = f"{self._sent} {pending}\n"
        self._sent += 1
        lines += f"{self._sent} {command}\n"
        try:
            os.write(self._fds[0], lines.encode())
        except OSError as error:
            self._fail("disconnects", f"cannot write {command.split()[0]!r}: {error}")
        if pending is None:
            return self._read(command, deadline, self._sent)
        played = self._read(pending, deadline, self._sent - 1)
        # Both answers are read before a refusal is raised: none is left in
        # the pipe to be taken for the next command's.
        response = self._read(command, deadline, self._sent)
        if not played.ok:
            raise CommandRefused(pending, played.text)
        return response

    def _read(self, command: str, deadline: Optional[float], ident: int) -> Response:
        buffer = self._buffer
        if TYPE_CHECKING:
            # _ask reads the answers of a running engine, which start() polls.
            assert self.process is not None and self.process.stdout is not None
            assert self._poll is not None
        fd = self._fds[1]
        # The longest wait of one poll: a pidfd wakes it when the process
        # ends; without one it looks at the process now and then.
        longest = _MOST_POLL_MS if self._pidfd is not None else _EXIT_CHECK_MS
        scanned = 0
        while True:
            end = buffer.find(b"\n\n", scanned)
            if end >= 0:
                text = bytes(buffer[:end])
                del buffer[:end + 2]
                if text.strip():
                    break
                # Blank lines before an answer are not an answer.
                scanned = 0
                continue
            size = len(buffer)
            scanned = max(0, size - 1)
            if size > LINE_LIMIT:
                # Looked at only once the buffer could hold a line too long:
                # the last line end is then within LINE_LIMIT bytes of the
                # end, or the line is a fault.
                if size - buffer.rfind(b"\n") - 1 > LINE_LIMIT:
                    self._fail("protocol", f"a line longer than {LINE_LIMIT} bytes in the "
                                           f"answer to {command.split()[0]!r}")
                if size > ANSWER_LIMIT:
                    self._fail("protocol", f"an answer to {command.split()[0]!r} longer than "
                                           f"{ANSWER_LIMIT} bytes")
            if self._ended:
                # The process is gone: what it wrote is in the pipe now, or
                # never will be.
                wait_ms: Optional[int] = 0
            elif deadline is None:
                wait_ms = None if self._pidfd is not None else _EXIT_CHECK_MS
            else:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    self._fail("on time", f"no answer to {command.split()[0]!r} in time")
                wait_ms = min(int(wait * 1000) + 1, longest)
            events = self._poll.poll(wait_ms)
            if not events:
                if self._ended:
                    self._fail("disconnects", f"the engine ended while answering {command.split()[0]!r} "
                                              f"(another process holds its output open)")
                if self._pidfd is None and self.process.poll() is not None:
                    self._ended = True
                continue
            if len(events) != 1 or events[0][0] != fd:
                readable = False
                for event_fd, _ in events:
                    if event_fd == fd:
                        readable = True
                    elif event_fd == self._pidfd:
                        # Readable for ever from now on: what is in the pipe
                        # is all the answers there will be, for this command
                        # and any after it.
                        self._poll.unregister(event_fd)
                        self._ended = True
                if not readable:
                    continue
            try:
                chunk = os.read(fd, _READ_CHUNK)
            except OSError as error:
                self._fail("disconnects", f"reading: {error}")
            if not chunk:
                self._fail("disconnects", f"the engine ended while answering {command.split()[0]!r}")
            # CR LF line ends read as LF, so that the blank line is found.
            if b"\r" in chunk:
                chunk = chunk.replace(b"\r", b"")
            buffer += chunk
        answer = text.decode("utf-8", "replace")
        # The common answer, one printable line with its id ("=12 e5",
        # "=12"), skips the general parser's preprocessing.
        head = f"={ident}"
        cut = len(head)
        if answer.startswith(head) and answer[cut:cut + 1] in (" ", "") and answer.isprintable():
            return Response(True, ident, answer[cut + 1:].strip())
        try:
            response = parse_response(answer)
        except ProtocolError as error:
            self._fail("protocol", f"answering {command.split()[0]!r}: {error}")
        # An engine that drops ids is taken at its word; another id is an
        # answer to some other command.
        if response.id is not None and response.id != ident:
            shown = str(response.id)
            if len(shown) > 20:
                shown = f"of {len(shown)} digits"
            self._fail("protocol", f"an answer to command {shown} where command "
                                   f"{ident} ({command.split()[0]!r}) was asked")
        return response


def _process_descriptor(pid: int) -> Optional[int]:
    """A pidfd of the process ``pid`` (readable once it ends), or None
    where the system has none (then the process is looked at every
    ``_EXIT_CHECK_MS`` while an answer is awaited)."""
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    try:
        descriptor: int = opener(pid)
    except OSError:
        return None
    return descriptor


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill an engine and every process of its group (a wrapper script's
    engine with it), and reap it."""
    if _POSIX:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        process.kill()
    except OSError:
        pass
    process.wait()


class CallablePlayer:
    """A Python callable as a player: ``player(board, seat, time_left)``
    gets a copy of the game's live board and returns a move (a havhex move
    or its name, ``"resign"``, ``"pass"``).  Time is the arbiter's to
    measure, as for a process; an exception from the callable is its
    disconnection."""

    spec: EngineSpec
    game: str
    name: str
    version: str
    dialect: Dialect
    commands: FrozenSet[str]
    alive: bool
    board: Any

    def __init__(self, spec: EngineSpec, game: str) -> None:
        self.descriptor = games.get(game)
        if spec.player is None:
            raise ValueError("a CallablePlayer calls a Python callable; use GtpPlayer for a command")
        self.spec = spec
        self.game = game
        # mypy types the or of a str and an Any as possibly None: it is a str.
        self.name = spec.name or getattr(  # type: ignore[assignment]
            spec.player, "__name__", type(spec.player).__name__)
        self.version = ""
        self.dialect = DIALECTS["havhex"]
        self.commands = frozenset()
        self.alive = False
        self.board = None

    def __repr__(self) -> str:
        return f"<CallablePlayer {self.name!r}>"

    def start(self, timeout: float = 30.0) -> None:
        self.alive = True

    def restart(self, timeout: float = 30.0) -> None:
        self.start(timeout)

    def new_game(self, size: int, swap: bool = False, rule: str = "official",
                 clock: Optional[ClockSettings] = None, timeout: float = 30.0) -> None:
        self.alive = True
        self.board = self.descriptor.new_board(size, rule, swap)

    def play(self, seat: int, move: Any, timeout: float = 30.0) -> None:
        own, self._own = getattr(self, "_own", None), None
        if own is not None and own == move:
            return
        self.board.play(move)

    def forward(self, seat: int, move: Any, timeout: float = 30.0) -> None:
        self.play(seat, move, timeout)

    def genmove(self, seat: int, timeout: float, time_left: Optional[float] = None) -> Any:
        if TYPE_CHECKING:
            assert self.spec.player is not None     # __init__ checks
        try:
            answer = self.spec.player(self.board.copy(), seat, time_left)
        except (Exception, SystemExit) as error:
            # sys.exit() in a player ends that player, as an engine's exit
            # does, not the thread that plays the match's games.
            raise EngineFailure("disconnects",
                                f"{self.name} raised {type(error).__name__}: {error}") from error
        # The arbiter forwards a move to the other player only: the mover's
        # own board takes it here, as a GTP engine's genmove plays its move
        # (what the board cannot take, the arbiter's refuses too, and the
        # game ends there); a play() of the same move after it is no news.
        self._own = None
        try:
            move = self.parse_move(answer, self.board)
            self.board.play(move)
            self._own = self.board.moves[-1]
        except ValueError:
            pass
        return answer

    def parse_move(self, text: Any, board: Any) -> Any:
        """havhex's move for what the callable returned; ValueError for
        anything that is not a move of ``board``'s game."""
        if isinstance(text, str):
            word = text.strip()
            if word.lower() in ("resign", "pass"):
                return word.lower()
            return self.dialect.parse_cell(self.game, self.descriptor.board_size(board), word)
        cell = _cell_of(text)
        if cell is None:
            raise ValueError(f"{excerpt(text)} is not a move")
        return cell

    def claimed_winner(self, timeout: float = 10.0) -> Optional[int]:
        return None

    def close(self) -> None:
        self.alive = False


def _cell_of(value: Any) -> Optional[Tuple[int, int]]:
    """A pair of integers as a cell of ints: a tuple or list of two ints,
    numpy's integers (``(np.int64(2), np.int64(3))``, what a policy's
    argmax gives) or an array of two; None for anything else (a bool is no
    coordinate)."""
    if not isinstance(value, (tuple, list)) and getattr(value, "shape", None) != (2,):
        return None
    try:
        first, second = value
    except (TypeError, ValueError):
        return None
    cell = []
    for number in (first, second):
        if isinstance(number, bool) or type(number).__name__ == "bool_":
            return None
        try:
            cell.append(operator.index(number))
        except TypeError:
            return None
    return (cell[0], cell[1])


def make_player(spec: EngineSpec, game: str) -> Union[GtpPlayer, CallablePlayer]:
    """The player for ``spec``: a process or a callable."""
    if spec.player is not None:
        return CallablePlayer(spec, game)
    return GtpPlayer(spec, game)
