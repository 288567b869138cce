; C++, on top of c.scm. Functions inside classes and structs become methods.

(class_specifier name: (_) @name body: (_) @body) @item.class
(namespace_definition name: (_) @name body: (_) @body) @item.module
(alias_declaration name: (_) @name type: (_) @body) @item.type
(concept_definition name: (_) @name) @item.type

(template_declaration (_) @wrapped) @outer.decl

(function_definition
  declarator: (reference_declarator (function_declarator declarator: (_) @name))
  body: (_)? @body) @item.function

; method declarations inside a class body
(field_declaration_list
  [(field_declaration
     declarator: [
       (function_declarator declarator: (_) @name)
       (pointer_declarator declarator: (function_declarator declarator: (_) @name))
       (reference_declarator (function_declarator declarator: (_) @name))
     ])
   (declaration
     declarator: (function_declarator declarator: (_) @name))] @item.function)

(translation_unit
  (declaration
    (type_qualifier ["const" "constexpr"])
    declarator: (init_declarator declarator: (identifier) @name value: (_) @body)) @item.constant)

(declaration_list
  (declaration
    (type_qualifier ["const" "constexpr"])
    declarator: (init_declarator declarator: (identifier) @name value: (_) @body)) @item.constant)

; using std::vector; and using namespace std; (a glob: it supersedes the plain row)
(using_declaration (qualified_identifier) @import.name) @import
(using_declaration "namespace" [(identifier) (qualified_identifier)] @import.source @import.wildcard) @import
