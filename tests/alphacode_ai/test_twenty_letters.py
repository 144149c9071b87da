"""The 20-letter set: 2.8 million candidates in one vector, and the tiers play on it."""

import codecrack
from codecrack.games.alphacode.agents import AGENTS
from codecrack.games.alphacode.solver import CodeSpace


def test_a_twenty_letter_duel_keeps_the_hidden_code_among_the_candidates():
    game = codecrack.new_game("alphacode", players=2, seed=9, first=0, letters=20)
    agents = {0: AGENTS["hard"](seed=0), 1: AGENTS["easy"](seed=1)}
    for _ in range(10):  # both codes, then 4 questions each
        seat = min(game.to_move)
        game.apply(seat, agents[seat].act(game.view(seat)))
    space = CodeSpace.for_view(game.view(0))
    hard_code = game.record()["actions"][0][1]
    assert len(space.table) == 2_803_383 and hard_code["type"] == "code"
    cracking_hard = agents[1].knowledge.alive
    assert len(space.without(cracking_hard, hard_code["letters"])) == len(cracking_hard) - 1
    assert 0 < len(agents[0].knowledge.alive) < len(space.table) / 20  # three answers folded in so far
