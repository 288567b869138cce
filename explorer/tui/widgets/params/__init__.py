"""Widgets of the explorer, one per module, grouped by area."""
