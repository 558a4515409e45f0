"""The GTP dialects of the engine families: what each calls the players,
how it takes the board size, names cells, swaps, takes time and says who
won.

Inside havhex a player is a **seat** (0 moves first) and a move is what
the live boards take (a cell, or the game's swap move).  A :class:`Dialect`
turns these into an engine's words and back.  What a family says of one
game (its colour words, its cell names, its swap) is the game's to tell:
its descriptor's ``engines`` (:class:`havhex.descriptor.EngineWords`); a
family is a dialect only in what it says of every game:

* ``havhex``: ``havhex gtp``; ``boardsize N``; ``final_score`` answers
  ``R+``/``B+`` (Hex), ``W+``/``B+`` (Havannah).
* ``morat``: ``boardsize N``; no swap; ``time -m/-g/-f/-r``; ``winner``
  answers ``white``/``black``.
* ``benzene`` (MoHex, Wolve; HexGui's words): ``boardsize N N`` on a game
  whose boards may be rectangles, ``final_score`` answers ``B+``/``W+``,
  ``param_mohex max_time``, ``param_game game_time``, ``time_left COLOUR
  SECONDS`` (two arguments: benzene's ``HexHtpEngine::CmdTimeLeft``).  Its
  swap keeps the stone and its colour, and the players exchange colours
  (benzene's ``swap-pieces`` changes no stone; the colour to move is the
  one with fewer stones): after a swap each seat speaks the other colour,
  and benzene's board is havhex's mirrored in the long diagonal, where
  havhex's ``swap-pieces`` moved the stone.
* ``castro`` (Havannah): morat's predecessor, morat's clock and result.
  Written from castro's documented words; no castro binary was at hand.

The swap of every family but benzene gives the stone to the swapper, as
havhex's boards do: each colour stays with its seat.
"""
from __future__ import annotations

from .. import games

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

    from ..descriptor import Descriptor, EngineWords

__all__ = ["Dialect", "DIALECTS", "detect"]


# The longest word taken as a cell name: a board of the largest size names
# its cells in a few letters and digits.
_LONGEST_NAME = 32


def _words(family: str, game: str) -> Tuple[Descriptor, EngineWords]:
    """What ``family`` says of ``game``: ValueError for a game it does not play."""
    descriptor = games.get(game)
    words = descriptor.engines.get(family)
    if words is None:
        raise ValueError(f"{family} engines do not play {game}")
    return descriptor, words


def _seconds(value: float) -> str:
    """A number of seconds as a GTP argument: no exponent, no needless
    zeros."""
    return f"{max(0.0, value):.3f}".rstrip("0").rstrip(".") or "0"


class Dialect:
    """One engine family's words.  ``boardsize_form`` ``"two"`` sends
    ``boardsize N N`` for a game whose boards may be rectangles;
    ``result_command`` the command that asks an engine who won;
    ``swap_mirror`` for a family whose swap exchanges the players' colours
    (the stone stays): the map between havhex's cells and the engine's
    after a swap (None: the swap gives the stone to the swapper, as
    havhex's); ``time_left_form`` ``"gtp"`` (``time_left COLOUR SECONDS
    STONES``) or ``"two"`` (``time_left COLOUR SECONDS``)."""

    def __init__(self, name: str, boardsize_form: str, result_command: Optional[str],
                 swap_mirror: Optional[Callable[[Any], Any]] = None,
                 time_left_form: str = "gtp") -> None:
        self.name = name
        self._boardsize_form = boardsize_form
        self.result_command = result_command
        self.swap_mirror = swap_mirror
        self._time_left_form = time_left_form

    def __repr__(self) -> str:
        return f"<Dialect {self.name}>"

    @property
    def exchanges_colours(self) -> bool:
        """Whether the family's swap exchanges the players' colours, the
        stone staying as it is (benzene's), instead of giving the stone to
        the swapper (havhex's)."""
        return self.swap_mirror is not None

    def _after_swap(self, swapped: bool) -> bool:
        return swapped and self.swap_mirror is not None

    @property
    def games(self) -> Tuple[str, ...]:
        """The names of the games this family plays."""
        return tuple(name for name in games.names()
                     if self.name in games.get(name).engines)

    def colour(self, game: str, seat: int, swapped: bool = False) -> str:
        """The colour word of ``seat`` (0 moves first) in ``game``;
        ``swapped`` once the game's swap is played (a family that exchanges
        colours then gives each seat the other's)."""
        if swapped and self.swap_mirror is not None:
            seat = 1 - seat
        return _words(self.name, game)[1].colours[seat]

    def seat_of_colour(self, game: str, word: str) -> Optional[int]:
        """The seat a colour word names (its full word or first letter, any
        case), None when it names neither."""
        word = word.strip().lower()
        for seat, colour in enumerate(_words(self.name, game)[1].colours):
            if word in (colour, colour[0]):
                return seat
        return None

    def boardsize(self, game: str, size: int) -> str:
        """The ``boardsize`` command for a board of ``size``."""
        descriptor, _ = _words(self.name, game)
        if self._boardsize_form == "two" and descriptor.rectangular:
            return f"boardsize {size} {size}"
        return f"boardsize {size}"

    def swap_word(self, game: str) -> Optional[str]:
        """The engine's word for the swap in ``game``, None when it has none."""
        return _words(self.name, game)[1].swap_word

    def swap_setup(self, swap: bool, game: str) -> List[str]:
        """Commands that turn the pie rule on or off at a new game."""
        setup = _words(self.name, game)[1].swap_setup
        return [setup.format(int(bool(swap)))] if setup else []

    def setup(self, game: str) -> List[str]:
        """Commands sent once after an engine starts, where it lists them."""
        return list(_words(self.name, game)[1].setup)

    def cell_name(self, game: str, size: int, move: Any, swapped: bool = False) -> str:
        """The engine's name of havhex's ``move`` (a cell or the swap);
        ``swapped`` once the game's swap is played."""
        descriptor, words = _words(self.name, game)
        if isinstance(move, str):
            if move != descriptor.swap_move or words.swap_word is None:
                raise ValueError(f"{self.name} has no word for {move!r}")
            return words.swap_word
        if self.swap_mirror is not None and swapped:
            move = self.swap_mirror(move)
        return words.cell_name(size, move)

    def parse_cell(self, game: str, size: int, text: str, swapped: bool = False) -> Any:
        """havhex's move for the engine's word ``text``: a cell, or the
        board's swap move; ValueError for anything else or off the board.
        ``swapped`` once the game's swap is played."""
        descriptor, words = _words(self.name, game)
        word = text.strip()
        if len(word) > _LONGEST_NAME:
            # Never parsed: a column of 400,000 letters costs seconds.
            raise ValueError(f"not a cell name: {len(word)} characters")
        if words.swap_word is not None and word.lower() == words.swap_word:
            return descriptor.swap_move
        cell = words.parse_cell(size, word)
        if self.swap_mirror is not None and swapped:
            cell = self.swap_mirror(cell)
        return cell

    def engine_board(self, game: str, size: int,
                     moves: Sequence[Any]) -> Optional[Dict[str, int]]:
        """What the engine's board holds after havhex's ``moves`` (by seats
        in turn): ``{cell name: colour}``, the colour 0 or 1 in the
        engine's words (its first or second colour word); None where
        havhex reads no board of this family (:meth:`read_board`)."""
        if self.name != "benzene":
            return None
        descriptor = games.get(game)
        stones: Dict[str, int] = {}
        swapped = False
        for ply, move in enumerate(moves):
            if move == descriptor.swap_move:
                # benzene's swap changes no stone.
                swapped = True
                continue
            colour = ply % 2 ^ self._after_swap(swapped)
            stones[self.cell_name(game, size, move, swapped)] = colour
        return stones

    def read_board(self, game: str, size: int, text: str) -> Optional[Dict[str, int]]:
        """The stones of an engine's ``showboard`` answer, ``{cell name:
        colour}`` as :meth:`engine_board` gives them; None where it is not
        in a layout havhex reads.  benzene's layout is its
        ``StoneBoard::Write``: a row a line, ``N\\`` then the cells (``B``
        black, ``W`` white, ``.`` empty; ``b``/``w`` a stone filled in, not
        played, and ``*`` a mark, counted as empty) then ``\\N``, on the
        games benzene plays (whose cells are rows and columns)."""
        if self.name != "benzene":
            return None
        words = _words(self.name, game)[1]
        stones: Dict[str, int] = {}
        rows = 0
        for line in text.splitlines():
            parts = line.strip().split("\\")
            if len(parts) != 3 or not parts[0].isdigit() or parts[0] != parts[2]:
                continue
            row = int(parts[0]) - 1
            marks = parts[1].split()
            if row != rows or len(marks) != size:
                return None
            for col, mark in enumerate(marks):
                if mark in ("B", "W"):
                    stones[words.cell_name(size, (row, col))] = "BW".index(mark)
                elif mark not in (".", "b", "w", "*"):
                    return None
            rows += 1
        return stones if rows == size else None


    def time_commands(self, game: str, clock: Any, commands: Iterable[str]) -> List[str]:
        """Commands that tell the engine the match's clock at a new game,
        only those among ``commands`` (the engine's ``list_commands``)."""
        if clock is None:
            return []
        if self.name in ("morat", "castro") and "time" in commands:
            if clock.per_move is not None:
                return [f"time -g 0 -m {_seconds(clock.per_move)} -f 0"]
            return [f"time -g {_seconds(clock.base or 0.0)} "
                    f"-m {_seconds(clock.increment)} -f 1"]
        found: List[str] = []
        if self.name == "benzene":
            if clock.per_move is not None and "param_mohex" in commands:
                return [f"param_mohex max_time {_seconds(clock.per_move)}"]
            if clock.per_move is None and "param_game" in commands:
                # benzene's game clock, taken before the game's first move.
                found.append(f"param_game game_time {_seconds(clock.base or 0.0)}")
        if "time_settings" in commands:
            if clock.per_move is not None:
                # Canadian byo-yomi of one stone: every move has per_move.
                found.append(f"time_settings 0 {_seconds(clock.per_move)} 1")
            else:
                found.append(f"time_settings {_seconds(clock.base or 0.0)} 0 0")
        return found

    def move_time_commands(self, game: str, seat: int, clock: Any, time_left: Optional[float],
                           commands: Iterable[str], swapped: bool = False) -> List[str]:
        """Commands sent before a ``genmove`` under a game clock: the
        time ``seat`` has left, where the engine takes it (the first of
        :meth:`time_left_forms`)."""
        if clock is None or clock.per_move is not None or time_left is None:
            return []
        if self.name in ("morat", "castro") and "time" in commands:
            # morat adds the increment to what it is told remains.
            return [f"time -r {_seconds(time_left - clock.increment)}"]
        if "time_left" in commands:
            return self.time_left_forms(game, seat, time_left, swapped)[:1]
        return []

    def time_left_forms(self, game: str, seat: int, time_left: float,
                        swapped: bool = False) -> List[str]:
        """The ``time_left`` commands that tell ``seat``'s time left, the
        family's form first, then the forms to try when an engine refuses
        it: GTP's three arguments (``STONES`` 0: no byo-yomi), benzene's
        two (seconds; whole seconds for a benzene that reads an integer)."""
        colour = self.colour(game, seat, swapped)
        seconds = _seconds(time_left)
        whole = str(int(max(0.0, time_left)))
        if self._time_left_form == "two":
            forms = [f"time_left {colour} {seconds}", f"time_left {colour} {whole}"]
        else:
            forms = [f"time_left {colour} {seconds} 0", f"time_left {colour} {seconds}"]
        return list(dict.fromkeys(forms))

    def genmove(self, game: str, seat: int, swapped: bool = False) -> str:
        return f"genmove {self.colour(game, seat, swapped)}"

    def play(self, game: str, size: int, seat: int, move: Any, swapped: bool = False) -> str:
        return (f"play {self.colour(game, seat, swapped)} "
                f"{self.cell_name(game, size, move, swapped)}")

    def parse_result(self, text: str, game: str, swapped: bool = False) -> Optional[int]:
        """The seat an engine's claim names as the winner: ``final_score``
        (``B+``, ``W+``, ``R+``, with points or not) or ``winner``
        (``white``, ``black``...); None for ``unknown``, ``draw``,
        ``cannot score`` or anything else.  ``swapped`` once the game's
        swap is played (a family that exchanges colours then names the
        other seat by each colour)."""
        word = text.strip().lower()
        if not word:
            return None
        seat: Optional[int] = None
        if "+" in word:
            seat = self.seat_of_colour(game, word.split("+", 1)[0])
        else:
            colours = _words(self.name, game)[1].colours
            if word in colours:
                seat = colours.index(word)
        if seat is None:
            return None
        return seat ^ self._after_swap(swapped)


def _mirrored(cell: Any) -> Any:
    """A Hex cell ``(row, col)`` mirrored in the long diagonal."""
    return (cell[1], cell[0])


DIALECTS: dict[str, Dialect] = {
    "havhex": Dialect("havhex", "one", "final_score"),
    "morat": Dialect("morat", "one", "winner"),
    # benzene plays Hex only (its descriptor's words): its frame after a
    # swap is havhex's mirrored, as havhex's swap-pieces mirrors the stone.
    "benzene": Dialect("benzene", "two", "final_score", swap_mirror=_mirrored,
                       time_left_form="two"),
    "castro": Dialect("castro", "one", "winner"),
}


def detect(name: Optional[str], commands: Iterable[str]) -> Dialect:
    """The dialect of an engine from its ``name`` answer and its
    ``list_commands``: morat and castro by name; benzene by name (MoHex,
    Wolve, benzene) or by its commands (``param_game``, ``param_mohex``);
    havhex by name; anything else speaks havhex's words when it lists
    ``swap-pieces`` or ``final_score``, else morat's when it lists
    ``winner``; havhex's by default."""
    lowered = (name or "").strip().lower()
    commands = set(commands)
    if lowered.startswith("morat"):
        return DIALECTS["morat"]
    if lowered.startswith("castro"):
        return DIALECTS["castro"]
    if any(word in lowered for word in ("mohex", "wolve", "benzene")):
        return DIALECTS["benzene"]
    if lowered.startswith("havhex"):
        return DIALECTS["havhex"]
    if {"param_game", "param_mohex", "param_wolve"} & commands:
        return DIALECTS["benzene"]
    if "hguicoords" in commands or "gridcoords" in commands:
        return DIALECTS["castro"]
    if "winner" in commands and "final_score" not in commands:
        return DIALECTS["morat"]
    return DIALECTS["havhex"]
