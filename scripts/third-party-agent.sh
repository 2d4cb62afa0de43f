#!/usr/bin/env bash
# A real third-party coding agent through `codecite serve`: installs Qwen Code
# (@qwen-code/qwen-code on npm) outside this repository, then runs
# test/serve/third-party-agent.test.ts with it — the agent, pointed at serve's OpenAI-compatible
# endpoint, completes one tool-using task whose call the fake upstream writes as text.
# Without the agent installed that test is skipped.
#
# Usage: scripts/third-party-agent.sh [PREFIX]
#   PREFIX  where the agent is installed (default: ${TMPDIR:-/tmp}/codecite-agents, where the test
#           also looks); QWEN_CODE_VERSION picks the version (default: the one the test was written for).
# Needs: network access to the npm registry for the install, Node 20+.
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX="${1:-${TMPDIR:-/tmp}/codecite-agents}"
VERSION="${QWEN_CODE_VERSION:-0.15.10}"
QWEN="$PREFIX/node_modules/.bin/qwen"
if [ ! -x "$QWEN" ] || [ "$("$QWEN" --version 2>/dev/null)" != "$VERSION" ]; then
  mkdir -p "$PREFIX"
  npm install --prefix "$PREFIX" --no-save --no-audit --no-fund "@qwen-code/qwen-code@$VERSION"
fi
echo "third-party agent: Qwen Code $("$QWEN" --version) at $QWEN" >&2
CODECITE_QWEN_CODE="$QWEN" exec npx vitest run test/serve/third-party-agent.test.ts
