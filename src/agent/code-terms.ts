/**
 * Other ways an answer writes what code writes: the reason phrase of an HTTP status number
 * (`404` for `StatusNotFound`, `HTTP_404_NOT_FOUND`, `"not found"`) and Chinese words for the
 * English words code is named with (`逾時` for `timeout`). The citation status classifier
 * (`citation-status.ts`) compares an answer's sentence with the cited lines through them.
 */

/**
 * HTTP status codes and their reason phrases as words, from RFC 9110 section 15 ("Status
 * Codes", https://www.rfc-editor.org/rfc/rfc9110#section-15) and RFC 6585 (429).
 */
export const HTTP_STATUS_WORDS: ReadonlyMap<string, readonly string[]> = new Map([
  ["200", ["ok"]],
  ["201", ["created"]],
  ["202", ["accepted"]],
  ["204", ["no", "content"]],
  ["301", ["moved", "permanently"]],
  ["302", ["found"]],
  ["304", ["not", "modified"]],
  ["307", ["temporary", "redirect"]],
  ["308", ["permanent", "redirect"]],
  ["400", ["bad", "request"]],
  ["401", ["unauthorized"]],
  ["403", ["forbidden"]],
  ["404", ["not", "found"]],
  ["405", ["method", "not", "allowed"]],
  ["406", ["not", "acceptable"]],
  ["408", ["request", "timeout"]],
  ["409", ["conflict"]],
  ["410", ["gone"]],
  ["413", ["content", "too", "large"]],
  ["415", ["unsupported", "media", "type"]],
  ["422", ["unprocessable", "content"]],
  ["429", ["too", "many", "requests"]],
  ["500", ["internal", "server", "error"]],
  ["501", ["not", "implemented"]],
  ["502", ["bad", "gateway"]],
  ["503", ["service", "unavailable"]],
  ["504", ["gateway", "timeout"]],
]);

/**
 * Chinese words (Traditional and Simplified) for the English words identifiers are commonly made
 * of, longest first when one contains another. Only nouns that name a thing in code: verbs and
 * general words would make almost any sentence name something.
 */
const CHINESE_CODE_WORDS: ReadonlyArray<readonly [string, string]> = [
  ["中介軟體", "middleware"], ["中间件", "middleware"],
  ["伺服器", "server"], ["服務器", "server"], ["服务器", "server"],
  ["客戶端", "client"], ["客户端", "client"],
  ["使用者", "user"], ["用戶", "user"], ["用户", "user"],
  ["資料庫", "database"], ["数据库", "database"],
  ["處理器", "handler"], ["处理器", "handler"],
  ["解析器", "parser"],
  ["裝飾器", "decorator"], ["装饰器", "decorator"],
  ["相似度", "similarity"],
  ["索引", "index"],
  ["逾時", "timeout"], ["超時", "timeout"], ["超时", "timeout"],
  ["預設", "default"], ["默認", "default"], ["默认", "default"],
  ["設定檔", "config"], ["配置", "config"],
  ["錯誤", "error"], ["错误", "error"],
  ["例外", "exception"], ["異常", "exception"], ["异常", "exception"],
  ["路由", "route"],
  ["標頭", "header"], ["請求頭", "header"], ["请求头", "header"],
  ["請求", "request"], ["请求", "request"],
  ["回應", "response"], ["響應", "response"], ["响应", "response"],
  ["連線", "connection"], ["連接", "connection"], ["连接", "connection"],
  ["會話", "session"], ["会话", "session"],
  ["快取", "cache"], ["緩存", "cache"], ["缓存", "cache"],
  ["日誌", "log"], ["日志", "log"],
  ["參數", "params"], ["参数", "params"],
  ["狀態", "state"], ["状态", "state"],
  ["元件", "component"], ["組件", "component"], ["组件", "component"],
  ["佇列", "queue"], ["队列", "queue"],
  ["執行緒", "thread"], ["线程", "thread"],
  ["令牌", "token"],
  ["模型", "model"],
  ["欄位", "field"], ["字段", "field"],
  ["目錄", "directory"], ["目录", "directory"],
  ["分詞", "tokenize"], ["分词", "tokenize"],
  ["嵌入", "embedding"],
  ["雜湊", "hash"], ["哈希", "hash"],
  ["重試", "retry"], ["重试", "retry"],
  ["互斥鎖", "mutex"], ["互斥锁", "mutex"], ["鎖", "lock"], ["锁", "lock"],
  ["密碼", "password"], ["密码", "password"],
  ["金鑰", "key"], ["密鑰", "key"], ["密钥", "key"],
  ["埠號", "port"], ["端口", "port"], ["埠", "port"],
  ["主機", "host"], ["主机", "host"],
  ["環境變數", "env"], ["环境变量", "env"],
  ["版本", "version"],
  ["訊息", "message"], ["消息", "message"],
  ["事件", "event"],
  ["任務", "task"], ["任务", "task"],
  ["通道", "channel"],
  ["詞表", "vocab"], ["词表", "vocab"],
  ["緩衝區", "buffer"], ["缓冲区", "buffer"],
  ["查詢", "query"], ["查询", "query"],
  ["模板", "template"], ["範本", "template"],
  ["測試", "test"], ["测试", "test"],
  ["提示詞", "prompt"], ["提示词", "prompt"],
  ["向量", "vector"],
  ["中繼資料", "metadata"], ["元数据", "metadata"],
  ["憑證", "credential"], ["凭证", "credential"],
  ["簽章", "signature"], ["签名", "signature"],
  ["權限", "permission"], ["权限", "permission"],
];

/**
 * The English words of the Chinese words of `table` that a text contains, in table order; a
 * longer entry listed first consumes its text, so a shorter one inside it is not counted again.
 */
function englishOf(text: string, table: readonly (readonly [string, string])[]): string[] {
  if (!/[\u3400-\u9fff]/.test(text)) return [];
  const out: string[] = [];
  let rest = text;
  for (const [zh, en] of table) {
    if (!rest.includes(zh)) continue;
    out.push(en);
    rest = rest.split(zh).join(" ");
  }
  return out;
}

/** The English words of the Chinese code words a text contains (see {@link CHINESE_CODE_WORDS}). */
export function chineseCodeWords(text: string): string[] {
  return englishOf(text, CHINESE_CODE_WORDS);
}

/**
 * The words of an identifier, lower-case: `get_connection` → get, connection; `TodoList` → todo,
 * list; `HTTPAdapter` → http, adapter; `RLock` → r, lock.
 */
export function identifierWords(id: string): string[] {
  return id
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/**
 * A crude English stem, the same for a word's inflections: `committed`, `commits`, `commit` →
 * `commit`; `closed`, `close` → `clos`; `retries`, `retried`, `retry` → `retry`. Compare stems
 * only with stems.
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (/[^aeiou](?:ies|ied)$/.test(w) && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  else if (/(?:ss|sh|ch|x|z|s)es$/.test(w) && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && w.length > 3) w = w.slice(0, -1);
  // An agent noun with a doubled consonant names its verb: `logger` → `log`, `runner` → `run`.
  if (/([bdgklmnprt])\1er$/.test(w)) w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  if (/([bdfgklmnprtz])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

/**
 * Verbs for operations that code names with the same verb (`commit()`, `close()`, `validate`,
 * `sorted`, `split`, `exists`), each with the other names code commonly gives the operation
 * (`del`/`remove`/`unlink` delete, `go`/`spawn` start, `ListenAndServe` starts a server,
 * `logger.info` logs, `bcrypt`/`sha256` hash, `raise`/`throw` each other, `unwrap`/`expect` panic). A sentence saying the operation happens (`the user is committed`, `the helper splits
 * on…`) is shown by lines that write one of them. Left out on purpose are verbs code often does
 * without naming them: a decorator registers, a component renders, a `Display` impl prints, a
 * config is read or parsed by a call named after the format, a port setting is what a server
 * listens on or connects to.
 */
const OPERATIONS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["commit", []], ["rollback", []], ["close", ["shutdown", "dispose"]], ["save", ["persist", "dump", "write", "store"]],
  ["start", ["go", "spawn", "launch", "run", "serve", "listen"]], ["stop", ["shutdown", "halt", "kill"]], ["restart", []], ["refresh", ["reload"]],
  ["validate", ["valid", "verify", "check"]], ["verify", ["validate", "valid", "check"]], ["cache", ["memoize", "lru_cache"]], ["hash", ["digest", "hashpw", "sha256", "sha1", "md5", "bcrypt"]],
  ["retry", []], ["convert", []], ["serialize", ["dump", "dumps", "marshal", "stringify"]], ["serialise", ["dump", "dumps", "marshal", "stringify"]],
  ["deserialize", ["load", "loads", "unmarshal"]], ["encode", []], ["decode", []], ["encrypt", []], ["decrypt", []],
  ["compress", ["gzip", "zlib"]], ["decompress", ["gunzip", "zlib"]], ["sort", []], ["split", []], ["filter", []],
  ["lock", ["acquire", "mutex"]], ["unlock", ["release"]], ["delete", ["del", "remove", "rm", "unlink", "drop"]], ["flush", []],
  ["normalize", []], ["normalise", []], ["sanitize", []], ["escape", []], ["cancel", []],
  ["exist", ["is_file", "isfile", "is_dir", "isdir"]], ["log", ["logging", "info", "debug", "warn", "warning"]],
  ["raise", ["throw", "panic", "abort"]], ["throw", ["raise", "panic", "abort"]],
  ["panic", ["unwrap", "expect", "unreachable", "unimplemented", "todo", "abort"]],
  ["wait", ["await", "join", "Wait", "WaitGroup", "sleep"]],
];

/**
 * Chinese verbs for the operations above (Traditional and Simplified), longest first when one
 * contains another: a Chinese sentence says the operation happens with them (`會等待`, `提交`).
 */
const CHINESE_OPERATION_WORDS: ReadonlyArray<readonly [string, string]> = [
  ["等待", "wait"], ["提交", "commit"], ["回滾", "rollback"], ["回滚", "rollback"], ["關閉", "close"], ["关闭", "close"],
  ["刪除", "delete"], ["删除", "delete"], ["排序", "sort"], ["驗證", "validate"], ["验证", "validate"], ["校驗", "validate"], ["校验", "validate"],
  ["加密", "encrypt"], ["解密", "decrypt"], ["壓縮", "compress"], ["压缩", "compress"], ["序列化", "serialize"],
  ["取消", "cancel"], ["重新整理", "refresh"], ["刷新", "refresh"], ["記錄", "log"], ["记录", "log"],
];

/** The English operation verbs of the Chinese operation verbs a text contains (see {@link CHINESE_OPERATION_WORDS}). */
export function chineseOperationVerbs(text: string): string[] {
  return englishOf(text, CHINESE_OPERATION_WORDS);
}

/**
 * Code that handles an error where it happens: Go `if err != nil`, Python `except`, `catch`,
 * Ruby `rescue`, Rust `?` and `map_err`/`unwrap_or`, a promise's `.catch(`. A sentence saying an
 * error is ignored (`is ignored`, `is swallowed`, `忽略`) is a negation of what such lines do.
 */
export const ERROR_HANDLING_RE = /\berr\s*!=\s*nil\b|\bexcept\b|\bcatch\b|\brescue\b|\?\s*[;)]|\.(?:map_err|unwrap_or\w*|or_else)\(|\bif\s*\(?\s*err\b/;

/** A sentence saying something is ignored (English and Chinese). */
export const IGNORED_RE = /\b(?:is|are|was|were|gets?|being)\s+(?:silently\s+|simply\s+|just\s+)?(?:ignored|swallowed|discarded|dropped)\b|\b(?:ignores|swallows|discards)\b|忽略|吞掉/i;

const OPERATION_NAMES: ReadonlyMap<string, readonly string[]> = new Map(OPERATIONS.map(([v, names]) => [stem(v), [stem(v), ...names.map(stem)]]));

/**
 * For the stem of any verb ({@link stem}), the stems of every name code may write that operation
 * with: its own names when it is an operation, and the names of each operation it is a name of
 * (`check` → validate, verify, …); just itself otherwise. What a negation (`does not check`) is
 * compared with.
 */
export function operationFamily(verbStem: string): readonly string[] {
  const out = new Set([verbStem, ...(OPERATION_NAMES.get(verbStem) ?? [])]);
  for (const names of OPERATION_NAMES.values()) if (names.includes(verbStem)) for (const n of names) out.add(n);
  return [...out];
}

/** For the stem of an operation verb ({@link stem}), the stems of the names code writes it with (itself included); undefined for other words. */
export function operationNames(verbStem: string): readonly string[] | undefined {
  return OPERATION_NAMES.get(verbStem);
}

/**
 * Properties code declares with a keyword, an annotation or a type (`nullable`, `unique`,
 * `static`, `@deprecated`, a `session`-scoped fixture), each with what the lines write for it
 * (identifiers, or text such as `?:` for an optional TypeScript field). A sentence saying a thing
 * is so (`` `email` is nullable ``) is shown by lines that write one of them.
 */
const PROPERTIES: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ["nullable", ["nullable", "Nullable", "Optional", "None", "null", "nil", "undefined", "?:"]],
  ["optional", ["Optional", "optional", "None", "undefined", "default", "?:", "Option"]],
  ["required", ["required", "Required", "NotNull", "NonNull", "nonnull", "NOT NULL", "nullable=False"]],
  ["unique", ["unique", "Unique", "UNIQUE"]],
  ["static", ["static", "staticmethod", "classmethod"]],
  ["abstract", ["abstract", "ABC", "abstractmethod", "interface", "trait"]],
  ["readonly", ["readonly", "Readonly", "ReadOnly", "frozen", "const", "final", "Final", "val"]],
  ["read-only", ["readonly", "Readonly", "ReadOnly", "readOnly", "read_only", "frozen", "const", "final", "Final", "val"]],
  ["immutable", ["readonly", "Readonly", "ReadOnly", "frozen", "const", "final", "Final", "val", "immutable"]],
  ["deprecated", ["deprecated", "Deprecated", "DeprecationWarning"]],
  ["thread-safe", ["Mutex", "RWMutex", "Lock", "RLock", "lock", "synchronized", "atomic", "Atomic", "sync"]],
  ["scoped", ["scope", "Scope", "scoped"]],
]);

/** What lines write for a property word (`nullable`, `session-scoped`), or undefined for a word that names no property. */
export function propertySpellings(word: string): readonly string[] | undefined {
  const w = word.toLowerCase();
  return PROPERTIES.get(w) ?? (w.endsWith("-scoped") ? PROPERTIES.get("scoped") : undefined);
}

/**
 * Words that claim a type, each with the names languages write that type with (identifiers,
 * compared exactly). Sources: the built-in types of Python (https://docs.python.org/3/library/stdtypes.html),
 * TypeScript (https://www.typescriptlang.org/docs/handbook/2/everyday-types.html), Go
 * (https://go.dev/ref/spec#Types), Rust (https://doc.rust-lang.org/book/ch03-02-data-types.html)
 * and Java (https://docs.oracle.com/javase/specs/jls/se21/html/jls-4.html).
 */
const INTEGER_NAMES = ["int", "integer", "Integer", "long", "Long", "short", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "BigInt", "bigint"];
const FLOAT_NAMES = ["float", "Float", "double", "Double", "f32", "f64", "float32", "float64", "decimal", "Decimal"];
const LIST_NAMES = ["list", "List", "Vec", "Array", "array", "ArrayList", "Sequence", "Collection", "slice", "tuple", "Tuple"];
const STRING_NAMES = ["str", "string", "String", "Text", "CharSequence"];
const TYPE_SPELLINGS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ["integer", INTEGER_NAMES],
  ["int", INTEGER_NAMES],
  ["float", FLOAT_NAMES],
  ["number", ["number", "Number", ...INTEGER_NAMES, ...FLOAT_NAMES]],
  ["numeric", ["number", "Number", ...INTEGER_NAMES, ...FLOAT_NAMES]],
  ["list", LIST_NAMES],
  ["array", LIST_NAMES],
  ["string", STRING_NAMES],
  ["str", STRING_NAMES],
  ["boolean", ["bool", "boolean", "Boolean"]],
  ["bool", ["bool", "boolean", "Boolean"]],
  ["dict", ["dict", "Dict", "map", "Map", "HashMap", "Record", "Mapping", "dictionary"]],
  ["dictionary", ["dict", "Dict", "map", "Map", "HashMap", "Record", "Mapping", "dictionary"]],
  ["map", ["dict", "Dict", "map", "Map", "HashMap", "BTreeMap", "Record", "Mapping"]],
  ["bytes", ["bytes", "bytearray", "byte", "Buffer", "Uint8Array", "u8"]],
  ["promise", ["Promise", "async", "Future", "Awaitable", "Coroutine"]],
  ["async", ["Promise", "async", "Future", "Awaitable", "Coroutine"]],
  ["future", ["Promise", "async", "Future", "Awaitable"]],
  ["iterator", ["Iterator", "Iterable", "Generator", "yield", "iter", "Iter"]],
  ["generator", ["Iterator", "Iterable", "Generator", "yield"]],
]);

/** Chinese words for the type words of {@link TYPE_SPELLINGS} (Traditional and Simplified). */
const CHINESE_TYPE_WORDS: ReadonlyArray<readonly [string, string]> = [
  ["字串", "string"], ["字符串", "string"],
  ["整數", "integer"], ["整数", "integer"],
  ["浮點數", "float"], ["浮点数", "float"],
  ["數字", "number"], ["数字", "number"],
  ["列表", "list"], ["清單", "list"], ["清单", "list"], ["陣列", "array"], ["数组", "array"],
  ["布林", "boolean"], ["布尔", "boolean"],
  ["字典", "dict"],
  ["位元組", "bytes"], ["字节", "bytes"],
  ["非同步", "async"], ["异步", "async"],
];

/** The type names a type word (English, lower-case, or Chinese) can be written with in code; undefined for a word that names no type. */
export function typeSpellings(word: string): readonly string[] | undefined {
  const zh = CHINESE_TYPE_WORDS.find(([w]) => w === word)?.[1];
  return TYPE_SPELLINGS.get(zh ?? word.toLowerCase());
}

/** The Chinese type words (none contains another). */
export const CHINESE_TYPE_WORD_LIST: readonly string[] = CHINESE_TYPE_WORDS.map(([w]) => w);

/**
 * Values written in capitals that name one of a closed set, so a sentence that writes one states
 * a value the lines must show: log levels (Python `logging`, https://docs.python.org/3/library/logging.html#logging-levels;
 * syslog severities, RFC 5424 section 6.2.1) and HTTP methods (RFC 9110 section 9).
 */
export const ENUM_VALUES: ReadonlySet<string> = new Set([
  "TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "WARNING", "ERROR", "CRITICAL", "FATAL",
  "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "PATCH",
]);

/**
 * Units as an answer writes them (English and Chinese), with what one of them is in the base
 * unit (seconds for time, bytes for size: a kilobyte both 1024 and 1000 bytes, as code writes
 * either; IEC 80000-13 and SI prefixes).
 */
const UNITS: ReadonlyArray<{ re: RegExp; factors: readonly number[]; per: readonly number[] }> = [
  { re: /^(?:ms|msec|millis|milliseconds?|毫秒)(?![a-z])/, factors: [0.001], per: [0.001, 1, 60, 3600] },
  { re: /^(?:s|secs?|seconds?|秒)(?![a-z])/, factors: [1], per: [0.001, 1, 60, 3600] },
  { re: /^(?:mins?|minutes?|分鐘|分钟)(?![a-z])/, factors: [60], per: [0.001, 1, 60, 3600] },
  { re: /^(?:h|hrs?|hours?|小時|小时)(?![a-z])/, factors: [3600], per: [0.001, 1, 60, 3600] },
  { re: /^(?:days?|天)(?![a-z])/, factors: [86400], per: [1, 60, 3600, 86400] },
  { re: /^(?:kb|kib|kilobytes?|k)(?![a-z])/, factors: [1024, 1000], per: [1, 1024, 1000] },
  { re: /^(?:mb|mib|megabytes?)(?![a-z])/, factors: [1024 ** 2, 1000 ** 2], per: [1, 1024, 1000, 1024 ** 2, 1000 ** 2] },
  { re: /^(?:gb|gib|gigabytes?)(?![a-z])/, factors: [1024 ** 3, 1000 ** 3], per: [1, 1024, 1000, 1024 ** 2, 1000 ** 2, 1024 ** 3, 1000 ** 3] },
];

/**
 * The numbers a quantity can be written with in code: `10` followed by `minutes` (or `分鐘`) is
 * also 600 (seconds) and 600000 (milliseconds); `8 KB` is also 8192 and 8000 (bytes). `after`
 * is the text right after the number. Returns just the number when no unit follows.
 */
export function unitForms(n: string, after: string): string[] {
  const rest = after.trimStart().toLowerCase();
  const unit = UNITS.find((u) => u.re.test(rest));
  const out = new Set([n]);
  if (!unit) return [...out];
  for (const factor of unit.factors) {
    for (const per of unit.per) {
      const v = (Number(n) * factor) / per;
      const whole = Math.round(v);
      if (whole > 0 && Math.abs(v - whole) < 1e-9 * v) out.add(String(whole));
    }
  }
  return [...out];
}

/** Code an answer writes in backticks (group 1: the code). */
export const BACKTICK_RE = /`([^`\n]+)`/g;

/**
 * A quoted string in an answer, in ASCII, typographic (English ‘…’ “…”, German „…“, French and
 * Spanish «…» ‹…›) or CJK quotes (one group per kind; the one
 * that matched holds the text). An apostrophe inside a word (`doesn't`, `PyYAML's`) opens or closes none.
 */
export const QUOTED_RE =
  /"([^"\n]{2,200})"|(?<![A-Za-z])'([^'\n]{2,200})'(?![A-Za-z])|“([^”\n]{2,200})”|「([^」\n]{2,200})」|『([^』\n]{2,200})』|‘([^’\n]{2,200})’|„([^“”\n]{2,200})[“”]|«\s?([^»\n]{2,200}?)\s?»|‹\s?([^›\n]{2,200}?)\s?›/g;

/**
 * Separators text is split on, by the words an answer names them with (English and Chinese):
 * `split by paragraphs`, `comma-separated`, `按句子切分`. Each word stands for one or more kinds
 * of separator (a sentence split may be written as a split on `.`).
 */
const SEPARATOR_WORDS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ["paragraph", ["paragraph"]], ["段落", ["paragraph"]],
  ["sentence", ["sentence", "dot"]], ["句子", ["sentence", "dot"]], ["句號", ["sentence", "dot"]], ["句号", ["sentence", "dot"]],
  ["line", ["line"]], ["newline", ["line"]], ["linebreak", ["line"]], ["換行", ["line"]], ["换行", ["line"]], ["行", ["line"]],
  ["whitespace", ["whitespace"]], ["space", ["whitespace"]], ["word", ["whitespace"]], ["空白", ["whitespace"]], ["空格", ["whitespace"]],
  ["tab", ["tab"]], ["comma", ["comma"]], ["逗號", ["comma"]], ["逗号", ["comma"]],
  ["semicolon", ["semicolon"]], ["分號", ["semicolon"]], ["分号", ["semicolon"]], ["colon", ["colon"]], ["冒號", ["colon"]], ["冒号", ["colon"]],
  ["pipe", ["pipe"]], ["slash", ["slash"]], ["dot", ["dot"]], ["period", ["dot"]],
  ["hyphen", ["hyphen"]], ["dash", ["hyphen"]], ["underscore", ["underscore"]],
  ["character", ["character"]], ["char", ["character"]], ["字元", ["character"]], ["字符", ["character"]],
]);

/** The kinds of separator a word names (`paragraphs` → paragraph), or undefined for a word that names none. */
export function separatorKinds(word: string): readonly string[] | undefined {
  const w = word.toLowerCase();
  return SEPARATOR_WORDS.get(w) ?? SEPARATOR_WORDS.get(w.replace(/(?:es|s)$/, "")) ?? SEPARATOR_WORDS.get(w.replace(/s$/, ""));
}

/** The Chinese separator words, longest first. */
export const CHINESE_SEPARATOR_WORDS: readonly string[] = [...SEPARATOR_WORDS.keys()].filter((w) => /[\u3400-\u9fff]/.test(w)).sort((a, b) => b.length - a.length);

/** A string or regular-expression literal's text as the source writes it (escapes kept: `\n` is two characters), and which kind of separator it is. */
const SEPARATOR_LITERALS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:\\r)?\\n(?:\\s[*+]?|\[ \\t\][*+]?)?(?:\\r)?\\n\+?$|^\(?(?:\\r)?\\n\)?\{2,\d*\}$/, "paragraph"],
  [/^(?:\\r)?\\n\+?$/, "line"],
  [/^(?: +|\\s\+?)$/, "whitespace"],
  [/^\\t\+?$/, "tab"],
  [/^, ?$/, "comma"],
  [/^; ?$/, "semicolon"],
  [/^: ?$/, "colon"],
  [/^\\?\| ?$/, "pipe"],
  [/^\\?\/$/, "slash"],
  [/^\\?\.$/, "dot"],
  [/^\\?\. $|\[[^\]]*[.!?][^\]]*[.!?][^\]]*\]/, "sentence"],
  [/^-$/, "hyphen"],
  [/^_$/, "underscore"],
];

/** Calls that split on a separator they are named after (`splitlines`, `split_whitespace`, Go's `strings.Fields`, `sent_tokenize`). */
const SEPARATOR_CALLS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:splitlines|readlines|lines|read_lines|ScanLines)\s*\(/, "line"],
  [/\b(?:split_whitespace|split_ascii_whitespace|Fields)\s*\(|\.split\(\s*\)/, "whitespace"],
  [/\b(?:sent_tokenize|split_sentences)\s*\(/, "sentence"],
  [/\.chars\(\s*\)/, "character"],
];

/**
 * The kinds of separator code lines split on: string and regular-expression literals that are a
 * separator and nothing else (`"\n\n"`, `','`, `r"\s+"`, `/[.!?]\s/`) and calls named after one.
 * Empty when the lines show no separator.
 */
export function separatorsIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?<![\w])[rbf]?"((?:[^"\\\n]|\\.)*)"|(?<![\w])[rbf]?'((?:[^'\\\n]|\\.)*)'|`([^`\n]*)`|(?<=[(,=]\s*)\/((?:[^/\\\n]|\\.)+)\/[a-z]*/g)) {
    const literal = m.slice(1).find((g) => g !== undefined)!;
    for (const [re, kind] of SEPARATOR_LITERALS) if (re.test(literal)) out.add(kind);
  }
  for (const [re, kind] of SEPARATOR_CALLS) if (re.test(text)) out.add(kind);
  return out;
}

/**
 * Phrases that say something is kept neither hashed nor encrypted (`in plain text`, `cleartext`,
 * `明文`): a negation of those operations, as `not hashed` is.
 */
export const PLAIN_TEXT_RE = /\bplain[- ]?text\b|\bclear[- ]?text\b|\bin the clear\b|明文/i;

/** The operations {@link PLAIN_TEXT_RE} negates. */
export const PLAIN_TEXT_NEGATES: readonly string[] = ["hash", "encrypt"];

/** Seconds in one of each time unit code names: Go `time.Minute`, Java `TimeUnit.MINUTES`, `ofMinutes`, `minutes=`, a `_MS` suffix. */
const TIME_UNIT_SECONDS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^(?:nanos?(?:econds?)?|ns)$/i, 1e-9],
  [/^(?:micros?(?:econds?)?|us|µs)$/i, 1e-6],
  [/^(?:millis(?:econds?)?|ms|msecs?)$/i, 1e-3],
  [/^(?:s|secs?|seconds?)$/i, 1],
  [/^(?:m|mins?|minutes?)$/i, 60],
  [/^(?:h|hrs?|hours?)$/i, 3600],
  [/^(?:d|days?)$/i, 86400],
  [/^weeks?$/i, 604800],
];

function secondsPer(unit: string): number | undefined {
  return TIME_UNIT_SECONDS.find(([re]) => re.test(unit))?.[1];
}

const NUM = String.raw`(\d[\d_]*(?:\.\d+)?)`;
const UNIT = String.raw`(Nanoseconds?|Microseconds?|Milliseconds?|Seconds?|Minutes?|Hours?|Days?|Weeks?)`;

/**
 * Durations code writes with their unit (in seconds): Go `5 * time.Second`, Rust
 * `Duration::from_secs(5)`, Java `Duration.ofMinutes(5)` and `5, TimeUnit.SECONDS`, C#
 * `TimeSpan.FromSeconds(5)`, Python `timedelta(minutes=5)` and `time.sleep(5)`, Ruby/Kotlin
 * `5.minutes`, JavaScript `setTimeout(f, 500)`, a duration string (`"30s"`, `'500ms'`), and a
 * value whose name ends in its unit (`TIMEOUT_MS = 30_000`, `ttlSeconds: 60`). Empty when the
 * lines write no duration with its unit.
 */
export function codeDurations(text: string): number[] {
  const out: number[] = [];
  const add = (n: string, unit: string) => {
    const per = secondsPer(unit);
    if (per !== undefined) out.push(Number(n.replace(/_/g, "")) * per);
  };
  const patterns: ReadonlyArray<readonly [RegExp, (m: RegExpMatchArray) => void]> = [
    [new RegExp(String.raw`${NUM}\s*\*\s*time\.${UNIT}\b`, "g"), (m) => add(m[1]!, m[2]!)],
    [new RegExp(String.raw`\btime\.${UNIT}\s*\*\s*${NUM}`, "g"), (m) => add(m[2]!, m[1]!)],
    [new RegExp(String.raw`\b(?:from_|of|From)?(secs|millis|micros|nanos|Seconds|Millis|Minutes|Hours|Days|Milliseconds)(?:_f64|_f32)?\(\s*${NUM}\s*\)`, "g"), (m) => add(m[2]!, m[1]!)],
    [new RegExp(String.raw`\b(weeks|days|hours|minutes|seconds|milliseconds|microseconds)\s*=\s*${NUM}`, "g"), (m) => add(m[2]!, m[1]!)],
    [new RegExp(String.raw`(?<![\w.])${NUM}\.(seconds|minutes|hours|days|milliseconds|weeks)\b`, "g"), (m) => add(m[1]!, m[2]!)],
    [new RegExp(String.raw`${NUM}\s*,\s*TimeUnit\.(NANOSECONDS|MICROSECONDS|MILLISECONDS|SECONDS|MINUTES|HOURS|DAYS)`, "g"), (m) => add(m[1]!, m[2]!)],
    [new RegExp(String.raw`\b(?:time|asyncio)\.sleep\(\s*${NUM}\s*\)`, "g"), (m) => add(m[1]!, "s")],
    [new RegExp(String.raw`\bset(?:Timeout|Interval)\([^;]*,\s*${NUM}\s*\)`, "g"), (m) => add(m[1]!, "ms")],
    [new RegExp(String.raw`["'\`]${NUM}(ns|us|µs|ms|s|m|h|d)["'\`]`, "g"), (m) => add(m[1]!, m[2]!)],
    [new RegExp(String.raw`\b[A-Za-z][\w]*?(?:_|(?<=[a-z]))(ms|MS|Ms|millis|Millis|MILLIS|secs|Secs|SECS|seconds|Seconds|SECONDS|mins|Mins|MINS|minutes|Minutes|MINUTES|hours|Hours|HOURS|days|Days|DAYS)\b\s*(?::[^=\n]*?)?(?::=|=|:)\s*${NUM}(?![\w.])`, "g"), (m) => add(m[2]!, m[1]!)],
  ];
  for (const [re, take] of patterns) for (const m of text.matchAll(re)) take(m);
  return out;
}

/** The duration (in seconds) of a number an answer writes with a time unit after it (`5 minutes`, `30 秒`), or undefined. */
export function statedDuration(n: string, after: string): number | undefined {
  const rest = after.trimStart().toLowerCase();
  const unit = UNITS.slice(0, 5).find((u) => u.re.test(rest));
  return unit === undefined ? undefined : Number(n) * unit.factors[0]!;
}

/**
 * English number words an answer writes for a count (`three times`, `two workers`), with their
 * value: from two to twelve, `twice`. `one` is left out: it is more often a pronoun.
 */
export const NUMBER_WORDS: ReadonlyMap<string, string> = new Map([
  ["two", "2"], ["three", "3"], ["four", "4"], ["five", "5"], ["six", "6"], ["seven", "7"], ["eight", "8"],
  ["nine", "9"], ["ten", "10"], ["eleven", "11"], ["twelve", "12"], ["twice", "2"],
]);
