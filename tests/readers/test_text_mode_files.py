"""Open files in text mode are read as their text (encoded as UTF-8); a text
file that cannot be decoded, a text given where a file is wanted, or an
object that is no file at all are each one clear error."""
import io

import pytest

from havhex import InputError, havannah, hex as hx

GAMES = (
    (havannah, "2\n2 2\n1 1\n1 2\n3 3\n1 1\n2 2\n3 3\n"),
    (hx, "2\n1\nR\n2\nBR\n..\n"),
)


@pytest.mark.parametrize("module, text", GAMES)
def test_text_mode_files_judge_as_binary_ones(tmp_path, module, text):
    path = tmp_path / "input.txt"
    path.write_bytes(text.encode())
    expected = module.judge_file(path)
    with open(path) as file:
        assert module.judge_file(file) == expected
    with open(path, encoding="latin-1") as file:
        assert module.judge_file(file) == expected
    with open(path) as file:
        assert module.explain_file(file) == module.explain_file(path)
    with open(path) as file:
        assert list(module.iter_explain_file(file)) == list(module.iter_explain_file(path))
    assert module.judge_file(io.StringIO(text)) == expected


@pytest.mark.parametrize("module, text", GAMES)
def test_a_text_file_that_cannot_be_decoded_says_to_open_it_in_binary_mode(tmp_path, module, text):
    path = tmp_path / "input.txt"
    path.write_bytes(text.encode() + b"\xff\n")
    with open(path, encoding="utf-8") as file:
        with pytest.raises(InputError) as caught:
            module.judge_file(file)
    message = str(caught.value)
    assert message.startswith(f"{path}: cannot read: the text is not valid utf-8"), message
    assert 'open the file in binary mode ("rb")' in message
    assert caught.value.source == str(path)
    with open(path, "rb") as file:         # in binary mode: the reader's own fault
        with pytest.raises(InputError, match=r"unexpected data after the last test case: '\\xff'"):
            module.judge_file(file)


@pytest.mark.parametrize("module, text", GAMES)
def test_a_file_given_as_text_is_a_type_error_that_names_judge_file(tmp_path, module, text):
    path = tmp_path / "input.txt"
    path.write_text(text)
    for function in (module.judge_text, module.explain_text):
        for mode in ("r", "rb"):
            with open(path, mode) as file:
                with pytest.raises(TypeError, match=r"^text must be str or bytes-like, not "
                                                    r"\w+ \(judge_file and explain_file read a file\)$"):
                    function(file)
        with pytest.raises(TypeError, match=r"^text must be str or bytes-like, not int$"):
            function(3)


@pytest.mark.parametrize("module, text", GAMES)
def test_what_is_not_a_file_is_a_type_error(module, text):
    for function in (module.judge_file, module.explain_file):
        for file, kind in ((3, "int"), (None, "NoneType"), ([text], "list")):
            with pytest.raises(TypeError, match=f"^file must be a path, \"-\" \\(standard input\\) "
                                                f"or an open file, not {kind}$"):
                function(file)


class _ReadsNumbers:
    name = "numbers"

    def read(self, size):
        return [1, 2, 3]


@pytest.mark.parametrize("module, text", GAMES)
def test_a_read_that_returns_neither_bytes_nor_str_is_named(module, text):
    with pytest.raises(TypeError, match=r"^the file's read\(\) must return bytes or str, not list$"):
        module.judge_file(_ReadsNumbers())


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_a_directory_is_named_without_a_line(game, tmp_path):
    """The API, as the CLI, says a directory is one, with no line number:
    reading a directory fails only at its first read, at 'line 1'."""
    module = havannah if game == "havannah" else hx
    with pytest.raises(InputError) as raised:
        module.judge_file(tmp_path)
    assert str(raised.value) == f"{tmp_path}: is a directory"
