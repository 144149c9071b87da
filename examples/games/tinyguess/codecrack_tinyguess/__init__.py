"""Tiny Guess: an example codecrack game in its own package."""
