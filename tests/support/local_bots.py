"""Small ``sdk.Bot`` subclasses entered as local bots (``cinch tournament --bots tests/support/local_bots.py:FirstLegal``)."""

import sdk


class FirstLegal(sdk.Bot):
    """The first legal action, every time: the simplest bot that plays whole hands."""

    def act(self, obs):
        return dict(obs.legal[0])


class Illegal(sdk.Bot):
    """Answers with an action that is never legal."""

    def act(self, obs):
        return {"type": "bid", "amount": 99}


class Crashes(sdk.Bot):
    def act(self, obs):
        raise RuntimeError("bug in the bot")


class NotABot:
    def act(self, obs):
        return obs.legal[0]
