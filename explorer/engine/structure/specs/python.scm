; Python. Functions inside classes become methods in the scope pass.

(function_definition
  name: (identifier) @name
  ":" @sig.end
  body: (_) @body) @item.function

(class_definition
  name: (identifier) @name
  ":" @sig.end
  body: (_) @body) @item.class

(decorated_definition
  definition: (_) @wrapped) @outer.decorated

; module-level UPPER_CASE names are constants (the spec's constant_names filters)
(module
  (assignment
    left: (identifier) @name
    right: (_)? @body) @item.constant)

; class attributes and dataclass fields
(class_definition
  body: (block
    (assignment
      left: (identifier) @name
      right: (_)? @body) @item.field))

; imports: one match per imported name
(import_statement
  name: (dotted_name) @import.name @import.source) @import

(import_statement
  name: (aliased_import
    name: (_) @import.name @import.source
    alias: (_) @import.alias)) @import

(import_from_statement
  module_name: (_) @import.source
  name: (dotted_name) @import.name) @import

(import_from_statement
  module_name: (_) @import.source
  name: (aliased_import
    name: (_) @import.name
    alias: (_) @import.alias)) @import

(import_from_statement
  module_name: (_) @import.source
  (wildcard_import) @import.wildcard) @import
