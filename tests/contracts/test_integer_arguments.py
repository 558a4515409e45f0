"""Integer arguments of both games' functions: sizes and ``threads`` take
whatever ``operator.index`` takes (NumPy integers included) but bool, and
``threads`` is checked (an integer >= 0, 0 meaning every core, as ``-j 0``)
in every function that has it."""
import os

import pytest

import needs
from havhex import InputError, havannah, hex as hx

HAVANNAH_TEXT = "2\n2 2\n1 1\n1 2\n3 3\n1 1\n2 2\n3 3\n"
HEX_TEXT = "2\n1\nR\n2\nBR\n..\n"


class Index:
    """An integer that is not an int, as NumPy's are."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


def _threaded_calls(tmp_path):
    """(name, call(threads)) for every function of both games taking ``threads``."""
    havannah_file = tmp_path / "havannah.in"
    havannah_file.write_text(HAVANNAH_TEXT)
    hex_file = tmp_path / "hex.in"
    hex_file.write_text(HEX_TEXT)
    calls = []
    for module, text, path in ((havannah, HAVANNAH_TEXT, havannah_file), (hx, HEX_TEXT, hex_file)):
        game = module.__name__.rsplit(".", 1)[1]
        calls += [
            (f"{game}.judge_text", lambda t, m=module, x=text: m.judge_text(x, threads=t)),
            (f"{game}.explain_text", lambda t, m=module, x=text: m.explain_text(x, threads=t)),
            (f"{game}.judge_file", lambda t, m=module, p=path: m.judge_file(p, threads=t)),
            (f"{game}.explain_file", lambda t, m=module, p=path: m.explain_file(p, threads=t)),
            (f"{game}.iter_explain_file",
             lambda t, m=module, p=path: list(m.iter_explain_file(p, threads=t))),
        ]
    return calls


def test_every_threads_argument_refuses_negative_counts(tmp_path):
    for name, call in _threaded_calls(tmp_path):
        for threads in (-1, -100):
            with pytest.raises(ValueError, match=r"threads must be >= 0 \(0: every core\), got -"):
                call(threads)


def test_iter_explain_file_checks_threads_at_the_call(tmp_path):
    path = tmp_path / "in"
    path.write_text("0\n")
    for module in (havannah, hx):
        with pytest.raises(ValueError, match="threads must be >= 0"):
            module.iter_explain_file(path, threads=-1)     # no next() needed


def test_every_threads_argument_refuses_what_is_not_an_integer(tmp_path):
    for name, call in _threaded_calls(tmp_path):
        for threads, kind in ((2.5, "float"), ("2", "str"), (None, "NoneType"), (True, "bool")):
            with pytest.raises(TypeError, match=f"threads must be an integer, not {kind}"):
                call(threads)


def test_every_threads_argument_takes_index_integers_and_zero(tmp_path):
    for name, call in _threaded_calls(tmp_path):
        one = call(1)
        for threads in (Index(2), 0, 2):
            assert call(threads) == one, (name, threads)


def test_threads_zero_means_every_core(monkeypatch):
    from havhex._checks import thread_count

    monkeypatch.setattr(os, "cpu_count", lambda: 7)
    assert thread_count(0) == 7
    assert thread_count(3) == 3
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert thread_count(0) == 1


def test_havannah_sizes_take_index_integers():
    moves = [(1, 1), (1, 2)]
    for function in (havannah.first_win, havannah.enclosed_empty, havannah.enclosed_runs):
        assert function(Index(2), moves) == function(2, moves)
    assert havannah.explain(Index(2), moves) == havannah.explain(2, moves)
    ring = [(2, 2), (2, 3), (3, 4), (4, 4), (4, 3), (3, 2)]
    assert havannah.enclosed_empty(Index(4), ring) == [(3, 3)]
    assert havannah.enclosed_runs(Index(4), ring) == [(3, 3, 3)]


def test_havannah_sizes_take_numpy_integers():
    numpy = needs.module("numpy")
    moves = [(1, 1), (1, 2)]
    for dtype in (numpy.int64, numpy.int32, numpy.uint8):
        assert havannah.first_win(dtype(5), moves) == havannah.first_win(5, moves)
        assert str(havannah.first_win(dtype(2), moves)) == "bridge in move 2"


def test_havannah_sizes_refuse_bools_and_floats():
    for function in (havannah.first_win, havannah.enclosed_empty, havannah.enclosed_runs,
                     havannah.explain):
        for size, kind in ((True, "bool"), (5.0, "float"), ("5", "str")):
            with pytest.raises(TypeError, match=f"^size must be an integer, not {kind}$"):
                function(size, [(1, 1)])
        with pytest.raises(InputError, match="between 2 and"):
            function(Index(1), [(1, 1)])
