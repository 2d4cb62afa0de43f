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
];

/** The English words of the Chinese code words a text contains (see {@link CHINESE_CODE_WORDS}). */
export function chineseCodeWords(text: string): string[] {
  if (!/[\u3400-\u9fff]/.test(text)) return [];
  const out: string[] = [];
  let rest = text;
  for (const [zh, en] of CHINESE_CODE_WORDS) {
    if (!rest.includes(zh)) continue;
    out.push(en);
    rest = rest.split(zh).join(" ");
  }
  return out;
}
