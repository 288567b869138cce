"""``chunk-explorer`` and ``python -m explorer``: the launcher above both faces. A command
line that names a command (or ``--help``, ``--version``) goes to the headless CLI; any
other (none, a PATH, the explorer's flags) opens the explorer. Each face is imported only
once chosen: a command never imports Textual."""

from __future__ import annotations

import sys
from collections.abc import Sequence

#: What to use when the explorer cannot be imported (Textual missing).
USAGE_HINT = "use the headless commands instead: chunk-explorer chunk|stats|languages --help"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    from .cli import main as cli

    if cli.is_command(args):
        return cli.main(args)
    return cli.guarded(lambda: explore(args))


def explore(argv: Sequence[str]) -> int:
    """Open the explorer with the command line's path, flags and settings file."""
    from .cli.errors import EXIT_FAILED
    from .cli.explorer_args import parse_explorer_args
    from .cli.report import error

    launch = parse_explorer_args(argv)
    try:
        from .tui.app import run
    except ModuleNotFoundError as exc:
        if exc.name not in ("explorer.tui.app", "explorer.tui", "textual"):
            raise  # a bug inside the app, not a missing app
        error(f"the explorer is not available ({exc}); {USAGE_HINT}")
        return EXIT_FAILED
    serving = None
    if launch.served:
        from .tui.served import Serving, hold_lifeline
        from .workspace.confine import Confinement

        hold_lifeline()  # the server's child: it ends when the server does, however that ends
        serving = Serving(Confinement.of(launch.path, launch.write_to))
    return run(launch.path, launch.options, walk=launch.walk, settings_path=launch.settings_path,
               teach=launch.teach, serving=serving, open_path=launch.open)


if __name__ == "__main__":
    sys.exit(main())
