"""A Gymnasium loop over codecrack's Coda: a random policy against a masked-greedy one.

Run:  python examples/gym_masked_greedy.py [games]

Both policies only pick legal actions, read from the observation's action mask. "Greedy" here
is a readable stand-in for a trained policy: it takes the lowest-numbered legal slot, which in
Coda means the first guess on the board, and stops as soon as stopping is legal.
"""

import sys

import numpy as np

from codecrack.env.gym import make


def random_policy(observation, rng):
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def masked_greedy_policy(observation, rng):
    legal = np.flatnonzero(observation["action_mask"])
    stop = STOP if observation["action_mask"][STOP] else None
    return stop if stop is not None else int(legal[0])


env = make("coda", seat=0, opponents="random", players=2)
STOP = env.unwrapped.nature.actions.index({"type": "stop"})


def mean_reward(policy, games, seed=0):
    rng = np.random.default_rng(seed)
    total = 0.0
    for game in range(games):
        observation, _ = env.reset(seed=seed + game)
        done = False
        while not done:
            observation, reward, terminated, truncated, _ = env.step(policy(observation, rng))
            done = terminated or truncated
        total += reward
    return total / games


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for name, policy in (("random", random_policy), ("masked greedy", masked_greedy_policy)):
        print(f"{name:>14}: win share {mean_reward(policy, games):.2f} over {games} games vs random")
