"""Descriptor.batch: where a game's batched environment is, the one thing
the adapters take from the registry."""
import copy

import pytest

import needs


@pytest.mark.parametrize("game", ["hex", "havannah"])
def test_each_built_in_game_names_its_batch_module(game):
    needs.module("numpy")
    from havhex import games

    descriptor = games.get(game)
    assert descriptor.batch == f"havhex.{game}.batch"
    module = descriptor.batch_module()
    assert module.__name__ == descriptor.batch
    assert {"own", "opponent"} <= set(module.PLANES)
    made = module.Batch(2, seed=0)
    assert made.observation_shape[-1] == len(module.PLANES)


def test_a_game_without_a_batch_says_so():
    from havhex import games
    from havhex.descriptor import Descriptor

    descriptor = copy.copy(games.get("hex"))
    descriptor.batch = None
    with pytest.raises(ValueError, match="hex has no batched environment"):
        descriptor.batch_module()
    # The field is keyword-only and None unless given.
    built = Descriptor(name="made", title="Made", players=("a", "b"), swap_move="swap",
                       default_size=3, min_size=1, max_size=5, new_board=None,
                       board_size=None, win_reason=None,
                       engines={"havhex": games.get("hex").engines["havhex"]})
    assert built.batch is None
