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
  ``param_mohex max_time``.
* ``castro`` (Havannah): morat's predecessor, morat's clock and result.
  Written from castro's documented words; no castro binary was at hand.
"""
from __future__ import annotations

from .. import games

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterable, List, Optional, Tuple

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
    ``result_command`` the command that asks an engine who won."""

    def __init__(self, name: str, boardsize_form: str, result_command: Optional[str]) -> None:
        self.name = name
        self._boardsize_form = boardsize_form
        self.result_command = result_command

    def __repr__(self) -> str:
        return f"<Dialect {self.name}>"

    @property
    def games(self) -> Tuple[str, ...]:
        """The names of the games this family plays."""
        return tuple(name for name in games.names()
                     if self.name in games.get(name).engines)

    def colour(self, game: str, seat: int) -> str:
        """The colour word of ``seat`` (0 moves first) in ``game``."""
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

    def cell_name(self, game: str, size: int, move: Any) -> str:
        """The engine's name of havhex's ``move`` (a cell or the swap)."""
        descriptor, words = _words(self.name, game)
        if isinstance(move, str):
            if move != descriptor.swap_move or words.swap_word is None:
                raise ValueError(f"{self.name} has no word for {move!r}")
            return words.swap_word
        return words.cell_name(size, move)

    def parse_cell(self, game: str, size: int, text: str) -> Any:
        """havhex's move for the engine's word ``text``: a cell, or the
        board's swap move; ValueError for anything else or off the board."""
        descriptor, words = _words(self.name, game)
        word = text.strip()
        if len(word) > _LONGEST_NAME:
            # Never parsed: a column of 400,000 letters costs seconds.
            raise ValueError(f"not a cell name: {len(word)} characters")
        if words.swap_word is not None and word.lower() == words.swap_word:
            return descriptor.swap_move
        return words.parse_cell(size, word)

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
        if self.name == "benzene" and clock.per_move is not None and "param_mohex" in commands:
            return [f"param_mohex max_time {_seconds(clock.per_move)}"]
        if "time_settings" in commands:
            if clock.per_move is not None:
                # Canadian byo-yomi of one stone: every move has per_move.
                return [f"time_settings 0 {_seconds(clock.per_move)} 1"]
            return [f"time_settings {_seconds(clock.base or 0.0)} 0 0"]
        return []

    def move_time_commands(self, game: str, seat: int, clock: Any, time_left: Optional[float],
                           commands: Iterable[str]) -> List[str]:
        """Commands sent before a ``genmove`` under a game clock: the
        time ``seat`` has left, where the engine takes it."""
        if clock is None or clock.per_move is not None or time_left is None:
            return []
        if self.name in ("morat", "castro") and "time" in commands:
            # morat adds the increment to what it is told remains.
            return [f"time -r {_seconds(time_left - clock.increment)}"]
        if "time_left" in commands:
            return [f"time_left {self.colour(game, seat)} {_seconds(time_left)} 0"]
        return []

    def genmove(self, game: str, seat: int) -> str:
        return f"genmove {self.colour(game, seat)}"

    def play(self, game: str, size: int, seat: int, move: Any) -> str:
        return f"play {self.colour(game, seat)} {self.cell_name(game, size, move)}"

    def parse_result(self, text: str, game: str) -> Optional[int]:
        """The seat an engine's claim names as the winner: ``final_score``
        (``B+``, ``W+``, ``R+``, with points or not) or ``winner``
        (``white``, ``black``...); None for ``unknown``, ``draw``,
        ``cannot score`` or anything else."""
        word = text.strip().lower()
        if not word:
            return None
        if "+" in word:
            return self.seat_of_colour(game, word.split("+", 1)[0])
        colours = _words(self.name, game)[1].colours
        if word in colours:
            return colours.index(word)
        return None


DIALECTS: dict[str, Dialect] = {
    "havhex": Dialect("havhex", "one", "final_score"),
    "morat": Dialect("morat", "one", "winner"),
    "benzene": Dialect("benzene", "two", "final_score"),
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
