"""The Little Golem archive replayed in OpenSpiel's Havannah (the
``openspiel`` extra; skipped without it): under the official rule, every
game ends in OpenSpiel exactly where ``havhex.records.replay`` says a
structure was completed, with the same winner, and the others do not end.
OpenSpiel's pie rule (``swap``) is the first cell played again."""
from pathlib import Path

import needs
from havhex import records

pyspiel = needs.module("pyspiel", need="openspiel")

LITTLE_GOLEM = Path(__file__).resolve().parents[2].parent / "shared" / "records" / "littlegolem-havannah"


def action_of(size, cell):
    x, y = cell
    return (x - 1) * (2 * size - 1) + (y - 1)


def test_little_golem_games_end_where_openspiel_ends_them():
    needs.shared("records", "littlegolem-havannah", need="records")
    spiel_games = {}
    compared = won = 0
    for path in sorted(LITTLE_GOLEM.glob("*.hgf")):
        for replayed in records.replay(path, "official"):
            game = replayed.record
            if game.size not in spiel_games:
                spiel_games[game.size] = pyspiel.load_game(
                    "havannah", {"board_size": game.size, "swap": True})
            state = spiel_games[game.size].new_initial_state()
            first = None
            ended_at = None
            number = 0
            for letter, move in game.moves:
                if move in ("resign", "forfeit"):
                    break
                number += 1
                cell = first if move == "swap" else move
                first = first or cell
                state.apply_action(action_of(game.size, cell))
                if state.is_terminal():
                    ended_at = number
                    break
            compared += 1
            if replayed.win is None:
                assert ended_at is None, (path, ended_at)
                continue
            won += 1
            assert ended_at == replayed.win.move, (path, ended_at, replayed.win)
            returns = state.returns()
            # OpenSpiel's player 0 moves first: Little Golem's W.
            assert ("W" if returns[0] > 0 else "B") == replayed.win.player, path
    assert compared == 2146 and won == 1056
