#!/usr/bin/env node
// The CLI is compiled by `npm run build` (run by `npm ci` through `prepare`).
import '../dist/src/cli/main.js';
