"""Elfenland (Alan R. Moon, 1998): board, rules, positions, route verifier and the route optimizer."""
