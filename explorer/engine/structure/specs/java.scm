; Java. Constructors are methods; records are classes.

(package_declaration (_) @name) @item.module

(class_declaration name: (_) @name body: (_) @body) @item.class
(record_declaration name: (_) @name body: (_) @body) @item.class
(interface_declaration name: (_) @name body: (_) @body) @item.interface
(annotation_type_declaration name: (_) @name body: (_) @body) @item.interface
(enum_declaration name: (_) @name body: (_) @body) @item.enum

(method_declaration name: (_) @name body: (_)? @body) @item.method
(constructor_declaration name: (_) @name body: (_) @body) @item.method
(compact_constructor_declaration name: (_) @name body: (_) @body) @item.method
(annotation_type_element_declaration name: (_) @name) @item.method

(field_declaration
  [(modifiers "static" "final") (modifiers "final" "static")]
  declarator: (variable_declarator name: (_) @name value: (_)? @body)) @item.constant

(field_declaration
  declarator: (variable_declarator name: (_) @name value: (_)? @body)) @item.field

(constant_declaration
  declarator: (variable_declarator name: (_) @name value: (_)? @body)) @item.constant

(import_declaration
  [(scoped_identifier) (identifier)] @import.name .) @import

(import_declaration
  [(scoped_identifier) (identifier)] @import.source
  (asterisk) @import.wildcard) @import
