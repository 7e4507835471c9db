"""A remote bot for fault tests: always the server's own default action.

Its choices depend only on what it is shown, and equal what the server applies at a
timeout, so a tournament played through faults (a lost decision, a replayed board)
must end exactly as an undisturbed one.
"""

import sdk


class FirstLegal(sdk.Bot):
    def act(self, obs):
        return obs.first_action()
