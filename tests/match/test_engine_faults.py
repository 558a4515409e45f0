"""Answers no engine should give, each scored as a fault of the engine
that gave it (never an abort of the match, never a loss of the other side),
found at once and held in bounded memory: ids past Python's integer limit,
moves of 400,000 letters, lines without end, an engine that exits while a
child keeps its output open, clocks too long for a poll()."""
import time
import tracemalloc

import pytest

from havhex.match.arbiter import Clock, play_game
from havhex.match.engines import LINE_LIMIT, MOVE_LIMIT, EngineFailure, EngineSpec, make_player

from engine_commands import fixture_command

pytestmark = pytest.mark.not_under_sanitizers("engine processes and timing")


def player(*flags, game="hex", dialect=None, name=None):
    return make_player(EngineSpec(fixture_command(*flags, "--game", game), dialect=dialect,
                                  name=name), game)


def raw(tmp_path, command, data, *flags, name="bad"):
    """A fixture engine that answers ``command`` with the bytes ``data``."""
    path = tmp_path / f"{command}.answer"
    path.write_bytes(data)
    return player("--raw", f"{command}={path}", *flags, name=name)


def game(players, size=5, **options):
    try:
        for each in players:
            each.start(timeout=30)
        return play_game("hex", size, players, **options)
    finally:
        for each in players:
            each.close()


@pytest.mark.parametrize("command", ["boardsize", "genmove"])
@pytest.mark.parametrize("seat", [0, 1])
def test_an_id_past_the_integer_limit_is_a_protocol_fault(tmp_path, command, seat):
    # 5,000 digits: int() refuses more than 4,300 (sys.get_int_max_str_digits).
    bad = raw(tmp_path, command, b"=" + b"7" * 5000 + b" c3\n\n")
    players = [player("--seed", "1", name="good")]
    players.insert(seat, bad)
    result = game(players)
    assert (result.winner, result.reason) == (1 - seat, "illegal move"), result.detail
    assert "protocol" in result.detail and "5000 digits" in result.detail
    assert len(result.detail) < 300


@pytest.mark.parametrize("letters, why", [(40000, f"at most {MOVE_LIMIT}"),
                                          (400000, f"longer than {LINE_LIMIT}")])
def test_a_move_of_400000_letters_is_a_protocol_fault_at_once(tmp_path, letters, why):
    bad = raw(tmp_path, "genmove", b"={id} " + b"a" * letters + b"1\n\n")
    started = time.monotonic()
    result = game([bad, player("--seed", "1")], clock=Clock(per_move=5))
    assert time.monotonic() - started < 5
    assert (result.winner, result.reason) == (1, "illegal move")
    assert result.detail.startswith("protocol: bad: ") and why in result.detail
    # The record keeps no copy of the answer, only its length.
    assert len(result.detail) < 300 and "aaaaaaaaaa" not in result.detail


def test_a_callable_answering_a_long_name_loses_with_a_bounded_detail():
    def long_name(board, seat, time_left):
        return "b" * 400000 + "2"

    started = time.monotonic()
    result = play_game("hex", 5, [make_player(EngineSpec(player=long_name), "hex"),
                                  player("--seed", "1")])
    assert time.monotonic() - started < 5
    assert (result.winner, result.reason) == (1, "illegal move")
    assert len(result.detail) < 300 and "400001 characters" in result.detail


@pytest.mark.parametrize("byte", [ord("a"), 0])
def test_a_line_without_end_is_a_fault_in_bounded_memory(byte):
    flood = player("--flood", str(50 << 20), "--flood-byte", str(byte))
    flood.start(timeout=30)
    try:
        flood.new_game(5)
        tracemalloc.start()
        started = time.monotonic()
        with pytest.raises(EngineFailure) as failure:
            flood.genmove(0, 30)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    finally:
        flood.close()
    assert failure.value.kind == "protocol" and f"longer than {LINE_LIMIT}" in str(failure.value)
    assert time.monotonic() - started < 10
    # The line limit and one read's chunk, with room to spare: nothing near
    # the 50 MB the engine wrote.
    assert peak < 4 * LINE_LIMIT + (1 << 20), peak


def test_an_engine_that_exits_while_a_child_holds_its_output_disconnects_at_once():
    players = [player("--seed", "1", "--orphan-after", "2", name="orphaned"),
               player("--seed", "2")]
    started = time.monotonic()
    result = game(players, size=7, clock=Clock(per_move=30))
    assert time.monotonic() - started < 10
    assert (result.winner, result.reason) == (1, "disconnects"), result.detail


def test_a_clock_too_long_for_poll_waits_without_overflow():
    # poll() takes milliseconds as a C int: 3e6 s is past it.
    engine = player("--seed", "1")
    engine.start(timeout=30)
    try:
        engine.new_game(5)
        text = engine.genmove(0, 3e6)
        assert text and len(text) <= 3
    finally:
        engine.close()


@pytest.mark.parametrize("options", [dict(per_move=-1), dict(per_move=0), dict(margin=float("nan")),
                                     dict(per_move=1, margin=float("inf")),
                                     dict(per_move=1, margin=1e300), dict(per_move=3e6),
                                     dict(base=float("nan")), dict(base=10, increment=-1),
                                     dict(per_move="fast")])
def test_a_clock_out_of_bounds_is_a_value_error(options):
    with pytest.raises(ValueError):
        Clock(**options)

