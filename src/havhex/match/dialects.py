"""The GTP dialects of the Hex and Havannah engine families: what each calls
the players, how it takes the board size, names cells, swaps, takes time
and says who won.

Inside havhex a player is a **seat** (0 moves first) and a move is what
the live boards take: Hex ``(row, col)`` 0-based or ``"swap-pieces"``,
Havannah ``(x, y)`` 1-based (docs/conventions.md) or ``"swap"``.  A
:class:`Dialect` turns these into an engine's words and back.

* ``havhex``: ``havhex gtp``; Hex ``red`` then ``blue``, Havannah ``white``
  then ``black``; Havannah cells in Little Golem's notation as the records
  write them (``A1`` is ``(1, 1)``).
* ``morat``: the first player is ``white`` in both games; ``boardsize N``;
  no swap; ``time -m/-g/-f/-r``; ``winner`` answers ``white``/``black``.
  Havannah cells are its array's column letter and row number: ``a1`` is
  ``(1, 1)``, the letter counts ``x - 1`` and the number is ``y`` (its
  neighbours ``(+-1, 0), (0, +-1), (1, 1), (-1, -1)`` and its cut corners
  ``|x - y| >= N`` are havhex's; tests/match/test_morat.py checks a fork, a
  bridge and a ring against the real program).
* ``benzene`` (MoHex, Wolve; HexGui's words): ``black`` moves first,
  ``boardsize N N``, ``param_game allow_swap 1`` and ``swap-pieces``,
  ``final_score`` answers ``B+``/``W+``.
* ``castro`` (Havannah): morat's predecessor, morat's cells (``gridcoords``,
  sent when it lists it) and colours, ``swap 0|1`` and the ``swap`` move.
  Written from castro's documented words; no castro binary was at hand.

Hex cells are ``a1`` (column letter, row number from 1, ``a1`` top left)
for every family, and every family's first player joins top and bottom.
"""
import re

__all__ = ["Dialect", "DIALECTS", "detect", "SWAP_MOVES"]

# The swap as the live boards take it, per game.
SWAP_MOVES = {"hex": "swap-pieces", "havannah": "swap"}
GAMES = ("hex", "havannah")

_CELL = re.compile(r"([a-zA-Z]+)([0-9]+)")


def _letters(index):
    """Column ``index`` (0-based) as letters: a..z, then aa, ab, ... (the
    spreadsheet count that havhex's Hex names use past z)."""
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("a") + rest) + text
    return text


def _index(letters):
    """The 0-based column of ``letters`` (case ignored)."""
    value = 0
    for char in letters.lower():
        value = value * 26 + (ord(char) - ord("a") + 1)
    return value - 1


def _split(text):
    """(column index, row number) of a name such as ``c12``; ValueError
    when it is not letters then digits."""
    match = _CELL.fullmatch(text.strip())
    if match is None or not match.group(1).isascii() or not match.group(2).isascii():
        raise ValueError(f"not a cell name: {text[:40]!r}")
    return _index(match.group(1)), int(match.group(2))


def _check_game(game):
    if game not in GAMES:
        raise ValueError(f"game is 'hex' or 'havannah', not {game!r}")


def _on_havannah(size, x, y):
    return 1 <= x <= 2 * size - 1 and 1 <= y <= 2 * size - 1 and abs(x - y) <= size - 1


def hex_cell_name(move):
    row, col = move
    return f"{_letters(col)}{row + 1}"


def hex_parse_cell(size, text):
    col, number = _split(text)
    row = number - 1
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"{text!r} is off the {size}x{size} board")
    return (row, col)


def grid_cell_name(move):
    """morat's Havannah name of havhex's ``(x, y)``: column letter x - 1,
    row number y."""
    x, y = move
    return f"{_letters(x - 1)}{y}"


def grid_parse_cell(size, text):
    col, y = _split(text)
    x = col + 1
    if not _on_havannah(size, x, y):
        raise ValueError(f"{text!r} is off the Havannah board of base {size}")
    return (x, y)


def golem_cell_name(size, move):
    """Little Golem's name of ``(x, y)`` as havhex's records write it: the
    row letter of y, then the place along the row from its start."""
    x, y = move
    return f"{_letters(y - 1).upper()}{x - max(0, y - size)}"


def golem_parse_cell(size, text):
    row, number = _split(text)
    y = row + 1
    x = number + max(0, y - size)
    if not _on_havannah(size, x, y):
        raise ValueError(f"{text!r} is off the Havannah board of base {size}")
    return (x, y)


def _seconds(value):
    """A number of seconds as a GTP argument: no exponent, no needless
    zeros."""
    return f"{max(0.0, value):.3f}".rstrip("0").rstrip(".") or "0"


class Dialect:
    """One engine family's words.  ``colours[game]`` is the pair (first
    player's, second player's) colour word; ``first_colour`` and
    ``second_colour`` are Hex's, where the families differ."""

    def __init__(self, name, hex_colours, havannah_colours, boardsize_form, havannah_cells,
                 swap_words, swap_setup, result_command, games=GAMES):
        self.name = name
        self.colours = {"hex": hex_colours, "havannah": havannah_colours}
        self.first_colour, self.second_colour = hex_colours
        self._boardsize_form = boardsize_form
        self._havannah_cells = havannah_cells
        self._swap_words = swap_words
        self._swap_setup = swap_setup
        self.result_command = result_command
        self.games = games

    def __repr__(self):
        return f"<Dialect {self.name}>"

    def colour(self, game, seat):
        """The colour word of ``seat`` (0 moves first) in ``game``."""
        _check_game(game)
        return self.colours[game][seat]

    def seat_of_colour(self, game, word):
        """The seat a colour word names (its full word or first letter, any
        case), None when it names neither."""
        word = word.strip().lower()
        for seat, colour in enumerate(self.colours[game]):
            if word in (colour, colour[0]):
                return seat
        return None

    def boardsize(self, game, size):
        """The ``boardsize`` command for a board of ``size`` (Hex N x N,
        Havannah base N)."""
        _check_game(game)
        if self._boardsize_form == "two" and game == "hex":
            return f"boardsize {size} {size}"
        return f"boardsize {size}"

    def swap_word(self, game):
        """The engine's word for the swap in ``game``, None when it has none."""
        return self._swap_words.get(game)

    def swap_setup(self, swap, game="hex"):
        """Commands that turn the pie rule on or off at a new game."""
        setup = self._swap_setup.get(game)
        return [setup.format(int(bool(swap)))] if setup else []

    def setup(self, game):
        """Commands sent once after an engine starts, where it lists them:
        castro is put in its grid coordinates (morat's), whichever of its
        two systems it starts in."""
        return ["gridcoords"] if self.name == "castro" and game == "havannah" else []

    def cell_name(self, game, size, move):
        """The engine's name of havhex's ``move`` (a cell or the swap)."""
        _check_game(game)
        if isinstance(move, str):
            word = self.swap_word(game)
            if move != SWAP_MOVES[game] or word is None:
                raise ValueError(f"{self.name} has no word for {move!r}")
            return word
        if game == "hex":
            return hex_cell_name(move)
        if self._havannah_cells == "golem":
            return golem_cell_name(size, move)
        return grid_cell_name(move)

    def parse_cell(self, game, size, text):
        """havhex's move for the engine's word ``text``: a cell, or the
        board's swap move; ValueError for anything else or off the board."""
        _check_game(game)
        word = text.strip()
        swap = self.swap_word(game)
        if swap is not None and word.lower() == swap:
            return SWAP_MOVES[game]
        if game == "hex":
            return hex_parse_cell(size, word)
        if self._havannah_cells == "golem":
            return golem_parse_cell(size, word)
        return grid_parse_cell(size, word)

    def time_commands(self, game, clock, commands):
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

    def move_time_commands(self, game, seat, clock, time_left, commands):
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

    def genmove(self, game, seat):
        return f"genmove {self.colour(game, seat)}"

    def play(self, game, size, seat, move):
        return f"play {self.colour(game, seat)} {self.cell_name(game, size, move)}"

    def parse_result(self, text, game="hex"):
        """The seat an engine's claim names as the winner: ``final_score``
        (``B+``, ``W+``, ``R+``, with points or not) or ``winner``
        (``white``, ``black``...); None for ``unknown``, ``draw``,
        ``cannot score`` or anything else."""
        word = text.strip().lower()
        if not word:
            return None
        if "+" in word:
            return self.seat_of_colour(game, word.split("+", 1)[0])
        if word in self.colours[game]:
            return self.colours[game].index(word)
        return None


DIALECTS = {
    "havhex": Dialect("havhex", ("red", "blue"), ("white", "black"), "one", "golem",
                      {"hex": "swap-pieces", "havannah": "swap"},
                      {"hex": "swap {}", "havannah": "swap {}"}, "final_score"),
    "morat": Dialect("morat", ("white", "black"), ("white", "black"), "one", "grid",
                     {}, {}, "winner"),
    "benzene": Dialect("benzene", ("black", "white"), ("black", "white"), "two", "grid",
                       {"hex": "swap-pieces"}, {"hex": "param_game allow_swap {}"},
                       "final_score", games=("hex",)),
    "castro": Dialect("castro", ("white", "black"), ("white", "black"), "one", "grid",
                      {"havannah": "swap"}, {"havannah": "swap {}"}, "winner",
                      games=("havannah",)),
}


def detect(name, commands):
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
