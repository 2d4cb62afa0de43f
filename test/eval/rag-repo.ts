/** A git repository made from the rag-app example, for `codecite eval` tests. */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { commitAll, git } from "../helpers/git.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

const RAG_APP = path.resolve(import.meta.dirname, "../../examples/rag-app");

/** A git repository holding the rag-app example, with a last commit that edits two files. */
export function ragRepo(): string {
  const root = makeTempDir("codecite-eval-");
  cpSync(path.join(RAG_APP, "src"), path.join(root, "src"), { recursive: true });
  git(root, "init", "-q");
  commitAll(root, "initial");
  const serve = path.join(root, "src/serve.py");
  writeFileSync(serve, readFileSync(serve, "utf8") + "\n\ndef health_check():\n    return {\"status\": \"ok\"}\n");
  putFile(root, "src/rag_common_extra.py", readFileSync(path.join(RAG_APP, "src/rag_common_extra.py"), "utf8").replace(/^/, "# extras for the chat front-ends\n"));
  commitAll(root, "health check");
  return root;
}

