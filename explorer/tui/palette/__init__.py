"""The command palette (ctrl+p): every action as "group: action", only those that make sense now, and files by name."""
