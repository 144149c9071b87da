"""codecrack: hidden-code deduction games with a common engine contract.

>>> import codecrack
>>> game = codecrack.new_game("coda", players=2, seed=1)
>>> sorted(game.to_move) != []
True
>>> codecrack.replay(game.record()).view(0) == game.view(0)
True
"""

from .core.errors import IllegalAction, OptionError
from .core.game import Game
from .core.registry import GAMES, new_game, replay

__all__ = ["GAMES", "Game", "IllegalAction", "OptionError", "new_game", "replay"]
__version__ = "0.1.0"
