"""Hypothesis strategies shared by the tests."""

from hypothesis import strategies as st

from evaluator.games import PRESETS

games = st.sampled_from(sorted(PRESETS)).map(PRESETS.get)
suit_permutations = st.permutations(range(4))


@st.composite
def deals(draw, game):
    """One player's hole cards and a board for ``game``: distinct cards."""
    cards = draw(st.permutations(range(52)))
    return cards[: game.hole_cards], cards[game.hole_cards : game.hole_cards + game.board_cards]
