"""What a match writes: a record per game, the .dat table, JSON Lines, the
live progress line and the summary.

Records go through :mod:`havhex.records`: the game's SGF text is read back
into a :class:`~havhex.records.Record` and written with
:func:`havhex.records.write` (a temporary file renamed into place), so that
every record on disk is one the reader takes.  Hex is SGF ``GM[11]`` (B, the
first player, is the board's red); Havannah Little Golem's ``.hgf`` without
``RU[LG]`` (W, the first player, is white; ``RE[]`` names the winner).
``RE[]`` is the arbiter's result (``B+``, ``W+Resign``, ``B+Time``,
``W+Forfeit``, ``0`` for a draw), and a game lost by resignation or a fault
ends with the loser's ``resign`` or ``forfeit`` node, so that
``havhex replay`` on the record gives the arbiter's outcome.

The ``.dat`` table has gogui-twogtp's columns; its "Black" program is the
first engine of the pair, ``ALT`` 1 when it moved second; results name
colours by who moved (``B`` the first player, as in Go).  Every line of the
.dat and JSON Lines files is flushed and fsynced as it is written: a killed
arbiter leaves whole lines.
"""
from __future__ import annotations

import json
import os
import stat
import sys

from .. import games
from ..records.game import read_bytes
from ..records.writer import write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Sequence, TextIO, Tuple

    from ..descriptor import RecordFormat
    from .arbiter import GameResult
    from .stats import Sprt

__all__ = ["record_text", "write_record", "record_name", "result_text", "DatWriter",
           "JsonlWriter", "read_jsonl", "read_jsonl_lines", "Progress", "summary", "DAT_COLUMNS"]

DAT_COLUMNS: Tuple[str, ...] = ("GAME", "RES_B", "RES_W", "RES_R", "ALT", "DUP", "LEN", "TIME_B", "TIME_W",
               "CPU_B", "CPU_W", "ERR", "ERR_MSG")

# RE[]'s word for how a game ended that the board did not decide.
_HOW = {"resign": "Resign", "on time": "Time", "illegal move": "Forfeit",
        "disconnects": "Forfeit"}
# The node the loser's record ends with.
_LAST_NODE = {"resign": "resign", "on time": "forfeit", "illegal move": "forfeit",
              "disconnects": "forfeit"}


def _record_format(game: str) -> RecordFormat:
    """The record format of ``game``; ValueError for a game without one."""
    found = games.get(game).records
    if found is None:
        raise ValueError(f"{game} has no record format")
    return found


def _letters(game: str) -> Tuple[str, ...]:
    """The record's letters of seat 0 and seat 1."""
    return _record_format(game).letters


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def result_text(result: GameResult) -> str:
    """The SGF RE[] value of a result, from the record's letters."""
    if result.winner is None:
        return "0"
    letter = _letters(result.game)[result.winner]
    how = _HOW.get(result.reason)
    return f"{letter}+{how}" if how else f"{letter}+"


def _claim_text(result: GameResult, seat: int) -> str:
    claim = result.claims.get(seat)
    if claim is None:
        return "?"
    return f"{'BW'[claim]}+"


def _player(result: GameResult, seat: int) -> str:
    name, version = result.names[seat], result.versions[seat]
    return f"{name} {version}".strip() if version else name


def record_text(result: GameResult) -> str:
    """The SGF text of one game (no line end)."""
    form = _record_format(result.game)
    letters = form.letters
    size = result.size
    parts = ["(;FF[4]", form.root(size)]
    parts.append(f"P{letters[0]}[{_escaped(_player(result, 0))}]")
    parts.append(f"P{letters[1]}[{_escaped(_player(result, 1))}]")
    parts.append(f"RE[{result_text(result)}]")
    comment = f"havhex match game {result.index}: {result.reason}"
    if result.detail:
        comment += f" ({result.detail})"
    if games.get(result.game).rules:
        comment += f"; rule {result.rule}"
    parts.append(f"GC[{_escaped(comment)}]")
    for number, move in enumerate(result.moves):
        name = move if isinstance(move, str) else form.cell_name(size, move)
        parts.append(f";{letters[number % 2]}[{name}]")
    last = _LAST_NODE.get(result.reason)
    if last is not None and result.loser is not None:
        parts.append(f";{letters[result.loser]}[{last}]")
    parts.append(")")
    return "".join(parts)


def record_name(result: GameResult) -> str:
    """The file name of a game's record."""
    return f"game{result.index:05d}{_record_format(result.game).extension}"


def write_record(result: GameResult, folder: str) -> str:
    """Write a game's record into ``folder``; returns its path."""
    path = os.path.join(folder, record_name(result))
    text = record_text(result).encode("utf-8")
    games = list(read_bytes(text, path, game=result.game))
    try:
        write(games, path)
    except OSError as error:
        # The writer's temporary file is its own: the error names the record.
        raise OSError(error.errno, error.strerror or str(error), path) from None
    return path


def _drop_cut_line(path: str) -> None:
    """Cut a file after its last line end: a line the killed arbiter was
    writing would otherwise run into the first line appended."""
    try:
        stream = open(path, "r+b")
    except FileNotFoundError:
        return
    with stream:
        size = stream.seek(0, os.SEEK_END)
        end = size
        while end > 0:
            step = min(end, 65536)
            stream.seek(end - step)
            chunk = stream.read(step)
            at = chunk.rfind(b"\n")
            if at >= 0:
                end = end - step + at + 1
                break
            end -= step
        if end != size:
            stream.truncate(end)


class _Lines:
    """A file that takes whole lines, each flushed and fsynced.

    The file is opened without being cut (``begin`` cuts it, or on
    ``append`` drops a last line cut short), so that a match opens all its
    files before it changes any: a file that cannot be opened leaves the
    others as they were (``discard`` removes one this object made)."""

    stream: TextIO
    path: str
    append: bool
    created: bool

    def __init__(self, path: str, append: bool, start: bool = True) -> None:
        self.path, self.append = path, append
        existed = os.path.lexists(path)
        self.stream = open(path, "a", encoding="utf-8")
        self.created = not existed
        if start:
            self.begin()

    def begin(self) -> None:
        """Start writing: a fresh file is emptied, an appended one loses a
        last line cut short."""
        if self.append:
            _drop_cut_line(self.path)
        else:
            status = os.fstat(self.stream.fileno())
            # A device or a pipe (/dev/null, /dev/stdout) has nothing to cut.
            if stat.S_ISREG(status.st_mode) and status.st_size:
                self._guarded(self.stream.truncate, 0)

    def line(self, text: str) -> None:
        self._guarded(self._write, text + "\n")

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()
        os.fsync(self.stream.fileno())

    def _guarded(self, action: Any, *args: Any) -> Any:
        """``action(*args)``, an OSError naming this file (a write's error,
        a full disk, names none)."""
        try:
            return action(*args)
        except OSError as error:
            if error.filename:
                raise
            raise OSError(error.errno, error.strerror or str(error), self.path) from None

    def close(self) -> None:
        try:
            self.stream.close()
        except OSError:
            # What could not be flushed was reported by the write that
            # failed; closing goes on.
            pass

    def discard(self) -> None:
        """Close, and remove the file when this object made it."""
        self.close()
        if self.created:
            try:
                os.unlink(self.path)
            except OSError:
                pass


class DatWriter(_Lines):
    """gogui-twogtp's results table."""

    header: Sequence[Tuple[str, Any]]

    def __init__(self, path: str, header: Sequence[Tuple[str, Any]],
                 append: bool = False, start: bool = True) -> None:
        self.header = header
        super().__init__(path, append, start)

    def begin(self) -> None:
        exists = self.append and os.path.exists(self.path) and os.path.getsize(self.path) > 0
        super().begin()
        if not exists:
            lines = [f"# {key}: {value}" for key, value in self.header]
            self._guarded(self._write, "\n".join(lines + ["#", "#" + "\t".join(DAT_COLUMNS)])
                          + "\n")

    def add(self, result: GameResult, first_engine: int = 0) -> None:
        alternated = result.engines[0] != first_engine
        black, white = (1, 0) if alternated else (0, 1)
        times = result.seat_times()
        fields = [str(result.index), _claim_text(result, black), _claim_text(result, white),
                  _dat_result(result), "1" if alternated else "0", "-",
                  str(len(result.moves)), f"{times[black]:.3f}", f"{times[white]:.3f}",
                  "0", "0", "0",
                  "" if result.reason in ("connection", "ring", "bridge", "fork", "board full")
                  else f"{result.reason}: {result.detail}".replace("\t", " ").replace("\n", " ")]
        self.line("\t".join(fields))


def _dat_result(result: GameResult) -> str:
    if result.winner is None:
        return "0"
    how = {"resign": "R", "on time": "Time", "illegal move": "F", "disconnects": "F"}
    suffix = how.get(result.reason, "")
    return f"{'BW'[result.winner]}+{suffix}"


class JsonlWriter(_Lines):
    """One JSON object a game; ``match`` (a dict: the game, size, engines
    and options of the match) goes into each line, so that ``--resume``
    can tell a file of another match."""

    def __init__(self, path: str, append: bool = False, start: bool = True,
                 match: Optional[Dict[str, Any]] = None) -> None:
        self.match = match
        super().__init__(path, append, start)

    def add(self, result: GameResult) -> None:
        data = result.to_dict()
        if self.match is not None:
            data["match"] = self.match
        self.line(json.dumps(data, separators=(",", ":")))


def read_jsonl(path: str) -> List[GameResult]:
    """The results of a JSON Lines file, skipping a last line cut short."""
    return [result for result, _ in read_jsonl_lines(path)]


def read_jsonl_lines(path: str) -> List[Tuple[GameResult, Optional[Dict[str, Any]]]]:
    """Each game of a JSON Lines file with the ``match`` it was written
    with (None in a file of a havhex that wrote none), skipping a last line
    cut short and lines that hold no game."""
    from .arbiter import GameResult

    found: List[Tuple[GameResult, Optional[Dict[str, Any]]]] = []
    try:
        stream = open(path, encoding="utf-8")
    except FileNotFoundError:
        return found
    with stream:
        for line in stream:
            if not line.endswith("\n"):
                break     # written in part when the arbiter was killed
            try:
                data = json.loads(line)
                result = GameResult.from_dict(data)
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
            match = data.get("match")
            found.append((result, match if isinstance(match, dict) else None))
    return found


class Progress:
    """The live progress line on a terminal (nothing off one)."""

    stream: Optional[TextIO]
    total: int
    terminal: bool

    def __init__(self, total: int, stream: Optional[TextIO] = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.terminal = self.stream is not None and hasattr(self.stream, "isatty") and \
            self.stream.isatty()

    def update(self, done: int, text: str) -> None:
        if self.terminal:
            if TYPE_CHECKING:
                # Only a stream is a terminal.
                assert self.stream is not None
            self.stream.write(f"\r\x1b[K{done}/{self.total} {text}")
            self.stream.flush()

    def close(self) -> None:
        if self.terminal:
            if TYPE_CHECKING:
                # Only a stream is a terminal.
                assert self.stream is not None
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def summary(results: Sequence[GameResult], names: Sequence[str], sprt: Optional[Sprt] = None,
            verdict: Optional[str] = None) -> str:
    """The text at the end: per engine wins/draws/losses (by seat), and for
    each pair the Elo difference with its 95% bounds, LOS, the pentanomial
    counts of the games played in pairs of an opening (with the Elo bounds
    they give) and the SPRT; then the games whose claims disagree and the
    notes."""
    from .stats import Score, pentanomial

    lines: List[str] = []
    reasons: Dict[str, int] = {}
    for result in results:
        reasons[result.reason] = reasons.get(result.reason, 0) + 1
    lines.append(f"{len(results)} games: " +
                 ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items())))
    for index, name in enumerate(names):
        counts = [[0, 0, 0], [0, 0, 0]]     # per seat: W D L
        for result in results:
            for seat in (0, 1):
                if result.engines[seat] != index:
                    continue
                column = 1 if result.winner is None else (0 if result.winner == seat else 2)
                counts[seat][column] += 1
        total = [counts[0][k] + counts[1][k] for k in range(3)]
        if sum(total):
            lines.append(f"{name}: {total[0]} W {total[1]} D {total[2]} L "
                         f"(moving first {counts[0][0]}-{counts[0][1]}-{counts[0][2]}, "
                         f"second {counts[1][0]}-{counts[1][1]}-{counts[1][2]})")
    pairs = sorted({tuple(sorted(result.engines)) for result in results})
    for a, b in pairs:
        score = Score()
        points: List[Tuple[int, float]] = []
        for result in sorted(results, key=lambda result: result.index):
            if tuple(sorted(result.engines)) != (a, b):
                continue
            if result.winner is None:
                score.draws += 1
                points.append((result.opening_index, 0.5))
            elif result.engines[result.winner] == a:
                score.wins += 1
                points.append((result.opening_index, 1.0))
            else:
                score.losses += 1
                points.append((result.opening_index, 0.0))
        elo = score.elo()
        los = score.los()
        line = f"{names[a]} vs {names[b]}: {score.wins}-{score.draws}-{score.losses}"
        if elo is not None:
            line += f", {_elo_text(elo, score.score)}"
        if los is not None:
            line += f", LOS {100 * los:.1f}%"
        lines.append(line)
        paired = pentanomial(points)
        paired_elo = paired.elo()
        if paired_elo is not None:
            ll, ld, dd, wl, wd, ww = paired.counts
            lines.append(f"{names[a]} vs {names[b]}: {paired.pairs} pair"
                         f"{'s' * (paired.pairs != 1)} of an opening, Ptnml(0-2) "
                         f"[{ll}, {ld}, {dd + wl}, {wd}, {ww}] (DD {dd}, WL {wl}), "
                         f"{_elo_text(paired_elo, paired.score())}")
        if sprt is not None and len(pairs) == 1:
            llr = sprt.llr(score.wins, score.draws, score.losses)
            lines.append(f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} "
                         f"beta={sprt.beta:g}: LLR {llr:.2f} ({sprt.lower:.2f}, "
                         f"{sprt.upper:.2f})"
                         + (f", {verdict} accepted" if verdict else ", no decision"))
    disagreements = sum(1 for result in results if result.claim_disagrees)
    if disagreements:
        lines.append(f"{disagreements} game{'s' * (disagreements != 1)} where an engine "
                     f"claimed another result than the board's")
    notes: Dict[str, int] = {}
    for result in results:
        for note in result.notes:
            notes[note] = notes.get(note, 0) + 1
    for note, count in notes.items():
        lines.append(f"note, {count} game{'s' * (count != 1)}: {note}")
    return "\n".join(lines) + "\n"


def _elo_text(elo: Tuple[float, float, float], score: Optional[float]) -> str:
    """``Elo +12.3 [-45.6, +70.1]``; after every game won or lost, the one
    bound that exists: ``Elo above +166.2 (95%, every game won)``."""
    difference, low, high = elo
    if score is not None and score >= 1.0:
        return f"Elo above {_elo(low)} (95%, every game won)"
    if score is not None and score <= 0.0:
        return f"Elo below {_elo(high)} (95%, every game lost)"
    return f"Elo {_elo(difference)} [{_elo(low)}, {_elo(high)}]"


def _elo(value: float) -> str:
    if value == float("inf"):
        return "+inf"
    if value == float("-inf"):
        return "-inf"
    text = f"{value:+.1f}"
    # An even score is -0.0 (-400 log10(1)), and a slightly negative value
    # rounds to -0.0: a zero is shown as +0.0, as every value has its sign.
    return "+0.0" if text == "-0.0" else text
