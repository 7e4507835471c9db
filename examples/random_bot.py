"""The smallest complete bot: a uniformly random legal action for every decision.

python examples/random_bot.py --server http://127.0.0.1:8000 --token TOKEN
cinch bot run examples.random_bot:RandomBot --server http://127.0.0.1:8000 --token TOKEN
"""

import sdk


class RandomBot(sdk.Bot):
    def act(self, obs):
        return obs.random_action(self.rng)


if __name__ == "__main__":
    sdk.main(RandomBot)
