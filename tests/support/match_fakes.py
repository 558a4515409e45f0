"""In-process players with the arbiter's player interface, for tests of
havhex.match that need no engine process: each answers genmove by a
function of the position, and can misbehave on cue."""
import random
import time


class EngineFailure(Exception):
    """Stands for havhex.match.engines.EngineFailure (the arbiter reads its
    ``kind``)."""

    def __init__(self, kind, message=""):
        super().__init__(message or kind)
        self.kind = kind


class CommandRefused(Exception):
    def __init__(self, text):
        super().__init__(text)
        self.text = text


class FakePlayer:
    """``choose(board, seat)`` returns the text of a move (a cell name as
    the board names it, ``swap-pieces``/``swap``, ``resign``, anything)."""

    def __init__(self, choose, name="fake", version="1", claim=None, fail_on_play=None):
        self.choose = choose
        self.name, self.version = name, version
        self.alive = True
        self.claim = claim          # a function of the board -> seat or None
        self.fail_on_play = fail_on_play
        self.board = None
        self.games = self.restarts = self.closed = 0
        self.seen = []

    def start(self, timeout=30.0):
        pass

    def new_game(self, size, swap, rule, clock):
        from havhex.match.arbiter import new_board

        self.board = new_board(self.kind, size, rule, swap)
        self.games += 1
        self.seen = []

    def play(self, seat, move, timeout):
        if self.fail_on_play is not None:
            raise self.fail_on_play
        self.board.play(move)
        self.seen.append(move)

    def genmove(self, seat, timeout, time_left=None):
        text = self.choose(self.board, seat)
        if isinstance(text, BaseException):
            if isinstance(text, EngineFailure) and text.kind == "disconnects":
                self.alive = False
            raise text
        if isinstance(text, float):   # sleep that long, then play randomly
            time.sleep(text)
            text = random_move(self.board, seat)
        if text not in ("resign", "pass"):
            try:
                self.board.play(text)
            except ValueError:
                pass
        return text

    def parse_move(self, text, board):
        if text in ("resign", "pass"):
            return text
        copy = board.copy()
        copy.play(text)           # ValueError for what the board does not take
        return copy.moves[-1]

    def claimed_winner(self, timeout):
        return None if self.claim is None else self.claim(self.board)

    def restart(self):
        self.alive = True
        self.restarts += 1

    def close(self):
        self.closed += 1


def hex_player(choose, **options):
    player = FakePlayer(choose, **options)
    player.kind = "hex"
    return player


def havannah_player(choose, **options):
    player = FakePlayer(choose, **options)
    player.kind = "havannah"
    return player


def random_move(board, seat, rng=random):
    cells = [move for move in board.legal_moves() if not isinstance(move, str)]
    return board.cell_name(rng.choice(cells))


def seeded_random(seed):
    rng = random.Random(seed)
    return lambda board, seat: random_move(board, seat, rng)


def first_free(board, seat):
    cells = [move for move in board.legal_moves() if not isinstance(move, str)]
    return board.cell_name(cells[0])


def board_winner(board):
    """A truthful claim: the seat havhex's board says won."""
    if board.winner is None:
        return None
    return 0 if board.winner in ("red", "white") else 1
