; JavaScript and JSX, on top of ecmascript.scm.

(field_definition
  property: (_) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
  ]) @item.method

(field_definition
  property: (_) @name
  value: (_)? @body) @item.field
