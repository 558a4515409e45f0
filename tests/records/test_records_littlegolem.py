"""Real games: 2,146 two-player Havannah games from Little Golem.

``../shared/records/littlegolem-havannah`` holds them as .hgf files, with a
README telling what is known of them (the tests skip when the folder is
absent).  Judging each player's own stones, a correct judge finds that
1,045 games end with the last mover's last stone completing a structure
while the other player has none, and that in every other game (the 860
resignations among them) neither player has a structure.
"""
import re

import pytest

import needs
from conftest import CONFORMANCE
from havhex.havannah import judge_text

RECORDS = CONFORMANCE.parent / "records" / "littlegolem-havannah"
WON_BY_LAST_STONE = 1045
NOTHING_BUILT = 860 + 11 + 230     # resigned; ring of own stones only; abandoned


def read_game(text):
    """(size, [(colour, (x, y)), ...] in move order, resigned)."""
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    stones = []
    resigned = False
    for colour, move in re.findall(r";([WB])\[([^\]]*)\]", text):
        if move == "swap":                 # the first stone changes hands
            stones[0] = (colour, stones[0][1])
        elif move == "resign":
            resigned = True
            break
        else:
            row = ord(move[0].lower()) - ord("a")
            column = int(move[1:]) - 1 + max(0, row + 1 - size)
            stones.append((colour, (column + 1, row + 1)))
    return size, stones, resigned


@pytest.fixture(scope="module")
def games():
    needs.shared("records", "littlegolem-havannah", need="records")
    # Player names are in Latin-1 here and there; only ASCII fields are read.
    return {path.name: read_game(path.read_text(encoding="latin-1"))
            for path in sorted(RECORDS.glob("*.hgf"))}


def test_every_game_is_read(games):
    assert len(games) == 2146
    sizes = {size for size, _, _ in games.values()}
    assert sizes == set(range(4, 11))
    assert sum(len(stones) for _, stones, _ in games.values()) > 50_000


def test_each_players_stones_judged(games):
    """One judge-format input holding both players' stones of every game."""
    sequences = []
    for size, stones, _ in games.values():
        for colour in "WB":
            sequences.append((size, [cell for owner, cell in stones if owner == colour]))
    text = f"{len(sequences)}\n" + "".join(
        f"{size} {len(cells)}\n" + "".join(f"{x} {y}\n" for x, y in cells)
        for size, cells in sequences)
    results = iter(judge_text(text))

    won, nothing, other = [], [], []
    for name, (size, stones, resigned) in games.items():
        verdict = {colour: next(results) for colour in "WB"}
        if not verdict["W"] and not verdict["B"]:
            nothing.append(name)
            continue
        last = stones[-1][0]
        loser = "B" if last == "W" else "W"
        own_stones = sum(owner == last for owner, _ in stones)
        if verdict[last].move == own_stones and not verdict[loser] and not resigned:
            won.append(name)
        else:
            other.append((name, verdict))
    assert other == []
    assert len(won) == WON_BY_LAST_STONE
    assert len(nothing) == NOTHING_BUILT
