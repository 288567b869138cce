"""Widgets of the explorer, one per module, grouped by area; the pieces the areas share at the top."""
