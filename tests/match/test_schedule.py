"""The games of a match: pairings, openings in colour-reversed pairs,
concurrency, the SPRT's early stop and resume from the JSON Lines file."""
import pytest

import needs

from havhex.match.output import read_jsonl
from havhex.match.schedule import MatchError, Session, openings, pairings, plan
from havhex.match.stats import Sprt
from match_fakes import first_free, hex_player, seeded_random


def test_pairings():
    assert pairings(2) == [(0, 1)]
    assert pairings(4, "round-robin") == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert pairings(4, "gauntlet") == [(0, 1), (0, 2), (0, 3)]
    with pytest.raises(MatchError):
        pairings(1)
    with pytest.raises(MatchError):
        pairings(3, "swiss")


def test_each_opening_is_played_twice_with_seats_reversed():
    found = openings("all", "hex", 3)
    assert sorted(found) == [((r, c),) for r in range(3) for c in range(3)]
    games = plan(3, 6, rounds=2, opening_list=found)
    assert len(games) == 2 * 3 * 6
    assert [game.index for game in games] == list(range(1, 37))
    for first, second in zip(games[::2], games[1::2]):
        assert first.opening == second.opening
        assert first.engines == tuple(reversed(second.engines))
    # Openings are taken in turn across the whole match.
    assert [game.opening_index for game in games[:6:2]] == [0, 1, 2]


def test_random_openings_are_seeded_by_their_number():
    draw = openings("random", "havannah", 4, plies=3)
    assert draw(5, 1) == draw(5, 1)
    assert len(draw(5, 1)) == 3
    assert len({draw(number, 1) for number in range(20)}) > 10
    games = plan(2, 4, opening_list=draw, seed=9)
    assert games[0].opening == draw(0, 9) and games[2].opening == draw(1, 9)


def test_openings_from_a_file(tmp_path):
    path = tmp_path / "open.sgf"
    path.write_text("(;FF[4]GM[11]SZ[5];B[c3];W[a1])\n(;FF[4]GM[11]SZ[5];B[b2])\n")
    assert openings("file", "hex", 5, path=str(path)) == [((2, 2), (0, 0)), ((1, 1),)]
    with pytest.raises(MatchError, match="open.sgf.*size"):
        openings("file", "hex", 7, path=str(path))
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;FF[4]GM[11]SZ[5];B[c3];W[c3])\n")
    with pytest.raises(MatchError, match=r"bad.sgf: game 1 \(line 1\): move 2"):
        openings("file", "hex", 5, path=str(bad))
    with pytest.raises(MatchError, match="nothing.sgf"):
        openings("file", "hex", 5, path=str(tmp_path / "nothing.sgf"))


def _session(tmp_path, make, **options):
    return Session("hex", [None, None], 5, make_player=make, jsonl=str(tmp_path / "m.jsonl"),
                   **options)


def test_concurrent_games_keep_their_numbers_and_reuse_players(tmp_path):
    made = []

    def make(index):
        player = hex_player(seeded_random(index), name=f"e{index}")
        made.append(player)
        return player

    results = _session(tmp_path, make, games=20, concurrency=3).run()
    assert [result.index for result in results] == list(range(1, 21))
    assert all(result.names == tuple(f"e{i}" for i in result.engines) for result in results)
    assert len(made) <= 6        # one player per engine and thread, reused warm
    assert sum(player.games for player in made) == 40
    assert sorted(r.index for r in read_jsonl(str(tmp_path / "m.jsonl"))) == list(range(1, 21))


def test_a_dead_player_is_restarted_for_its_next_game(tmp_path):
    players = {}

    def make(index):
        def choose(board, seat):
            from match_fakes import EngineFailure

            return EngineFailure("disconnects") if index == 1 else first_free(board, seat)
        players[index] = hex_player(choose, name=f"e{index}")
        return players[index]

    results = _session(tmp_path, make, games=4).run()
    assert [result.reason for result in results] == ["disconnects"] * 4
    assert [result.winner for result in results] == [0, 1, 0, 1]
    assert players[1].restarts == 3


def test_sprt_stops_the_match_early(tmp_path):
    def make(index):
        return hex_player(first_free if index == 0 else (lambda board, seat: "resign"))

    results = _session(tmp_path, make, games=1000, sprt=Sprt(0, 50, 0.05, 0.05)).run()
    assert 2 <= len(results) < 100
    assert all(result.engines[result.winner] == 0 for result in results)


def test_resume_plays_only_the_games_not_done(tmp_path):
    def make(index):
        return hex_player(seeded_random(index), name=f"e{index}")

    first = _session(tmp_path, make, games=10).run()
    path = tmp_path / "m.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    # As if killed after 6 games, in the middle of the 7th line.
    path.write_text("".join(lines[:6]) + lines[6][:20])
    played = []
    resumed = _session(tmp_path, make, games=10, resume=True,
                       on_result=lambda result: played.append(result.index)).run()
    assert sorted(played) == [r.index for r in first[6:]]
    assert [r.index for r in resumed] == list(range(1, 11))
    # The cut line is gone: every line of the file is whole, each game once.
    text = path.read_text()
    assert text.endswith("\n") and len(text.splitlines()) == 10
    assert sorted(r.index for r in read_jsonl(str(path))) == list(range(1, 11))


def test_resume_needs_the_jsonl_file():
    with pytest.raises(MatchError, match="jsonl"):
        Session("hex", [None, None], 5, resume=True)


def test_play_takes_callables_commands_and_specs(tmp_path, engine_command):
    import random
    import subprocess

    from havhex.match import GameResult, play
    from havhex.match.engines import EngineSpec

    rng = random.Random(5)

    def network(board, seat, time_left):
        # A stand-in for a policy: any free cell, as a havhex move.
        return rng.choice([move for move in board.legal_moves() if not isinstance(move, str)])

    command = subprocess.list2cmdline(engine_command("--game", "havannah", "--seed", "7"))
    results = play("havannah", [network, command,
                                EngineSpec(engine_command("--game", "havannah", "--dialect",
                                                          "morat"), name="M")],
                   size=4, games=2, records=str(tmp_path))
    assert len(results) == 6 and all(isinstance(result, GameResult) for result in results)
    assert {result.reason for result in results} <= {"ring", "bridge", "fork", "board full"}
    assert {frozenset(result.engines) for result in results} == \
        {frozenset({0, 1}), frozenset({0, 2}), frozenset({1, 2})}
    assert all(result.names[result.engines.index(2)] == "M"
               for result in results if 2 in result.engines)
    assert all(result.names[result.engines.index(0)] == "network"
               for result in results if 0 in result.engines)
    assert len(list(tmp_path.glob("*.hgf"))) == 6


def test_play_refuses_what_is_no_engine():
    from havhex.match import play

    with pytest.raises(TypeError):
        play("hex", [3, "x"], size=5)


@pytest.mark.parametrize("concurrency", [1, 2])
def test_an_engine_that_does_not_start_stops_the_match_with_its_error(tmp_path, concurrency):
    def make(index):
        if index == 1:
            raise MatchError("engine B: does not start")
        return hex_player(first_free)

    with pytest.raises(MatchError, match="engine B"):
        _session(tmp_path, make, games=6, concurrency=concurrency).run()


def test_a_policy_returning_numpy_integers_plays(tmp_path):
    np = needs.module("numpy")
    from havhex.match import play

    def policy(board, seat, time_left):
        # What an RL loop gives: numpy's integers, a pair or an array.
        cells = [move for move in board.legal_moves() if not isinstance(move, str)]
        row, col = cells[len(cells) // 2]
        return (np.int64(row), np.int64(col)) if seat == 0 else np.array([row, col])

    results = play("hex", [policy, policy], size=5, games=2, jsonl=str(tmp_path / "m.jsonl"))
    assert [result.reason for result in results] == ["connection", "connection"]
    assert all(type(value) is int for result in results for move in result.moves
               for value in move)
    # The JSON Lines file takes them (numpy's integers are not JSON).
    assert len(read_jsonl(str(tmp_path / "m.jsonl"))) == 2


@pytest.mark.parametrize("options", [dict(per_move=-1), dict(per_move=0),
                                     dict(per_move=1, margin=float("nan")),
                                     dict(margin=float("nan")), dict(base=float("inf")),
                                     dict(per_move=3e6), dict(base=5, increment=-0.5),
                                     dict(size=0), dict(size=129), dict(size=5.5)])
def test_play_refuses_a_setting_out_of_bounds_with_a_value_error(options):
    from havhex.match import play

    settings = dict(size=5)
    settings.update(options)
    with pytest.raises(ValueError):
        play("hex", [first_free, first_free], **settings)


def test_a_player_that_calls_sys_exit_disconnects_and_the_match_goes_on():
    from havhex.match import play

    def quitter(board, seat, time_left):
        raise SystemExit(3)

    def steady(board, seat, time_left):
        return next(move for move in board.legal_moves() if not isinstance(move, str))

    results = play("hex", [quitter, steady], size=4, games=4)
    assert [result.reason for result in results] == ["disconnects"] * 4
    assert all(result.engines[result.winner] == 1 for result in results)
    assert all("SystemExit" in result.detail for result in results)


def test_an_engine_that_cannot_be_restarted_forfeits_its_remaining_games(tmp_path,
                                                                          engine_command):
    from havhex.match import play
    from havhex.match.engines import EngineSpec

    # Its first process crashes at its second genmove; every later start
    # exits at once (a binary deleted, a licence gone).
    marker = tmp_path / "started"
    wrapper = tmp_path / "once.py"
    wrapper.write_text(
        "import os, sys\n"
        f"marker = {str(marker)!r}\n"
        "if os.path.exists(marker):\n"
        "    sys.exit(1)\n"
        "open(marker, 'w').close()\n"
        f"os.execv(sys.executable, [sys.executable] + {engine_command('--crash-after', '1')[1:]!r})\n")
    import sys

    crashing = EngineSpec([sys.executable, str(wrapper)], name="C")
    steady = EngineSpec(engine_command("--seed", "2"), name="S")
    results = play("hex", [crashing, steady], size=5, games=6, jsonl=str(tmp_path / "m.jsonl"))
    assert [result.index for result in results] == [1, 2, 3, 4, 5, 6]
    assert all(result.reason == "disconnects" for result in results)
    assert all(result.names[result.winner] == "S" for result in results)
    assert "cannot be restarted" not in results[0].detail
    assert all("C: cannot be restarted" in result.detail for result in results[1:])
    assert [result.index for result in read_jsonl(str(tmp_path / "m.jsonl"))] == \
        [1, 2, 3, 4, 5, 6]


def test_an_on_result_that_raises_stops_the_match_with_its_error(tmp_path):
    from havhex.match import play

    seen = []

    def on_result(result):
        seen.append(result.index)
        if len(seen) == 2:
            raise RuntimeError("the caller's own fault")

    with pytest.raises(RuntimeError, match="the caller's own fault"):
        play("hex", [first_free, first_free], size=4, games=8, on_result=on_result,
             jsonl=str(tmp_path / "m.jsonl"))
    assert seen == [1, 2]


@pytest.mark.parametrize("concurrency", [1, 2])
def test_a_failing_write_stops_the_match_and_the_game_is_not_counted(tmp_path, concurrency):
    calls = []

    def record(result):
        calls.append(result.index)
        if len(calls) == 3:
            raise OSError(28, "No space left on device", "m.jsonl")

    session = _session(tmp_path, lambda index: hex_player(seeded_random(index)), games=10,
                       concurrency=concurrency)
    session.on_result = record
    with pytest.raises(OSError, match="No space"):
        session.run()
    written = [result.index for result in read_jsonl(str(tmp_path / "m.jsonl"))]
    # The JSON line of the game whose on_result failed was written before
    # it (on_result comes last); no game after it was recorded.
    assert len(written) <= len(calls) and len(calls) == 3
