"""The ``chunk-explorer`` command: the explorer (TUI) and the headless verbs."""
