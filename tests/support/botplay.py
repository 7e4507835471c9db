"""Playing a hand through the wire layer with bots, for the bot tests."""

from server.engine import DONE, HandState, observation


def play_hand(rules, board, bots: dict, record: list | None = None) -> HandState:
    """One complete hand through the wire layer; ``apply`` refuses anything illegal."""
    state = HandState(rules, board)
    while state.phase != DONE:
        seat = state.seat_to_act()
        obs = observation(state, seat)
        action = bots[seat].decide(obs)
        if record is not None:
            record.append((obs, action))
        state.apply(action)
    return state
