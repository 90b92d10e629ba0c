"""``omaha solve``: a heads-up PLO or PLO hi/lo river spot solved exactly.

    omaha solve --variant plo8 --board "Ah Kd 7c 5s 2h" --oop 'AA**:$ds' --ip 'KK**' \\
        --pot 100 --stack 300 --bets 50%,pot --raises pot --target 0.3% --hand AcAs2c3s

Prints the values, the exploitability and the first decisions (each action's share over the
range and, for the first, by hand class: what each hand holds on the river; with ``--hand``,
that hand's strategy), or one JSON object with ``--json``; ``--plot`` draws the first
decision by hand class. Exit 0 on success, 2 with one line on stderr for bad input.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from omaha.cli.plot import plot_output
from omaha.cli.shared import add_progress_options, add_variant, fail, non_negative, positive

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Register the ``solve`` subcommand."""
    sub = commands.add_parser(
        "solve", help="solve a heads-up PLO or PLO8 river or turn spot exactly (discounted CFR)",
        description="An equilibrium strategy of a heads-up pot-limit river or turn spot over "
                    "both full ranges, with its exploitability from an exact best response.",
        epilog="example: omaha solve --variant plo8 --board 'Ah Kd 7c 5s 2h' "
               "--oop 'AA**:$ds' --ip KK** --pot 100 --stack 300 --target 0.3%")
    add_variant(sub, default="plo")
    sub.add_argument("--board", required=True,
                     help="the river's 5 board cards, or the turn's 4 (every river card is "
                          "then dealt and solved)")
    sub.add_argument("--oop", required=True, metavar="RANGE",
                     help="the out-of-position range (acts first), e.g. 'AA**:$ds'")
    sub.add_argument("--ip", required=True, metavar="RANGE", help="the in-position range")
    sub.add_argument("--pot", type=positive, required=True, help="the pot, in chips")
    sub.add_argument("--stack", type=positive, required=True,
                     help="the effective stack behind, in chips")
    sub.add_argument("--bets", default="50%,pot",
                     help="bet sizes as shares of the pot (default 50%%,pot)")
    sub.add_argument("--raises", default="pot",
                     help="raise sizes as shares of the pot after calling (default pot)")
    sub.add_argument("--max-raises", type=non_negative, default=3,
                     help="raises after a bet (default 3)")
    sub.add_argument("--target", default="0.3%",
                     help="stop at this exploitability: chips, or a share of the pot "
                          "(default 0.3%%)")
    sub.add_argument("--max-iterations", type=positive, default=1000,
                     help="stop after this many iterations (default 1000)")
    sub.add_argument("--storage", choices=("32bit", "16bit"), default="32bit",
                     help="regrets and strategy sums in float32, or 16 bits with one scale "
                          "per node (about half the memory; default 32bit)")
    sub.add_argument("--threads", type=positive, default=1,
                     help="threads splitting each node's hands (default 1)")
    sub.add_argument("--hand", action="append", default=[],
                     help="show this hand's strategy too (repeatable; default none)")
    sub.add_argument("--save", default=None, metavar="FILE",
                     help="write the solution to FILE (.npz; default: not saved)")
    sub.add_argument("--plot", default=None, metavar="PNG", type=plot_output,
                     help="draw a decision's strategy by hand class into PNG (needs "
                          "matplotlib: the 'plot' extra; default: no plot)")
    sub.add_argument("--plot-after", default="", metavar="LABELS",
                     help="the decision --plot draws: the actions before it, comma-separated "
                          "(e.g. 'check' or 'bet 50'; default: the first decision)")
    add_progress_options(sub)
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Solve and print; 2 on bad input."""
    from omaha.cli.progress import Progress, progress_bar
    from omaha.errors import OmahaError
    from omaha.solver import Spot, solve

    bar: Progress | None = None
    if args.plot is not None:
        try:
            from omaha.cli.plot import require_matplotlib

            require_matplotlib()
        except ImportError as exc:
            return fail("solve", exc)

    def progress(iterations: int, gap: float) -> None:
        nonlocal bar
        if bar is None:
            bar = progress_bar(args.max_iterations, enabled=args.progress, unit="it",
                               description="solve")
        bar.update(iterations - bar.n)
        bar.set_description_str(f"exploitable {gap / args.pot:.3%} of the pot")

    try:
        spot = Spot(args.board, args.oop, args.ip, variant=args.variant, pot=args.pot,
                    stack=args.stack, bets=args.bets, raises=args.raises,
                    max_raises=args.max_raises)
        solution = solve(spot, target=args.target, max_iterations=args.max_iterations,
                         progress=progress, storage=args.storage, threads=args.threads)
        decisions = _decisions(solution, args.hand)
        if args.save:
            solution.save(args.save)
        if args.plot is not None:
            _plot(solution, args.plot, args.plot_after)
    except (OmahaError, TypeError, OSError) as exc:
        return fail("solve", exc)
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        print(json.dumps({**solution.summary(), "decisions": decisions}))
        return 0
    print(_text(solution, decisions))
    return 0


def _plot(solution: Any, path: str, after: str) -> None:
    from omaha.cli.plot import plot_strategy
    from omaha.solver.classes import by_class

    history = tuple(label.strip() for label in after.split(",") if label.strip())
    node = solution.node(history)
    spot = solution.spot
    who = "out of position" if node.player == 0 else "in position"
    plot_strategy(by_class(node), node.actions, path,
                  title=f"{spot.variant.name}, board {' '.join(str(c) for c in spot.board)}"
                        f"\n{who}, {'after ' + ', '.join(history) if history else 'first'}, "
                        f"pot {node.pot}")


def _decisions(solution: Any, hands: list[str]) -> list[dict[str, Any]]:
    """The root and the decisions right after it: shares over the range and by hand class,
    and the hands'."""
    from omaha.errors import SolverError
    from omaha.solver.classes import by_class

    root = solution.node()
    nodes = [root] + [solution.node((label,)) for label in root.actions
                      if solution.tree.kinds[solution.tree.child(0, label)] == 0]
    out = []
    for node in nodes:
        entry: dict[str, Any] = {"history": list(node.history), "player": node.player,
                                 "pot": node.pot,
                                 "actions": dict(zip(node.actions, node.frequencies())),
                                 "classes": [{"class": row.label, "hands": row.hands,
                                              "share": row.share,
                                              "actions": dict(zip(node.actions,
                                                                  row.frequencies))}
                                             for row in by_class(node)],
                                 "hands": {}}
        for hand in hands:
            try:
                entry["hands"][hand] = dict(zip(node.actions, node.strategy(hand)))
            except SolverError:
                continue            # not in this player's range: shown for the other one
        out.append(entry)
    return out


def _text(solution: Any, decisions: list[dict[str, Any]]) -> str:
    spot = solution.spot
    lines = [f"{spot.variant.name}, board {' '.join(str(c) for c in spot.board)}, pot "
             f"{spot.pot}, stack {spot.stack}: {len(spot.hands(0)):,} vs "
             f"{len(spot.hands(1)):,} hands",
             f"{solution.iterations} iterations; value: out of position "
             f"{solution.ev[0]:.3f}, in position {solution.ev[1]:.3f}; exploitable "
             f"{solution.exploitability:.4f} chips ({solution.exploitability_pot:.3%} of the pot)"]
    for entry in decisions:
        where = " ".join(entry["history"]) or "start"
        who = "out of position" if entry["player"] == 0 else "in position"
        shares = ", ".join(f"{label} {share:.1%}" for label, share in entry["actions"].items())
        lines.append(f"after {where}: {who} (pot {entry['pot']}): {shares}")
        if not entry["history"]:   # the first decision, by hand class
            for row in entry["classes"]:
                mix = ", ".join(f"{label} {p:.0%}" for label, p in row["actions"].items())
                lines.append(f"    {row['class']} ({row['share']:.0%} of the range): {mix}")
        for hand, strategy in entry["hands"].items():
            mix = ", ".join(f"{label} {p:.1%}" for label, p in strategy.items())
            lines.append(f"    {hand}: {mix}")
    return "\n".join(lines)
