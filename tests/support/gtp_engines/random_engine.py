"""A third-party engine stand-in for the match tests: it plays uniformly
random empty cells over GTP, in one of three dialects, and misbehaves on
request.  It does not import havhex (it stands for a program no one here
wrote): it only tracks which cells are taken and whose turn it is.

    python random_engine.py [--game hex|havannah] [--dialect havhex|morat|benzene|castro]
                            [--seed N] [--name NAME] [one misbehaviour]

Misbehaviours (on its own genmove answers unless said otherwise):
  --illegal        an off-board cell
  --occupied       a cell already taken (once there is one)
  --swap-at K      the swap word as the K-th move of the game (1-based)
  --wrong-colour   plays its move for the other side, so that the
                   arbiter's next ``play`` is refused as out of turn
  --nonsense       a GTP answer that names no move (``banana``)
  --garbled        an answer that is not GTP at all
  --hang-after N   answers N genmoves, then never answers
  --crash-after N  answers N genmoves, then exits mid-command
  --false-claim    final_score / winner names the loser (the last mover
                   is the winner, since the arbiter stops at the winning move)
  --slow S         sleeps S seconds before each genmove answer
  --crlf           ends its lines with CR LF (still GTP: CR is dropped)
  --no-ids         answers without the commands' ids (GTP allows it)
  --double-answer  answers its second genmove twice
  --blank-lines    writes empty lines before each answer
  --pid-file FILE  writes its process id to FILE at start
  --chatty         writes a diagnostic line to stderr before each answer
  --raw NAME=FILE  answers the command NAME with the bytes of FILE as they
                   are (``{id}`` in them stands for the command's id)
  --flood N        answers genmove with N bytes, each --flood-byte B
                   (default 97, ``a``), and no line end, then waits
  --orphan-after N answers N genmoves, then starts a process that keeps its
                   standard output open and exits
  --mirror-swap    (benzene) swaps as havhex does, the stone mirrored and
                   recoloured, and takes a move of any colour as MoHex's
                   ``play`` does: its board then differs from benzene's
  --refuse NAME    answers ``?`` to the command NAME
  --log FILE       appends each command it reads to FILE, a line each

Swaps: in havhex's and castro's words a swap gives the stone to the
swapper (each colour keeps its player); in benzene's words the stone keeps
its colour and the players exchange colours, as benzene does (its board is
unchanged by ``swap-pieces``; the player to move is the colour with fewer
stones, black on a tie, as benzene's ``StoneBoard::WhoseTurn``), and
``showboard`` draws the board as benzene's ``StoneBoard::Write`` does.
"""
import argparse
import os
import random
import subprocess
import sys
import time

COLOURS = {
    # dialect: {game: (first, second)}
    "havhex": {"hex": ("red", "blue"), "havannah": ("white", "black")},
    "morat": {"hex": ("white", "black"), "havannah": ("white", "black")},
    "benzene": {"hex": ("black", "white"), "havannah": ("black", "white")},
    # castro (Havannah): starts in another coordinate system (Little
    # Golem's names stand for it here) until told ``gridcoords``.
    "castro": {"hex": ("white", "black"), "havannah": ("white", "black")},
}


def letters(index):
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("a") + rest) + text
    return text


def cells(game, dialect, size):
    """Every cell's name on the board, lower case."""
    if game == "hex":
        return [f"{letters(col)}{row + 1}" for row in range(size) for col in range(size)]
    names = []
    for y in range(1, 2 * size):
        for x in range(1, 2 * size):
            if abs(x - y) > size - 1:
                continue
            if dialect in ("havhex", "castro-hgui"):
                # Little Golem's: row letter of y, place along the row.
                names.append(f"{letters(y - 1)}{x - max(0, y - size)}")
            else:
                names.append(f"{letters(x - 1)}{y}")
    return names


def mirrored(name):
    """A Hex cell's name mirrored in the long diagonal: column and row
    exchanged (``c4`` is ``d3``)."""
    cut = next(index for index, char in enumerate(name) if char.isdigit())
    column = 0
    for char in name[:cut]:
        column = column * 26 + ord(char) - ord("a") + 1
    return f"{letters(int(name[cut:]) - 1)}{column}"


class Engine:
    def __init__(self, options):
        self.options = options
        self.game = options.game
        self.dialect = options.dialect
        self.colours = COLOURS[self.dialect][self.game]
        self.random = random.Random(options.seed)
        self.size = 5 if self.game == "hex" else 4
        self.swap_word = {"havhex": "swap-pieces" if self.game == "hex" else "swap",
                          "benzene": "swap-pieces", "castro": "swap"}.get(self.dialect)
        # benzene's swap leaves the board as it is; the others' give the
        # stone to the swapper.
        self.keeps_stone = self.dialect == "benzene" and not options.mirror_swap
        self.grid = self.dialect != "castro"
        self.genmoves = 0
        self.clear()

    def clear(self):
        self.all = cells(self.game, self.dialect if self.grid else "castro-hgui", self.size)
        self.taken = []         # the moves' names in order, the swap word too
        self.stones = {}        # cell name -> colour (0 the first's, 1 the second's)
        self.last = None        # the colour of the last move
        self.turn = 0
        self.history = []       # (colour, name) of each move

    def seat(self, word):
        word = word.lower()
        for seat, colour in enumerate(self.colours):
            if word in (colour, colour[0]):
                return seat
        raise ValueError(f"unknown colour {word}")

    def to_move(self):
        """The colour to move: benzene's by the stones' counts, the
        others' by turns."""
        if self.dialect == "benzene":
            counts = [list(self.stones.values()).count(colour) for colour in (0, 1)]
            return 1 if counts[0] > counts[1] else 0
        return self.turn

    def swap_allowed(self):
        return len(self.taken) == 1 and self.taken[0] != self.swap_word

    def move(self, colour, name):
        """Play ``name`` (a cell or the swap word) for ``colour``."""
        if name == self.swap_word:
            if not self.keeps_stone:
                ((cell, _),) = self.stones.items()
                self.stones = {mirrored(cell) if self.game == "hex" else cell: colour}
        else:
            self.stones[name] = colour
        self.taken.append(name)
        self.history.append((colour, name))
        self.last = colour
        self.turn = 1 - self.turn

    def commands(self):
        names = ["protocol_version", "name", "version", "known_command", "list_commands",
                 "boardsize", "clear_board", "play", "genmove", "undo", "quit", "showboard"]
        if self.dialect == "morat":
            names += ["winner", "time"]
        else:
            names += ["final_score", "time_settings", "time_left"]
        if self.dialect == "benzene":
            names += ["param_game"]
        if self.dialect == "castro":
            names += ["gridcoords", "hguicoords", "swap"]
        return names

    def handle(self, name, args):
        """(ok, text) for one command."""
        if name in self.options.refuse:
            return False, f"{name} refused"
        if name == "protocol_version":
            return True, "2"
        if name == "name":
            return True, self.options.name
        if name == "version":
            return True, "1.0"
        if name == "list_commands":
            return True, "\n".join(self.commands())
        if name == "known_command":
            return True, "true" if args and args[0] in self.commands() else "false"
        if name == "boardsize":
            if not args or not args[0].isdigit():
                return False, "syntax error"
            if self.dialect == "benzene" and (len(args) != 2 or args[0] != args[1]):
                return False, "boardsize takes W H"
            self.size = int(args[0])
            self.clear()
            return True, ""
        if name == "clear_board":
            self.clear()
            return True, ""
        if name == "time_left" and self.dialect == "benzene" and len(args) > 2:
            # benzene's time_left takes a colour and seconds, no more.
            return False, "expected at most 2 arguments"
        if name in ("time", "time_settings", "time_left", "param_game", "swap"):
            return True, ""
        if name in ("gridcoords", "hguicoords"):
            if self.taken:
                return False, "not in the middle of a game"
            self.grid = name == "gridcoords"
            self.clear()
            return True, ""
        if name == "play":
            if len(args) != 2:
                return False, "syntax error"
            try:
                colour = self.seat(args[0])
            except ValueError as error:
                return False, str(error)
            if colour != self.to_move() and not self.options.mirror_swap:
                return False, "it is the other player's turn"
            move = args[1].lower()
            if move == self.swap_word and self.swap_allowed():
                self.move(colour, move)
                return True, ""
            if move not in self.all or move in self.stones:
                return False, "illegal move"
            self.move(colour, move)
            return True, ""
        if name == "undo":
            if not self.taken:
                return False, "cannot undo"
            history = self.history[:-1]
            self.clear()
            for colour, move in history:
                self.move(colour, move)
            return True, ""
        if name == "genmove":
            return self.genmove(args)
        if name in ("final_score", "winner"):
            if self.last is None:
                return True, "unknown" if name == "winner" else "cannot score"
            # The last mover is the winner: the arbiter stops at the winning move.
            winner = self.last
            if self.options.false_claim:
                winner = 1 - winner
            colour = self.colours[winner]
            return True, colour if name == "winner" else f"{colour[0].upper()}+"
        if name == "showboard":
            if self.dialect == "benzene" and self.game == "hex":
                return True, self.benzene_board()
            return True, "\n" + " ".join(self.taken)
        return False, "unknown command"

    def benzene_board(self):
        """The board as benzene's StoneBoard::Write draws it: a hash line,
        the columns' letters, each row shifted by its number between
        backslashes (B black, W white, . empty), the letters again."""
        width = self.size
        heads = "".join(f"{letters(col)}  " for col in range(width))
        lines = ["", "  0", "  " + heads]
        for row in range(width):
            marks = []
            for col in range(width):
                colour = self.stones.get(f"{letters(col)}{row + 1}")
                marks.append("." if colour is None else "BW"[colour])
            pad = " " if row + 1 < 10 else ""
            lines.append(" " * row + pad + f"{row + 1}\\" + "  ".join(marks) + f"\\{row + 1}")
        lines.append(" " * width + "   " + heads)
        return "\n".join(lines)

    def genmove(self, args):
        options = self.options
        if options.hang_after is not None and self.genmoves >= options.hang_after:
            while True:
                time.sleep(3600)
        if options.crash_after is not None and self.genmoves >= options.crash_after:
            sys.stdout.flush()
            sys.exit(3)
        if options.orphan_after is not None and self.genmoves >= options.orphan_after:
            # A child that holds the pipe open and outlives its parent.
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                             stdout=sys.stdout, stdin=subprocess.DEVNULL)
            sys.stdout.flush()
            os._exit(3)
        self.genmoves += 1
        if options.slow:
            time.sleep(options.slow)
        if options.garbled:
            return None, "I think the best move is somewhere in the middle"
        if options.nonsense:
            return True, "banana"
        if options.illegal:
            return True, f"{letters(self.size + 3)}{3 * self.size}"
        if options.occupied and self.stones:
            return True, next(iter(self.stones))
        # benzene plays the colour it is asked for; the others their turn.
        colour = self.turn
        if self.dialect == "benzene" and args:
            colour = self.seat(args[0])
        number = len(self.taken) + 1
        if options.swap_at is not None and number == options.swap_at:
            word = self.swap_word or "swap"
            if self.swap_word is not None and self.swap_allowed():
                self.move(colour, word)
            else:
                self.taken.append(word)
            return True, word
        free = [cell for cell in self.all if cell not in self.stones]
        if not free:
            return True, "resign"
        move = self.random.choice(free)
        if options.wrong_colour:
            # Its own board has the move for the other side: the next
            # play the arbiter sends is then out of turn.
            self.move(1 - colour, move)
            if self.dialect != "benzene":
                self.turn = colour
        else:
            self.move(colour, move)
        return True, move


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=("hex", "havannah"), default="hex")
    parser.add_argument("--dialect", choices=tuple(COLOURS), default="havhex")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--name", default="fixture-random")
    parser.add_argument("--illegal", action="store_true")
    parser.add_argument("--occupied", action="store_true")
    parser.add_argument("--swap-at", type=int, default=None)
    parser.add_argument("--wrong-colour", action="store_true")
    parser.add_argument("--nonsense", action="store_true")
    parser.add_argument("--garbled", action="store_true")
    parser.add_argument("--hang-after", type=int, default=None)
    parser.add_argument("--crash-after", type=int, default=None)
    parser.add_argument("--false-claim", action="store_true")
    parser.add_argument("--slow", type=float, default=0.0)
    parser.add_argument("--crlf", action="store_true")
    parser.add_argument("--no-ids", action="store_true")
    parser.add_argument("--double-answer", action="store_true")
    parser.add_argument("--blank-lines", action="store_true")
    parser.add_argument("--pid-file", default=None)
    parser.add_argument("--chatty", action="store_true")
    parser.add_argument("--raw", action="append", default=[])
    parser.add_argument("--flood", type=int, default=None)
    parser.add_argument("--flood-byte", type=int, default=ord("a"))
    parser.add_argument("--orphan-after", type=int, default=None)
    parser.add_argument("--mirror-swap", action="store_true")
    parser.add_argument("--refuse", action="append", default=[])
    parser.add_argument("--log", default=None)
    options = parser.parse_args()
    raw = {}
    for word in options.raw:
        command, _, path = word.partition("=")
        with open(path, "rb") as stream:
            raw[command] = stream.read()
    engine = Engine(options)
    if options.pid_file:
        with open(options.pid_file, "w") as pid_file:
            pid_file.write(str(os.getpid()))
    out = sys.stdout
    log = open(options.log, "a") if options.log else None
    for line in sys.stdin:
        if log is not None:
            log.write(line.rstrip("\n") + "\n")
            log.flush()
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        ident = ""
        if words[0].isdigit():
            ident, words = ("" if options.no_ids else words[0]), words[1:]
            if not words:
                continue
        name, args = words[0], words[1:]
        if name in raw:
            sys.stdout.buffer.write(raw[name].replace(b"{id}", ident.encode()))
            sys.stdout.buffer.flush()
            continue
        if name == "genmove" and options.flood is not None:
            block = bytes([options.flood_byte]) * 65536
            left = options.flood
            try:
                while left > 0:
                    sys.stdout.buffer.write(block[:left])
                    left -= len(block)
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                return 0
            time.sleep(120)
            return 0
        if name == "quit":
            out.write(f"={ident}\n\n")
            out.flush()
            return 0
        ok, text = engine.handle(name, args)
        if options.chatty:
            # Enough to fill a pipe that nobody reads within a game.
            sys.stderr.write(f"thinking about {name}: " + "x" * 2000 + "\n")
            sys.stderr.flush()
        if ok is None:
            reply = text + "\n\n"
        else:
            sign = "=" if ok else "?"
            reply = f"{sign}{ident} {text}\n\n" if text else f"{sign}{ident}\n\n"
        if options.double_answer and name == "genmove" and engine.genmoves == 2:
            reply += reply
        if options.blank_lines:
            reply = "\n\n\n" + reply
        if options.crlf:
            reply = reply.replace("\n", "\r\n")
        out.write(reply)
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
