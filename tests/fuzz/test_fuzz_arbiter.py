"""Fuzzing the arbiter (havhex.match) with the answers of a hostile engine.

An engine process answers one command of a game (its name, list_commands,
boardsize, a play, its genmove, its claim...) with bytes Hypothesis makes:
ids of thousands of digits or none, lines of up to 200,000 characters,
NULs, huge numbers, stray bytes, CR, answers cut short or doubled, text
that is no GTP at all.  Whatever it writes, the arbiter plays the game out
against an in-process player and:

* returns a result (or, when the engine cannot even start, raises the
  engine's fault, EngineFailure or CommandRefused): never another
  exception, never a crash, never a hang (every wait has a deadline);
* scores any fault as the hostile engine's (the other player loses only on
  the board), with a one-line detail of bounded length;
* records the game: the SGF record and the JSON line are written and read
  back;
* holds the answer in bounded memory: at most ANSWER_LIMIT bytes in lines
  of at most LINE_LIMIT bytes (havhex.match.engines), so that the peak of
  the arbiter's allocations stays under a small multiple of ANSWER_LIMIT
  whatever the engine sends.

``HAVHEX_FUZZ_EXAMPLES`` sets the number of examples (see fuzzing.py).
"""
import json
import tracemalloc

import pytest

from conftest import SANITIZED
from engine_commands import fixture_command
from fuzzing import EXAMPLES, HUGE_NUMBERS, SETTINGS, given, settings, st

from havhex.match import arbiter
from havhex.match.arbiter import BOARD_REASONS, REASONS, Clock, play_game
from havhex.match.engines import (ANSWER_LIMIT, LINE_LIMIT, CommandRefused, EngineFailure,
                                  EngineSpec, GtpPlayer, make_player)
from havhex.match.output import JsonlWriter, read_jsonl, write_record

pytestmark = pytest.mark.skipif(SANITIZED, reason="engine processes and timing")

# Seconds each wait of the arbiter may take here: an answer cut short costs
# this much, not the half minute a real match allows.
WAIT = 1.0
# The arbiter's own allocations while it reads one game's answers: the
# answer limit's bytes, their copies as it decodes and parses them, and
# room for the board and the result.
MEMORY_BOUND = 12 * ANSWER_LIMIT
DETAIL_BOUND = 700

COMMANDS = ("name", "version", "list_commands", "boardsize", "clear_board", "play", "genmove",
            "final_score", "time_settings")
WORDS = ("c3", "C3", "a1", "e5", "z99", "swap-pieces", "resign", "pass", "", " ", "=", "?",
         "\x00", "c\x003", "\u00e9", "\uff43\uff13", "\ufffd", "banana", "B+", "W+", "unknown")


@st.composite
def answers(draw):
    """The bytes of one answer (``{id}`` stands for the command's id)."""
    sign = draw(st.sampled_from(("=", "=", "=", "?", "", "#", "==", "\x00=")))
    ident = draw(st.sampled_from(("{id}", "{id}", "{id}", "", "0", "7" * 5000, "9" * 300,
                                  "-1", "\u0661", "{id}{id}", "00{id}") + HUGE_NUMBERS))
    separator = draw(st.sampled_from((" ", " ", "", "\t", "\n", "  ")))
    parts = []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.integers(0, 5))
        if kind == 0:
            parts.append(draw(st.sampled_from(WORDS)))
        elif kind == 1:
            parts.append(draw(st.sampled_from(HUGE_NUMBERS)))
        elif kind == 2:
            # A long line: a cell name of thousands of letters, or NULs.
            letter = draw(st.sampled_from(("a", "\x00", "9", "x", "\u00e9")))
            parts.append(letter * draw(st.integers(1, 200000)) + draw(st.sampled_from(("", "1"))))
        elif kind == 3:
            parts.append(draw(st.text(max_size=40)))
        elif kind == 4:
            # Many lines, some past the answer's limit together.
            line = draw(st.sampled_from(("x" * 1000, "c3", "")))
            parts.append("\n".join([line] * draw(st.integers(1, 1500))))
        else:
            parts.append(draw(st.binary(max_size=40)).decode("latin-1"))
    text = draw(st.sampled_from((" ", "\n", "\r\n", "\t"))).join(parts)
    end = draw(st.sampled_from(("\n\n",) * 8 + ("\r\n\r\n", "\n", "", "\n\n=\n\n",
                                                  "\n\n={id} c3\n\n", "\n\n\n\n")))
    return (sign + ident + separator + text + end).encode("utf-8", "surrogateescape")


class QuickPlayer(GtpPlayer):
    """A GtpPlayer whose new game waits WAIT seconds at most."""

    def new_game(self, size, swap=False, rule="official", clock=None, timeout=30.0):
        super().new_game(size, swap, rule, clock, timeout=WAIT)


def steady(board, seat, time_left):
    return next(move for move in board.legal_moves() if not isinstance(move, str))


@pytest.fixture(scope="module")
def short_waits():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(arbiter, "COMMAND_TIMEOUT", WAIT)
        patch.setattr(arbiter, "CLAIM_TIMEOUT", WAIT)
        yield


@settings(max_examples=EXAMPLES, **SETTINGS)
@given(command=st.sampled_from(COMMANDS), answer=answers(), seat=st.integers(0, 1))
def test_the_arbiter_survives_any_answer_of_an_engine(tmp_path_factory, short_waits, command,
                                                      answer, seat):
    folder = tmp_path_factory.mktemp("fuzz")
    script = folder / "answer"
    script.write_bytes(answer)
    hostile = QuickPlayer(EngineSpec(fixture_command("--raw", f"{command}={script}",
                                                     "--seed", "1"), name="hostile"), "hex")
    other = make_player(EngineSpec(player=steady, name="steady"), "hex")
    players = [other, hostile] if seat else [hostile, other]
    tracemalloc.start()
    try:
        try:
            hostile.start(timeout=WAIT)
        except (EngineFailure, CommandRefused) as error:
            assert len(str(error)) < 2 * DETAIL_BOUND
            return
        result = play_game("hex", 5, players, clock=Clock(per_move=WAIT, margin=0.2))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        hostile.close()
    assert peak < MEMORY_BOUND, peak
    assert result.reason in REASONS
    if result.reason not in BOARD_REASONS:
        assert result.loser == seat, (result.reason, result.detail)
    assert len(result.detail) < DETAIL_BOUND and result.detail.isprintable(), result.detail
    # The game is recorded whole: its SGF record and its JSON line read back.
    write_record(result, str(folder))
    lines = JsonlWriter(str(folder / "m.jsonl"))
    lines.add(result)
    lines.close()
    (back,) = read_jsonl(str(folder / "m.jsonl"))
    assert (back.reason, back.winner, back.detail) == (result.reason, result.winner,
                                                       result.detail)
    assert json.loads((folder / "m.jsonl").read_text())["index"] == result.index


@pytest.mark.parametrize("byte", [0, ord("a"), ord("9")])
def test_500_mb_without_a_line_end_is_read_in_bounded_memory(byte):
    """What once took the arbiter's memory with it: the engine streams half
    a gigabyte of one byte and no line end; the arbiter reads one line's
    limit of it, scores a protocol fault and kills the engine."""
    flood = make_player(EngineSpec(fixture_command("--flood", str(500 << 20), "--flood-byte",
                                                   str(byte))), "hex")
    flood.start(timeout=30)
    tracemalloc.start()
    try:
        result = play_game("hex", 5, [flood, make_player(EngineSpec(player=steady), "hex")],
                           clock=Clock(per_move=30))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        flood.close()
    assert (result.winner, result.reason) == (1, "illegal move")
    assert f"a line longer than {LINE_LIMIT} bytes" in result.detail
    assert peak < 4 * LINE_LIMIT + (1 << 20), peak
