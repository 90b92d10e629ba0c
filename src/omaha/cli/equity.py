"""``omaha equity``: each entry's share of the pot, exact or sampled.

    omaha equity AsAh2d3c KsKhQdJc --board Kd7c4h --variant plo8
    omaha equity "AA**:$ds" "top 10%" --variant plo8 --samples 200000 --seed 1 --json

Entries are hands or ranges (``docs/ranges.md``). Exit 0 on success, 2 with one line on
stderr for bad input.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from omaha.cli.shared import add_progress_options, add_variant, fail

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Register the ``equity`` subcommand."""
    sub = commands.add_parser(
        "equity", help="equity of hands or ranges (exact when feasible, else sampled)",
        description="Each entry's expected share of the pot: hands (AsAh2d3c) or ranges "
                    "(AA**:$ds, 'top 10%', KK-QQ).",
        epilog="example: omaha equity AsAh2d3c KsKhQdJc --board Kd7c4h --variant plo8")
    sub.add_argument("entries", nargs="+", metavar="ENTRY", help="a hand or a range")
    sub.add_argument("--board", default="", help="0, 3, 4 or 5 board cards (default: none, preflop)")
    sub.add_argument("--dead", default="", help="dead cards (default: none)")
    add_variant(sub, default="omaha")
    sub.add_argument("--samples", type=int, default=None, help="Monte Carlo deals (default: exact when feasible, else 1000000 "
                     "sampled deals)")
    sub.add_argument("--exact", action="store_true", help="enumerate every deal or fail (default off: sample when exact is "
                     "too slow)")
    sub.add_argument("--seed", type=int, default=None, help="seed for reproducible sampling (default: OS randomness)")
    sub.add_argument("--threads", type=int, default=1, help="threads (default 1)")
    add_progress_options(sub)
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute and print; 2 on bad input. A progress bar shows on stderr while sampling (on a
    terminal, or as ``--progress``/``--no-progress`` say)."""
    from omaha.analysis.equity import equity
    from omaha.cli.progress import Progress, progress_bar
    from omaha.errors import OmahaError

    bar: Progress | None = None
    shown = 0

    def progress(done: int, total: int) -> None:
        nonlocal bar, shown
        if bar is None:
            bar = progress_bar(total, enabled=args.progress, unit="deal",
                               description="equity")
        bar.update(done - shown)
        shown = done

    try:
        res = equity(args.entries, board=args.board or None, dead=args.dead or None,
                     variant=args.variant, samples=args.samples,
                     exact=True if args.exact else None, seed=args.seed,
                     threads=args.threads, progress=progress)
    except (OmahaError, TypeError) as exc:
        return fail("equity", exc)
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        data = res.to_dict()
        data["entries"] = list(args.entries)
        print(json.dumps(data))
        return 0
    print(_table(args.entries, res))
    return 0


def _table(entries: list[str], res: Any) -> str:
    width = max(5, *(len(e) for e in entries))
    hilo = res.variant.hi_lo
    head = f"{'entry':<{width}}  equity   " + ("high     low      " if hilo else "") + \
        "win      tie      scoop"
    lines = [head]
    for i, entry in enumerate(entries):
        row = f"{entry:<{width}}  {res.equity[i]:7.3%}  "
        if hilo:
            row += f"{res.high[i]:7.3%}  {res.low[i]:7.3%}  "
        row += f"{res.win[i]:7.3%}  {res.tie[i]:7.3%}  {res.scoop[i]:7.3%}"
        lines.append(row)
    how = "exact" if res.exact else \
        f"sampled, standard error {max(res.std_error):.2e}"
    lines.append(f"{res.variant.name}: {res.deals:,} deals, {how}")
    return "\n".join(lines)
