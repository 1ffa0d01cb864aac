"""The whole game: an engine of immutable states (:mod:`.engine`, :mod:`.state`), bots that play from what they
may see (:mod:`.seats`), game records and their replay (:mod:`.record`), and self-play (:mod:`.selfplay`)."""
