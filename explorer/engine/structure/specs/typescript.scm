; TypeScript and TSX, on top of ecmascript.scm.

(abstract_class_declaration
  name: (_) @name
  body: (_) @body) @item.class

(interface_declaration
  name: (_) @name
  body: (_) @body) @item.interface

(type_alias_declaration
  name: (_) @name
  value: (_) @body) @item.type

(enum_declaration
  name: (_) @name
  body: (_) @body) @item.enum

(internal_module
  name: (_) @name
  body: (_) @body) @item.module

(module
  name: (_) @name
  body: (_) @body) @item.module

(function_signature
  name: (_) @name) @item.function

(interface_body
  (method_signature
    name: (_) @name) @item.method)

(abstract_method_signature
  name: (_) @name) @item.method

(public_field_definition
  name: (_) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
  ]) @item.method

(public_field_definition
  name: (_) @name
  value: (_)? @body) @item.field

(interface_body
  (property_signature
    name: (_) @name) @item.field)

(ambient_declaration
  (_) @wrapped) @outer.decorated

(import_statement
  (import_require_clause
    (identifier) @import.namespace
    source: (string (string_fragment) @import.source))) @import
