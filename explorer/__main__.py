"""``python -m explorer``: the same as the ``chunk-explorer`` command."""

import sys

from explorer.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
