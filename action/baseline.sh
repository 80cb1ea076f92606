#!/usr/bin/env bash
# The baseline a pull request is compared with: the report of the newest *completed* run of
# the workflow on the main branch, whatever its verdict. (A filter on successful runs would
# never find one on an API with a known failure, and those teams need the guard most.) A run
# still in progress, cancelled, or without the artifact is passed over for the one before it.
#
# Env: RESTPROBE_BASELINE_BRANCH (main), RESTPROBE_WORKFLOW (the workflow file's name),
# RESTPROBE_ARTIFACT (restprobe-reports), RESTPROBE_BASELINE_DIR (where to put it), GH_TOKEN.
# Writes `baseline=<path to restprobe-report.json>` to $GITHUB_OUTPUT, or nothing.
set -euo pipefail
branch="${RESTPROBE_BASELINE_BRANCH:-main}"
dir="${RESTPROBE_BASELINE_DIR:-restprobe-baseline}"
# Newest first, as gh lists them; node (which restprobe needs anyway) picks the completed ones.
runs=$(gh run list --branch "$branch" --workflow "$RESTPROBE_WORKFLOW" --limit 20 --json databaseId,status,conclusion |
  node -e 'let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => { for (const r of JSON.parse(s)) if (r.status === "completed" && r.conclusion !== "cancelled") console.log(r.databaseId); })')
for run_id in $runs; do
  rm -rf "$dir"
  if gh run download "$run_id" --name "${RESTPROBE_ARTIFACT:-restprobe-reports}" --dir "$dir" >/dev/null 2>&1 && [ -f "$dir/restprobe-report.json" ]; then
    echo "Baseline: the report of run $run_id on $branch"
    echo "baseline=$dir/restprobe-report.json" >> "$GITHUB_OUTPUT"
    exit 0
  fi
done
echo "No report of a completed run on $branch: this run is judged on its own"
