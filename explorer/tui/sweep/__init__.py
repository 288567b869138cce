"""The sweep panel: measure settings over the explored directory, save the chosen one."""
