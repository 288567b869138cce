; Go. The package clause is a module, never an import.

(package_clause (package_identifier) @name) @item.module

(function_declaration
  name: (_) @name
  body: (_)? @body) @item.function

(method_declaration
  name: (_) @name
  body: (_)? @body) @item.method

(method_elem
  name: (_) @name) @item.method

(type_spec
  name: (_) @name
  type: (struct_type (field_declaration_list) @body)) @item.type

(type_spec
  name: (_) @name
  type: (interface_type "{" @body)) @item.interface

(type_spec
  name: (_) @name
  type: [(type_identifier) (qualified_type) (function_type) (pointer_type) (slice_type)
         (map_type) (array_type) (channel_type) (generic_type)]) @item.type

(type_alias
  name: (_) @name) @item.type

; a declaration with one spec lends the spec its keyword (and its range)
(type_declaration . [(type_spec) (type_alias)] @wrapped .) @outer.decl
(const_declaration . (const_spec) @wrapped .) @outer.decl
(var_declaration . (var_spec) @wrapped .) @outer.decl

(source_file
  (const_declaration
    (const_spec name: (identifier) @name value: (_)? @body) @item.constant))

(source_file
  (var_declaration
    (var_spec name: (identifier) @name value: (_)? @body) @item.variable))

(source_file
  (var_declaration
    (var_spec_list
      (var_spec name: (identifier) @name value: (_)? @body) @item.variable)))

(field_declaration_list
  (field_declaration
    name: (_) @name) @item.field)

(import_spec
  name: (_) @import.alias
  path: (_) @import.source) @import

(import_spec
  path: (_) @import.source) @import
