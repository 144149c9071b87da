"""Coda opponents on three tiers. Each sees only its seat's view (and remembers earlier ones).

* ``easy``: a casual player. It remembers its own tiles only as ranges, forgets all but the
  last few missed guesses, guesses among the likelier tiles and stops by feel.
* ``medium``: exact beliefs, the single most likely guess, and a plain continue-or-stop rule.
* ``hard``: expected value with a two-step lookahead over belief-weighted hits: the hit chance,
  what a hit teaches about every row, what a miss or a stop would show of its own row given
  where the drawn tile lands, eliminations, and draws chosen for the information they bring;
  where its work budget affords enough sampled worlds, it checks that choice against its
  rivals and stopping by playing each out in worlds drawn from its exact belief (:mod:`.playout`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.agent import Agent, MoveCost
from .belief import DASH, Belief, Position, Tile, effort, solve
from .observe import COLORS, OwnMemory, position_from_view, value_code
from .playout import Misses, Playouts, playout_cost, seat_position, turn_sketch
from .reading import Reading
from .search import (
    Guess,
    best_per_tile,
    cover,
    draw_outlook,
    drawn_tile,
    exposure_after,
    guesses,
    hidden,
    landing_places,
    likeliest,
    own_values,
    targets,
    with_insert,
    with_value,
)
from .tiles import hand_size
from .view import pile_view

if TYPE_CHECKING:
    from .rules import CodaGame

Action = dict[str, Any]
View = dict[str, Any]


def dashes(view: View) -> bool:
    """Whether this game uses dashes, which make every exact count dearer."""
    return bool(view["options"].get("dashes"))


class CodaAgent(Agent):
    """Reads the phase from the legal actions and hands each decision to the tier."""

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        super().__init__(seed)
        self.memory = OwnMemory()
        for name, value in settings.items():
            if not hasattr(self, name):
                raise TypeError(f"{type(self).__name__} has no setting {name!r}")
            setattr(self, name, type(getattr(self, name))(value))

    def act(self, view: View) -> Action:
        self.memory.observe(view)
        legal = view["legal_actions"]
        kinds = {action["type"] for action in legal}
        if "opening" in kinds:
            return self.opening(view, legal)
        if "place" in kinds:
            return legal[0] if len(legal) == 1 else self.place(view, legal)
        if "draw" in kinds:
            return self.draw(view, legal)
        if "reveal" in kinds:
            return self.reveal(view, legal)
        if "guess" in kinds:
            return self.guess_or_stop(view)
        ready = legal[0] if len(legal) == 1 else self.arrange(view, legal)
        self.memory.arranged(view, ready.get("dashes", []))
        return ready

    # -- what each tier decides -----------------------------------------------------------
    def remembered(self, view: View) -> dict[int, int]:
        """Masks of the seat's own values as it remembers them (memory variant)."""
        return self.memory.masks

    def position(self, view: View) -> Position:
        return position_from_view(view, self.remembered(view))

    def knowledge(self, view: View) -> tuple[Position, Belief]:
        """The position this agent reads from the view, and its exact belief."""
        position = self.position(view)
        return position, solve(position)

    def opening(self, view: View, legal: list[Action]) -> Action:
        """An even mix of colours (a 3-tile hand leans either way)."""
        hand = hand_size(view["players"])
        return min(legal, key=lambda a: (abs(a["black"] - hand / 2), self.rng.random()))

    def place(self, view: View, legal: list[Action]) -> Action:
        """Where the drawn tile goes, when it has a choice (a dash, or a number next to one)."""
        return self.rng.choice(legal)

    def arrange(self, view: View, legal: list[Action]) -> Action:
        """Where the opening dashes go (``ready`` with their indices)."""
        return self.rng.choice(legal)

    def draw(self, view: View, legal: list[Action]) -> Action:
        """The colour with more tiles left (the deck offers no choice)."""
        pile = view["pile"]
        return max(legal, key=lambda a: (pile.get(a.get("color"), 0), self.rng.random()))

    def reveal(self, view: View, legal: list[Action]) -> Action:
        """Turn up the own tile that anyone could already name most surely."""
        public = position_from_view(view, public=True)
        belief = solve(public)
        seat = view["seat"]
        return max(legal, key=lambda a: (belief.probs[seat][a["index"]].max() if belief.total else 0, -a["index"]))

    @abstractmethod
    def guess_or_stop(self, view: View) -> Action:
        """Guess (as the turn's first action, or again after a hit) or stop."""

    # -- shared helpers ------------------------------------------------------------------------
    def options(self, view: View, position: Position, belief: Belief) -> list[Guess]:
        found = guesses(position, belief, targets(view))
        if not found:  # no consistent world: only possible after a forgetful player's confusion
            found = self.blind_guesses(view, position)
        return found

    def blind_guesses(self, view: View, position: Position) -> list[Guess]:
        seat = self.rng.choice(targets(view))
        index = self.rng.choice(hidden(position, seat))
        color = position.rows[seat][index].color
        return [Guess(seat, index, color, self.rng.randrange(12), 0.0)]


class MediumAgent(CodaAgent):
    """Exact beliefs, the most likely guess, continue while a hit is at least ``keep_going`` likely."""

    name = "medium"
    keep_going = 0.5

    def guess_or_stop(self, view: View) -> Action:
        return self.most_likely(view, *self.knowledge(view))

    def most_likely(self, view: View, position: Position, belief: Belief) -> Action:
        """The likeliest guess (ties at random), or stop after a hit when it is below the threshold."""
        top = likeliest(position, belief, targets(view)) or self.blind_guesses(view, position)
        best = self.rng.choice(top)
        if view["hits_this_turn"] and best.p < self.threshold(view):
            return {"type": "stop"}
        return best.action()

    def threshold(self, view: View) -> float:
        """A miss costs the drawn tile; with none in hand it costs an own tile, or the game."""
        if drawn_tile(view) is not None:
            return self.keep_going
        return 0.75 if view["options"]["empty_deck"] == "reveal" else 0.999


class RolloutMedium(MediumAgent):
    """``medium`` as a playout policy: it decides from the simulated game itself, reading only
    what its seat may see there, so each step skips building and re-reading a whole view; the
    decisions (random ties included) are those of ``MediumAgent.act(game.view(seat))``."""

    def act_in(self, game: CodaGame, seat: int, misses: Misses) -> Action:
        phase = game.phase
        if phase == "guess" and not game.options.memory:
            position = seat_position(game, seat, misses.catch_up(game))
            return self.most_likely(turn_sketch(game, seat), position, solve(position))
        if phase == "draw":
            return self.draw({"pile": pile_view(game)}, game.legal_actions(seat))  # medium reads the pile only
        if phase == "place":
            legal = game.legal_actions(seat)
            return legal[0] if len(legal) == 1 else self.place({}, legal)
        return self.act(game.view(seat))


class EasyAgent(MediumAgent):
    """A casual human: fuzzy memory, likely-looking guesses, and a mood that decides when to stop."""

    name = "easy"
    recall = 3  # missed guesses it still remembers
    spread = 1  # own tiles are remembered as value +- spread
    picky = 2.0  # how strongly it prefers likely guesses

    def remembered(self, view: View) -> dict[int, int]:
        fuzzy = {}
        for tile_id, mask in self.memory.masks.items():
            value = mask.bit_length() - 1
            if value == DASH:
                fuzzy[tile_id] = mask
                continue
            low, high = max(0, value - self.spread), min(11, value + self.spread)
            fuzzy[tile_id] = sum(1 << v for v in range(low, high + 1))
        return fuzzy

    def position(self, view: View) -> Position:
        return position_from_view(view, self.remembered(view), recent=self.recall)

    def opening(self, view: View, legal: list[Action]) -> Action:
        return self.rng.choice(legal)

    def draw(self, view: View, legal: list[Action]) -> Action:
        return self.rng.choice(legal)

    def reveal(self, view: View, legal: list[Action]) -> Action:
        return self.rng.choice(legal)

    def guess_or_stop(self, view: View) -> Action:
        position, belief = self.knowledge(view)
        options = self.options(view, position, belief)[:6]
        weights = [max(g.p, 1e-9) ** self.picky for g in options]
        choice = options[self.rng.choices(range(len(options)), weights=weights)[0]]
        mood = self.rng.uniform(0.3, 0.8)
        if view["hits_this_turn"] and (options[0].p < mood or drawn_tile(view) is None and options[0].p < 0.9):
            return {"type": "stop"}
        return choice.action()


class HardAgent(MediumAgent):
    """Expected value over the next guesses, weighing hits against what misses and stops reveal."""

    name = "hard"
    breadth = 4  # tiles considered at the first step of the lookahead
    depth = 1  # further guesses looked at after a hypothetical hit
    guard = 1.0  # weight of the own row's cover against the opponents'
    crowd = 1.0  # extra guard per further opponent: every one of them reads the own row
    eager = 0.35  # holding a drawn tile, guess on regardless of the costs from this chance
    budget = 5000  # solve effort above which hard looks less far (dash-heavy 3-4 player tables)
    rough_costs = (0.5, -0.3)  # typical stop and miss values, used beyond the budget
    win = 4.0  # value of winning the round outright, in cover units
    knockout = 3.0  # bonus for eliminating one of several opponents
    read_guessers = True  # opponents never name a tile they hold
    playouts = 900  # 3-4 players: work allowed per guess-or-stop decision, in simulated 2-player actions (0: none)
    duel_playouts = 2400  # the same with 2 players (the search is off whenever ``playouts`` is 0)
    dash_duel_playouts = 1200  # the same with dashes on, where no count takes the fast one-row path
    min_worlds = 12  # fewer affordable sampled worlds than this: no playouts (too noisy)
    max_worlds = 60
    rivals = 3  # guesses (best value of each tile) searched by playouts beside hard's own choice
    margin = 0.05  # playouts override hard's choice only when a rival wins this much more often
    rollout_self = 0.35  # 2 players: the continue threshold of hard's own seat in its playouts (its ``eager``)
    rollout_rival = 0.5  # 2 players: the opponent's continue threshold in hard's playouts
    read_players = (2, 3, 4)  # table sizes at which hard weighs its worlds by the opponents' guesses (:mod:`.reading`)
    read_sharpness = 20.0  # how strongly a guesser is assumed to name what looks likeliest to it
    read_slip = 0.1  # the chance a guesser names anything at all
    read_recent = 6  # opponents' guesses read (the latest of the round)
    read_worlds = 48  # worlds weighed (all of them when there are no more), halved with 4 players (dearer solves)
    dash_read_worlds = 12  # the same with dashes on (each guesser's position is counted with its dash placements)
    read_listed = 3000  # worlds listed to draw from, above which they are sampled from the belief

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.reading = Reading(self.read_sharpness, self.read_slip, self.read_recent, self.read_listed, seed)

    def knowledge(self, view: View) -> tuple[Position, Belief]:
        """Exact beliefs, sharpened by what the opponents' guesses say about their own rows
        (dropped if some opponent broke that habit and no world fits any more)."""
        if self.read_guessers:
            sharp = position_from_view(view, self.remembered(view), read_guessers=True)
            belief = solve(sharp)
            if belief.total:
                if view["players"] in self.read_players:
                    worlds = (self.dash_read_worlds if dashes(view) else self.read_worlds) // max(
                        1, view["players"] - 2
                    )
                    belief = self.reading.reweigh(view, sharp, belief, worlds)
                return sharp, belief
        return super().knowledge(view)

    def guess_or_stop(self, view: View) -> Action:
        position, belief = self.knowledge(view)
        if not belief.total:
            return self.blind_guesses(view, position)[0].action()
        public = position_from_view(view, public=True)
        stop, miss = self.turn_costs(view, public) if effort(public) <= self.budget else self.rough_costs
        depth = self.depth if effort(position) <= self.budget else 0
        value, guess = self.lookahead(view, position, belief, frozenset(), stop, miss, depth)
        eager = guess.p >= self.eager and drawn_tile(view) is not None
        choice = {"type": "stop"} if view["hits_this_turn"] and value <= stop and not eager else guess.action()
        if self.playouts and not view["options"]["memory"]:
            return self.played_out(view, position, belief, choice)
        return choice

    def played_out(self, view: View, position: Position, belief: Belief, choice: Action) -> Action:
        """Play ``choice`` and its rivals out in sampled worlds; keep ``choice`` unless a rival
        wins more often by over ``margin``."""
        rivals = [g.action() for g in best_per_tile(self.options(view, position, belief))[: self.rivals]]
        if view["hits_this_turn"]:
            rivals.append({"type": "stop"})
        actions = [choice] + [a for a in rivals if a != choice]
        budget = (
            self.playouts if view["players"] != 2 else self.dash_duel_playouts if dashes(view) else self.duel_playouts
        )
        worlds = min(self.max_worlds, budget // (len(actions) * playout_cost(view, position)))
        if len(actions) == 1 or worlds < self.min_worlds:
            return choice
        playouts = Playouts(worlds, self.rollout_policy(view))
        results = playouts.values(view, position, belief, actions, self.rng)
        means = [sum(r) / len(r) for r in results]
        best = max(range(len(actions)), key=lambda a: means[a])
        return actions[best] if means[best] > means[0] + self.margin else choice

    def rollout_policy(self, view: View) -> Callable[[int, int], RolloutMedium]:
        """Who plays each seat in the playouts: ``medium`` everywhere, with 2 players continuing
        from ``rollout_self`` in hard's own seat and from ``rollout_rival`` in the opponent's."""
        if view["players"] != 2:
            return lambda seed, seat: RolloutMedium(seed=seed)
        me = view["seat"]
        return lambda seed, seat: RolloutMedium(
            seed=seed, keep_going=self.rollout_self if seat == me else self.rollout_rival
        )

    # -- the lookahead -------------------------------------------------------------------------
    def lookahead(
        self, view: View, position: Position, belief: Belief, out: frozenset[int], stop: float, miss: float, depth: int
    ) -> tuple[float, Guess]:
        """Best expected value of guessing now, and the guess; after a hit, the better of
        stopping and guessing on (searched ``depth`` more steps)."""
        seats = targets(view, out)
        now = sum(cover(position, belief, s) for s in seats)
        best: tuple[float, Guess] | None = None
        for guess in best_per_tile(guesses(position, belief, seats))[: self.breadth]:
            after = with_value(position, guess.target, guess.index, guess.value)
            known = solve(after)
            gain = now - sum(cover(after, known, s) for s in seats)
            follow = stop
            if not hidden(after, guess.target):
                gain += self.win if len(seats) == 1 else self.knockout
                follow = 0.0 if len(seats) == 1 else stop
            if depth and follow == stop and len(seats) - (not hidden(after, guess.target)) > 0:
                gone = out | ({guess.target} if not hidden(after, guess.target) else set())
                follow = max(stop, self.lookahead(view, after, known, frozenset(gone), stop, miss, depth - 1)[0])
            value = guess.p * (gain + follow) + (1 - guess.p) * miss
            if best is None or value > best[0]:
                best = (value, guess)
        assert best is not None  # a seat to guess at has a tile to guess
        return best

    def turn_costs(self, view: View, public: Position) -> tuple[float, float]:
        """Value of ending the turn by stopping, or by a miss: the change in the own row's cover
        as anyone may read it, weighted by how many opponents read it."""
        seat = view["seat"]
        base = cover(public, solve(public), seat)
        drawn = drawn_tile(view)
        if drawn is None:
            if view["options"]["empty_deck"] == "eliminate":
                return 0.0, -self.win
            reveals = [self.cover_after_reveal(view, public, i) for i in hidden(public, seat)]
            return 0.0, self.guard * (1 + self.crowd * (len(targets(view)) - 1)) * (max(reveals) - base)
        color, value = drawn
        indices = self.landings(view, color, value)
        stop = max(exposure_after(public, view, i, color, None) for i in indices)
        miss = max(exposure_after(public, view, i, color, value) for i in indices)
        guard = self.guard * (1 + self.crowd * (len(targets(view)) - 1))
        return guard * (stop - base), guard * (miss - base)

    def landings(self, view: View, color: int, value: int) -> list[int]:
        """Where the drawn tile may enter the own row: anywhere for a dash, else its sorted
        place, on either side of dashes (or forgotten tiles) next to it."""
        row = view["rows"][view["seat"]]
        values = own_values(view, self.remembered(view))
        return landing_places(values, [COLORS[t["color"]] for t in row], color, value)

    def cover_after_reveal(self, view: View, public: Position, index: int) -> float:
        seat = view["seat"]
        value = own_values(view, self.remembered(view))[index]
        if value is None:
            return 0.0
        after = with_value(public, seat, index, value)
        return cover(after, solve(after), seat)

    # -- the other decisions ----------------------------------------------------------------
    def reveal(self, view: View, legal: list[Action]) -> Action:
        """Turn up the own tile whose reveal leaves the row hardest to read."""
        public = position_from_view(view, public=True)
        if effort(public) > self.budget:
            return super().reveal(view, legal)
        return max(legal, key=lambda a: (self.cover_after_reveal(view, public, a["index"]), -a["index"]))

    def place(self, view: View, legal: list[Action]) -> Action:
        """Put the drawn tile where it leaves the own row hardest to read (face up after a miss
        or a timeout, its value then public; face down after a stop)."""
        public = position_from_view(view, public=True)
        if effort(public) > self.budget:
            return super().place(view, legal)
        drawn = view["drawn"]
        color = COLORS[drawn["color"]]
        value = value_code(drawn["value"]) if drawn["revealed"] else None
        return max(legal, key=lambda a: (exposure_after(public, view, a["index"], color, value), self.rng.random()))

    def arrange(self, view: View, legal: list[Action]) -> Action:
        """Put the opening dashes where they leave the own row hardest to read."""
        public = position_from_view(view, public=True)
        if effort(public) * len(legal) > self.budget:
            return super().arrange(view, legal)
        seat = view["seat"]
        colors = [COLORS[tile["color"]] for tile in view["unplaced"]]

        def cover_after(action: Action) -> float:
            position = public
            for color, index in zip(colors, action["dashes"]):
                position = with_insert(position, seat, index, Tile(color, None))
            return cover(position, solve(position), seat)

        return max(legal, key=lambda a: (cover_after(a), self.rng.random()))

    def draw(self, view: View, legal: list[Action]) -> Action:
        """Draw the colour whose tile should most sharpen the first guess of the turn."""
        if len(legal) == 1:
            return legal[0]
        position, belief = self.knowledge(view)
        if not belief.total or effort(position) * 12 > self.budget:
            return super().draw(view, legal)
        return max(legal, key=lambda a: (draw_outlook(view, position, belief, COLORS[a["color"]]), self.rng.random()))


AGENTS = {"easy": EasyAgent, "medium": MediumAgent, "hard": HardAgent}


# Measured by ``codecrack bench move-cost --game coda -o players=P --json`` (and ``-o memory=true``
# for the peak), 5 Dec 2026: docs/security.md, "Coda and The Coding's bots".
MOVE_COST = MoveCost(
    read={
        "draw": ("classic", "deck"),
        "dashes": (False, True),
        "empty_deck": ("reveal", "eliminate"),
        "memory": (False, True),
        "notes": (True, False),
    },
    unread={
        "clock": "a turn's time limit: the bots answer within it, and the engine's timeouts are not theirs",
        "rounds": "a tournament plays three games of the same moves (the worlds drop it)",
        "first": "who starts",
    },
    dearest=(0.9, 1.2),
)
