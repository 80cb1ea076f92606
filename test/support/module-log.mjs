// Preloaded with `node --import`: writes "module <path>" to stderr for each file the process
// loads, by import (a loader hook) or by require (Module._load, which require(esm) takes too).
import Module, { register } from 'node:module';

register('data:text/javascript,' + encodeURIComponent("export async function load(url, context, next) { if (url.startsWith('file:')) process.stderr.write(`module ${url}\\n`); return next(url, context); }"));
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.call(this, request, parent, isMain);
  try {
    process.stderr.write(`module ${Module._resolveFilename(request, parent, isMain)}\n`);
  } catch {
    // A built-in or an unresolvable name: not a file.
  }
  return loaded;
};
