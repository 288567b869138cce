; Ruby. `def` inside a class becomes a method in the scope pass.

(module name: (_) @name body: (_)? @body) @item.module
(class name: (_) @name body: (_)? @body) @item.class
(singleton_class value: (_) @name body: (_)? @body) @item.class

(method name: (_) @name body: (_)? @body) @item.function
(singleton_method name: (_) @name body: (_)? @body) @item.method

(assignment left: (constant) @name right: (_) @body) @item.constant

; attr_reader :name, require "x" (@call must be one of the spec's call names)
(call
  method: (identifier) @call
  arguments: (argument_list (simple_symbol) @name)) @item.field

(call
  method: (identifier) @call
  arguments: (argument_list . (string (string_content) @import.source))) @import
