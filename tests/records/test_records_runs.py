"""records.runs: the runs of whole games a collection is cut into for workers
(replay -j, havhex.dask) cover the file, and each run read alone gives the
games, numbers and lines of the whole file's reading."""
import pytest

from havhex import records
from havhex.records import runs
from havhex.records.game import read_bytes


def _parts(count):
    parts = []
    for number in range(count):
        comment = "a ( b \\] c\n" * (number % 3)
        parts.append(f"(;GM[11]SZ[3]C[{comment}](;B[a1];W[b{number % 3 + 1}])(;B[c3]))\n")
    return [part.encode() for part in parts]


def _collection(count):
    return b"".join(_parts(count))


def _games_of(data, runs_found):
    games = []
    for start, stop, first_index, first_line in runs_found:
        games += read_bytes(data[start:stop], "<bytes>", None, first_index, first_line)
    return [(game.index, game.line, game.moves) for game in games]


def _check_runs(data, runs_found):
    assert runs_found[0][0] == 0 and runs_found[-1][1] == len(data)
    for (_, stop, _, _), (start, _, _, _) in zip(runs_found, runs_found[1:]):
        assert stop == start
    whole = [(game.index, game.line, game.moves) for game in records.read(data)]
    assert _games_of(data, runs_found) == whole


@pytest.mark.parametrize("pieces", [1, 2, 7, 50])
def test_runs_of_bytes_cover_them_in_at_most_the_pieces(pieces):
    data = _collection(300)
    found = runs.runs_of(data, pieces)
    assert len(found) <= pieces and (len(found) > 1) == (pieces > 1)
    _check_runs(data, found)


@pytest.mark.parametrize("run_bytes", [1, 100, 5000, 10 ** 9])
def test_runs_as_found_cover_the_file_in_runs_of_about_the_size(tmp_path, run_bytes):
    data = _collection(300)
    path = tmp_path / "games.sgf"
    path.write_bytes(data)
    found = list(runs.runs_as_found(path, run_bytes))
    _check_runs(data, found)
    longest_game = max(map(len, _parts(300)))
    for start, stop, _, _ in found[:-1]:
        assert run_bytes <= stop - start < run_bytes + longest_game
    assert runs.read_range(path, found[-1][0], found[-1][1]) == data[found[-1][0]:]


def test_a_folder_stands_for_its_record_files_in_name_order(tmp_path):
    for name in ("b.hgf", "a.SGF", "c.hsgf", "notes.txt", "d.sgf.bak"):
        (tmp_path / name).write_bytes(b"")
    assert runs.record_files([str(tmp_path), "x.sgf"]) == [
        str(tmp_path / "a.SGF"), str(tmp_path / "b.hgf"), str(tmp_path / "c.hsgf"),
        "x.sgf"]
    assert runs.record_files([]) == ["-"]


@pytest.mark.parametrize("ship", [False, True])
def test_the_plan_cuts_a_file_only_when_it_is_over_twice_the_unit(tmp_path, ship):
    """Up to twice the unit a file is one task (its walk would cost the
    planner and give runs no more even); beyond, runs of about the unit."""
    from havhex.records.units import plan_replay

    data = _collection(300)
    path = tmp_path / "games.sgf"
    path.write_bytes(data)
    for unit, most_tasks, least_tasks in ((len(data) // 2, 1, 1), (len(data) // 2 + 1, 1, 1),
                                          (len(data) // 2 - 200, 3, 2), (len(data) // 5, 6, 4)):
        tasks = [item for item in plan_replay([str(path)], ship, unit, 64) if item[0] == "task"]
        assert least_tasks <= len(tasks) <= most_tasks, (unit, len(tasks))
        if len(tasks) == 1:
            [[(index, whole)]] = [units for _, units in tasks]
            assert index == 0 and whole[0] in ("path", "bytes")
        else:
            assert all(units[0][1][0] == "range" for _, units in tasks)


def test_the_runs_shrink_as_the_plan_nears_its_end(tmp_path):
    """With a unit that follows the bytes still to plan (as on a cluster),
    the runs of a large file get smaller toward its end, down to the least
    unit, so that the workers finish together; they still cover the file
    and read alone give the whole file's games."""
    from havhex._units import shrinking_units
    from havhex.records.units import plan_replay

    data = _collection(3000)
    path = tmp_path / "games.sgf"
    path.write_bytes(data)
    low = 2000
    unit = shrinking_units(low, len(data), workers=2)
    tasks = [units for kind, units in plan_replay([str(path)], False, unit, 64) if kind == "task"]
    found = [(start, stop, first, line)
             for [(_, (_, _, _, _, start, stop, first, line))] in tasks]
    _check_runs(data, found)
    sizes = [stop - start for start, stop, _, _ in found]
    # Each run is about an eighth of what was left (two workers, four parts
    # each): a whole game more at most, never under the least unit but at
    # the file's end.
    assert sizes[0] >= len(data) // 8
    assert all(later <= earlier + 200 for earlier, later in zip(sizes, sizes[1:]))
    assert all(size >= low for size in sizes[:-1])
    assert sizes[-2] < 2 * low + 200 and sizes[0] > 5 * sizes[-2]


def _cuts_byte_by_byte(data, start, first_line, every, capacity):
    """The cuts sgf_find_cuts promises, found one byte at a time in Python:
    where a tree closes at depth 0 at least ``every`` bytes after the last
    cut, with the games since ``start`` and the line there; a value runs to
    its unescaped "]" and its parentheses do not count."""
    depth = games = 0
    line, found, following, at = first_line, [], start + every, start
    while at < len(data) and len(found) < capacity:
        byte = data[at]
        if byte == ord("["):
            at += 1
            while at < len(data) and data[at] != ord("]"):
                if data[at] == ord("\\") and at + 1 < len(data):
                    line += data[at + 1] == ord("\n")
                    at += 2
                    continue
                line += data[at] == ord("\n")
                at += 1
        elif byte == ord("("):
            depth += 1
        elif byte == ord(")"):
            if depth > 0:
                depth -= 1
                if depth == 0:
                    games += 1
                    if at + 1 >= following and at + 1 < len(data):
                        found.append((at + 1, games, line))
                        following = at + 1 + every
        elif byte == ord("\n"):
            line += 1
        at += 1
    return found


def _walk_test_bytes(rng):
    """Bytes that put every kind of byte the walk looks at on both sides of
    its blocks' edges: long plain stretches (moves, long comments holding
    brackets and line ends) between parentheses, escapes (of "]", of "\\",
    of a line end) and stray brackets."""
    pieces = [b"(;", b")", b"(", b";B[a1]", b";W[k10]", b"C[", b"]", b"[", b"\\]", b"\\\\",
              b"\\\n", b"\n", b"\\", b"x" * 15, b"ab[cd" * 7, b"text ( in ) a value"]
    return b"".join(rng.choice(pieces) for _ in range(rng.randrange(1, 400)))


@pytest.mark.parametrize("blocks", [True, False], ids=["blocks", "bytes"])
def test_the_walks_cuts_are_those_of_a_walk_byte_by_byte(blocks):
    """The cuts and their counts are the same whether the walk passes over
    blocks of bytes (where the CPU allows) or takes every byte, on bytes
    made to put what the walk looks at across the blocks' edges."""
    import random

    from havhex.records import _reader

    if _reader.set_block_walk(blocks) != blocks:
        pytest.skip("this CPU has no block walk: only the byte walk runs here")
    try:
        rng = random.Random(2612)
        for _ in range(400):
            data = _walk_test_bytes(rng)
            for pieces in (2, 5, 40):
                every = len(data) // pieces + 1
                expected = _cuts_byte_by_byte(data, 0, 1, every, pieces)
                assert _reader.game_ranges(memoryview(data), pieces)[1:-1] == expected, data
            start = rng.randrange(len(data))
            every = rng.randrange(1, 64)
            expected = _cuts_byte_by_byte(data, start, 7, every, 1)
            found = _reader.next_cut(memoryview(data), start, 7, every)
            assert found == (expected[0] if expected else None), (data, start, every)
    finally:
        _reader.set_block_walk(True)
