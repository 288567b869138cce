"""Screens of the explorer: the main view and help (each tool has its screens in its own folder)."""
