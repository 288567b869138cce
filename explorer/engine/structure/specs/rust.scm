; Rust. Functions inside impl and trait blocks become methods in the scope pass.

(function_item
  name: (_) @name
  body: (_) @body) @item.function

(function_signature_item
  name: (_) @name) @item.function

(struct_item
  name: (_) @name
  body: (_)? @body) @item.type

(union_item
  name: (_) @name
  body: (_) @body) @item.type

(enum_item
  name: (_) @name
  body: (_) @body) @item.enum

(trait_item
  name: (_) @name
  body: (_) @body) @item.interface

(type_item
  name: (_) @name
  type: (_) @body) @item.type

; impl Trait for T is named after T, not the trait
(impl_item
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
    (scoped_type_identifier name: (type_identifier) @name)
    (reference_type type: (type_identifier) @name)
  ]
  body: (_) @body) @item.class

(mod_item
  name: (_) @name
  body: (_)? @body) @item.module

(const_item
  name: (_) @name
  value: (_)? @body) @item.constant

(static_item
  name: (_) @name
  value: (_)? @body) @item.constant

(macro_definition
  name: (_) @name
  (macro_rule) @body) @item.function

(field_declaration_list
  (field_declaration
    name: (_) @name) @item.field)

(use_declaration
  argument: (_) @import.tree) @import

(extern_crate_declaration
  name: (_) @import.name
  alias: (_)? @import.alias) @import
