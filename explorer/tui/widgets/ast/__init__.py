"""The syntax tree pane: tree-sitter nodes in the playground's notation, loaded as they are expanded."""
