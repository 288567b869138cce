"""The scope pane: classes, functions and methods nested by containment, and their docs."""
