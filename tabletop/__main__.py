"""``python -m tabletop`` runs the command line."""

import sys

from tabletop.cli import main

sys.exit(main())
