"""A codebase on disk, without any UI: walking it, its settings file, exports.
Shared by the headless CLI and the explorer."""
