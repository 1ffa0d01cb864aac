"""Elfenland planner: proven-optimal routes and move advice for Elfenland."""

__version__ = "0.1.0"
__all__ = ["__version__"]
