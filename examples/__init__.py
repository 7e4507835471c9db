"""Example bots for the SDK (``cinch bot run examples.random_bot:RandomBot``)."""
