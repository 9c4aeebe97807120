"""``python -m felt``: the same as the ``felt`` command."""

import sys

from felt.cli.main import main

sys.exit(main())
