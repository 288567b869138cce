; Scala 2 and 3. Objects are classes; defs inside them become methods.

(package_clause name: (_) @name) @item.module

(trait_definition name: (_) @name body: (_)? @body) @item.interface
(class_definition name: (_) @name body: (_)? @body) @item.class
(object_definition name: (_) @name body: (_)? @body) @item.class
(enum_definition name: (_) @name body: (_) @body) @item.enum
(type_definition name: (_) @name) @item.type

(function_definition name: (_) @name body: (_) @body) @item.function
(function_declaration name: (_) @name) @item.function

(template_body
  [(val_definition pattern: (identifier) @name value: (_)? @body)
   (var_definition pattern: (identifier) @name value: (_)? @body)
   (val_declaration name: (identifier) @name)
   (var_declaration name: (identifier) @name)] @item.field)

(compilation_unit
  (val_definition pattern: (identifier) @name value: (_)? @body) @item.constant)

(compilation_unit
  (var_definition pattern: (identifier) @name value: (_)? @body) @item.variable)

(import_declaration) @import.tree @import
