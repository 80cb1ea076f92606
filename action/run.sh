#!/usr/bin/env bash
# The action's run step: `restprobe run` with the action's inputs (passed as environment
# variables, never pasted into the script), its exit code kept as the step's output.
set -uo pipefail
args=(run "$RESTPROBE_BASE_URL" -c "$RESTPROBE_CONFIG" --format "$RESTPROBE_FORMATS" --report-dir "$RESTPROBE_REPORT_DIR")
if [ -n "${RESTPROBE_BASELINE:-}" ]; then
  if [ -f "$RESTPROBE_BASELINE" ]; then
    args+=(--baseline "$RESTPROBE_BASELINE")
  else
    echo "::warning title=restprobe::no baseline at $RESTPROBE_BASELINE: the run is judged on its own"
  fi
fi
# Extra arguments are split into words as a shell would, but never evaluated.
read -r -a extra <<< "${RESTPROBE_ARGS:-}"
node "$GITHUB_ACTION_PATH/bin/restprobe.js" "${args[@]}" "${extra[@]}"
code=$?
echo "exit-code=$code" >> "$GITHUB_OUTPUT"
exit "$code"
