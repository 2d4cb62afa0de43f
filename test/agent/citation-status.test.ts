/**
 * The citation status classifier against hand labels (issue 10, "Done means" asks for at least
 * 95% of at least 60 pairs). Three sets, each scored and printed with its confusion table and
 * every disagreement:
 * - citation-pairs.json: the first 113 pairs;
 * - citation-pairs-heldout.json: 53 pairs written before the claim rules (claim-checks.ts) —
 *   the classifier agreed on 36 of them (67.9%) before those rules;
 * - citation-pairs-after-rules.json: 46 pairs written after the first claim rules and scored once
 *   before any further change (30 of 46, 65.2%), then used like the others;
 * - citation-pairs-last.json: 30 pairs written after the claim rules and scored once before any
 *   further change (23 of 30, 76.7%); its misses were then sorted by kind (an import of a name the
 *   line does not import, `in plain text` over a hash, `only` over a longer list, a separator of
 *   another kind, a server started by `ListenAndServe`, `panic` in a Chinese sentence, a Chinese
 *   noun missing from the word list) and each kind was fixed with the unit tests below.
 * - citation-pairs-blind-a.json: 80 pairs written by another helper without reading the classifier
 *   or the other sets. Scored once as it landed: 60 of 80 (75.0%) with the classifier before the
 *   last set's kinds were fixed, 62 of 80 (77.5%) after — the honest figure for new answers.
 *   Its misses were then sorted by kind (durations in the unit code writes, digit separators,
 *   counts written as words, a backticked object that does not occur, a consequence clause, a
 *   quoted route, `only` over a union type, negations under another name of the operation,
 *   ignored errors, a property before its noun, Chinese operation verbs) and each kind was fixed
 *   with the unit tests below: 75 of 80 (93.8%), fitted. Its floor guards that.
 * What is left are claims only meaning decides: `Client.__init__` "sets the base URL" over an
 * `__init__` that takes an encoding, "fixed-size array" over `Vec::with_capacity`, "exponential
 * backoff" over `sleep(2 ** attempt)`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractCitations } from "../../src/agent/grounding.js";
import { citingText, gradeCitation, isAbstention, namesSomethingIn, sentenceNames } from "../../src/agent/citation-status.js";
import { unshownClaim } from "../../src/agent/claim-checks.js";

interface Pair {
  answer: string;
  lines: string[];
  label: "supported" | "seen";
}

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/grounding");
const load = (name: string) => (JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8")) as { pairs: Pair[] }).pairs;
const SETS = {
  "first set (citation-pairs.json)": load("citation-pairs.json"),
  "held-out set (citation-pairs-heldout.json)": load("citation-pairs-heldout.json"),
  "after-rules set (citation-pairs-after-rules.json)": load("citation-pairs-after-rules.json"),
  "last set (citation-pairs-last.json)": load("citation-pairs-last.json"),
};
const FLOOR = 0.95;
const BLIND = load("citation-pairs-blind-a.json");
const BLIND_FLOOR = 0.93;
/** Set B: written with set A, held back by the lead and scored once after the last change, never used to change the classifier. */
const BLIND_B = load("citation-pairs-blind-b.json");
const BLIND_B_FLOOR = 0.66;

function classify(p: Pair): Pair["label"] {
  const cited = extractCitations(p.answer);
  expect(cited).toHaveLength(1);
  return namesSomethingIn(citingText(p.answer, cited[0]!.index, cited), p.lines) ? "supported" : "seen";
}

/** Agreement with the hand labels: the confusion table and every disagreement, as printable lines. */
function agreement(name: string, pairs: readonly Pair[], read: (p: Pair) => Pair["label"] = classify): { share: number; report: string[] } {
  const table = { supported: { supported: 0, seen: 0 }, seen: { supported: 0, seen: 0 } };
  const disagreements: string[] = [];
  for (const p of pairs) {
    const got = read(p);
    table[p.label][got]++;
    if (got !== p.label) disagreements.push(`  label ${p.label}, classifier ${got}: ${p.answer.replace(/\n/g, " ")}`);
  }
  const agree = table.supported.supported + table.seen.seen;
  const share = agree / pairs.length;
  return {
    share,
    report: [
      `${name}: ${agree}/${pairs.length} agree (${(share * 100).toFixed(1)}%)`,
      "                 classifier supported | classifier seen",
      `label supported  ${String(table.supported.supported).padStart(20)} | ${String(table.supported.seen).padStart(15)}`,
      `label seen       ${String(table.seen.supported).padStart(20)} | ${String(table.seen.seen).padStart(15)}`,
      ...disagreements,
    ],
  };
}

/**
 * The status rule itself (issue 10: `supported` when the citing sentence names an identifier,
 * quoted string or number that occurs in the lines, compared as code tokens), against pairs
 * labelled by that definition, whatever the truth of the claim (citation-pairs-names-c.json,
 * written blind to the classifier; its `about` gives the labelling rules).
 */
const NAMES_SETS = { "naming set C (citation-pairs-names-c.json)": load("citation-pairs-names-c.json") };
const NAMES_FLOOR = 1;
/**
 * Set D: the same labeller and definition, held back until the rule's last change (91.8% then;
 * 94.5% after two kinds were fixed; 100% after four more: keywords and literal constants in
 * backticks, a decimal exponent read as written, a quantifier word that is an identifier, soft
 * keywords by position). Fitted now; its floor guards that.
 */
const NAMES_HELD_BACK = load("citation-pairs-names-d.json");
const NAMES_HELD_BACK_FLOOR = 1;
/**
 * Set E: another labeller, the same definition, written blind to the rule and scored once by
 * someone who did not change it (its `about` gives the figures: 92.9% before this round's last
 * rule changes, 97.1% after them; the rule was never changed from it). Its floor is that figure.
 */
const NAMES_BLIND = load("citation-pairs-names-e.json");
const NAMES_BLIND_FLOOR = 0.97;

function status(p: Pair): Pair["label"] {
  const cited = extractCitations(p.answer);
  expect(cited).toHaveLength(1);
  return gradeCitation(citingText(p.answer, cited[0]!.index, cited), p.lines, cited[0]!.path).names ? "supported" : "seen";
}

describe("citation status (the naming rule) vs pairs labelled by the issue's definition", () => {
  it(`agrees on at least ${NAMES_FLOOR * 100}% of each set (confusion tables printed)`, () => {
    for (const [name, pairs] of Object.entries(NAMES_SETS)) {
      expect(pairs.length).toBeGreaterThanOrEqual(60);
      const got = agreement(name, pairs, status);
      console.log(got.report.join("\n"));
      expect(got.share).toBeGreaterThanOrEqual(NAMES_FLOOR);
    }
    const heldBack = agreement("naming set D, held back (citation-pairs-names-d.json)", NAMES_HELD_BACK, status);
    console.log(heldBack.report.join("\n"));
    expect(NAMES_HELD_BACK.length).toBeGreaterThanOrEqual(60);
    expect(heldBack.share).toBeGreaterThanOrEqual(NAMES_HELD_BACK_FLOOR);
    const blind = agreement("naming set E, blind (citation-pairs-names-e.json)", NAMES_BLIND, status);
    console.log(blind.report.join("\n"));
    expect(NAMES_BLIND.length).toBeGreaterThanOrEqual(60);
    expect(blind.share).toBeGreaterThanOrEqual(NAMES_BLIND_FLOOR);
  });

  it("code names compare ignoring letter case and a leading sigil", () => {
    expect(gradeCitation("`HttpClient` wraps a socket.", ["public sealed class HTTPClient : IDisposable"], "f.cs").names).toBe(true);
    expect(gradeCitation("It reads `$API_TOKEN`.", ['token = os.environ["API_TOKEN"]'], "f.py").names).toBe(true);
    expect(gradeCitation("It reads `@current_user`.", ["  current_user.admin?"], "f.rb").names).toBe(true);
    expect(gradeCitation("`HttpServer` wraps a socket.", ["public sealed class HTTPClient : IDisposable"], "f.cs").names).toBe(false);
  });

  it("a false claim that names an occurring identifier is supported with a concern; naming nothing is seen", () => {
    expect(gradeCitation("`retry` defaults to 5.", ["  retry: options.retry ?? 3,"])).toEqual({ names: true, concern: "value" });
    expect(gradeCitation("`retry` defaults to 3.", ["  retry: options.retry ?? 3,"])).toEqual({ names: true });
    expect(gradeCitation("`UserRepository` implements `CrudRepository`.", ["public class UserRepository extends BaseRepository<User, Long> {"])).toEqual({
      names: true,
      concern: "object",
    });
    expect(gradeCitation("`parse` does not raise on invalid input.", ["def parse(text):", '    raise ValueError("invalid input")'])).toEqual({ names: true, concern: "negation" });
    expect(gradeCitation("Requests are retried.", ["const x = 3"])).toEqual({ names: false });
  });

  const names = (sentence: string, lines: string[], path?: string) => gradeCitation(sentence, lines, path).names;

  it("reads numbers as the code writes them, not as it computes them", () => {
    expect(names("It waits 30 seconds.", ["DEFAULT_TIMEOUT = 30.0"], "f.py")).toBe(true);
    expect(names("Files get mode 644.", ["os.chmod(path, 0o644)"], "f.py")).toBe(true);
    expect(names("Files get mode 420.", ["os.chmod(path, 0o644)"], "f.py")).toBe(false);
    expect(names("The mask is 0xFF.", ["mask = 0xff"], "f.py")).toBe(true);
    expect(names("At most 1000000 rows.", ["LIMIT = 1_000_000"], "f.py")).toBe(true);
    expect(names("Uploads are capped at 5 MB.", ["MAX_UPLOAD = 5 * 1024 * 1024"], "f.py")).toBe(true);
    expect(names("Uploads are capped at 5242880 bytes.", ["MAX_UPLOAD = 5 * 1024 * 1024"], "f.py")).toBe(false);
    expect(names("It waits 30000 ms.", ["DEFAULT_TIMEOUT = 30"], "f.py")).toBe(false);
    expect(names("Bodies are limited to 100 kilobytes.", ['app.use(express.json({ limit: "100kb" }));'], "f.js")).toBe(true);
    expect(names("See line 3: it loops.", ["for x in xs:"], "f.py")).toBe(false);
    expect(names("The buffer gets one extra byte.", ["char *buf = malloc(len + 1);"], "f.c")).toBe(false);
  });

  it("finds a quoted string word-bounded inside a string literal", () => {
    expect(names('The route is "/users".', ['app.get("/users/:id", getUser);'], "f.js")).toBe(true);
    expect(names('The route is "/user".', ['app.get("/users/:id", getUser);'], "f.js")).toBe(false);
    expect(names('It says "expired token".', ['throw new AuthError("invalid or expired token");'], "f.js")).toBe(true);
    expect(names('It says "invalid token".', ['throw new AuthError("invalid or expired token");'], "f.js")).toBe(false);
  });

  it("takes a word for an identifier up to case, underscores, sigils and inflections, never for a part of one", () => {
    expect(names("It holds the lock.", ["with self._lock:"], "f.py")).toBe(true);
    expect(names("The repo is cloned.", ["$repo = clone($url);"], "f.php")).toBe(true);
    expect(names("Entries are sorted.", ["rows.sort(key=lambda r: r.created_at)"], "f.py")).toBe(true);
    expect(names("It creates a map.", ["this.cache = new Map<string, Entry>();"], "f.ts")).toBe(true);
    expect(names("The idle timeout is short.", ["IdleTimeout: 90 * time.Second,"], "f.go")).toBe(true);
    expect(names("It writes to the log.", ["def login(username, password):"], "f.py")).toBe(false);
    expect(names("This is the todo list.", ["export function TodoList({ items }: Props) {"], "f.tsx")).toBe(true);
    expect(names("This is the list.", ["export function TodoList({ items }: Props) {"], "f.tsx")).toBe(false);
    expect(names("The connection is reused.", ["    conn = pool.acquire()"], "f.py")).toBe(false);
    expect(names("`get_users` returns accounts.", ["def get_user(user_id: int) -> User:"], "f.py")).toBe(false);
    expect(names("The filename is built from the date.", ['file_name = f"{date}.log"'], "f.py")).toBe(true);
    expect(names("The IDs are collected first.", ["ids = [row.id for row in rows]"], "f.py")).toBe(true);
    expect(names("Uploads over 10MB are rejected.", ["MAX = 10 * 1024 * 1024"], "f.py")).toBe(true);
    expect(names('Settings are read from "config/settings.yaml".', ['with open(os.path.join(BASE_DIR, "config", "settings.yaml")) as fh:'], "f.py")).toBe(true);
  });

  it("reads prose and data files as written: every word of a Markdown heading or JSON key is there", () => {
    expect(names("Installation uses npm.", ["## Installation", "Run `npm install codecite`."], "README.md")).toBe(true);
    expect(names("The package name is codecite.", ['  "name": "codecite",'], "package.json")).toBe(true);
    expect(names("It welcomes people.", ['  "greeting": "hello"'], "package.json")).toBe(false);
  });

  it("reads keywords, comments, strings and other languages' words as naming nothing", () => {
    expect(names("If it is empty, it returns.", ["if not self.pending:", "    return None"], "f.py")).toBe(false);
    // A keyword or literal constant names nothing, backticked or not; `pending` is a name.
    expect(names("It returns `None`.", ["if not self.pending:", "    return None"], "f.py")).toBe(false);
    expect(names("It returns `None` when nothing is pending.", ["if not self.pending:", "    return None"], "f.py")).toBe(true);
    expect(names("Visitors sign in except on the index.", ["before_action :authenticate_user!, except: [:index, :show]"], "f.rb")).toBe(true);
    expect(names("Errors are caught except here.", ["except ValueError:"], "f.py")).toBe(false);
    expect(names("The comment says it is not safe.", ["# not safe to call from several threads", "_registry[name] = cls"], "f.py")).toBe(false);
    expect(names("`LEGACY_MODE` is honoured.", ["# LEGACY_MODE was removed in 2.0", "mode = settings.mode"], "f.py")).toBe(true);
    expect(names("It warns when the connection is refused.", ['print("warning: connection refused")'], "f.py")).toBe(false);
    expect(names("Each request is logged with its method and path.", ["  logger.info(`${req.method} ${req.path}`);"], "f.ts")).toBe(true);
    expect(names("这里设置了最大重试次数。", ["max_retries: int = 5"], "f.py")).toBe(false);
  });
});

describe("the naming rule on kinds beyond the labelled sets (expectations from the issue's definition)", () => {
  const names = (sentence: string, lines: string[], path: string) => gradeCitation(sentence, lines, path).names;

  it("a keyword or literal constant of the cited file's language names nothing, even in backticks", () => {
    expect(names("The `guard let` unwraps the optional.", ["guard let token = session.token else { return }"], "f.swift")).toBe(false);
    expect(names("`enabled` is set to `true`.", ["isEnabled = true"], "f.kt")).toBe(false);
    expect(names("It returns `nil` on failure.", ["  return nil, err"], "f.go")).toBe(false);
    expect(names("It returns `null` when missing.", ["  return null;"], "f.java")).toBe(false);
    expect(names("It uses `async`/`await`.", ["async function load() { await fetch(url); }"], "f.js")).toBe(false);
    expect(names("It is declared `static`.", ["static int count = 0;"], "f.c")).toBe(false);
    expect(names("`self` is borrowed mutably.", ["fn push(&mut self, v: T) {"], "f.rs")).toBe(false);
    expect(names("The `lock` statement guards it.", ["lock (_sync) { count++; }"], "f.cs")).toBe(false);
    expect(names("It returns a `string`.", ["public string Name { get; set; }"], "f.cs")).toBe(false);
    // What is a keyword depends on the language: these are names there.
    expect(names("`self` is passed first.", ["def push(self, v):"], "f.py")).toBe(true);
    expect(names("It returns `None`.", ["    None => 0,"], "f.rs")).toBe(true);
    expect(names("The lock is taken.", ["    with self.lock:"], "f.py")).toBe(true);
    expect(names("It returns a `string`.", ["def name(self) -> string:"], "f.py")).toBe(true);
  });

  it("a reserved word after member access, and a soft keyword outside its syntax, is a name", () => {
    expect(names("It matches the pattern.", ["m = re.match(pattern, s)"], "f.py")).toBe(true);
    expect(names("The match is checked.", ["if match := PATTERN.search(s):"], "f.py")).toBe(true);
    expect(names("Each case is handled.", ["    case Point(x=0):"], "f.py")).toBe(false);
    expect(names("The key is deleted.", ["cache.delete(k);"], "f.js")).toBe(true);
    expect(names("Failures are handled in `.catch`.", ["fetchUser(id).catch(report);"], "f.js")).toBe(true);
    expect(names("The list is read.", ["$items = $this->list();"], "f.php")).toBe(true);
    expect(names("The file is opened.", ["    val f = store.open(path)"], "f.kt")).toBe(true);
    expect(names("The file is opened.", ["open class FileStore"], "f.kt")).toBe(false);
    expect(names("It holds data.", ["data class User(val name: String)"], "f.kt")).toBe(false);
    expect(names("It holds data.", ["    val data: List<Row> = load()"], "f.kt")).toBe(true);
    expect(names("It is overridden.", ["override fun toString() = name"], "f.kt")).toBe(false);
    expect(names("The record is saved.", ["    repository.save(record);"], "f.java")).toBe(true);
    expect(names("The var is inferred.", ["    var total = 0;"], "f.java")).toBe(false);
    expect(names("The value is read with `get`.", ["    val v = map.get(key)"], "f.kt")).toBe(true);
    // Accessors that begin a declaration are keywords; `field` and `value` are the names they read.
    expect(names("It has a getter and setter via `get`.", ["    get() = _name"], "f.kt")).toBe(false);
    expect(names("It has `get` and `set`.", ["public string Name { get; private set; }"], "f.cs")).toBe(false);
    expect(names("It has `get` and `set`.", ["    var name: String {", "        get { _name }"], "f.swift")).toBe(false);
    expect(names("`init` runs first.", ["    init {", "        require(size > 0)"], "f.kt")).toBe(false);
    expect(names("`init` is called.", ["    let c = Client.init(url)"], "f.swift")).toBe(true);
  });

  it("a preprocessor directive is not a name; the macro it defines is", () => {
    expect(names("The macro is defined.", ["#define MAX_LEN 256"], "f.c")).toBe(false);
    expect(names("`MAX_LEN` is defined as 256.", ["#define MAX_LEN 256"], "f.c")).toBe(true);
    expect(names("The buffer size is 256.", ["#define MAX_LEN 256"], "f.h")).toBe(true);
    expect(names("The header is included.", ["#include <stdio.h>"], "f.cpp")).toBe(false);
    expect(names("`stdio.h` is included.", ["#include <stdio.h>"], "f.cpp")).toBe(true);
    expect(names("The region is folded.", ["#region Helpers"], "f.cs")).toBe(false);
  });

  it("a number names a literal with the same digits, not the same value written another way", () => {
    expect(names("Polling runs every 1000 ms.", ["const INTERVAL = 1e3;"], "f.js")).toBe(false);
    expect(names("Polling runs every `1e3` ms.", ["const INTERVAL = 1e3;"], "f.js")).toBe(true);
    expect(names("The step is 1.0E+3.", ["step = 1e3"], "f.py")).toBe(true);
    expect(names("The limit is 1e6.", ["MAX = 1_000_000"], "f.py")).toBe(false);
    expect(names("Each channel is masked with 255.", ["uint8_t r = (rgb >> 16) & 0xFF;"], "f.c")).toBe(false);
    expect(names("The mode is 0o755.", ["os.chmod(p, 0o755)"], "f.py")).toBe(true);
    expect(names("The mode is 0755.", ["chmod(p, 0755);"], "f.c")).toBe(true);
    expect(names("The mode is 493.", ["os.chmod(p, 0o755)"], "f.py")).toBe(false);
    expect(names("The flags are 0b1010.", ["flags = 0b1010"], "f.py")).toBe(true);
    expect(names("Batch size is 1,000.", ["val batchSize = 1_000L"], "f.kt")).toBe(true);
    expect(names("It sleeps 2.5 seconds.", ["time.sleep(2.50)"], "f.py")).toBe(true);
    expect(names("The ratio is 0.5.", ["ratio: f64 = 0.5_f64,"], "f.rs")).toBe(true);
    expect(names("It returns -1 on failure.", ["    return -1;"], "f.c")).toBe(true);
    expect(names("The port is 8080.", ['PORT = int(os.getenv("PORT", "8080"))'], "f.py")).toBe(true);
    expect(names("最多重試 3 次。", ["LIMIT = 3"], "f.py")).toBe(true);
  });

  it("sigils, macros, generics and attributes name what they mark", () => {
    expect(names("`$this->repo` is used.", ["$this->repo->save($user);"], "f.php")).toBe(true);
    expect(names("`@@count` is a class variable.", ["  @@count += 1"], "f.rb")).toBe(true);
    expect(names("`:admin` is checked.", ["  current_user.role == :admin"], "f.rb")).toBe(true);
    expect(names("`valid?` is called.", ["  return unless record.valid?"], "f.rb")).toBe(true);
    expect(names("`save!` raises on failure.", ["    order.save!"], "f.rb")).toBe(true);
    expect(names("The `println!` macro prints it.", ['    println!("{}", x);'], "f.rs")).toBe(true);
    expect(names("It returns a `List<User>`.", ["public List<User> findAll() {"], "f.java")).toBe(true);
    expect(names("`@Override` marks it.", ["@Override", "public String toString() {"], "f.java")).toBe(true);
    expect(names("The class is `[Serializable]`.", ["[Serializable]", "public class Order {"], "f.cs")).toBe(true);
    expect(names("It is `#[derive(Clone)]`.", ["#[derive(Clone)]"], "f.rs")).toBe(true);
    expect(names("`@dataclass` generates the constructor.", ["@dataclass", "class Point:"], "f.py")).toBe(true);
  });

  it("a command-line flag names the flag a parser declares, with or without its dashes", () => {
    expect(names("Pass --verbose to see each step.", ['parser.add_argument("--verbose", action="store_true")'], "f.py")).toBe(true);
    expect(names("Pass --dry-run to skip writes.", ['parser.add_argument("--dry-run")'], "f.py")).toBe(true);
    expect(names("Pass `-v` for more output.", ['flag.BoolVar(&verbose, "v", false, "print each step")'], "f.go")).toBe(true);
    expect(names("Pass --quiet to silence it.", ['parser.add_argument("--verbose")'], "f.py")).toBe(false);
    // A hyphenated word is no flag.
    expect(names("It is a non-blocking call.", ['log("non-blocking")'], "f.js")).toBe(false);
  });

  it("an irregular past form names its verb; a single-letter name counts in backticks", () => {
    expect(names("The request is sent once.", ["    client.send(req)"], "f.py")).toBe(true);
    expect(names("The index is built at startup.", ["    build()"], "f.py")).toBe(true);
    expect(names("The error is thrown away.", ["    throw err;"], "f.js")).toBe(false);
    expect(names("The loop variable `i` counts attempts.", ["for i in range(3):"], "f.py")).toBe(true);
    expect(names("The type parameter `T` must be ordered.", ["func Max[T constraints.Ordered](a, b T) T {"], "f.go")).toBe(true);
    expect(names("I could not find it.", ["for i in range(3):"], "f.py")).toBe(false);
  });

  it("quotes of other languages (German, French, Spanish, typographic single) and irregular plurals", () => {
    expect(names("Der Fehler lautet „invalid token“.", ['raise AuthError("invalid token")'], "f.py")).toBe(true);
    expect(names("El mensaje es «acceso denegado».", ['abort(403, "acceso denegado")'], "f.py")).toBe(true);
    expect(names("Le message est « accès refusé ».", ['abort(403, "accès refusé")'], "f.py")).toBe(true);
    expect(names("It prints ‘done’.", ['print("done")'], "f.py")).toBe(true);
    expect(names("It shows ‘ready’.", ['print("done")'], "f.py")).toBe(false);
    expect(names("The indices are kept.", ["self.index = {}"], "f.py")).toBe(true);
    expect(names("Its children are visited.", ["for child in node.kids:"], "f.py")).toBe(true);
  });

  it("a string's interpolations are code in each language's syntax; its other words are prose", () => {
    expect(names("It greets the user by name.", ['println("Hello, $name")'], "f.kt")).toBe(true);
    expect(names("It greets the user by name.", ['echo "Hello, $name";'], "f.php")).toBe(true);
    expect(names("It greets the user by name.", ["echo 'Hello, $name';"], "f.php")).toBe(false);
    expect(names("It greets the user by name.", ['Console.WriteLine($"Hello, {name}");'], "f.cs")).toBe(true);
    expect(names("It greets the user by name.", ['print(fr"Hello, {name}")'], "f.py")).toBe(true);
    expect(names("It greets the user by name.", ['print("Hello, {name}")'], "f.py")).toBe(false);
    expect(names("It greets the user by name.", ['console.log("Hello, $name")'], "f.js")).toBe(false);
  });

  it("a PHP # comment is a comment, and a numeric literal writes no identifier", () => {
    expect(names("It is deprecated.", ["# deprecated, use load()", "$x = 1;"], "f.php")).toBe(false);
    expect(names("The route is attributed.", ["#[Route('/home')]"], "f.php")).toBe(true);
    expect(names("It returns xFF.", ["mask = 0xFF"], "f.py")).toBe(false);
    expect(names("It uses u32.", ["let n = 10u32;"], "f.rs")).toBe(false);
    expect(names("It uses u32.", ["let n: u32 = 10;"], "f.rs")).toBe(true);
  });

  it("a quantifier or restriction word names an identifier the code writes; pronouns and prepositions never do", () => {
    expect(names("Only administrators may delete.", ["before_action :require_admin, only: :destroy"], "f.rb")).toBe(true);
    expect(names("It checks whether any item expired.", ["items.any { it.expired }"], "f.kt")).toBe(true);
    expect(names("Setup runs once.", ["	once.Do(setup)"], "f.go")).toBe(true);
    expect(names("Only administrators may delete.", ["before_action :require_admin"], "f.rb")).toBe(false);
    expect(names("It returns it.", ["items.map { it.label }"], "f.kt")).toBe(false);
    expect(names("Keys map to values.", ['val m = mapOf("a" to 1)'], "f.kt")).toBe(false);
  });
});

describe("citation status classifier vs hand labels", () => {
  it(`agrees with the hand labels on at least ${FLOOR * 100}% of the pairs, each set and combined (confusion tables printed)`, () => {
    const combined = Object.values(SETS).flat();
    expect(combined.length).toBeGreaterThanOrEqual(60);
    const all = agreement("combined", combined);
    const each = Object.entries(SETS).map(([name, pairs]) => agreement(name, pairs));
    const blind = agreement("blind set A, written without reading the classifier (citation-pairs-blind-a.json)", BLIND);
    const blindB = agreement("blind set B, held back, never used to change the classifier (citation-pairs-blind-b.json)", BLIND_B);
    console.log([...all.report.slice(0, 4), ...each.flatMap((e) => e.report), ...blind.report, ...blindB.report].join("\n"));
    expect(all.share).toBeGreaterThanOrEqual(FLOOR);
    expect(blind.share).toBeGreaterThanOrEqual(BLIND_FLOOR);
    expect(blindB.share).toBeGreaterThanOrEqual(BLIND_B_FLOOR);
  });

  // Sentences as `citingText` gives them: the citation is blanked before names are compared.
  it("compares code tokens, not substrings of words", () => {
    expect(namesSomethingIn("The `load` step runs first.", ["def load_index(path):"])).toBe(false);
    expect(namesSomethingIn("It listens on 80.", ["PORT = 8080"])).toBe(false);
    expect(namesSomethingIn("It listens on 8080.", ["PORT = 8080"])).toBe(true);
    expect(namesSomethingIn("Errors can be printed.", ["impl fmt::Display for Error {"])).toBe(true);
    expect(namesSomethingIn("Chunks overlap.", ["    chunk_size: int = 800"])).toBe(false);
    expect(sentenceNames("`Session.send` returns a `Response` with \"ok\" and 3 retries").code).toEqual(["Session", "send", "Response"]);
  });

  it("takes the head word of a compound identifier, package names with their affix, and Chinese code nouns", () => {
    expect(namesSomethingIn("This is where the cache lives.", ["_index_cache: dict[Path, list[Chunk]] = {}"])).toBe(true);
    expect(namesSomethingIn("The store uses Redux.", ["import { configureStore } from '@reduxjs/toolkit';"])).toBe(true);
    expect(namesSomethingIn("Templates use Jinja.", ["from jinja2 import Environment"])).toBe(true);
    expect(namesSomethingIn("這裡設定了預設的逾時時間。", ["DEFAULT_TIMEOUT = 30"])).toBe(true);
    expect(namesSomethingIn("Acronyms are words: it reads JSON.", ["    data = json.load(fh)"])).toBe(true);
  });

  it("reads an HTTP status number through its reason phrase", () => {
    expect(namesSomethingIn("The handler returns 404.", ["\t\thttp.Error(w, \"not found\", http.StatusNotFound)"])).toBe(true);
    expect(namesSomethingIn("A missing item gives a 404.", ["raise HTTPException(status_code=status.HTTP_404_NOT_FOUND)"])).toBe(true);
    expect(namesSomethingIn("The handler returns 403.", ["\t\thttp.Error(w, \"unauthorized\", http.StatusUnauthorized)"])).toBe(false);
  });

  it("is not supported when the stated value, the last code name or the qualifier is not in the lines", () => {
    expect(namesSomethingIn("The default timeout is 60 seconds.", ["DEFAULT_TIMEOUT = 30"])).toBe(false);
    expect(namesSomethingIn("`top_k` defaults to 4.", ["def retrieve(q: str, top_k: int = DEFAULT_TOP_K):"])).toBe(false);
    expect(namesSomethingIn("The log level falls back to \"debug\".", ['let level = var("RUST_LOG").unwrap_or("info");'])).toBe(false);
    expect(namesSomethingIn("The log level falls back to \"info\".", ['let level = var("RUST_LOG").unwrap_or("info");'])).toBe(true);
    expect(namesSomethingIn("`UserRepository` implements `CrudRepository`.", ["public class UserRepository extends BaseRepository<User, Long> {"])).toBe(false);
    expect(namesSomethingIn("`UserRepository` extends `BaseRepository`.", ["public class UserRepository extends BaseRepository<User, Long> {"])).toBe(true);
    expect(namesSomethingIn("The blog blueprint is registered.", ["    app.register_blueprint(auth.bp)"])).toBe(false);
    expect(namesSomethingIn("The auth blueprint is registered.", ["    app.register_blueprint(auth.bp)"])).toBe(true);
  });

  it("a list item's number is not a stated value; a clause after a semicolon is its own unit", () => {
    expect(namesSomethingIn("1.    — 這裡定義了 `Chunk` 資料類別", ["@dataclass", "class Chunk:"])).toBe(true);
    const answer = "I was shown `class Store` (s.py:5); the lines of `save` were not shown.";
    const at = answer.indexOf("s.py:5");
    expect(citingText(answer, at, [{ index: at, length: 6 }]).trim()).toBe("I was shown `class Store` (      );");
  });

  it("is not supported when a claim about the named code is not what the lines show, by kind", () => {
    const kind = (sentence: string, lines: string[]) => {
      const names = sentenceNames(sentence);
      const occurs = (w: string) => lines.some((l) => new RegExp(`\\b${w}\\b`, "i").test(l));
      return unshownClaim(sentence, { names: [...names.code, ...names.words], occurs }, lines);
    };
    // Quoted code must occur token by token (gaps allowed).
    expect(kind("It checks `count >= LIMIT`.", ["    if count > LIMIT:"])).toBe("quoted-code");
    expect(kind("It calls `emit(event)` first.", ["        self.emit(event, now)"])).toBeUndefined();
    expect(kind("It builds the app with `express()`.", ["const app = fastify();"])).toBe("quoted-code");
    // A negated verb the lines write.
    expect(kind("`close` does not flush the buffer.", ["    def close(self):", "        self.flush()"])).toBe("negation");
    expect(kind("`close` does not flush the buffer.", ["    def close(self):", "        self._fd.close()"])).toBeUndefined();
    expect(kind("這裡沒有使用快取。", ["    cache = LRU(128)"])).toBe("negation");
    // An operation the lines do not name, under any of its names.
    expect(kind("The session is committed here.", ["    session.add(order)"])).toBe("operation");
    expect(kind("The temp file is deleted afterwards.", ["    os.unlink(tmp)"])).toBeUndefined();
    expect(kind("Each job is logged.", ["    logger.info('job %s', job.id)"])).toBeUndefined();
    expect(kind("The loop starts at line 1.", ["    for item in items:"])).toBeUndefined();
    // A declared property.
    expect(kind("The `name` column is unique.", ["    name = Column(String, nullable=False)"])).toBe("property");
    expect(kind("The `name` column is unique.", ["    name = Column(String, unique=True)"])).toBeUndefined();
    // Definition, call and import claims need the matching line kind.
    expect(kind("`render` is defined here.", ["    html = render(template, ctx)"])).toBe("definition");
    expect(kind("`render` is defined here.", ["func (t *Template) render(w io.Writer) error {"])).toBeUndefined();
    expect(kind("`render` is called here.", ["def render(template, ctx):"])).toBe("call");
    expect(kind("`Render` is called here.", ["type Renderer interface {", "\tRender(w io.Writer) error", "}"])).toBe("call");
    expect(kind("`yaml` is imported here.", ["    data = yaml.safe_load(fh)"])).toBe("import");
    // A claimed type, the declared return type first.
    expect(kind("`read_all` returns a string.", ["def read_all(path: str) -> bytes:"])).toBe("type");
    expect(kind("`read_all` returns bytes.", ["def read_all(path: str) -> bytes:"])).toBeUndefined();
    expect(kind("`count` is an integer.", ["  count: number;"])).toBe("type");
    expect(kind("`loadUser` 回傳一個字串。", ["export function loadUser(id: number): string {"])).toBeUndefined();
    // A named tool, not a described one or a stated value.
    expect(kind("Tokens are signed with jose.", ["    token = jwt.encode(payload, key)"])).toBe("instrument");
    expect(kind("Tokens are signed with a secret key.", ["    token = jwt.encode(payload, key)"])).toBeUndefined();
    expect(kind("It answers with status 200.", ["\tw.WriteHeader(http.StatusOK)"])).toBeUndefined();
  });

  describe("kinds found in the last set's misses, each with new variants", () => {
    const kind = (sentence: string, lines: string[]) => {
      const names = sentenceNames(sentence);
      const occurs = (w: string) => lines.some((l) => new RegExp(`\\b${w}\\b`, "i").test(l));
      return unshownClaim(sentence, { names: [...names.code, ...names.words], occurs }, lines);
    };

    it("an import claim names what the line imports", () => {
      expect(kind("It imports `Request` from starlette.", ["from starlette.requests import Request"])).toBeUndefined();
      expect(kind("It imports `Response` from starlette.", ["from starlette.requests import Request"])).toBe("import");
      expect(kind("`useState` is imported from react.", ['import { useEffect } from "react";'])).toBe("import");
      expect(kind("`useState` is imported from react.", ['import { useState, useEffect } from "react";'])).toBeUndefined();
      // A file name is where the import is, not what is imported.
      expect(kind("`app.py` imports `load_index`.", ["from rag_common import load_index"])).toBeUndefined();
      expect(kind("這裡從 `os` 匯入 `getenv`。", ["from os import environ"])).toBe("import");
      expect(kind("這裡從 `os` 匯入 `getenv`。", ["from os import getenv"])).toBeUndefined();
    });

    it("'in plain text' and un- participles negate the operation under any of its names", () => {
      expect(kind("Tokens are stored in plain text.", ["    token_hash = hashlib.sha256(token.encode()).hexdigest()"])).toBe("negation");
      expect(kind("Tokens are stored in plain text.", ["    db.save(token=token)"])).toBeUndefined();
      expect(kind("密碼以明文儲存。", ["    hashed = bcrypt.hashpw(pw, bcrypt.gensalt())"])).toBe("negation");
      expect(kind("The payload is sent unencrypted.", ["    body = fernet.encrypt(payload)"])).toBe("negation");
      // `unlock` is an operation of its own, not a negated lock.
      expect(kind("The mutex is unlocked on return.", ["\tdefer mu.Unlock()"])).toBeUndefined();
    });

    it("an 'only' claim over a bracketed list with more entries", () => {
      expect(kind("It accepts only `GET` and `POST`.", ['@app.route("/items", methods=["GET", "POST", "DELETE"])'])).toBe("only");
      expect(kind("It accepts only `GET` and `POST`.", ['@app.route("/items", methods=["GET", "POST"])'])).toBeUndefined();
      expect(kind("Only `id` and `name` are selected.", ["    stmt = select(User.id, User.name, User.email)"])).toBe("only");
      expect(kind("`load` only takes `path`.", ["def load(path):"])).toBeUndefined();
      expect(kind("`load` 只接受 `path` 一個參數。", ['def load(path, encoding="utf-8"):'])).toBe("only");
    });

    it("a separator named in words against the separator the lines split on", () => {
      expect(kind("Lines are split on commas.", ['    fields = line.split(",")'])).toBeUndefined();
      expect(kind("Records are split by newlines.", ['    rows = data.split("\\t")'])).toBe("separator");
      expect(kind("The file is comma-separated.", ['    reader = csv.reader(fh, delimiter=";")'])).toBe("separator");
      expect(kind("Text is split into words.", ["    tokens = text.split()"])).toBeUndefined();
      expect(kind("文字按段落切分。", ['    chunks = re.split(r"\\n\\s*\\n", text)'])).toBeUndefined();
      expect(kind("文字按段落切分。", ["    chunks = text.splitlines()"])).toBe("separator");
      // Lines without a separator decide nothing.
      expect(kind("Text is split into sentences.", ["    parts = splitter(text)"])).toBeUndefined();
    });

    it("names code gives an operation: a server is started by listen/serve, panic by unwrap, raise and throw by each other", () => {
      expect(kind("`main` starts the server.", ["app.listen(PORT, () => {"])).toBeUndefined();
      expect(kind("`main` starts the server.", ["app.use(router);"])).toBe("operation");
      // An English verb after Chinese text is a verb.
      expect(kind("`parse` 在輸入為空時會 panic。", ["    let n = s.parse::<u32>().unwrap();"])).toBeUndefined();
      expect(kind("`parse` 在輸入為空時會 panic。", ["    let n = s.parse::<u32>()?;"])).toBe("operation");
      expect(kind("`validate` throws a `ValidationError`.", ["  return { ok: false, errors };"])).toBe("operation");
      expect(kind("`validate` throws a `ValidationError`.", ["        raise ValidationError(errors)"])).toBeUndefined();
      // Raising a limit raises no error.
      expect(kind("It raises the limit to 100.", ["    limit = 100"])).toBeUndefined();
    });

    it("a tool named in backticks or after 用 must occur, every part of a dotted name", () => {
      expect(kind("Passwords are hashed with `argon2`.", ["    h = bcrypt.hashpw(pw, salt)"])).toBe("instrument");
      expect(kind("Passwords are hashed with `bcrypt`.", ["    h = bcrypt.hashpw(pw, salt)"])).toBeUndefined();
      expect(kind("這裡用 `json.dumps` 序列化。", ["    s = json.dumps(data)"])).toBeUndefined();
      expect(kind("這裡用 `json.dumps` 序列化。", ["    s = pickle.dumps(data)"])).toBe("instrument");
    });

    it("Chinese code nouns, private names and numbers inside a power", () => {
      expect(namesSomethingIn("這裡會先加鎖。", ["        self._lock.acquire()"])).toBe(true);
      expect(namesSomethingIn("`Store.Get` 不會加鎖。", ["\ts.mu.RLock()"])).toBe(false);
      expect(namesSomethingIn("密碼在這裡被雜湊。", ["    hashed = bcrypt.hashpw(password, salt)"])).toBe(true);
      expect(namesSomethingIn("埠號從環境變數讀取。", ['    port = int(os.environ["PORT"])'])).toBe(true);
      expect(namesSomethingIn("The wait is always 4 seconds.", ["    await asyncio.sleep(4 ** retry)"])).toBe(false);
      expect(namesSomethingIn("It waits 4 seconds.", ["    await asyncio.sleep(4)"])).toBe(true);
      expect(namesSomethingIn("Up to 16 shards are used.", ["    shards = 1 << bits"])).toBe(false);
      expect(namesSomethingIn("The buffer holds 8 items.", ["    buf = [None] * 8"])).toBe(true);
    });
  });

  describe("kinds found in blind set A's misses, each with new variants", () => {
    const grade = (sentence: string, lines: string[]) => {
      const g = gradeCitation(sentence, lines);
      return g.names ? (g.concern ?? "supported") : "seen";
    };

    it("durations are compared in the unit the code writes them in, and digit separators are dropped", () => {
      // The status rule does not convert (30 is not written); the reading of support does.
      expect(namesSomethingIn("Requests time out after 30 seconds.", ["const REQUEST_TIMEOUT_MS = 30_000;"])).toBe(true);
      expect(namesSomethingIn("Requests time out after 45 seconds.", ["const REQUEST_TIMEOUT_MS = 30_000;"])).toBe(false);
      expect(grade("Entries expire after 10 minutes.", ["const ttl = 10 * time.Minute"])).toBe("supported");
      expect(grade("Entries expire after 10 minutes.", ["const ttl = 10 * time.Second"])).toBe("value");
      expect(grade("The token lives for 2 hours.", ["    expires = datetime.utcnow() + timedelta(hours=2)"])).toBe("supported");
      expect(grade("The token lives for 2 hours.", ["    expires = datetime.utcnow() + timedelta(minutes=2)"])).toBe("value");
      expect(grade("It polls every 5 seconds.", ["        thread::sleep(Duration::from_secs(5));"])).toBe("supported");
      expect(grade("It polls every 5 seconds.", ["        thread::sleep(Duration::from_millis(5));"])).toBe("value");
      expect(grade("The read timeout is 1 minute.", ['  read_timeout: "60s"'])).toBe("supported");
      expect(grade("A batch holds 1000 rows.", ["BATCH_SIZE = 1_000"])).toBe("supported");
    });

    it("a count written as a word names its number in the supported reading only, and is a stated value", () => {
      expect(namesSomethingIn("The request is sent up to three times.", ["    for _ in range(3):"])).toBe(true);
      expect(gradeCitation("The request is sent up to three times.", ["    for _ in range(3):"]).names).toBe(false);
      expect(namesSomethingIn("It starts four workers.", ["\tfor i := 0; i < 4; i++ {", "\t\tgo worker(jobs)"])).toBe(true);
      expect(namesSomethingIn("It starts eight workers.", ["\tfor i := 0; i < 4; i++ {", "\t\tgo worker(jobs)"])).toBe(false);
      // Not a count: `functions` is a word about code in general.
      expect(sentenceNames("The two functions are defined here.").countWords).toEqual([]);
    });

    it("a backticked name after the sentence's first words is its object and must occur; one that leads the sentence may be context", () => {
      expect(grade("The token is read from the `GITHUB_TOKEN` variable.", ['token = os.environ["GH_TOKEN"]'])).toBe("object");
      expect(grade("The token is read from the `GH_TOKEN` variable.", ['token = os.environ["GH_TOKEN"]'])).toBe("supported");
      expect(grade("The port comes from the `PORT` setting.", ["    port = int(os.environ.get('APP_PORT', 8000))"])).toBe("object");
      expect(grade("`load_settings` reads the YAML file.", ["    data = yaml.safe_load(fh)"])).toBe("supported");
    });

    it("a consequence (', so …') is inferred, not written: the premise is graded", () => {
      expect(grade("`walk` loops to one before the end, so the last item is never visited.", ["    for i in range(len(items) - 1):", "        walk(items[i])"])).toBe("supported");
      expect(grade("`Settings` derives `Deserialize`, so it can be loaded with serde_json.", ["#[derive(Deserialize)]", "pub struct Settings {"])).toBe("supported");
      expect(grade("`Settings` derives `Serialize`, so it can be loaded with serde_json.", ["#[derive(Deserialize)]", "pub struct Settings {"])).toBe("object");
    });

    it("a quoted route is compared by its path, whatever case the framework writes the method in", () => {
      expect(grade("`POST /orders` is handled by `create`.", ['@app.post("/orders")', "def create(order: Order):"])).toBe("supported");
      expect(grade("`POST /orders` is handled by `create`.", ['@app.post("/items")', "def create(order: Order):"])).toBe("quoted-code");
    });

    it("'only' over a union type, negations under another name of the operation, ignored errors", () => {
      expect(grade("`Role` can only be `'admin'` or `'user'`.", ["type Role = 'admin' | 'user' | 'guest';"])).toBe("only");
      expect(grade("`Role` can only be `'admin'` or `'user'`.", ["type Role = 'admin' | 'user';"])).toBe("supported");
      expect(grade("`login` does not check the password.", ["    if not verify_password(form.password, user.hash):"])).toBe("negation");
      expect(grade("`login` does not check the password.", ["    user = db.get(form.username, form.password)"])).toBe("supported");
      expect(grade("The error from `json.Unmarshal` is ignored.", ["\tif err := json.Unmarshal(b, &cfg); err != nil {"])).toBe("negation");
      expect(grade("The error from `json.Unmarshal` is ignored.", ["\t_ = json.Unmarshal(b, &cfg)"])).toBe("supported");
      expect(grade("Exceptions from `send` are swallowed.", ["    try:", "        send(msg)", "    except Exception:", "        raise"])).toBe("negation");
    });

    it("a property before its noun, and Chinese operation verbs", () => {
      expect(grade("`findAll` runs in a read-only transaction.", ["    @Transactional(readOnly = true)", "    public List<User> findAll() {"])).toBe("supported");
      expect(grade("`findAll` runs in a read-only transaction.", ["    @Transactional", "    public List<User> findAll() {"])).toBe("property");
      expect(grade("`Shutdown` 會等待所有連線關閉。", ["func (s *Server) Shutdown(ctx context.Context) error {", "\ts.wg.Wait()"])).toBe("supported");
      expect(grade("`Shutdown` 會等待所有連線結束。", ["func (s *Server) Shutdown(ctx context.Context) error {", "\treturn s.ln.Close()"])).toBe("operation");
      expect(grade("`save` 會先提交交易。", ["    def save(self):", "        self.session.commit()"])).toBe("supported");
      expect(grade("`save` 會先提交交易。", ["    def save(self):", "        self.session.add(self)"])).toBe("operation");
      expect(grade("`save` 不會提交交易。", ["    def save(self):", "        self.session.add(self)"])).toBe("supported");
    });
  });

  it("reads sizes and durations in other units, abbreviations, plural acronyms and the object inside an identifier", () => {
    expect(namesSomethingIn("Uploads are capped at 2 MB.", ["MAX_UPLOAD = 2097152"])).toBe(true);
    expect(namesSomethingIn("Uploads are capped at 3 MB.", ["MAX_UPLOAD = 2097152"])).toBe(false);
    expect(namesSomethingIn("Sessions expire after 2 hours.", ["SESSION_TTL = 7200"])).toBe(true);
    expect(namesSomethingIn("The connection is reused.", ["    conn = pool.acquire()"])).toBe(true);
    expect(namesSomethingIn("The pool size matches the CPUs.", ["\tsize := runtime.NumCPU()"])).toBe(true);
    expect(namesSomethingIn("It opens the session.", ["        s = self.open_session_for_user(user)"])).toBe(true);
    expect(namesSomethingIn("It opens the session cache.", ["        s = self.open_session_for_user(user)"])).toBe(false);
    expect(namesSomethingIn("Logging is set to WARNING.", ["logging.basicConfig(level=logging.INFO)"])).toBe(false);
  });

  it("recognises answers that abstain, in English and Chinese", () => {
    for (const a of ["I could not find where that is defined.", "I don't know.", "No importers were found.", "找不到相關的程式碼。", "沒有找到任何定義。"]) {
      expect(isAbstention(a)).toBe(true);
    }
    expect(isAbstention("`load_index` is defined in rag_common.py.")).toBe(false);
  });
});

describe("a unit that cites several locations", () => {
  const spansOf = (answer: string, cites: string[]) => {
    let from = 0;
    return cites.map((c) => {
      const index = answer.indexOf(c, from);
      from = index + c.length;
      return { index, length: c.length };
    });
  };

  it("gives each citation the clause it leads or closes", () => {
    const lead = "src/rag_chat.py:10 imports rag_common, and src/rag_chat.py:20 calls load_index.";
    const s1 = spansOf(lead, ["src/rag_chat.py:10", "src/rag_chat.py:20"]);
    expect(citingText(lead, s1[0]!.index, s1).trim()).toBe("imports rag_common");
    expect(citingText(lead, s1[1]!.index, s1).trim()).toBe("calls load_index.");
    expect(namesSomethingIn(citingText(lead, s1[0]!.index, s1), ["from rag_common import RagConfig, load_index, retrieve"])).toBe(true);

    const close = "The loader reads the index (a.py:3), while the CLI prints it (b.py:9).";
    const s2 = spansOf(close, ["a.py:3", "b.py:9"]);
    expect(citingText(close, s2[0]!.index, s2)).toContain("reads the index");
    expect(citingText(close, s2[0]!.index, s2)).not.toContain("prints");
    expect(citingText(close, s2[1]!.index, s2)).toContain("the CLI prints it");
  });

  it("keeps the whole sentence when a clause names nothing of its own", () => {
    const answer = "load_index is defined in a.py:3 and used in b.py:7.";
    const spans = spansOf(answer, ["a.py:3", "b.py:7"]);
    expect(citingText(answer, spans[1]!.index, spans)).toContain("load_index");
    expect(citingText(answer, spans[0]!.index, spans)).toContain("load_index is defined in");
  });
});
