"""``python -m omaha``: the same command line as ``omaha``."""

import sys

from omaha.cli import main

sys.exit(main())
