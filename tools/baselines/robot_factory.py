"""Robot Factory written by hand in plain Python: the reference the interpreter is checked and measured against.

The same rules and the same cards as `content/robot-factory` (see its README),
asking the same decisions with the same labels in the same order, and
shuffling with the same seeded generator, so a log of labels from one replays
in the other. It does not import `engine/`.

    play(seed, chooser, advanced=False) -> final state dict     chooser(seat, labels) -> index
    replay(labels, seed, advanced=False) -> final state dict
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

Chooser = Callable[[int, list[str]], int]

# ---------------------------------------------------------------- cards (content/robot-factory)
# id, name, copies, cost; in deck order (the order of modules.yaml)
MODULES = [
    ("armory", "Armory", 1, 300), ("training_room", "Training Room", 1, 300),
    ("jetpack_hangar", "Jetpack Hangar", 1, 400), ("rocket_launcher", "Rocket Launcher", 1, 500),
    ("refinery", "Refinery", 1, 300), ("research_lab", "Research Lab", 1, 400),
    ("salvage_bay", "Salvage Bay", 1, 200), ("repair_bay", "Repair Bay", 1, 300),
    ("assembly_line", "Assembly Line", 1, 400), ("auto_miner", "Auto-Miner", 2, 300),
    ("explosives_depot", "Explosives Depot", 2, 400), ("extractor", "Extractor", 2, 300),
    ("forge", "Forge", 1, 400), ("fusion_core", "Fusion Core", 1, 500), ("laser_chamber", "Laser Chamber", 1, 300),
    ("missile_silo", "Missile Silo", 2, 300), ("radiological_facility", "Radiological Facility", 1, 400),
    ("security_center", "Security Center", 1, 300), ("workshop", "Workshop", 2, 200),
    ("forcefield", "Forcefield", 1, 200),
]
SLOTS = {"armory": 1, "training_room": 1, "jetpack_hangar": 1, "rocket_launcher": 3, "refinery": 1,
         "research_lab": 1, "salvage_bay": 1, "repair_bay": 1}
SELECTORS = {"laser_chamber": (["don't pay", "pay 300", "pay 1 crystal"], 300),
             "missile_silo": (["don't pay", "pay 200"], 200)}
TRACKER_MAX = {"explosives_depot": 2, "extractor": 3}
# id, name, copies, cost, power, armor, robot discount
UPGRADES = [
    ("titanium_plating", "Titanium Plating", 2, 300, 0, 1, 100), ("beta_cannon", "Beta Cannon", 2, 400, 2, 0, 0),
    ("lead_plating", "Lead Plating", 2, 400, 1, 2, 0), ("gamma_cannon", "Gamma Cannon", 2, 600, 3, 0, 0),
]
# id, name, power, armor, robot discount
SOFTWARE = [
    ("strength", "Strength", 1, 0, 0), ("fortitude", "Fortitude", 0, 0, 0), ("aggression", "Aggression", 0, 0, 0),
    ("ingenuity", "Ingenuity", 0, 0, 0), ("prospecting", "Prospecting", 0, 0, 0), ("thrift", "Thrift", 0, 0, 100),
    ("regeneration", "Regeneration", 0, 0, 0), ("alchemy", "Alchemy", 0, 0, 0), ("resilience", "Resilience", 0, 1, 0),
]
SOFTWARE_STATS = {sid: (power, armor, discount) for sid, _, power, armor, discount in SOFTWARE}
SOFTWARE_STATS["basic_software"] = (0, 0, 0)
SOFTWARE_INCOME = {"basic_software": 50, "prospecting": 100}  # minerals each Gather step, robots or not
ACTIONS = [("store", "Store", 5), ("produce", "Produce", 1), ("build", "Build", 2), ("gather", "Gather", 5),
           ("attack", "Attack", 5)]
ROBOT_COSTS = (300, 500, 700, 900)
MAX_MINERALS, MAX_CRYSTALS, MAX_ROBOTS, MODULE_SLOTS, HAND = 2000, 3, 5, 3, 5


class FactoryDestroyedError(Exception):
    """A factory reached 0 shields after a step."""


class Card:
    """A module or upgrade card; modules carry their in-play state."""

    __slots__ = ("armor", "choice", "cost", "discount", "doomed", "facedown", "id", "is_upgrade", "name", "paid",
                 "power", "tracker", "used")

    def __init__(self, cid: str, name: str, cost: int, is_upgrade: bool = False, power: int = 0, armor: int = 0,
                 discount: int = 0) -> None:
        self.id, self.name, self.cost, self.is_upgrade = cid, name, cost, is_upgrade
        self.power, self.armor, self.discount = power, armor, discount
        self.tracker = self.used = 0
        self.facedown = self.doomed = self.paid = False
        self.choice = "don't pay"


class Robot:
    __slots__ = ("armor", "crystal", "hit", "job", "pos", "power", "weakened")

    def __init__(self, power: int = 1, armor: int = 1) -> None:
        self.power, self.armor = power, armor
        self.job, self.crystal, self.pos, self.hit, self.weakened = "store", False, 0, False, False


class Player:
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.shields = self.shield_max = 15
        self.minerals, self.crystals, self.slot_hits = 600, 0, 0
        self.deck = [Card(cid, name, cost) for cid, name, copies, cost in MODULES for _ in range(copies)]
        self.upgrade_hand = [Card(uid, name, cost, True, power, armor, discount)
                             for uid, name, copies, cost, power, armor, discount in UPGRADES for _ in range(copies)]
        self.hand: list[Card] = []
        self.build_zone: list[Card] = []
        self.upgrades: list[Card] = []
        self.discard: list[Card] = []
        self.modules: list[Card] = []
        self.robots = [Robot()]
        self.software = ""
        self.used = {aid: 0 for aid, _, _ in ACTIONS}

    def gain_minerals(self, n: int) -> None:
        if n > 0:
            self.minerals = min(MAX_MINERALS, self.minerals + n)

    def gain_crystals(self, n: int) -> None:
        if n > 0:
            self.crystals = min(MAX_CRYSTALS, self.crystals + n)

    def lose_shields(self, n: int) -> None:
        self.shields = max(0, self.shields - n)

    def heal(self, n: int) -> None:
        self.shields = min(self.shield_max, self.shields + n)

    def live(self) -> Iterator[Card]:
        """Built modules that are not face down, in slot order."""
        return (m for m in self.modules if not m.facedown)

    def build_actions(self) -> int:
        return sum(1 + r.crystal for r in self.robots if r.job == "build")

    def build_price(self, card: Card) -> int:
        return max(0, card.cost - 100 * sum(1 for m in self.live() if m.id == "workshop"))

    def robot_cost(self) -> int:
        discount = sum(u.discount for u in self.upgrades) + SOFTWARE_STATS[self.software][2]
        return max(0, ROBOT_COSTS[len(self.robots) - 1] - discount)

    def install_cheapest(self) -> None:
        if self.upgrade_hand:
            card = min(self.upgrade_hand, key=lambda u: u.cost)  # the first of the cheapest, like a stable sort
            self.upgrade_hand.remove(card)
            self.upgrades.append(card)


def _distinct(cards: list[Card]) -> list[Card]:
    """Identical cards are one option (the first of them)."""
    seen: set[str] = set()
    out = []
    for card in cards:
        if card.id not in seen:
            seen.add(card.id)
            out.append(card)
    return out


class Game:
    def __init__(self, seed: int, chooser: Chooser, advanced: bool = False) -> None:
        self.rng = random.Random(seed)
        self.chooser = chooser
        self.advanced = advanced
        self.players = [Player(0), Player(1)]
        self.turn = 0
        self.decisions = 0

    def ask(self, seat: int, labels: list[str], optional: bool = False) -> int:
        if len(labels) == 1 and not optional:
            return 0
        self.decisions += 1
        return self.chooser(seat, labels)

    def opponent(self, p: Player) -> Player:
        return self.players[1 - p.seat]

    # ---------------------------------------------------------------- set-up
    def setup(self) -> None:
        for p in self.players:
            self.rng.shuffle(p.deck)
            p.hand, p.deck = p.deck[:HAND], p.deck[HAND:]
        if self.advanced:
            deck = [sid for sid, *_ in SOFTWARE]
            self.rng.shuffle(deck)
            names = {sid: name for sid, name, *_ in SOFTWARE}
            for p in self.players:
                pick, deck = deck[:3], deck[3:]
                p.software = pick[self.ask(p.seat, [names[s] for s in pick])]
        else:
            for p in self.players:
                p.software = "basic_software"
        for p in self.players:
            if p.software == "fortitude":
                p.shield_max = p.shields = 20

    # ---------------------------------------------------------------- programming
    def program(self, p: Player) -> None:
        seat = p.seat
        for m in list(p.modules):
            m.facedown = self.ask(seat, ["keep", "demolish"]) == 1
        produce_slots = 1 + sum(1 for m in p.live() if m.id == "assembly_line")
        for r in sorted(p.robots, key=lambda r: -(10 * r.power + r.armor)):
            options: list[tuple[str, str, Card | None]] = []
            for aid, name, capacity in ACTIONS:
                if p.used[aid] < (produce_slots if aid == "produce" else capacity):
                    options.append((name, aid, None))
            for m in p.modules:
                if not m.facedown and m.used < SLOTS.get(m.id, 0):
                    options.append((m.name, m.id, m))
            _, job, module = options[self.ask(seat, [o[0] for o in options])]
            r.job = job
            if module is None:
                p.used[job] += 1
            else:
                module.used += 1
        for r in [r for r in p.robots if r.job != "store" and r.job != "attack"]:
            if sum(1 for x in p.robots if x.crystal) < p.crystals:
                r.crystal = self.ask(seat, ["no crystal", "crystal"]) == 1
        while p.build_actions() > 0:
            cards = _distinct(p.hand + p.upgrade_hand)
            if not cards:
                break
            i = self.ask(seat, [c.name for c in cards] + ["done"], optional=True)
            if i == len(cards):
                break
            card = cards[i]
            (p.upgrade_hand if card.is_upgrade else p.hand).remove(card)
            p.build_zone.append(card)
        for m in [m for m in p.modules if not m.facedown and m.id in SELECTORS]:
            options = SELECTORS[m.id][0]
            m.choice = options[self.ask(seat, options)]
        while True:
            cards = _distinct(p.hand)
            if not cards:
                break
            i = self.ask(seat, [c.name for c in cards] + ["done"], optional=True)
            if i == len(cards):
                break
            p.hand.remove(cards[i])
            p.discard.append(cards[i])

    # ---------------------------------------------------------------- steps
    def check_end(self) -> None:
        if any(p.shields == 0 for p in self.players):
            raise FactoryDestroyedError

    def start(self, p: Player) -> None:
        p.crystals = max(0, p.crystals - sum(1 for r in p.robots if r.crystal))
        if p.software == "alchemy" and p.crystals == 0:
            p.gain_crystals(1)

    def gather(self, p: Player) -> None:
        extractors = [m for m in p.modules if m.id == "extractor" and not m.facedown]
        for r in [r for r in p.robots if r.job == "gather"]:
            for _ in range(1 + r.crystal):
                p.gain_minerals(100)
                for m in extractors:
                    p.gain_minerals(50 * m.tracker)
        if p.software == "basic_software":
            p.gain_minerals(50)
        elif p.software == "prospecting":
            p.gain_minerals(100)
        for m in list(p.live()):
            if m.id == "refinery":
                for r in [r for r in p.robots if r.job == "refinery"]:
                    for _ in range(1 + r.crystal):
                        p.gain_crystals(1)
            elif m.id == "auto_miner":
                p.gain_minerals(100)
            elif m.id == "radiological_facility":
                p.gain_crystals(sum(1 for r in p.robots if r.job == "gather") // 2)

    def build(self, p: Player) -> None:
        for m in [m for m in p.modules if m.facedown]:
            p.modules.remove(m)
            p.discard.append(m)
        actions = p.build_actions()
        for card in list(p.build_zone):
            p.build_zone.remove(card)
            price = p.build_price(card)
            if actions > 0 and p.minerals >= price and (card.is_upgrade or len(p.modules) < MODULE_SLOTS):
                p.minerals -= price
                actions -= 1
                (p.upgrades if card.is_upgrade else p.modules).append(card)
                self.built(p, card)
            else:
                (p.upgrade_hand if card.is_upgrade else p.hand).append(card)
        if any(m.id == "research_lab" for m in p.live()):
            for r in [r for r in p.robots if r.job == "research_lab"]:
                for _ in range(1 + r.crystal):
                    p.install_cheapest()

    def built(self, p: Player, card: Card) -> None:
        if p.software == "ingenuity" and not card.is_upgrade:
            p.install_cheapest()
        for m in list(p.live()):
            if m.id == "forge" and card.is_upgrade:
                copy = next((u for u in p.upgrade_hand if u.id == card.id), None)
                if copy is not None:
                    p.upgrade_hand.remove(copy)
                    p.upgrades.append(copy)

    def produce(self, p: Player) -> None:
        power, armor, _ = SOFTWARE_STATS[p.software]
        for r in [r for r in p.robots if r.job == "produce"]:
            for _ in range(1 + r.crystal):
                if len(p.robots) < MAX_ROBOTS and p.minerals >= p.robot_cost():
                    p.minerals -= p.robot_cost()
                    p.robots.append(Robot(min(6, 1 + sum(u.power for u in p.upgrades) + power),
                                          min(6, 1 + sum(u.armor for u in p.upgrades) + armor)))

    def robot_damage(self, p: Player, robot: Robot, amount: int) -> None:
        """A robot of `p` deals damage to the enemy factory."""
        enemy = self.opponent(p)
        enemy.lose_shields(amount)
        for m in list(enemy.live()):
            if m.id == "security_center" and not robot.weakened:
                robot.power = max(1, robot.power - 1)
                robot.weakened = True
        if p.software == "aggression":
            p.gain_minerals(100)
        for m in list(p.live()):
            if m.id == "explosives_depot":
                m.tracker = min(TRACKER_MAX[m.id], m.tracker + 1)

    def attack(self, p: Player) -> None:
        enemy = self.opponent(p)
        owed = sum(SELECTORS[m.id][1] for m in p.live() if m.choice not in ("don't pay", "pay 1 crystal"))
        owed_crystals = sum(1 for m in p.live() if m.choice == "pay 1 crystal")
        if p.minerals >= owed and p.crystals >= owed_crystals:
            p.minerals -= owed
            p.crystals -= owed_crystals
            for m in p.live():
                if m.choice != "don't pay":
                    m.paid = True
        for m in list(p.live()):
            if m.id == "jetpack_hangar":
                for r in [r for r in p.robots if r.job == "jetpack_hangar"]:
                    for _ in range(1 + r.crystal):
                        self.robot_damage(p, r, r.power)
            elif m.id == "rocket_launcher":
                for r in [r for r in p.robots if r.job == "rocket_launcher"]:
                    for _ in range(1 + r.crystal):
                        enemy.lose_shields(2)
            elif m.id == "fusion_core":
                for r in [r for r in p.robots if r.job == "store"]:
                    self.robot_damage(p, r, 1)
            elif m.id == "laser_chamber" and m.paid:
                enemy.lose_shields(3)
            elif m.id == "missile_silo" and m.paid:
                enemy.lose_shields(2)
        attackers = sorted((r for r in p.robots if r.job == "attack"), key=lambda r: -(10 * r.power + r.armor))
        for pos, r in enumerate(attackers, 1):
            r.pos = pos

    def fight(self, p: Player) -> None:
        enemy = self.opponent(p)
        for r in [r for r in p.robots if r.job == "attack"]:
            foes = [f for f in enemy.robots if f.job == "attack"]
            if r.pos > len(foes):
                damage = r.power - 2 * sum(1 for m in enemy.live() if m.id == "forcefield")
                if damage > 0:
                    self.robot_damage(p, r, damage)
            else:
                for foe in foes:
                    if foe.pos == r.pos and r.power > foe.armor:
                        foe.hit = True

    def wounds(self, p: Player) -> None:
        for r in [r for r in p.robots if r.hit]:
            r.hit = False
            if r.armor > 1:
                r.armor -= 1
            else:
                p.robots.remove(r)

    def end(self, p: Player) -> None:
        enemy = self.opponent(p)
        if p.software == "regeneration":
            p.heal(1)
        for m in list(p.live()):
            mid = m.id
            if mid in SLOTS:
                for r in [r for r in p.robots if r.job == mid]:
                    for _ in range(1 + r.crystal):
                        if mid == "armory":
                            r.armor = min(6, r.armor + 1)
                        elif mid == "training_room":
                            r.power = min(6, r.power + 1)
                        elif mid == "salvage_bay":
                            if r in p.robots:
                                p.robots.remove(r)
                            p.gain_minerals(400)
                        elif mid == "repair_bay":
                            p.heal(2)
            elif mid == "explosives_depot" and m.tracker == TRACKER_MAX[mid]:
                enemy.slot_hits += 1
                m.tracker = 0
            elif mid == "extractor":
                m.tracker = min(TRACKER_MAX[mid], m.tracker + 1)
            elif mid == "forcefield":
                m.doomed = True

    def destroy_modules(self, p: Player) -> None:
        for m in [m for m in p.modules if m.doomed]:
            p.modules.remove(m)
            p.discard.append(m)
        for _ in range(p.slot_hits):
            if p.modules:
                p.discard.append(p.modules.pop(0))
        p.slot_hits = 0

    def cleanup(self, p: Player) -> None:
        draw = max(0, HAND - len(p.hand))
        p.hand.extend(p.deck[:draw])
        del p.deck[:draw]
        for r in p.robots:
            r.job, r.crystal, r.weakened, r.pos = "store", False, False, 0
        for aid in p.used:
            p.used[aid] = 0
        for m in p.modules:
            m.used, m.paid = 0, False

    @staticmethod
    def threats(p: Player) -> int:
        """How the factory could still change the shields with no robot: a Missile Silo or Laser Chamber it can
        pay for now or with its income, Regeneration with damage to remove (the flow's `turns` until)."""
        income = SOFTWARE_INCOME.get(p.software, 0) + 100 * sum(1 for m in p.live() if m.id == "auto_miner")
        crystal_income = 1 if p.software == "alchemy" else 0
        fires = sum(1 for m in p.live()
                    if (m.id == "missile_silo" and (p.minerals >= 200 or income > 0))
                    or (m.id == "laser_chamber"
                        and (p.minerals >= 300 or p.crystals > 0 or income + crystal_income > 0)))
        return fires + (p.software == "regeneration" and p.shields < p.shield_max)

    # ---------------------------------------------------------------- the game
    def each(self, step: Callable[[Player], None]) -> None:
        for p in self.players:
            step(p)

    def play(self) -> None:
        self.setup()
        try:
            while True:
                self.turn += 1
                self.each(self.program)
                for steps in ((self.start,), (self.gather,), (self.build,), (self.produce,),
                              (self.attack, self.fight, self.wounds),
                              (self.end, self.destroy_modules, self.cleanup)):
                    for step in steps:
                        self.each(step)
                    self.check_end()
                if not any(p.robots or self.threats(p) for p in self.players):
                    return  # nothing can change any more (content/robot-factory README, assumption 17)
        except FactoryDestroyedError:
            return

    def final_state(self) -> dict[str, Any]:
        best = max(p.shields for p in self.players)
        return {
            "turn": self.turn,
            "winners": [p.seat for p in self.players if p.shields == best],
            "players": [{
                "shields": p.shields, "minerals": p.minerals, "crystals": p.crystals,
                "robots": [[r.power, r.armor] for r in p.robots],
                "modules": [[m.id, m.tracker] for m in p.modules],
                "upgrades": sorted(u.id for u in p.upgrades),
                "upgrade_hand": [u.id for u in p.upgrade_hand],
                "hand": [c.id for c in p.hand], "deck": len(p.deck), "discard": len(p.discard),
                "software": p.software,
            } for p in self.players],
        }


def play(seed: int, chooser: Chooser, advanced: bool = False) -> dict[str, Any]:
    """Play one game; `chooser(seat, labels)` answers every decision with an index."""
    game = Game(seed, chooser, advanced)
    game.play()
    return game.final_state()


def random_chooser(seed: int) -> Chooser:
    """The interpreter's random bots: one generator per seat, one draw per decision."""
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(2)]
    return lambda seat, labels: int(rngs[seat].random() * len(labels))


class ReplayError(Exception):
    """A logged label is not an option of the baseline's decision (the two implementations disagree)."""


def replay(labels: list[str], seed: int, advanced: bool = False) -> dict[str, Any]:
    """Answer the decisions with logged labels, in order; every label must be used."""
    script = iter(enumerate(labels))

    def chooser(seat: int, options: list[str]) -> int:
        try:
            i, label = next(script)
        except StopIteration:
            raise ReplayError(f"the log ended but the baseline asks seat {seat + 1}: {options}") from None
        if label not in options:
            raise ReplayError(f"decision {i + 1}: '{label}' is not among the baseline's options {options}")
        return options.index(label)

    state = play(seed, chooser, advanced)
    left = sum(1 for _ in script)
    if left:
        raise ReplayError(f"the baseline's game ended with {left} logged decisions left")
    return state
