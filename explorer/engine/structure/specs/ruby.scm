; Ruby. `def` inside a class becomes a method in the scope pass.

(comment) @comment

(module name: (_) @name body: (_)? @body) @item.module
(class name: (_) @name body: (_)? @body) @item.class
(singleton_class value: (_) @name body: (_)? @body) @item.class

(method name: (_) @name body: (_)? @body) @item.function
(singleton_method name: (_) @name body: (_)? @body) @item.method

(assignment left: (constant) @name right: (_) @body) @item.constant

(call
  method: (identifier) @_attr
  arguments: (argument_list (simple_symbol) @name)
  (#match? @_attr "^attr_(reader|writer|accessor)$")) @item.field

(call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @import.source))
  (#match? @_require "^(require|require_relative|load|autoload)$")) @import
