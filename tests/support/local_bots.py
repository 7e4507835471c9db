"""Small ``sdk.Bot`` subclasses entered as local bots (``cinch tournament --bots tests/support/local_bots.py:FirstLegal``)."""

import sdk


class FirstLegal(sdk.Bot):
    """The first legal action, every time (a rob made concrete, as the server's default
    action makes it): the simplest bot that plays whole hands without a fault."""

    def act(self, obs):
        return obs.first_action()


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
