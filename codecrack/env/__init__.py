"""Research interfaces: PettingZoo (:mod:`.pettingzoo`), Gymnasium (:mod:`.gym`) and OpenSpiel
(:mod:`.openspiel`) environments for every codecrack game. They need the ``env`` extra
(``pip install 'codecrack[env]'``); OpenSpiel needs the ``openspiel`` extra. See ``docs/research.md``.
"""
