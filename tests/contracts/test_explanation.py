"""One explanation type for both games: every ``explain*`` function of
havhex.havannah and havhex.hex gives a havhex.Explanation, immutable, with
attribute access, equality, hashing, pickling, a repr that rebuilds it, and
``to_dict()``, the record ``--format json`` prints."""
import copy
import json
import pickle

import pytest

import havhex
from havhex import Explanation, havannah, hex as hx

RING = [(2, 2), (2, 3), (3, 4), (4, 4), (4, 3), (3, 2)]
HAVANNAH_TEXT = "3\n2 2\n1 1\n1 2\n4 6\n" + "".join(f"{x} {y}\n" for x, y in RING) + "3 1\n2 2\n"
HEX_BOARDS = (["R..", "RB.", "RB."], ["BR", "BB"], ["RBB.R", "RBB.R", "RBB.R", "RBB.R", "RB..R"], ["."])
HEX_TEXT = f"{len(HEX_BOARDS)}\n" + "".join(f"{len(b)}\n" + "\n".join(b) + "\n" for b in HEX_BOARDS)


def _every_explanation(tmp_path):
    """(game, explanations) from every explain* function of both games."""
    havannah_path = tmp_path / "havannah.in"
    havannah_path.write_text(HAVANNAH_TEXT)
    hex_path = tmp_path / "hex.in"
    hex_path.write_text(HEX_TEXT)
    yield "havannah", [havannah.explain(2, [(1, 1), (1, 2)]), havannah.explain(4, RING),
                       havannah.explain(3, [(2, 2)])]
    yield "havannah", havannah.explain_text(HAVANNAH_TEXT)
    yield "havannah", havannah.explain_file(havannah_path)
    yield "havannah", list(havannah.iter_explain_file(havannah_path))
    yield "hex", [hx.explain(rows) for rows in HEX_BOARDS]
    yield "hex", hx.explain_text(HEX_TEXT)
    yield "hex", hx.explain_file(hex_path, threads=2)
    yield "hex", list(hx.iter_explain_file(hex_path))


def test_both_games_explain_with_the_one_type(tmp_path):
    assert havannah.Explanation is hx.Explanation is havhex.Explanation
    games = set()
    for game, explanations in _every_explanation(tmp_path):
        assert explanations
        for explanation in explanations:
            # One type to the user; the evidence and the record are the
            # game's subclass's (the leaf names no game).
            assert isinstance(explanation, Explanation)
            assert type(explanation).GAME == game
            assert explanation.game == game
            assert explanation.answer == str(explanation.result)
            games.add(game)
    assert games == {"havannah", "hex"}


def test_case_numbers_come_from_the_input_and_are_none_for_one_board(tmp_path):
    for game, explanations in _every_explanation(tmp_path):
        cases = [explanation.case for explanation in explanations]
        assert cases == [None] * len(cases) or cases == list(range(1, len(cases) + 1))
    assert havannah.explain(2, [(1, 1)]).case is None
    assert [e.case for e in hx.explain_text(HEX_TEXT)] == [1, 2, 3, 4]


def test_havannah_evidence_is_read_as_attributes():
    ring = havannah.explain(4, RING)
    assert ring.result == havannah.first_win(4, RING)
    assert ring.bridge is None and ring.fork is None
    assert ring.ring == ((3, 2), (4, 3), (4, 4), (3, 4), (2, 3), (2, 2))
    assert ring.enclosed_runs == ((3, 3, 3),)
    bridge = havannah.explain(2, [(1, 1), (1, 2)])
    assert bridge.bridge == ((1, 1), (1, 2)) and bridge.ring is None
    nothing = havannah.explain(3, [(2, 2)])
    assert not nothing.result and (nothing.bridge, nothing.fork, nothing.ring) == (None, None, None)
    with pytest.raises(AttributeError, match="chains"):
        ring.chains            # Hex's evidence


def test_hex_evidence_is_read_as_attributes():
    win = hx.explain(["R..", "RB.", "RB."])
    assert win.result == hx.judge(["R..", "RB.", "RB."])
    assert (win.red_stones, win.blue_stones) == (3, 2)
    assert win.chains == (("red", ((0, 0), (1, 0), (2, 0))),)
    two = hx.explain(HEX_BOARDS[2])
    assert two.result.reason == "no-single-last-move"
    assert [colour for colour, _ in two.chains] == ["red", "red"]
    with pytest.raises(AttributeError, match="bridge"):
        win.bridge             # Havannah's evidence


def test_explanations_are_immutable_and_hashable(tmp_path):
    for _, explanations in _every_explanation(tmp_path):
        for explanation in explanations:
            for name in ("game", "case", "result", "answer", "bridge", "chains", "other"):
                with pytest.raises(AttributeError):
                    setattr(explanation, name, 1)
            with pytest.raises(AttributeError):
                del explanation.result
            assert hash(explanation) == hash(copy.deepcopy(explanation))


def test_equality_pickling_and_repr(tmp_path):
    namespaces = {"havannah": {"Explanation": Explanation, "Result": havannah.Result},
                  "hex": {"Explanation": Explanation, "Result": hx.Result}}
    for game, explanations in _every_explanation(tmp_path):
        for explanation in explanations:
            for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
                again = pickle.loads(pickle.dumps(explanation, protocol))
                assert again == explanation and again.to_dict() == explanation.to_dict()
            shown = repr(explanation)
            assert shown.startswith(f"Explanation(game={game!r}, case=")
            assert eval(shown, namespaces[game]) == explanation
    # Explanations differ by their case number, their game and their evidence.
    first, second = havannah.explain_text("2\n2 2\n1 1\n1 2\n2 2\n1 1\n1 2\n")
    assert first != second and first.result == second.result
    assert havannah.explain(4, RING) != havannah.explain(4, RING[:5])
    assert havannah.explain(3, [(2, 2)]) != hx.explain(["."])
    assert (havannah.explain(4, RING) == 1) is False


def test_to_dict_is_the_json_record(tmp_path, cli):
    ring = havannah.explain(4, RING).to_dict()
    assert ring == {"answer": "ring in move 6", "move": 6, "kinds": ["ring"],
                    "ring": {"loop": [[3, 2], [4, 3], [4, 4], [3, 4], [2, 3], [2, 2]],
                             "enclosed_runs": [[3, 3, 3]]}}
    assert list(ring) == ["answer", "move", "kinds", "ring"]
    assert havannah.explain(3, [(2, 2)]).to_dict() == {"answer": "none", "move": None, "kinds": []}
    records = [e.to_dict() for e in hx.explain_text(HEX_TEXT)]
    assert records == [
        {"case": 1, "answer": "Red wins", "winner": "red", "chain": [[0, 0], [1, 0], [2, 0]],
         "last_moves": [[0, 0], [1, 0], [2, 0]]},
        {"case": 2, "answer": "Impossible", "reason": "counts"},
        {"case": 3, "answer": "Impossible", "reason": "no-single-last-move",
         "chains": [[[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]], [[0, 4], [1, 4], [2, 4], [3, 4], [4, 4]]]},
        {"case": 4, "answer": "Nobody wins"},
    ]
    assert hx.explanation_record(hx.explain(HEX_BOARDS[1]), 2) == records[1]
    for game, text in (("havannah", HAVANNAH_TEXT), ("hex", HEX_TEXT)):
        path = tmp_path / f"{game}.in"
        path.write_text(text)
        done = cli(game, "--format", "json", path)
        assert done.returncode == 0, done.stderr
        module = havannah if game == "havannah" else hx
        assert done.stdout.decode().splitlines() == [
            json.dumps({"file": str(path), **e.to_dict()}, separators=(", ", ": "))
            for e in module.explain_file(path)]


def test_the_constructor_checks_its_fields():
    result = havannah.first_win(4, RING)
    made = Explanation("havannah", result, case=3, bridge=None, fork=None,
                       ring=[[3, 2], [4, 3], [4, 4], [3, 4], [2, 3], [2, 2]], enclosed_runs=[[3, 3, 3]])
    assert made == havannah.explain_text("3\n2 1\n1 1\n2 1\n1 1\n4 6\n" + "".join(
        f"{x} {y}\n" for x, y in RING))[2]
    hash(made)                  # lists are made tuples
    with pytest.raises(ValueError, match="game must be one of"):
        Explanation("go", result)
    with pytest.raises(TypeError, match="takes the evidence bridge, fork, ring, enclosed_runs"):
        Explanation("havannah", result, chains=())
    with pytest.raises(ValueError, match="case must be >= 1"):
        Explanation("hex", hx.judge(["."]), case=0, red_stones=0, blue_stones=0, chains=())
    with pytest.raises(TypeError, match="case must be an integer"):
        Explanation("hex", hx.judge(["."]), case=1.0, red_stones=0, blue_stones=0, chains=())
