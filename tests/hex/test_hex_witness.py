"""Hex witnesses in JSON, each checked by an independent checker.

The checker knows only the rules (tests/support/ref_hex.py for the verdicts and the
neighbour convention); it never uses the code under test.
"""
import json
import random

import pytest

import ref_hex
from havhex import hex as hex_judge

REASONS = {"counts", "both-connected", "loser-moved-last", "no-single-last-move"}


def _adjacent(a, b):
    return (b[0] - a[0], b[1] - a[1]) in ref_hex.NEIGHBOURS


def check_chain(rows, colour, chain):
    """A simple path of ``colour`` stones, each adjacent to the next, from the
    colour's first side to its second."""
    n = len(rows)
    cells = [tuple(cell) for cell in chain]
    assert cells, "empty chain"
    assert len(set(cells)) == len(cells), "chain repeats a stone"
    for i, j in cells:
        assert 0 <= i < n and 0 <= j < n and rows[i][j] == colour, f"{(i, j)} is not {colour}"
    for a, b in zip(cells, cells[1:]):
        assert _adjacent(a, b), f"{a} and {b} are not adjacent"
    if colour == "R":
        assert cells[0][0] == 0 and cells[-1][0] == n - 1, "red chain must join top to bottom"
    else:
        assert cells[0][1] == 0 and cells[-1][1] == n - 1, "blue chain must join left to right"
    return set(cells)


def check_record(rows, record, case=None):
    status, reason, last_moves = ref_hex.judge(rows)
    expected_keys = ["answer"] if case is None else ["case", "answer"]
    if case is not None:
        assert record["case"] == case
    assert record["answer"] == status
    if status in ("Red wins", "Blue wins"):
        colour = "R" if status == "Red wins" else "B"
        assert list(record) == expected_keys + ["winner", "chain", "last_moves"]
        assert record["winner"] == {"R": "red", "B": "blue"}[colour]
        on_chain = check_chain(rows, colour, record["chain"])
        got_last = {tuple(cell) for cell in record["last_moves"]}
        assert got_last == set(last_moves)
        assert got_last <= on_chain, "a possible last move lies on every chain"
    elif status == "Impossible":
        assert record["reason"] == reason and reason in REASONS
        if reason == "no-single-last-move":
            assert list(record) == expected_keys + ["reason", "chains"]
            colour = "R" if ref_hex.connected(rows, "R") else "B"
            first, second = record["chains"]
            assert not (check_chain(rows, colour, first) & check_chain(rows, colour, second)), \
                "the two chains must be stone-disjoint"
        else:
            assert list(record) == expected_keys + ["reason"]
    else:
        assert list(record) == expected_keys


def _positions(seed, count):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(1, 8)
        stop = rng.choice(("any", "win", "past"))
        yield ref_hex.random_game_position(rng, n, stop=stop).rows
        yield ref_hex.random_fill(rng, n, weights=(3, 3, 1))


def test_random_positions_witnesses():
    kinds = set()
    for rows in _positions(2013, 250):
        record = hex_judge.explanation_record(hex_judge.explain(rows))
        check_record(rows, record)
        kinds.add(record.get("reason") or record["answer"])
    # The data must exercise every reachable kind of answer.
    assert {"Red wins", "Blue wins", "Nobody wins", "counts", "loser-moved-last"} <= kinds


@pytest.mark.parametrize("rows", [
    # Two red columns, stone-disjoint: no single red stone was the last move.
    ["RBB.R", "RBB.R", "RBB.R", "RBB.R", "RB..R"],
    # Two red columns again, the blue stones between them filling all but one cell.
    ["RBBR", "RBBR", "RBBR", "R.BR"],
])
def test_two_disjoint_chains(rows):
    record = hex_judge.explanation_record(hex_judge.explain(rows))
    assert record["reason"] == "no-single-last-move"
    check_record(rows, record)


def test_checker_rejects_broken_witnesses():
    rows = ["RRR", "BBB", "..."]
    record = hex_judge.explanation_record(hex_judge.explain(rows))
    check_record(rows, record)
    broken = [
        dict(record, chain=record["chain"][:-1]),
        dict(record, chain=record["chain"][::-1]),
        dict(record, last_moves=record["last_moves"][1:]),
        dict(record, winner="red"),
        dict(record, answer="Red wins"),
    ]
    for bad in broken:
        with pytest.raises(AssertionError):
            check_record(rows, bad)


def test_conformance_witnesses(conformance_dir, cli):
    for path in sorted((conformance_dir / "hex").glob("*.in")):
        boards = ref_hex.parse_input(path.read_text())
        done = cli("hex", "--format", "json", path)
        assert done.returncode == 0, done.stderr
        records = [json.loads(line) for line in done.stdout.decode().splitlines()]
        assert len(records) == len(boards)
        assert [record.pop("file") for record in records] == [str(path)] * len(boards)
        expected = (path.with_suffix(".out")).read_text().splitlines()
        for number, (rows, record, line) in enumerate(zip(boards, records, expected), 1):
            assert line == f"Case #{number}: {record['answer']}"
            if len(rows) <= 20:  # the literal checker is slow on big boards
                check_record(rows, record, case=number)
            elif "chain" in record:
                check_chain(rows, record["winner"][0].upper(), record["chain"])


def test_json_cli_matches_api(tmp_path, cli):
    rng = random.Random(7)
    boards = list(_positions(11, 20))
    text = f"{len(boards)}\n" + "".join(f"{len(b)}\n" + "\n".join(b) + "\n" for b in boards)
    path = tmp_path / "in.txt"
    path.write_text(text)
    done = cli("hex", "--format", "json", "-j", "2", path)
    assert done.returncode == 0
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [record.pop("file") for record in records] == [str(path)] * len(boards)
    assert records == [e.to_dict() for e in hex_judge.iter_explain_file(path)]
    for number, (rows, record) in enumerate(zip(boards, records), 1):
        check_record(rows, record, case=number)
    assert rng  # deterministic inputs


@pytest.mark.parametrize("threads", [2, 3])
def test_json_stream_with_threads_keeps_case_order(tmp_path, threads):
    """Cases explained side by side come out in input order, each checked."""
    boards = list(_positions(23, 40))
    text = f"{len(boards)}\n" + "".join(f"{len(b)}\n" + "\n".join(b) + "\n" for b in boards)
    path = tmp_path / "in.txt"
    path.write_text(text)
    records = [e.to_dict() for e in hex_judge.iter_explain_file(path, threads=threads)]
    assert records == [e.to_dict() for e in hex_judge.iter_explain_file(path)]
    assert [record["case"] for record in records] == list(range(1, len(boards) + 1))
    for number, (rows, record) in enumerate(zip(boards, records), 1):
        check_record(rows, record, case=number)
