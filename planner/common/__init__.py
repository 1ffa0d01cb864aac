"""What both games share: forgiving names, problem collection, TOML forms, solve limits and threads, SVG primitives.

Nothing in this package imports a game (``planner.elfenland``, ``planner.expedition``): the games import it.
"""
