"""Full structure support, one realistic file per language.

For each fully supported language: entity names, types, parents, signatures,
docstrings and imports, and the scope chain of a line inside a nested method.
Each case lists ``(name, type, parent, signature, docstring)`` for entities that
matter; ``docstring`` ``None`` means "has none", a string means "equals".
"""

from __future__ import annotations

import pytest
from structure_helpers import fixture, names, one, span_of

from explorer.engine.structure import FULL_LANGUAGES, structure_level

CASES = {
    "user_service.py": dict(
        language="python",
        entities=[
            ("MAX_USERS", "constant", None, "MAX_USERS", None),
            ("User", "class", None, "class User", "A registered user."),
            ("tags", "field", "User", "tags: list[str]", None),
            ("display_name", "method", "User", "def display_name(self) -> str", None),
            ("UserService", "class", None, "class UserService",
             "Loads and stores users.\n\nThe service keeps a small cache in front of the database.\n"
             "    Indented continuation lines keep their relative indent."),
            ("__init__", "method", "UserService",
             "def __init__(self, db: Database, cache: Optional[Mapping[str, User]] = None)", None),
            ("get_user", "method", "UserService", "async def get_user(self, id: str) -> Optional[User]",
             "Fetch a user by id, from the cache when possible."),
            ("remember", "function", "get_user", "def remember(user: User) -> User", None),
            ("validate", "method", "UserService", "def validate(user: User) -> bool", None),
            ("create_default_user", "function", None,
             'def create_default_user(service: UserService, name: str = "admin") -> User', None),
        ],
        absent=["_log", "annotations", "typing", "dataclasses"],
        imports=[("logging", "logging"), ("os.path", "os.path"), ("system", "sys"),
                 ("dataclass", "dataclasses"), ("field", "dataclasses"), ("Optional", "typing"),
                 ("Mapping", "typing"), ("Database", ".db"), ("events", ".")],
        nested="self.cache[id] = user",
        chain=["remember", "get_user", "UserService"],
    ),
    "user_service.ts": dict(
        language="typescript",
        entities=[
            ("MAX_USERS", "constant", None, "const MAX_USERS", None),
            ("requestCount", "variable", None, "let requestCount", None),
            ("User", "interface", None, "interface User", "A registered user."),
            ("roles", "field", "User", "roles?: Role[]", None),
            ("Role", "type", None, "type Role", None),
            ("Handler", "type", None, "type Handler<T = string>", None),
            ("Status", "enum", None, "enum Status", None),
            ("UserService", "class", None, "class UserService", "Loads and stores users.\n@see Database"),
            ("constructor", "method", "UserService",
             "constructor(private db: Database, private log: Logger)", None),
            ("getUser", "method", "UserService", "async getUser(id: string): Promise<User | undefined>",
             "Fetch a user by id."),
            ("toUser", "function", "getUser", "const toUser = (row: QueryResult): User", None),
            ("deleteUser", "method", "UserService", "deleteUser = async (id: string): Promise<boolean>", None),
            ("size", "method", "UserService", "get size(): number", None),
            ("Repository", "class", None, "abstract class Repository<T>", None),
            ("find", "method", "Repository", "abstract find(id: string): Promise<T>", None),
            ("Validation", "module", None, "namespace Validation", None),
            ("isValidId", "function", "Validation", "function isValidId(id: string): boolean", None),
            ("formatUser", "function", None, "const formatUser = (user: User): string",
             "Format a user for display."),
            ("createService", "function", None, "function createService(db: Database): UserService", None),
        ],
        absent=["<anonymous>"],
        imports=[("Database", "./db"), ("QueryResult", "./db"), ("Logger", "@app/logger"),
                 ("path", "path"), ("./polyfills", "./polyfills"), ("Option", "effect/Option")],
        exports=[("UserStatus", "./status"), ("*", "./types")],
        nested="const cached = this.cache.get(id)",
        chain=["getUser", "UserService"],
    ),
    "widgets.tsx": dict(
        language="tsx",
        entities=[
            ("ListProps", "interface", None, "interface ListProps<T>", "Props of a list widget."),
            ("render", "field", "ListProps", "render: (item: T) => ReactNode", None),
            ("Align", "type", None, "type Align", None),
            ("List", "function", None, "function List<T>({ items, render }: ListProps<T>): JSX.Element",
             "Renders items as a list."),
            ("Title", "function", None,
             "const Title = ({ text, align = 'left' }: { text: string; align?: Align })", None),
            ("Panel", "class", None, "class Panel extends React.Component<{ title: string }>", None),
            ("state", "field", "Panel", "state", None),
            ("toggle", "method", "Panel", "toggle(): void", "Toggle the panel open or closed."),
            ("flip", "function", "toggle", "const flip = (open: boolean): boolean", None),
        ],
        absent=["text", "title"],
        imports=[("React", "react"), ("useMemo", "react"), ("ReactNode", "react")],
        nested="this.setState({ open: flip(this.state.open) })",
        chain=["toggle", "Panel"],
    ),
    "calculator.jsx": dict(
        language="javascript",
        entities=[
            ("PRECISION", "constant", None, "const PRECISION", None),
            ("Calculator", "class", None, "class Calculator extends EventEmitter",
             "A calculator that remembers its result."),
            ("total", "field", "Calculator", "total", None),
            ("add", "method", "Calculator", "add(value)", "Add a number to the total."),
            ("subtract", "method", "Calculator", "subtract(value)", None),
            ("reset", "method", "Calculator", "reset = ()", None),
            ("Display", "function", None, "function Display({ calculator })", "Renders the calculator's display."),
            ("onChange", "function", "Display", "const onChange = (next)", None),
            ("App", "function", None, "function App()", None),
            ("createCalculator", "function", None,
             "module.exports.createCalculator = function createCalculator()", None),
        ],
        absent=["value", "setValue", "calculator"],
        imports=[("React", "react"), ("useState", "react"), ("format", "./format"),
                 ("round", "./math"), ("EventEmitter", "events")],
        nested="this.emit('change', this.total)",
        chain=["add", "Calculator"],
    ),
    "store.rs": dict(
        language="rust",
        entities=[
            ("MAX_ENTRIES", "constant", None, "pub const MAX_ENTRIES: usize", None),
            ("GREETING", "constant", None, "static GREETING: &str", None),
            ("Entry", "type", None, "pub struct Entry<T>", "A value stored under a key."),
            ("key", "field", "Entry", "pub key: String", None),
            ("Lookup", "enum", None, "pub enum Lookup", "The outcome of a lookup."),
            ("Shared", "type", None, "pub type Shared<T>", None),
            ("Storable", "interface", None, "pub trait Storable: Clone", "Anything that can be stored."),
            ("size", "method", "Storable", "fn size(&self) -> usize", "Size in bytes."),
            ("new", "method", "Store", "pub fn new() -> Self", "Create an empty store."),
            ("get", "method", "Store", "pub fn get(&self, key: &str) -> Option<&T>",
             "Look a key up.\n\nReturns `None` when the key is missing."),
            ("normalise", "function", "get", "fn normalise(key: &str) -> String", None),
            ("fmt", "method", "Store", "fn fmt(&self, f: &mut Fmt<'_>) -> fmt::Result", None),
            ("testing", "module", None, "pub mod testing", None),
            ("create_store_with", "function", "testing",
             "pub fn create_store_with<T: super::Storable>(items: Vec<(String, T)>) -> Store<T>", None),
            ("entry", "function", None, "macro_rules! entry", None),
        ],
        absent=["Display"],
        imports=[("HashMap", "std::collections::HashMap"), ("fmt", "std::fmt"),
                 ("Display", "std::fmt::Display"), ("Fmt", "std::fmt::Formatter"),
                 ("Arc", "std::sync::Arc"), ("Mutex", "std::sync::Mutex"), ("*", "crate::error"),
                 ("Store", "super::Store")],
        nested="key.trim().to_lowercase()",
        chain=["normalise", "get", "Store"],
    ),
    "repository.go": dict(
        language="go",
        entities=[
            ("repository", "module", None, "package repository",
             "Package repository stores users in SQL databases."),
            ("ErrNotFound", "variable", None, "var ErrNotFound", "ErrNotFound is returned when no user matches."),
            ("DefaultLimit", "constant", None, "DefaultLimit", "DefaultLimit caps list queries."),
            ("maxRetries", "constant", None, "maxRetries", None),
            ("Version", "constant", None, "const Version string", None),
            ("User", "type", None, "type User struct", "User is a stored user."),
            ("Email", "field", "User", "Email string", None),
            ("UserRepository", "interface", None, "type UserRepository interface",
             "UserRepository loads and saves users."),
            ("ID", "type", None, "ID int64", "ID identifies a user."),
            ("Filter", "type", None, "Filter func(User) bool", None),
            ("NewSQLUserRepository", "function", None,
             "func NewSQLUserRepository(db *sql.DB) *SQLUserRepository",
             "NewSQLUserRepository wraps a database handle."),
            ("GetAll", "method", None, "func (r *SQLUserRepository) GetAll(ctx context.Context) ([]User, error)",
             None),
        ],
        absent=["Copyright", "u", "row", "scan"],
        imports=[("context", "context"), ("sql", "database/sql"), ("errors", "errors"),
                 ("yaml", "gopkg.in/yaml.v3"), ("pq", "github.com/lib/pq"),
                 ("api", "github.com/example/api/v2"), ("fmt", "fmt")],
        nested="return row.Scan(&u.ID, &u.Name, &u.Email)",
        chain=["GetByID"],
    ),
    "UserService.java": dict(
        language="java",
        entities=[
            ("com.example.users", "module", None, "package com.example.users", None),
            ("UserService", "class", None, "@Service public class UserService implements UserFinder",
             "Finds, saves and deletes users.\n\n@author example"),
            ("MAX_RESULTS", "constant", "UserService", "private static final int MAX_RESULTS", None),
            ("repository", "field", "UserService", "private final UserRepository repository", None),
            ("findById", "method", "UserService", "@Override public Optional<User> findById(long id)",
             "Finds a user by id.\n@param id the user id\n@return the user, if any"),
            ("run", "method", "save", "@Override public void run()", None),
            ("Page", "class", "UserService", "public record Page(List<User> items, int total)",
             "A page of results."),
            ("isEmpty", "method", "Page", "public boolean isEmpty()", None),
            ("Cache", "class", "UserService", "static class Cache<K, V> extends ConcurrentHashMap<K, V>", None),
            ("UserRepository", "interface", None, "interface UserRepository", None),
            ("OrderStatus", "enum", None, "enum OrderStatus", None),
            ("getDescription", "method", "OrderStatus", "public String getDescription()", None),
            ("Audited", "interface", None, "@interface Audited", None),
        ],
        absent=["PENDING"],
        imports=[("List", "java.util.List"), ("Optional", "java.util.Optional"),
                 ("*", "java.util.concurrent"), ("requireNonNull", "java.util.Objects.requireNonNull")],
        nested='System.out.println("saved " + user.name());',
        chain=["run", "save", "UserService"],
    ),
    "buffer.c": dict(
        language="c",
        entities=[
            ("BUFFER_MIN", "constant", None, "#define BUFFER_MIN", None),
            ("MAX", "function", None, "#define MAX(a, b)", None),
            ("buffer", "type", None, "typedef struct buffer", "The state of one buffer."),
            ("data", "field", "buffer", "char *data", None),
            ("grow_policy", "enum", None, "enum grow_policy", None),
            ("word", "type", None, "union word", None),
            ("policy_names", "variable", None, "static const char *policy_names[]", None),
            ("buffer_new", "function", None, "buffer_t *buffer_new(void)",
             "Create an empty buffer.\nReturns NULL when out of memory."),
            ("buffer_free", "function", None, "static void buffer_free(buffer_t *buf)", None),
        ],
        absent=["need"],
        imports=[("stdlib.h", "stdlib.h"), ("string.h", "string.h"), ("buffer.h", "buffer.h")],
        nested="buf->cap = cap;",
        chain=["buffer_reserve"],
    ),
    "shapes.cpp": dict(
        language="cpp",
        entities=[
            ("geometry", "module", None, "namespace geometry", None),
            ("kPi", "constant", "geometry", "constexpr double kPi", None),
            ("Shape", "class", "geometry", "class Shape", "A shape with an area."),
            ("~Shape", "method", "Shape", "virtual ~Shape() = default", None),
            ("name", "method", "Shape", "std::string name() const", None),
            ("name_", "field", "Shape", "std::string name_", None),
            ("Circle", "class", "geometry", "class Circle : public Shape", "A circle of a given radius."),
            ("Point", "type", "geometry", "struct Point", None),
            ("largest", "function", "geometry", "template <typename T> T largest(const vector<T>& items)", None),
            ("ShapePtr", "type", "geometry", "using ShapePtr", None),
            ("Color", "enum", "geometry", "enum class Color", None),
            ("geometry::total_area", "function", None,
             "double geometry::total_area(const std::vector<geometry::ShapePtr>& shapes)",
             "Total area of all shapes."),
        ],
        absent=["square", "best"],
        imports=[("cmath", "cmath"), ("memory", "memory"), ("vector", "vector"), ("shapes.hpp", "shapes.hpp"),
                 ("vector", "std::vector"), ("*", "std::literals")],
        nested="return kPi * square(radius_);",
        chain=["area", "Circle", "geometry"],
    ),
    "Inventory.cs": dict(
        language="csharp",
        entities=[
            ("Shop.Inventory", "module", None, "namespace Shop.Inventory", None),
            ("Item", "class", "Shop.Inventory", "public record Item(string Sku, string Name, decimal Price)",
             "<summary>An item that can be stocked.</summary>"),
            ("IStockStore", "interface", "Shop.Inventory", "public interface IStockStore", None),
            ("StockLevel", "enum", "Shop.Inventory", "public enum StockLevel", None),
            ("StockChanged", "type", "Shop.Inventory", "public delegate void StockChanged(string sku, int quantity)",
             None),
            ("MemoryStockStore", "class", "Shop.Inventory", "[Serializable] public class MemoryStockStore : IStockStore",
             "<summary>\nKeeps stock counts in memory.\n</summary>"),
            ("LowThreshold", "constant", "MemoryStockStore", "public const int LowThreshold", None),
            ("_counts", "field", "MemoryStockStore", "private readonly Dictionary<string, int> _counts", None),
            ("Changed", "field", "MemoryStockStore", "public event StockChanged? Changed", None),
            ("Total", "field", "MemoryStockStore", "public int Total", None),
            ("Clamp", "function", "Add", "int Clamp(int value)", None),
            ("Money", "type", "Shop.Inventory", "public struct Money", None),
            ("ToString", "method", "Money", "public override string ToString()", None),
        ],
        absent=["n"],
        imports=[("System", "System"), ("System.Collections.Generic", "System.Collections.Generic"),
                 ("Json", "System.Text.Json.JsonSerializer"), ("System.Math", "System.Math")],
        nested="Total += quantity;",
        chain=["Add", "MemoryStockStore", "Shop.Inventory"],
    ),
    "Repository.kt": dict(
        language="kotlin",
        entities=[
            ("com.example.repo", "module", None, "package com.example.repo", None),
            ("PAGE_SIZE", "constant", None, "const val PAGE_SIZE", None),
            ("User", "class", None, "data class User(val id: Long, val name: String, val createdAt: Time = Time.now())",
             "A stored user."),
            ("UserRepository", "interface", None, "interface UserRepository", "Reads and writes users."),
            ("observeAll", "method", "UserRepository", "fun observeAll(): Flow<List<User>>", None),
            ("Ok", "class", "Result", "data class Ok<T>(val value: T) : Result<T>()", None),
            ("Missing", "class", "Result", "object Missing : Result<Nothing>()", None),
            ("Role", "enum", None, "enum class Role", None),
            ("UserId", "type", None, "typealias UserId = Long", None),
            ("users", "field", "InMemoryUserRepository", "private val users", None),
            ("touch", "function", "findById", "fun touch()", None),
            ("displayName", "function", None, "fun User.displayName(): String", None),
            ("Registry", "class", None, "object Registry", None),
        ],
        absent=["ADMIN", "it"],
        imports=[("Flow", "kotlinx.coroutines.flow.Flow"), ("flowOf", "kotlinx.coroutines.flow.flowOf"),
                 ("Time", "java.time.Instant"), ("*", "com.example.model")],
        nested="lastAccess = clock()",
        chain=["touch", "findById", "InMemoryUserRepository"],
    ),
    "Shapes.swift": dict(
        language="swift",
        entities=[
            ("defaultSides", "constant", None, "let defaultSides", None),
            ("Shape", "interface", None, "protocol Shape", "Something with an area."),
            ("area", "field", "Shape", "var area: Double { get }", None),
            ("Rectangle", "type", None, "struct Rectangle: Shape", "An axis-aligned rectangle."),
            ("width", "field", "Rectangle", "let width: Double", None),
            ("Direction", "enum", None, "enum Direction: String", None),
            ("Vector", "type", None, "typealias Vector = (x: Double, y: Double)", None),
            ("init", "method", "Canvas", "init(shapes: [Shape] = [])", None),
            ("add", "method", "Canvas", "@discardableResult func add(_ shape: Shape) -> Int",
             "Adds a shape and returns the new count."),
            ("log", "function", "add", "func log(_ message: String)", None),
            ("deinit", "method", "Canvas", "deinit", None),
            ("totalArea", "method", "Canvas", "func totalArea() -> Double", None),
            ("makeSquare", "function", None, "func makeSquare(side: Double) -> Rectangle", None),
        ],
        absent=["north"],
        imports=[("Foundation", "Foundation"), ("UIColor", "UIKit.UIColor")],
        nested="print(message)",
        chain=["log", "add", "Canvas"],
    ),
    "account.rb": dict(
        language="ruby",
        entities=[
            ("Accounting", "module", None, "module Accounting", "Accounting helpers."),
            ("VERSION", "constant", "Accounting", "VERSION", None),
            ("InsufficientFunds", "class", "Accounting", "class InsufficientFunds < StandardError; end",
             "Raised when a withdrawal would overdraw an account."),
            ("Account", "class", "Accounting", "class Account",
             "A bank account with a running balance.\n\nBalances are kept in cents."),
            ("owner", "field", "Account", "attr_reader :owner, :balance", None),
            ("initialize", "method", "Account", "def initialize(owner, balance = 0)", None),
            ("deposit", "method", "Account", "def deposit(amount)", "Deposit money and return the new balance."),
            ("from_json", "method", "Account", "def self.from_json(text)", "Build an account from JSON."),
            ("to_s", "method", "Account", "def to_s", None),
            ("format_line", "function", "audit", "def format_line(line)", None),
        ],
        absent=["validate", "frozen_string_literal"],
        imports=[("json", "json"), ("ledger/entry", "ledger/entry")],
        nested='"[audit] #{line}"',
        chain=["format_line", "audit", "Account", "Accounting"],
    ),
    "UserController.php": dict(
        language="php",
        entities=[
            ("App\\Http\\Controllers", "module", None, "namespace App\\Http\\Controllers", None),
            ("DEFAULT_PAGE", "constant", None, "const DEFAULT_PAGE", None),
            ("Renderable", "interface", None, "interface Renderable", "Something that can be rendered."),
            ("HasTimestamps", "interface", None, "trait HasTimestamps", None),
            ("$createdAt", "field", "HasTimestamps", "protected ?string $createdAt", None),
            ("Status", "enum", None, "enum Status: string", None),
            ("UserController", "class", None,
             "final class UserController extends Controller implements Renderable", "Handles user pages."),
            ("PER_PAGE", "constant", "UserController", "private const PER_PAGE", None),
            ("show", "method", "UserController", "public function show(Request $request, int $id): User",
             "Show one user."),
            ("make", "method", "UserController", "public static function make(): static", None),
            ("helper", "function", None, "function helper(string $value): string", None),
        ],
        absent=["find"],
        imports=[("User", "App\\Models\\User"), ("Mailer", "App\\Services"), ("Log", "App\\Services"),
                 ("Request", "Illuminate\\Http\\Request"), ("format_name", "App\\Support\\format_name"),
                 ("/helpers.php", "/helpers.php")],
        nested='$this->log->info("show {$id}");',
        chain=["show", "UserController"],
    ),
    "Shapes.scala": dict(
        language="scala",
        entities=[
            ("com.example.shapes", "module", None, "package com.example.shapes", None),
            ("Shape", "interface", None, "trait Shape", "Something with an area."),
            ("area", "method", "Shape", "def area: Double", None),
            ("Circle", "class", None, "case class Circle(radius: Double) extends Shape",
             "A circle.\n\n@param radius the radius"),
            ("diagonal", "field", "Square", "val diagonal: Double", None),
            ("Color", "enum", None, "enum Color", None),
            ("Area", "type", None, "type Area = Double", None),
            ("Shapes", "class", None, "object Shapes", None),
            ("created", "field", "Shapes", "private var created", None),
            ("totalArea", "method", "Shapes", "def totalArea(shapes: Seq[Shape]): Area", "Sum of areas."),
            ("areaOf", "function", "totalArea", "def areaOf(shape: Shape): Area", None),
        ],
        absent=["Red"],
        imports=[("Pi", "scala.math.Pi"), ("root", "scala.math.sqrt"),
                 ("mutable", "scala.collection.mutable"), ("*", "java.time")],
        nested="shapes.map(areaOf).sum",
        chain=["totalArea", "Shapes"],
    ),
}


def test_every_full_language_has_a_fixture():
    assert {case["language"] for case in CASES.values()} == FULL_LANGUAGES
    assert all(structure_level(lang) == "full" for lang in FULL_LANGUAGES)


@pytest.mark.parametrize("filename", sorted(CASES))
def test_entities(filename):
    case = CASES[filename]
    _, structure = fixture(filename)
    assert structure.language == case["language"]
    assert structure.level == "full"
    for name, type_, parent, signature, docstring in case["entities"]:
        entity = one(structure, name, type_, parent)
        assert entity.signature == signature, name
        assert entity.docstring == docstring, name
    everything = [e.name for e in structure.entities if e.type != "import"]
    for name in case["absent"]:
        assert name not in everything


@pytest.mark.parametrize("filename", sorted(CASES))
def test_imports(filename):
    case = CASES[filename]
    _, structure = fixture(filename)
    assert [(e.name, e.source) for e in structure.imports] == case["imports"]
    assert all(e.type == "import" for e in structure.imports)
    if "exports" in case:
        assert [(e.name, e.source) for e in structure.exports] == case["exports"]


@pytest.mark.parametrize("filename", sorted(CASES))
def test_scope_chain_of_a_nested_line(filename):
    case = CASES[filename]
    code, structure = fixture(filename)
    start, end = span_of(code, case["nested"])
    assert names(structure.scope.enclosing(start, end)) == case["chain"]


@pytest.mark.parametrize("filename", sorted(CASES))
def test_ranges_lines_and_tree_are_consistent(filename):
    code, structure = fixture(filename)
    data = code.encode()
    lines = code.splitlines()
    starts = [e.start for e in structure.entities]
    assert starts == sorted(starts)
    for entity in structure.entities:
        assert 0 <= entity.start < entity.end <= len(data)
        assert entity.line_start == data[: entity.start].count(b"\n")
        assert entity.line_end == data[: entity.end - 1].count(b"\n")
        assert entity.line_end < len(lines)
        assert entity.kind
        if entity.parent is not None:
            assert entity.parent.start <= entity.start and entity.end <= entity.parent.end
            assert (entity.parent.start, entity.parent.end) != (entity.start, entity.end)
            assert entity.type in ("import", "export") or entity in entity.parent.children
        assert "\n" not in entity.signature and "  " not in entity.signature
    for entity in structure.roots:
        assert entity.parent is None


def test_exported_and_decorated_entities_take_their_wrapper_range():
    code, structure = fixture("user_service.ts")
    service = one(structure, "UserService", "class")
    assert service.is_exported and code.encode()[service.start :].startswith(b"export class UserService")
    assert not one(structure, "Role").is_exported
    code, structure = fixture("user_service.py")
    user = one(structure, "User", "class")
    assert code.encode()[user.start :].startswith(b"@dataclass\nclass User")
    assert user.signature == "class User"
