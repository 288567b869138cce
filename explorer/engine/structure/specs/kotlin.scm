; Kotlin (few fields in this grammar: names are the first identifier child).

(package_header (identifier) @name) @item.module

(class_declaration "interface" (type_identifier) @name (class_body)? @body) @item.interface
(class_declaration (type_identifier) @name (enum_class_body) @body) @item.enum
(class_declaration (type_identifier) @name (class_body)? @body) @item.class
(object_declaration (type_identifier) @name (class_body)? @body) @item.class

(function_declaration (simple_identifier) @name (function_body)? @body) @item.function
(secondary_constructor "constructor" @name "{"? @body) @item.method
(companion_object (type_identifier) @name (class_body) @body) @item.class

(type_alias (type_identifier) @name) @item.type

(source_file
  (property_declaration
    (binding_pattern_kind "val")
    (variable_declaration (simple_identifier) @name)
    (_)? @body) @item.constant)

(source_file
  (property_declaration
    (variable_declaration (simple_identifier) @name)
    (_)? @body) @item.variable)

(class_body
  (property_declaration
    (variable_declaration (simple_identifier) @name)
    (_)? @body) @item.field)

(import_header (identifier) @import.name .) @import
(import_header (identifier) @import.name (import_alias (type_identifier) @import.alias)) @import
(import_header (identifier) @import.source (wildcard_import) @import.wildcard) @import
