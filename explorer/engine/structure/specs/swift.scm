; Swift. class_declaration also stands for struct, enum, actor and extension.

(class_declaration declaration_kind: "struct" name: (_) @name body: (_) @body) @item.type
(class_declaration declaration_kind: "enum" name: (_) @name body: (_) @body) @item.enum
(class_declaration name: (_) @name body: (_) @body) @item.class
(protocol_declaration name: (_) @name body: (_) @body) @item.interface

(function_declaration name: (simple_identifier) @name body: (_) @body) @item.function
(protocol_function_declaration name: (simple_identifier) @name) @item.method
(init_declaration "init" @name body: (_)? @body) @item.method
(deinit_declaration "deinit" @name body: (_) @body) @item.method
(subscript_declaration "subscript" @name) @item.method

(typealias_declaration name: (type_identifier) @name) @item.type

(source_file
  (property_declaration
    (value_binding_pattern "let")
    name: (pattern bound_identifier: (simple_identifier) @name)
    value: (_)? @body) @item.constant)

(source_file
  (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @name)
    value: (_)? @body) @item.variable)

(class_body
  (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @name)
    value: (_)? @body
    computed_value: (_)? @body) @item.field)

(enum_class_body
  (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @name)
    value: (_)? @body
    computed_value: (_)? @body) @item.field)

(protocol_property_declaration
  name: (pattern bound_identifier: (simple_identifier) @name)) @item.field

(import_declaration (identifier) @import.name) @import
