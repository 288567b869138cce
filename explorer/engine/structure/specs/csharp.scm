; C#. Constructors are methods; properties, events and fields are fields.

(namespace_declaration name: (_) @name body: (_) @body) @item.module
(file_scoped_namespace_declaration name: (_) @name) @item.module

(class_declaration name: (_) @name body: (_) @body) @item.class
(record_declaration name: (_) @name body: (_)? @body) @item.class
(struct_declaration name: (_) @name body: (_) @body) @item.type
(interface_declaration name: (_) @name body: (_) @body) @item.interface
(enum_declaration name: (_) @name body: (_) @body) @item.enum
(delegate_declaration name: (_) @name) @item.type

(method_declaration name: (_) @name body: (_)? @body) @item.method
(constructor_declaration name: (_) @name body: (_)? @body) @item.method
(destructor_declaration name: (_) @name body: (_)? @body) @item.method
(operator_declaration body: (_)? @body) @item.method
(local_function_statement name: (_) @name body: (_)? @body) @item.function

(field_declaration
  (modifier "const")
  (variable_declaration (variable_declarator name: (_) @name (_)? @body))) @item.constant
(property_declaration name: (_) @name accessors: (_)? @body) @item.field
(field_declaration
  (variable_declaration (variable_declarator name: (_) @name (_)? @body))) @item.field
(event_field_declaration
  (variable_declaration (variable_declarator name: (_) @name))) @item.field

(using_directive
  name: (identifier) @import.alias
  [(qualified_name) (identifier) (generic_name)] @import.name) @import

(using_directive
  [(qualified_name) (identifier)] @import.source) @import
