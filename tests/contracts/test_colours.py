"""One colour encoding: the API and the JSON records name a colour by its
lowercase name ("red", "blue"), never by the input's letter; the contest's
output ("Red wins") stays as it is."""
import json

from havhex import hex as hx

# A win for each colour, and a no-single-last-move position (two red chains).
RED_WINS = ["R..", "RB.", "RB."]
BLUE_WINS = ["BBB", "RR.", "..."]
TWO_RED_CHAINS = ["RBB.R", "RBB.R", "RBB.R", "RBB.R", "RB..R"]


def test_the_record_names_the_winner_as_the_result_does():
    for rows, colour in ((RED_WINS, "red"), (BLUE_WINS, "blue")):
        explanation = hx.explain(rows)
        record = hx.explanation_record(explanation)
        assert explanation.result.winner == colour
        assert record["winner"] == colour
        assert [chain_colour for chain_colour, _ in explanation.chains] == [colour]


def test_every_colour_the_api_gives_is_a_lowercase_name():
    for rows in (RED_WINS, BLUE_WINS, TWO_RED_CHAINS):
        explanation = hx.explain(rows)
        colours = {colour for colour, _ in explanation.chains}
        assert colours and colours <= {"red", "blue"}, colours


def test_json_output_names_colours_and_text_output_is_the_contests(tmp_path, cli):
    text = "2\n" + "".join(f"{len(rows)}\n" + "\n".join(rows) + "\n" for rows in (RED_WINS, BLUE_WINS))
    path = tmp_path / "in.txt"
    path.write_text(text)
    done = cli("hex", "--format", "json", path)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [record["winner"] for record in records] == ["red", "blue"]
    done = cli("hex", path)
    assert done.stdout == b"Case #1: Red wins\nCase #2: Blue wins\n"
