"""Screens of the explorer: the main view, help and dialogs."""
