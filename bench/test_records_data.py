"""The generated Hex game collections are what the records benchmarks
assume: complete legal games that stop at the winning move, with RE[] naming
the real winner.  Checked here by a replay that shares nothing with the live
board: its own cell names, union-find and swap handling."""
import re
import time

import pytest

import records_data
from havhex import games

NEIGHBOURS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))


def column_index(letters):
    value = 0
    for letter in letters:
        value = value * 26 + ord(letter) - ord("a") + 1
    return value - 1


def replay(moves, size):
    """Play the record's moves on a plain dictionary board; return the colour
    letter of the winner and the number of the move that won (1-based)."""
    stones = {}
    parent = {}

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def place(cell, letter):
        stones[cell] = letter
        parent[cell] = cell
        row, col = cell
        for dr, dc in NEIGHBOURS:
            other = (row + dr, col + dc)
            if stones.get(other) == letter:
                parent[find(other)] = find(cell)

    def connected(letter):
        if letter == "B":
            starts = [(0, c) for c in range(size)]
            ends = [(size - 1, c) for c in range(size)]
        else:
            starts = [(r, 0) for r in range(size)]
            ends = [(r, size - 1) for r in range(size)]
        roots = {find(c) for c in starts if stones.get(c) == letter}
        return any(find(c) in roots for c in ends if stones.get(c) == letter)

    for number, (letter, value) in enumerate(moves, 1):
        if value == "swap-sides":
            assert number == 2 and letter == "W"
            continue
        if value == "swap-pieces":
            assert number == 2 and letter == "W"
            (row, col), = stones
            del stones[(row, col)]
            parent.clear()
            place((col, row), "W")
        else:
            match = re.fullmatch(r"([a-z]+)([0-9]+)", value)
            cell = (int(match.group(2)) - 1, column_index(match.group(1)))
            assert 0 <= cell[0] < size and 0 <= cell[1] < size, value
            assert cell not in stones, f"move {number} on a stone: {value}"
            place(cell, letter)
        if connected(letter):
            return letter, number
    return None, None


def expected_letter(moves, number):
    """Who moves at ``number`` (1-based) when the letters name colours: B
    first; after swap-sides White moves again; otherwise they alternate."""
    if number == 1:
        return "B"
    swapped_sides = len(moves) > 1 and moves[1][1] == "swap-sides"
    if swapped_sides and number >= 3:
        return "W" if number % 2 == 1 else "B"
    return "W" if number % 2 == 0 else "B"


@pytest.mark.parametrize("size", [11, 3, 30])
def test_games_are_complete_and_end_at_the_win(size):
    text = records_data.collection(400, seed=size, size=size, swaps=0.3)
    games = text.splitlines()
    assert len(games) == 400
    winners = {"B": 0, "W": 0}
    swaps = {"swap-pieces": 0, "swap-sides": 0}
    for game in games:
        head = re.match(r"\(;FF\[4\]GM\[11\]SZ\[(\d+)\]RE\[([BW])\+\]", game)
        assert head and int(head.group(1)) == size, game[:60]
        assert game.endswith(")")
        moves = re.findall(r";([BW])\[([^\]]*)\]", game)
        for number, (letter, value) in enumerate(moves, 1):
            assert letter == expected_letter(moves, number), (game[:80], number)
            if value in swaps:
                swaps[value] += 1
        winner, number = replay(moves, size)
        assert winner == head.group(2)
        assert number == len(moves), "the game goes on after the win or stops before it"
        winners[winner] += 1
    assert min(winners.values()) > 100
    assert min(swaps.values()) > 20
    assert max(swaps.values()) < 100


def test_same_seed_same_games_other_seed_other_games():
    assert records_data.collection(50, seed=1) == records_data.collection(50, seed=1)
    assert records_data.collection(50, seed=1) != records_data.collection(50, seed=2)


def test_column_names_follow_the_specification():
    """The collection names cells with the writer's names: a..z, aa, ..."""
    cell_name = games.get("hex").records.cell_name
    names = [cell_name(2000, (0, c)) for c in (0, 25, 26, 27, 51, 52, 701, 702)]
    assert names == ["a1", "z1", "aa1", "ab1", "az1", "ba1", "zz1", "aaa1"]
    assert all(column_index(cell_name(2000, (0, c))[:-1]) == c for c in range(2000))


def test_a_hundred_thousand_games_in_well_under_a_minute(hex_records, request):
    """100,000 games in under 30 s (with --benchmark-disable, as CI runs the
    benchmarks once, 20,000 games in under 6 s)."""
    games = 20_000 if request.config.getoption("benchmark_disable") else 100_000
    start = time.perf_counter()
    path = hex_records(games)
    elapsed = time.perf_counter() - start
    with open(path, "rb") as file:
        assert sum(1 for _ in file) == games
    # Written once per session: a second call is the cached file.
    assert hex_records(games) == path
    assert elapsed < 30 * games / 100_000, f"{elapsed:.1f} s to write {games} games"


def test_the_records_reader_replays_the_games_as_recorded():
    """The reader and the generator agree on every game: a win by the last
    move, for the player RE[] names, swaps (two W moves in a row after
    swap-sides) included."""
    from havhex import records

    text = records_data.collection(3000, seed=5, swaps=0.3).encode()
    swaps = 0
    for replay in records.replay(text):
        assert replay.flags == () and replay.end == "structure", replay
        assert replay.win.move == replay.moves == len(replay.record.moves)
        assert replay.win.player == replay.recorded
        swaps += replay.record.moves[1][1] in ("swap-pieces", "swap-sides")
    assert 600 < swaps < 1200
