"""The round advisor: the decisions of a round before the move, as pure data for the renderers.

- :mod:`.placing`: the joint plan (my counters and my route together) and the placement to make now, against an
  opponent's replies;
- :mod:`.drawing`: which counter to draw, from the face-up display or blind;
- :mod:`.obstacle`: where my one obstacle of the game hurts the leader most, from sampled opponent hands;
- :mod:`.keeping`: at the end of the round, which counter and cards to keep and where to end, for the next round;
- :mod:`.pools`: what I cannot see (the unseen counters and cards) and seeded samples of it.
"""
