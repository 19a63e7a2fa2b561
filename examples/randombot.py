#!/usr/bin/env python3
"""randombot.py: a kontor engine in Python that plays legal random moves.

It knows nothing of kontor's code: it learns the cards, the board and its
hand from the protocol's events alone (docs/protocol.md) and works out the
legal decisions itself, as a bot in any language would. Use it as the
skeleton of your own bot: replace choose() and place() with something clever.

    kontor arena --agents greedy,cmd:./examples/randombot.py
    ./examples/randombot.py --seed 7      # then type protocol commands

Standard library only.
"""
import random
import sys

# The variants' board limits and ship (docs/rules.md); newgame options change them.
VARIANTS = {"basic": {"width": 6, "height": 6, "ship": False},
            "advanced": {"width": 7, "height": 7, "ship": True}}
COMMANDS = ["protocol_version", "name", "version", "list_commands", "known_command",
            "isready", "quit", "newgame", "observe", "genchoice", "genplace",
            "setoption", "showboard"]
DOCK = ("goods", "crane", "tavern")
WATER = ("water", "centre")


def parse_cell(text):
    x, y = text.split(",")
    return int(x), int(y)


def format_cell(cell):
    return ",".join("%+d" % v if v else "0" for v in cell)


def neighbours(cell):
    x, y = cell
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


class Error(Exception):
    """A failure reply: token and detail."""


class Bot:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.game = False

    # ---- the game as told -------------------------------------------------
    def newgame(self, args):
        if len(args) < 2 or args[0] not in VARIANTS or args[1] not in ("red", "black"):
            raise Error("syntax error: usage: newgame basic|advanced red|black [OPTION=VALUE...]")
        # R1, R2 (docs/rules.md): passes are declared before the cards, and
        # passing is always allowed, unless the options say otherwise
        rules = dict(VARIANTS[args[0]], optional_place=False, free_pass=True, declare=True)
        for opt in " ".join(args[2:]).replace(",", " ").split():
            name, _, value = opt.partition("=")
            if name in ("width", "height"):
                rules[name] = int(value)
            elif name in ("ship", "optional_place"):
                rules[name] = value == "1"
            elif name == "pass":
                rules["free_pass"] = value != "rest"
            elif name == "declare":
                rules["declare"] = value != "hidden"
        self.rules = rules
        self.seat = args[1]
        self.cards = {}          # number -> (colour, kind, goods, symbol)
        self.board = {}          # (x, y) -> card number
        self.ever = set()        # every cell that ever held a card (the extent)
        self.enclosed = set()    # cells of scored areas
        self.hand = []
        self.ship = (0, 0) if rules["ship"] else None
        self.passes = 0
        self.no_pass = False
        self.declared = False    # this round's declaration is made (R1)
        self.mine = None
        self.game = True

    def observe(self, ev):
        if not self.game:
            raise Error("no game")
        kind, args = ev[0], ev[1:]
        if kind == "card":
            self.cards[int(args[0])] = (args[1], args[2], args[3], args[4])
        elif kind == "board":
            self.put(parse_cell(args[0]), int(args[1]))
        elif kind == "hand":
            self.hand = [int(c) for c in args]
        elif kind == "round":
            self.no_pass = self.passes == 2 and not self.rules["free_pass"]
            self.passes = 0
            self.declared = False
        elif kind == "pass":
            self.passes += 1
        elif kind == "reveal" and args[0] == self.seat:
            self.hand.remove(int(args[1]))
        elif kind in ("takeback", "sitout", "draw") and args[0] == self.seat:
            self.hand.append(int(args[1]))
        elif kind == "ship" and args[1] != "-":
            self.ship = parse_cell(args[1])
        elif kind == "remove" and args[1] != "-":
            del self.board[parse_cell(args[1])]
        elif kind == "place":
            self.put(parse_cell(args[2]), int(args[1]))
        elif kind == "score":
            self.enclose(parse_cell(args[0]))
        if kind == "reveal":
            if args[0] == self.seat:
                self.mine = int(args[1])

    def put(self, cell, number):
        self.board[cell] = number
        self.ever.add(cell)

    def is_dock(self, number):
        return self.cards[number][1] in DOCK

    def enclose(self, cell):
        # a scored area never changes again: remember all its cells
        todo = [cell]
        while todo:
            c = todo.pop()
            if c in self.enclosed or c not in self.board or not self.is_dock(self.board[c]):
                continue
            self.enclosed.add(c)
            todo.extend(neighbours(c))

    # ---- the legal decisions ---------------------------------------------
    def legal_cells(self, number):
        xs = [c[0] for c in self.ever]
        ys = [c[1] for c in self.ever]
        w, h = self.rules["width"], self.rules["height"]
        x_lo, x_hi = max(xs) - (w - 1), min(xs) + (w - 1)
        y_lo, y_hi = max(ys) - (h - 1), min(ys) + (h - 1)
        colour = self.seat
        cranes = {c for c, n in self.board.items()
                  if self.cards[n][1] == "crane" and self.cards[n][0] != colour}
        cells = set()
        for c in self.board:
            for n in neighbours(c):
                if n in self.board or not (x_lo <= n[0] <= x_hi and y_lo <= n[1] <= y_hi):
                    continue
                if self.is_dock(number) and any(m in cranes for m in neighbours(n)):
                    continue
                cells.add(n)
        return sorted(cells)

    def choose(self):
        # with declarations the first genchoice of a round is the declaration
        # (pass or play), the second the card of a seat that plays
        declaring = self.rules["declare"] and not self.declared
        self.declared = True
        if not self.hand or ((declaring or not self.rules["declare"]) and not self.no_pass
                             and self.rng.random() < 0.1):
            return "pass"
        if declaring:
            return "play"
        return str(self.rng.choice(self.hand))

    def place(self, phase):
        if phase == "ship":
            targets = sorted(c for c, n in self.board.items()
                             if self.cards[n][1] in WATER and c != self.ship)
            if targets and self.rng.random() < 0.5:
                return "ship " + format_cell(self.rng.choice(targets))
            return "ship -"
        if phase == "remove":
            targets = sorted(c for c in neighbours(self.ship) if c in self.board
                             and self.is_dock(self.board[c]) and "ship" in self.cards[self.board[c]][3]
                             and c not in self.enclosed)
            if targets and self.rng.random() < 0.5:
                return "remove " + format_cell(self.rng.choice(targets))
            return "remove -"
        cells = self.legal_cells(self.mine)
        if not cells:
            return "place -"
        return "place " + format_cell(self.rng.choice(cells))

    # ---- commands ----------------------------------------------------------
    def run(self, name, args):
        if name == "protocol_version":
            return "2"
        if name == "name":
            return "randombot.py"
        if name == "version":
            return "1.0"
        if name == "list_commands":
            return "\n".join(COMMANDS)
        if name == "known_command":
            return "true" if args and args[0] in COMMANDS else "false"
        if name == "isready":
            return "readyok"
        if name == "newgame":
            self.newgame(args)
            return ""
        if name == "observe":
            self.observe(args)
            return ""
        if name == "genchoice":
            return self.choose()
        if name == "genplace":
            if not args:
                raise Error("syntax error: this bot wants genplace ship|remove|place")
            return self.place(args[0])
        if name == "setoption":
            if len(args) == 2 and args[0] == "seed":
                self.rng.seed(int(args[1]))
                return ""
            raise Error("bad option: randombot.py knows only 'seed'")
        if name == "showboard":
            return " ".join("%s:%d" % (format_cell(c), n) for c, n in sorted(self.board.items())) or "empty"
        if name == "quit":
            return ""
        raise Error("unknown command")


def main():
    seed = int(sys.argv[2]) if len(sys.argv) == 3 and sys.argv[1] == "--seed" else None
    bot = Bot(seed)
    out = sys.stdout
    for line in iter(sys.stdin.readline, ""):
        line = "".join(ch for ch in line.split("#")[0] if ch >= " " or ch == "\t").replace("\t", " ")
        words = line.split()
        if not words:
            continue
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
            if not words:
                continue
        try:
            result = bot.run(words[0], words[1:])
            out.write("=%s%s\n\n" % (ident, " " + result if result else ""))
        except Error as e:
            out.write("?%s %s\n\n" % (ident, e))
        except (ValueError, KeyError, IndexError) as e:
            out.write("?%s syntax error: %s\n\n" % (ident, e))
        out.flush()
        if words[0] == "quit":
            break


if __name__ == "__main__":
    main()
