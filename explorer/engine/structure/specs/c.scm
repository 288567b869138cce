; C (and the C part of C++). Names sit inside nested declarators.

(function_definition
  declarator: [
    (function_declarator declarator: (_) @name)
    (pointer_declarator declarator: (function_declarator declarator: (_) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name)))
  ]
  body: (_)? @body) @item.function

; prototypes at file level and in extern "C" blocks
(translation_unit
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    ]) @item.function)

(declaration_list
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    ]) @item.function)

(struct_specifier name: (_) @name body: (_) @body) @item.type
(union_specifier name: (_) @name body: (_) @body) @item.type
(enum_specifier name: (_) @name body: (_) @body) @item.enum

; typedef struct s {...} s_t: the struct takes the typedef's range
(type_definition
  type: [(struct_specifier name: (_) body: (_)) (union_specifier name: (_) body: (_))
         (enum_specifier name: (_) body: (_))] @wrapped) @outer.decl

; typedef struct {...} point_t: the typedef is the type
(type_definition
  type: [(struct_specifier !name body: (_) @body) (union_specifier !name body: (_) @body)]
  declarator: (type_identifier) @name) @item.type

(type_definition
  type: (enum_specifier !name body: (_) @body)
  declarator: (type_identifier) @name) @item.enum

(type_definition
  type: [(primitive_type) (type_identifier) (sized_type_specifier)
         (struct_specifier !body) (union_specifier !body) (enum_specifier !body)]
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)
               (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))]) @item.type

(preproc_def name: (_) @name value: (_)? @body) @item.constant
(preproc_function_def name: (_) @name value: (_)? @body) @item.function

(translation_unit
  (declaration
    declarator: [
      (identifier) @name
      (init_declarator declarator: [(identifier) @name
                                    (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
                                    (array_declarator declarator: (identifier) @name)]
                       value: (_) @body)
    ]) @item.variable)

(field_declaration_list
  (field_declaration
    declarator: [
      (field_identifier) @name
      (pointer_declarator declarator: (field_identifier) @name)
      (array_declarator declarator: (field_identifier) @name)
    ]) @item.field)

(preproc_include path: (_) @import.source) @import
