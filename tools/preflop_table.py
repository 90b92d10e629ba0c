"""Generate ``src/omaha/data/preflop4_vs1-5.bin``, the one shipped preflop table: every
4-card Omaha class's high and hi/lo equity against 1 to 5 random hands, by Monte Carlo with
this package's own engine (:func:`omaha.distributed.preflop.build_table`).

    PYTHONPATH=src python3 tools/preflop_table.py [--samples 10000] [--seed 0] [--ray [ADDRESS]]

The defaults remake the shipped file byte for byte: each (class, opponent count) has its own
seed, so the table does not depend on the chunking or the workers. With 10,000 deals a value
its standard error is at most 0.005; ``omaha.analysis.preflop`` orders ``top N%`` ranges by the
one-opponent column, so classes closer than that may swap places in the ordering. The same
work as ``omaha preflop-table --samples 10000 --binary src/omaha/data/preflop4_vs1-5.bin``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from omaha.distributed.preflop import build_table, standard_error_bound, write_binary

OUT = Path(__file__).resolve().parent.parent / "src" / "omaha" / "data" / "preflop4_vs1-5.bin"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=10_000, help="deals per value")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="run the chunks on Ray: a new local cluster, or the one at ADDRESS")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    start = time.time()
    rows = build_table(opponents=(1, 2, 3, 4, 5), samples=args.samples, seed=args.seed,
                       chunk_classes=256, ray=args.ray is not None, address=args.ray or None)
    write_binary(rows, str(args.out), args.samples)
    worst = max(max(row[3], row[5]) for row in rows)
    print(f"wrote {args.out} in {time.time() - start:.0f}s; largest standard error {worst:.4f} "
          f"(bound {standard_error_bound(args.samples):.4f})", file=sys.stderr)


if __name__ == "__main__":
    main()
