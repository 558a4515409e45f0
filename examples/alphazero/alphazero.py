"""A small AlphaZero loop on havhex's batches, in NumPy alone: self-play by
havhex.search.BatchSearch with the network as its evaluator, training on the
positions it played, and evaluation against the uniform random player and
against havhex's own engine (havhex.search.Search at a few playouts a move).

    python examples/alphazero/alphazero.py hex --size 7 --minutes 30
    python examples/alphazero/alphazero.py havannah --size 4 --minutes 30

Each iteration plays ``--games`` games at once with ``--simulations`` a move
(the Gumbel rule: few simulations suffice), trains ``--epochs`` passes over
the positions of the last iterations, and every ``--evaluate-every``
iterations plays the network (searching with ``--eval-simulations``)
against the two opponents, seats taken in turn.  The log, one line an
iteration, goes to ``OUT/log.csv`` (time, loss, win rates), the network to
``OUT/network.npz``, the last self-play games to ``OUT/games.sgf`` (or
``.hgf``), and the strength over time to ``OUT/strength.svg``.

The network: the observation's planes, flattened, through one hidden layer
of ``--hidden`` ReLU units to a policy head (one logit an action) and a
value head (tanh); trained by Adam on the policy's cross-entropy with the
search's targets plus the value's squared error with the game's outcome.
It is small on purpose: the loop, not the network, is what this shows.
"""
import argparse
import csv
import os
import sys
import time

import numpy as np

from havhex.havannah import Batch as HavannahBatch
from havhex.hex import Batch as HexBatch
from havhex.search import BatchSearch, Search, self_play


class Network:
    """Observation -> (policy logits, value), with its own Adam state."""

    def __init__(self, inputs, actions, hidden, seed, rate=1e-3):
        rng = np.random.default_rng(seed)
        self.params = {
            "w1": rng.normal(0, np.sqrt(2 / inputs), (inputs, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "wp": rng.normal(0, np.sqrt(1 / hidden), (hidden, actions)).astype(np.float32),
            "bp": np.zeros(actions, np.float32),
            "wv": rng.normal(0, np.sqrt(1 / hidden), (hidden, 1)).astype(np.float32),
            "bv": np.zeros(1, np.float32),
        }
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.rate = rate
        self.steps = 0

    def forward(self, observations):
        x = observations.reshape(len(observations), -1).astype(np.float32)
        p = self.params
        h = np.maximum(x @ p["w1"] + p["b1"], 0)
        logits = h @ p["wp"] + p["bp"]
        value = np.tanh(h @ p["wv"] + p["bv"])[:, 0]
        return x, h, logits, value

    def evaluate(self, observations, legal_mask):
        """BatchSearch's evaluator: the logits (illegal actions at minus
        infinity) and the values."""
        _, _, logits, value = self.forward(observations)
        return np.where(legal_mask, logits, -np.inf), value

    def loss(self, observations, masks, policies, outcomes):
        _, _, logits, value = self.forward(observations)
        logits = np.where(masks, logits, -1e9)
        logits = logits - logits.max(axis=1, keepdims=True)
        log_p = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        policy_loss = -(policies * np.where(masks, log_p, 0)).sum(axis=1).mean()
        return float(policy_loss + ((value - outcomes) ** 2).mean())

    def train_step(self, observations, masks, policies, outcomes):
        """One Adam step on a minibatch; the loss before it."""
        x, h, logits, value = self.forward(observations)
        n = len(x)
        logits = np.where(masks, logits, -1e9)
        logits = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        prob = e / e.sum(axis=1, keepdims=True)
        log_p = np.log(np.maximum(prob, 1e-30))
        loss = -(policies * np.where(masks, log_p, 0)).sum(axis=1).mean() + \
            ((value - outcomes) ** 2).mean()
        # The gradients, by hand: softmax cross-entropy, then tanh.
        d_logits = (prob * policies.sum(axis=1, keepdims=True) - policies) / n
        d_value = 2 * (value - outcomes) * (1 - value ** 2) / n
        p = self.params
        grads = {"wp": h.T @ d_logits, "bp": d_logits.sum(axis=0),
                 "wv": h.T @ d_value[:, None], "bv": np.array([d_value.sum()], np.float32)}
        d_h = (d_logits @ p["wp"].T + d_value[:, None] @ p["wv"].T) * (h > 0)
        grads["w1"] = x.T @ d_h
        grads["b1"] = d_h.sum(axis=0)
        self.steps += 1
        for key, grad in grads.items():
            m, v = self.moments[key]
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            m_hat = m / (1 - 0.9 ** self.steps)
            v_hat = v / (1 - 0.999 ** self.steps)
            p[key] -= (self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        return float(loss)

    def save(self, path):
        np.savez(path, **self.params)


def make_batch(game, size, n, seed):
    if game == "hex":
        return HexBatch(n, size=size, seed=seed, swap=False)
    return HavannahBatch(n, base=size, seed=seed)


def play_against(network, opponent, game, size, n, simulations, seed):
    """The network's share of ``n`` games against ``opponent`` ("random" or
    an int: the engine's playouts a move), the network's seat alternating;
    a draw counts half."""
    batch = make_batch(game, size, n, seed)
    batch.reset(seed=seed)
    search = BatchSearch(batch, simulations=simulations, evaluator=network.evaluate,
                         seed=seed, gumbel_scale=0)
    seats = np.arange(n) % 2          # the network's seat in each game
    boards = [batch.empty_board() for _ in range(n)]
    active = np.ones(n, bool)
    score = np.zeros(n)
    rng = np.random.default_rng(seed)
    while active.any():
        to_move = np.asarray(batch.current_player)
        mine = active & (to_move == seats)
        actions = batch.sample_actions().copy()
        if mine.any():
            actions[mine] = search.search(games=mine).actions[mine]
        if opponent != "random":
            for game_index in np.flatnonzero(active & ~mine):
                board = boards[game_index]
                best = Search(board, seed=int(rng.integers(1 << 62))).run(
                    simulations=opponent).best_move
                actions[game_index] = board.action_of(best)
        for game_index in np.flatnonzero(active):
            boards[game_index].play_action(int(actions[game_index]))
        batch.step(actions)
        ended = active & np.asarray(batch.terminated, bool)
        winners = np.asarray(batch.winner)
        score[ended] = np.where(winners[ended] == seats[ended], 1.0,
                                np.where(winners[ended] < 0, 0.5, 0.0))
        active &= ~ended
    return float(score.mean())


def strength_svg(rows, path):
    """The win rates over training time, as a small SVG of its own."""
    width, height, pad = 640, 320, 40
    times = [float(r["seconds"]) for r in rows] or [0.0]
    span = max(times[-1], 1e-9)
    lines = []
    for key, colour in (("win_random", "#1f77b4"), ("win_engine", "#d62728")):
        points = [(pad + (width - 2 * pad) * float(r["seconds"]) / span,
                   height - pad - (height - 2 * pad) * float(r[key]))
                  for r in rows if r.get(key) not in ("", None)]
        if points:
            text = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            lines.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
                         f'points="{text}"/>')
    with open(path, "w") as out:
        out.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
                  f'<rect width="100%" height="100%" fill="white"/>'
                  f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
                  f'stroke="black"/><line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" '
                  f'stroke="black"/>'
                  f'<text x="{pad}" y="{pad - 10}">win rate (blue: random, red: engine) '
                  f'over {span:.0f} s</text>' + "".join(lines) + "</svg>\n")


def run(arguments):
    options = parse(arguments)
    os.makedirs(options.out, exist_ok=True)
    batch = make_batch(options.game, options.size, options.games, options.seed)
    inputs = int(np.prod(batch.observation_shape))
    network = Network(inputs, batch.num_actions, options.hidden, options.seed, options.rate)
    buffer = []
    rows = []
    start = time.perf_counter()
    log_path = os.path.join(options.out, "log.csv")
    fields = ["iteration", "seconds", "positions", "loss_before", "loss_after", "win_random",
              "win_engine"]
    with open(log_path, "w", newline="") as log_file:
        log = csv.DictWriter(log_file, fields)
        log.writeheader()
        for iteration in range(1, options.iterations + 1):
            batch.reset(seed=options.seed + iteration)
            search = BatchSearch(batch, simulations=options.simulations,
                                 evaluator=network.evaluate, seed=options.seed + iteration)
            played = self_play(search)
            buffer.append((played.observations, played.legal_masks, played.policies,
                           played.outcomes))
            buffer = buffer[-options.window:]
            data = [np.concatenate(part) for part in zip(*buffer)]
            before = network.loss(*data)
            rng = np.random.default_rng(options.seed + iteration)
            for _ in range(options.epochs):
                order = rng.permutation(len(data[0]))
                for first in range(0, len(order), options.minibatch):
                    pick = order[first:first + options.minibatch]
                    network.train_step(*(part[pick] for part in data))
            after = network.loss(*data)
            row = {"iteration": iteration, "seconds": round(time.perf_counter() - start, 2),
                   "positions": len(data[0]), "loss_before": round(before, 4),
                   "loss_after": round(after, 4), "win_random": "", "win_engine": ""}
            if options.evaluate_every and iteration % options.evaluate_every == 0:
                row["win_random"] = play_against(network, "random", options.game, options.size,
                                                 options.eval_games, options.eval_simulations,
                                                 options.seed + 7 * iteration)
                row["win_engine"] = play_against(network, options.engine_playouts,
                                                 options.game, options.size,
                                                 options.eval_games, options.eval_simulations,
                                                 options.seed + 11 * iteration)
            log.writerow(row)
            log_file.flush()
            rows.append(row)
            print(", ".join(f"{k} {v}" for k, v in row.items() if v != ""), flush=True)
            with open(os.path.join(options.out, "games" + (".sgf" if options.game == "hex"
                                                            else ".hgf")), "w") as games:
                games.write(played.records_text())
            network.save(os.path.join(options.out, "network.npz"))
            if options.minutes and time.perf_counter() - start > 60 * options.minutes:
                break
    strength_svg([r for r in rows if r["win_random"] != ""], os.path.join(options.out,
                                                                          "strength.svg"))
    return rows


def parse(arguments):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=["hex", "havannah"])
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--games", type=int, default=256, help="games a self-play iteration")
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--iterations", type=int, default=10_000)
    parser.add_argument("--minutes", type=float, default=30.0, help="0: no limit")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--window", type=int, default=8, help="iterations kept for training")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--rate", type=float, default=1e-3)
    parser.add_argument("--evaluate-every", type=int, default=5)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--eval-simulations", type=int, default=64)
    parser.add_argument("--engine-playouts", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="alphazero-run")
    return parser.parse_args(arguments)


if __name__ == "__main__":
    run(sys.argv[1:])
