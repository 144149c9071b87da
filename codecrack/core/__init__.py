"""The game-agnostic core: the engine contract, options, records and the registry."""
