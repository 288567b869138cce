; Shared by JavaScript (with JSX), TypeScript and TSX.

(function_declaration
  name: (identifier) @name
  body: (_) @body) @item.function

(generator_function_declaration
  name: (identifier) @name
  body: (_) @body) @item.function

(class_declaration
  name: (_) @name
  body: (_) @body) @item.class

(method_definition
  name: (_) @name
  body: (_) @body) @item.method

; functions assigned to names are functions: const f = () => {}, let g = function () {}
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
      (generator_function body: (_) @body)
    ])) @item.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
      (generator_function body: (_) @body)
    ])) @item.function

; exports.handler = function () {}, Foo.prototype.bar = () => {}
(expression_statement
  (assignment_expression
    left: (member_expression property: (property_identifier) @name)
    right: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
    ])) @item.function

; module-level constants and variables
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator name: (identifier) @name value: (_)? @body)) @item.constant)

(program
  (export_statement
    (lexical_declaration
      kind: "const"
      (variable_declarator name: (identifier) @name value: (_)? @body)) @item.constant))

(program
  (lexical_declaration
    kind: "let"
    (variable_declarator name: (identifier) @name value: (_)? @body)) @item.variable)

(program
  (variable_declaration
    (variable_declarator name: (identifier) @name value: (_)? @body)) @item.variable)

(program
  (export_statement
    [(variable_declaration (variable_declarator name: (identifier) @name value: (_)? @body))
     (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name value: (_)? @body))]
     @item.variable))

(export_statement
  declaration: (_) @wrapped) @outer.export

; imports, one match per name
(import_statement
  (import_clause
    (named_imports
      (import_specifier
        name: (_) @import.name
        alias: (_)? @import.alias)))
  source: (string (string_fragment) @import.source)) @import

(import_statement
  (import_clause (identifier) @import.default)
  source: (string (string_fragment) @import.source)) @import

(import_statement
  (import_clause (namespace_import (identifier) @import.namespace))
  source: (string (string_fragment) @import.source)) @import

(import_statement
  source: (string (string_fragment) @import.source)) @import

; CommonJS: const fs = require('fs'), const { a, b: c } = require('x')
; (@call must be one of the spec's call names)
(lexical_declaration
  (variable_declarator
    name: (identifier) @import.namespace
    value: (call_expression
      function: (identifier) @call
      arguments: (arguments . (string (string_fragment) @import.source) .)))) @import

(lexical_declaration
  (variable_declarator
    name: (object_pattern
      [(shorthand_property_identifier_pattern) @import.name
       (pair_pattern key: (_) @import.name value: (identifier) @import.alias)])
    value: (call_expression
      function: (identifier) @call
      arguments: (arguments . (string (string_fragment) @import.source) .)))) @import

; re-exports and export default <expression>
(export_statement
  (export_clause
    (export_specifier
      name: (_) @export.name
      alias: (_)? @export.alias))
  source: (string (string_fragment) @export.source)?) @export

(export_statement
  "*"
  source: (string (string_fragment) @export.source)) @export.all @export

(export_statement
  value: (_)) @export
