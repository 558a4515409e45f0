"""Peer benchmark: DeepMind mctx batched MCTS on pgx Hex 11x11, CPU only.

The script measures the throughput of ``mctx.gumbel_muzero_policy`` and
``mctx.muzero_policy`` on a batch of Hex positions from ``pgx.make("hex")``.
The evaluator is trivial: uniform prior (zero logits, illegal actions masked)
and value 0, so the numbers reflect search plus environment stepping cost,
with no network in the loop.

For every (policy, batch, num_simulations) combination it

* builds a batch of root positions: ``env.init`` with a batch of keys, then
  ``--random-plies`` uniformly random legal moves per board;
* jit-compiles the whole policy call ahead of time and reports the compile
  time (lower + compile) separately;
* calls the compiled function ``--repeats`` times, each with a fresh key,
  waits on the result with ``jax.block_until_ready`` and reports the median
  wall time per call, simulations/s = batch * num_simulations / seconds and
  moves/s = batch / seconds (one policy call chooses one move per board).

Usage (in a venv of its own: JAX is no dependency of havhex)::

    python -m venv mctx-venv && mctx-venv/bin/pip install "jax[cpu]" mctx pgx numpy
    mctx-venv/bin/python bench/peers/mctx_peer.py
    mctx-venv/bin/python bench/peers/mctx_peer.py \
        --batch-sizes 1024 --simulations 128 --repeats 5 --json out.json

havhex's own figures at the same settings: bench/test_batch_search_speed.py.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

# CPU only: the script never looks for an accelerator.
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import mctx  # noqa: E402
import pgx  # noqa: E402

POLICIES = ("gumbel_muzero", "muzero")


def masked_uniform_logits(legal_action_mask: jax.Array) -> jax.Array:
    """Returns zero logits for legal actions and the float minimum elsewhere."""
    zeros = jnp.zeros(legal_action_mask.shape, dtype=jnp.float32)
    return jnp.where(legal_action_mask, zeros, jnp.finfo(jnp.float32).min)


def make_root_fn_output(state: pgx.State) -> mctx.RootFnOutput:
    """Builds the root output of the trivial evaluator for a batch of states."""
    batch = state.legal_action_mask.shape[0]
    return mctx.RootFnOutput(
        prior_logits=masked_uniform_logits(state.legal_action_mask),
        value=jnp.zeros((batch,), dtype=jnp.float32),
        embedding=state,
    )


def make_recurrent_fn(env: pgx.Env):
    """Returns an mctx recurrent_fn that steps the pgx environment.

    The embedding is the batched pgx ``State``. After the step, ``reward`` is
    the reward of the player who moved, ``discount`` is -1 (two-player,
    zero-sum, alternating turns: the child's value is from the opponent's
    point of view) and 0 once the game is over, so nothing is bootstrapped
    past a terminal state. The evaluator value is 0 everywhere.
    """
    batched_step = jax.vmap(env.step)

    def recurrent_fn(params, rng_key, action, state):
        del params, rng_key  # The trivial evaluator uses neither.
        mover = state.current_player
        next_state = batched_step(state, action)
        batch = action.shape[0]
        reward = next_state.rewards[jnp.arange(batch), mover]
        discount = jnp.where(next_state.terminated, 0.0, -1.0).astype(jnp.float32)
        output = mctx.RecurrentFnOutput(
            reward=reward.astype(jnp.float32),
            discount=discount,
            prior_logits=masked_uniform_logits(next_state.legal_action_mask),
            value=jnp.zeros((batch,), dtype=jnp.float32),
        )
        return output, next_state

    return recurrent_fn


def make_roots(env: pgx.Env, batch: int, random_plies: int, seed: int) -> pgx.State:
    """Resets ``batch`` boards and plays ``random_plies`` random legal moves on each."""
    init_key, play_key = jax.random.split(jax.random.PRNGKey(seed))
    state = jax.vmap(env.init)(jax.random.split(init_key, batch))
    batched_step = jax.vmap(env.step)

    @jax.jit
    def random_ply(state, key):
        keys = jax.random.split(key, batch)
        logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
        action = jax.vmap(jax.random.categorical)(keys, logits)
        return batched_step(state, action)

    for key in jax.random.split(play_key, random_plies):
        state = random_ply(state, key)
    return jax.block_until_ready(state)


def make_search(env: pgx.Env, policy: str, num_simulations: int):
    """Returns a function (rng_key, root_state) -> mctx.PolicyOutput to be jitted."""
    recurrent_fn = make_recurrent_fn(env)
    policy_fn = {
        "gumbel_muzero": mctx.gumbel_muzero_policy,
        "muzero": mctx.muzero_policy,
    }[policy]

    def search(rng_key, state):
        return policy_fn(
            params=None,
            rng_key=rng_key,
            root=make_root_fn_output(state),
            recurrent_fn=recurrent_fn,
            num_simulations=num_simulations,
            invalid_actions=~state.legal_action_mask,
        )

    return search


def bench_one(env, roots, policy, batch, num_simulations, repeats, seed):
    """Compiles and times one configuration; returns a result dict."""
    search = make_search(env, policy, num_simulations)
    key = jax.random.PRNGKey(seed)

    t0 = time.perf_counter()
    compiled = jax.jit(search).lower(key, roots).compile()
    compile_s = time.perf_counter() - t0

    times = []
    for call_key in jax.random.split(key, repeats):
        t0 = time.perf_counter()
        out = compiled(call_key, roots)
        jax.block_until_ready(out)
        times.append(time.perf_counter() - t0)
    # A sanity check that the chosen actions are legal at the roots.
    chosen_legal = bool(jnp.all(roots.legal_action_mask[jnp.arange(batch), out.action]))

    median_s = statistics.median(times)
    return {
        "policy": policy,
        "batch": batch,
        "num_simulations": num_simulations,
        "compile_s": compile_s,
        "call_s": times,
        "median_s": median_s,
        "sims_per_s": batch * num_simulations / median_s,
        "moves_per_s": batch / median_s,
        "chosen_actions_legal": chosen_legal,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policies", nargs="+", default=list(POLICIES), choices=POLICIES)
    parser.add_argument("--batch-sizes", nargs="+", type=int, default=[64, 256, 1024])
    parser.add_argument("--simulations", nargs="+", type=int, default=[32, 128])
    parser.add_argument("--repeats", type=int, default=3, help="timed calls after compilation")
    parser.add_argument("--random-plies", type=int, default=10,
                        help="random legal moves played from the empty board at each root")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args(argv)

    env = pgx.make("hex")
    versions = {
        "python": platform.python_version(),
        "jax": jax.__version__,
        "mctx": mctx.__version__,
        "pgx": pgx.__version__,
        "devices": [str(d) for d in jax.devices()],
        "cpu_count": os.cpu_count(),
    }
    print("# " + ", ".join(f"{k}={v}" for k, v in versions.items()), flush=True)
    print(f"# env=hex 11x11, num_actions={env.num_actions}, root plies={args.random_plies}, "
          f"repeats={args.repeats}", flush=True)

    header = f"{'policy':<14} {'batch':>5} {'sims':>5} {'compile_s':>9} " \
             f"{'median_s':>9} {'sims/s':>10} {'moves/s':>9}"
    print(header, flush=True)
    results = []
    for batch in args.batch_sizes:
        roots = make_roots(env, batch, args.random_plies, args.seed)
        for num_simulations in args.simulations:
            for policy in args.policies:
                r = bench_one(env, roots, policy, batch, num_simulations, args.repeats, args.seed)
                results.append(r)
                print(f"{policy:<14} {batch:>5} {num_simulations:>5} {r['compile_s']:>9.2f} "
                      f"{r['median_s']:>9.3f} {r['sims_per_s']:>10.0f} {r['moves_per_s']:>9.1f}"
                      + ("" if r["chosen_actions_legal"] else "  ILLEGAL ACTION CHOSEN"),
                      flush=True)

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"versions": versions, "args": vars(args), "results": results}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
