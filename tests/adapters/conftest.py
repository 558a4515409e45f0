"""A game registered at run time, for the adapters' tests."""
import copy

import pytest


@pytest.fixture
def other_game():
    """Hex's descriptor under another name and title (of two words, which
    the ids and the class names write as one), registered with
    havhex.games for the test and taken out of the registry after it."""
    from havhex import games

    # A copy keeps every field of Hex's descriptor, the batch among them,
    # whatever fields the descriptor has.
    descriptor = copy.copy(games.get("hex"))
    descriptor.name, descriptor.title = "otherhex", "Other Hex"
    games.register(descriptor)
    try:
        yield descriptor
    finally:
        games._found.pop(descriptor.name, None)
