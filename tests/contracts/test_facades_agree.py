"""The two games' modules offer the same functions with the same arguments
where they do the same thing."""
import inspect

import pytest

from havhex import havannah, hex as hx

SHARED = ("judge_text", "judge_file", "explain_text", "explain_file", "iter_explain_file",
          "format_results", "Explanation", "Result", "MAX_SIZE")
TEXTS = {havannah: "2\n2 2\n1 1\n1 2\n3 3\n1 1\n2 2\n3 3\n", hx: "2\n1\nR\n2\nBR\n..\n"}


def test_both_games_export_the_shared_names():
    for module in (havannah, hx):
        for name in SHARED:
            assert name in module.__all__, (module.__name__, name)
            assert hasattr(module, name)


def test_shared_functions_take_the_same_arguments():
    for name in SHARED[:5]:
        ours = inspect.signature(getattr(havannah, name))
        theirs = inspect.signature(getattr(hx, name))
        assert ours == theirs, (name, ours, theirs)
    assert "progress" in inspect.signature(havannah.explain_file).parameters


@pytest.mark.parametrize("module", [havannah, hx])
def test_explain_file_reports_progress_as_judge_file_does(tmp_path, module):
    path = tmp_path / "input.txt"
    path.write_text(TEXTS[module])
    calls = []
    explained = module.explain_file(path, progress=lambda *counts: calls.append(counts))
    assert explained == module.explain_file(path)
    assert calls and all(len(counts) == 3 for counts in calls)
    assert calls[-1] == (path.stat().st_size, 2, 2)
