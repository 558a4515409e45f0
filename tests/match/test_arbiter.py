"""One game adjudicated on havhex's board: its end by the judge, and every
misbehaviour of an engine scored as a loss (none as an "error")."""
import time

import pytest

from havhex.hex.board import Board as HexBoard
from havhex.havannah.board import Board as HavannahBoard
from havhex.match.arbiter import REASONS, Clock, GameResult, play_game
from havhex.match.engines import EngineSpec, make_player
from match_fakes import (EngineFailure, board_winner, first_free, havannah_player, hex_player,
                         seeded_random)

pytestmark = pytest.mark.not_under_sanitizers("engine processes and timing")


def _replayed(game, size, moves, rule="official", swap=False):
    board = HexBoard(size, size, swap) if game == "hex" else HavannahBoard(size, rule, swap)
    kinds = ()
    for move in moves:
        assert not board.is_over, "the game went on after its end"
        kinds = board.play(move)
    return board, kinds


@pytest.mark.parametrize("seed", range(5))
def test_hex_game_ends_at_the_connection(seed):
    players = (hex_player(seeded_random(seed), claim=board_winner),
               hex_player(seeded_random(seed + 100), claim=board_winner))
    result = play_game("hex", 7, players)
    board, kinds = _replayed("hex", 7, result.moves)
    assert board.is_over and kinds == ("chain",)
    assert result.reason == "connection"
    assert result.winner == (0 if board.winner == "red" else 1)
    assert result.winner == (len(result.moves) - 1) % 2
    assert result.claims == {0: result.winner, 1: result.winner}
    assert not result.claim_disagrees
    assert len(result.times) == len(result.moves)
    # Every move was forwarded to the other player: both saw the whole game.
    assert players[0].seen + players[1].seen == [] or \
        sorted(map(str, players[0].seen + players[1].seen)) == sorted(map(str, result.moves))


@pytest.mark.parametrize("rule", ["official", "contest"])
@pytest.mark.parametrize("seed", range(4))
def test_havannah_game_ends_at_the_structure(rule, seed):
    players = (havannah_player(seeded_random(seed)), havannah_player(seeded_random(seed + 7)))
    result = play_game("havannah", 4, players, rule=rule)
    board, kinds = _replayed("havannah", 4, result.moves, rule)
    assert board.is_over
    if board.winner is None:
        assert result.reason == "board full" and result.winner is None
    else:
        assert result.reason in kinds
        assert result.winner == (0 if board.winner == "white" else 1)


def test_resignation_loses():
    result = play_game("hex", 5, (hex_player(first_free), hex_player(lambda board, seat: "resign")))
    assert (result.winner, result.reason, len(result.moves)) == (0, "resign", 1)


@pytest.mark.parametrize("answer, why", [("z99", "off"), ("a1", "taken"), ("pass", "pass"),
                                         ("swap-pieces", "swap"), ("hello world", "name")])
def test_a_bad_move_of_the_second_player_loses(answer, why):
    # Seat 0 opens a1; seat 1 answers ``answer``, never a legal move here.
    result = play_game("hex", 5, (hex_player(first_free), hex_player(lambda b, s: answer)))
    assert (result.winner, result.reason) == (0, "illegal move"), result.detail
    assert result.moves == [(0, 0)]


def test_swap_is_legal_only_as_the_second_move():
    players = (hex_player(first_free),
               hex_player(lambda board, seat: "swap-pieces" if len(board) == 1 else
                          first_free(board, seat)))
    result = play_game("hex", 5, players, swap=True)
    assert result.moves[1] == "swap-pieces"
    assert result.reason == "connection"


def test_a_raising_callable_disconnects_and_an_engine_failure_keeps_its_kind():
    def crash(board, seat):
        raise RuntimeError("segfault")

    result = play_game("hex", 5, (hex_player(crash), hex_player(first_free)))
    assert (result.winner, result.reason) == (1, "disconnects")
    for kind, reason in [("on time", "on time"), ("disconnects", "disconnects"),
                         ("protocol", "illegal move")]:
        player = hex_player(lambda board, seat, kind=kind: EngineFailure(kind))
        result = play_game("hex", 5, (hex_player(first_free), player))
        assert (result.winner, result.reason) == (0, reason)


def test_per_move_clock_loses_on_time():
    slow = hex_player(lambda board, seat: 0.3)       # sleeps 0.3 s, then moves
    result = play_game("hex", 5, (hex_player(first_free), slow),
                       clock=Clock(per_move=0.05, margin=0.05))
    assert (result.winner, result.reason) == (0, "on time")
    assert len(result.moves) == 1


def test_game_clock_runs_out_over_several_moves():
    # 0.12 s a move against 0.5 s a game (no increment): the fifth move is late.
    slow = hex_player(lambda board, seat: 0.12)
    result = play_game("hex", 7, (slow, hex_player(first_free)),
                       clock=Clock(base=0.5, increment=0.0, margin=0.05))
    assert (result.winner, result.reason) == (1, "on time")
    assert 3 <= len(result.moves) // 2 + 1 <= 6
    # With an increment as large as a move the same player never runs out.
    slow = hex_player(lambda board, seat: 0.02)
    result = play_game("hex", 3, (slow, hex_player(first_free)),
                       clock=Clock(base=0.1, increment=0.05, margin=0.05))
    assert result.reason == "connection"


def test_opening_plies_are_played_and_forwarded():
    players = (hex_player(first_free), hex_player(first_free))
    result = play_game("hex", 5, players, opening=((2, 2), (0, 4)))
    assert result.opening == 2 and result.moves[:2] == [(2, 2), (0, 4)]
    assert result.times[:2] == [0.0, 0.0]
    assert players[0].seen[:2] == [(2, 2), (0, 4)] and players[1].seen[:2] == [(2, 2), (0, 4)]


def test_false_claim_is_flagged():
    liar = hex_player(seeded_random(3), claim=lambda board: 1 - board_winner(board))
    result = play_game("hex", 5, (liar, hex_player(seeded_random(4), claim=board_winner)))
    assert result.reason == "connection"
    assert result.claims[0] != result.winner and result.claims[1] == result.winner
    assert result.claim_disagrees


def test_result_round_trips_through_a_dict():
    result = play_game("havannah", 3, (havannah_player(seeded_random(1)),
                                       havannah_player(seeded_random(2))), swap=True)
    again = GameResult.from_dict(result.to_dict())
    assert again.to_dict() == result.to_dict()
    assert again.moves == result.moves


# The fixture engines over pipes: every misbehaviour is a loss of the engine
# that misbehaved, by the reason the arbiter's rules give.

FAULTS = [
    (("--illegal",), {}, "illegal move"),
    (("--occupied",), {}, "illegal move"),
    # A swap at the misbehaving seat's first move past the second (3 or 4).
    (("--swap-at", "LATE"), {"swap": True}, "illegal move"),
    (("--wrong-colour",), {}, "illegal move"),
    (("--nonsense",), {}, "illegal move"),
    (("--garbled",), {}, "illegal move"),
    (("--hang-after", "2"), {"clock": Clock(per_move=0.3, margin=0.1)}, "on time"),
    (("--hang-after", "1"), {"stall": 0.5}, "on time"),
    (("--crash-after", "2"), {}, "disconnects"),
    (("--slow", "0.6"), {"clock": Clock(per_move=0.1, margin=0.1)}, "on time"),
]


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("flags, options, reason", FAULTS,
                         ids=[" ".join(fault[0]) for fault in FAULTS])
def test_fixture_engine_misbehaviour_loses(engine_command, seat, flags, options, reason):
    flags = [str(3 + seat) if flag == "LATE" else flag for flag in flags]
    bad = make_player(EngineSpec(engine_command("--seed", "1", *flags), name="bad"), "hex")
    good = make_player(EngineSpec(engine_command("--seed", "2"), name="good"), "hex")
    players = [good, good]
    players[seat] = bad
    try:
        bad.start()
        good.start()
        started = time.monotonic()
        result = play_game("hex", 5, tuple(players), **options)
        assert time.monotonic() - started < 10
    finally:
        bad.close()
        good.close()
    assert result.reason in REASONS
    assert (result.winner, result.reason) == (1 - seat, reason), result.detail


def test_fixture_engine_false_claim_is_flagged(engine_command):
    liar = make_player(EngineSpec(engine_command("--seed", "1", "--false-claim")), "hex")
    honest = make_player(EngineSpec(engine_command("--seed", "2")), "hex")
    try:
        liar.start()
        honest.start()
        result = play_game("hex", 5, (liar, honest))
    finally:
        liar.close()
        honest.close()
    assert result.reason == "connection"
    assert result.claims == {0: 1 - result.winner, 1: result.winner}
    assert result.claim_disagrees


@pytest.mark.parametrize("dialect", ["havhex", "morat"])
def test_fixture_engines_play_havannah_to_the_end(engine_command, dialect):
    players = [make_player(EngineSpec(engine_command("--game", "havannah", "--dialect", dialect,
                                                     "--seed", str(seed))), "havannah")
               for seed in (1, 2)]
    try:
        for player in players:
            player.start()
        result = play_game("havannah", 4, tuple(players))
    finally:
        for player in players:
            player.close()
    board, kinds = _replayed("havannah", 4, result.moves)
    assert board.is_over and (result.reason in kinds or result.reason == "board full")
    assert not result.claim_disagrees
