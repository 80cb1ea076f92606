#!/usr/bin/env bash
# The action's first step: restprobe from the action's own checkout (GITHUB_ACTION_PATH),
# installed and built once; a runner that already has it (a cached action path) skips it.
set -euo pipefail
cd "$GITHUB_ACTION_PATH"
if [ -f dist/cli/main.js ] && [ -d node_modules ]; then
  echo "restprobe $(node bin/restprobe.js --version) is installed at $GITHUB_ACTION_PATH"
  exit 0
fi
echo "Installing restprobe at $GITHUB_ACTION_PATH (npm ci installs and builds it, about a minute)"
npm ci --no-audit --no-fund
