"""The source view: highlighted code with each chunk on its own background (and overlays on it)."""
