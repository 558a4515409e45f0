"""A GTP engine that answers as fast as a Python loop can: random legal
cells from a shuffled list, for measuring the arbiter's own cost per move
(the engines' time is then a few microseconds).  No havhex import.

    python instant_engine.py [--game hex|havannah] [--dialect havhex|morat] [--seed N]

It knows the commands a match sends (name, version, list_commands,
boardsize, clear_board, play, genmove, time commands, final_score/winner
answered ``unknown``, quit) and answers ``=`` to anything else.
"""
import random
import sys


def letters(index):
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("a") + rest) + text
    return text


def cells(game, dialect, size):
    if game == "hex":
        return [f"{letters(col)}{row + 1}" for row in range(size) for col in range(size)]
    names = []
    for y in range(1, 2 * size):
        for x in range(1, 2 * size):
            if abs(x - y) <= size - 1:
                names.append(f"{letters(y - 1)}{x - max(0, y - size)}" if dialect == "havhex"
                             else f"{letters(x - 1)}{y}")
    return names


def main(argv):
    game, dialect, seed = "hex", "havhex", 1
    words = list(argv)
    while words:
        flag = words.pop(0)
        if flag == "--game":
            game = words.pop(0)
        elif flag == "--dialect":
            dialect = words.pop(0)
        elif flag == "--seed":
            seed = int(words.pop(0))
        else:
            sys.stderr.write(f"unknown flag {flag}\n")
            return 2
    rng = random.Random(seed)
    size = 11 if game == "hex" else 8
    free, taken = [], set()

    def clear():
        free[:] = cells(game, dialect, size)
        rng.shuffle(free)
        taken.clear()

    clear()
    commands = ("protocol_version name version list_commands boardsize clear_board play "
                "genmove quit time_settings time_left " +
                ("winner time" if dialect == "morat" else "final_score")).split()
    read, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
    while True:
        line = read()
        if not line:
            return 0
        parts = line.split()
        ident = ""
        if parts and parts[0].isdigit():
            ident = parts.pop(0)
        if not parts:
            continue
        name = parts[0]
        if name == "genmove":
            while free and free[-1] in taken:
                free.pop()
            if free:
                move = free.pop()
                taken.add(move)
            else:
                move = "resign"
            write(f"={ident} {move}\n\n")
        elif name == "play":
            taken.add(parts[2].lower())
            write(f"={ident}\n\n")
        elif name == "boardsize":
            size = int(parts[1])
            clear()
            write(f"={ident}\n\n")
        elif name == "clear_board":
            clear()
            write(f"={ident}\n\n")
        elif name == "name":
            write(f"={ident} instant\n\n")
        elif name == "version":
            write(f"={ident} 1\n\n")
        elif name == "list_commands":
            write(f"={ident} " + "\n".join(commands) + "\n\n")
        elif name in ("final_score", "winner"):
            write(f"={ident} unknown\n\n")
        elif name == "quit":
            write(f"={ident}\n\n")
            flush()
            return 0
        else:
            write(f"={ident}\n\n")
        flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
