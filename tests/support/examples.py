"""How many examples a property test draws: the count it was tuned with, scaled by the
Hypothesis profile in force (``tests/conftest.py``), so the unit lane checks fewer and CI more."""

from hypothesis import settings

TUNED_AT = 100  # Hypothesis's own max_examples, the default the tests' counts were tuned under


def examples(count: int) -> int:
    return max(1, count * settings.default.max_examples // TUNED_AT)
