"""The games: one package per game, each with its rules, its AI and its benchmarks."""
