; PHP. Traits are interfaces.

(namespace_definition name: (_) @name body: (_)? @body) @item.module

(class_declaration name: (_) @name body: (_) @body) @item.class
(interface_declaration name: (_) @name body: (_) @body) @item.interface
(trait_declaration name: (_) @name body: (_) @body) @item.interface
(enum_declaration name: (_) @name body: (_) @body) @item.enum

(function_definition name: (_) @name body: (_) @body) @item.function
(method_declaration name: (_) @name body: (_)? @body) @item.method

(const_declaration (const_element (name) @name (_)? @body)) @item.constant
(property_declaration (property_element name: (_) @name default_value: (_)? @body)) @item.field

(namespace_use_declaration
  (namespace_use_clause
    [(qualified_name) (name)] @import.name
    alias: (_)? @import.alias)) @import

(namespace_use_declaration
  (namespace_name) @import.source
  body: (namespace_use_group
    (namespace_use_clause
      [(qualified_name) (name)] @import.name
      alias: (_)? @import.alias))) @import

(expression_statement
  [(require_expression (string (string_content) @import.source))
   (require_once_expression (string (string_content) @import.source))
   (include_expression (string (string_content) @import.source))
   (include_once_expression (string (string_content) @import.source))
   (require_expression (binary_expression right: (string (string_content) @import.source)))
   (require_once_expression (binary_expression right: (string (string_content) @import.source)))
   (include_expression (binary_expression right: (string (string_content) @import.source)))
   (include_once_expression (binary_expression right: (string (string_content) @import.source)))]) @import
