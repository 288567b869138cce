"""The files pane: the explored directory as the walker sees it, and a fuzzy finder over it."""
