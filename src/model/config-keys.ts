/**
 * The config keys a skip can name: the closed set of places in the config (or flags)
 * that enable a check. A skip naming any other key fails to compile.
 */
export const configKeys = [
  'baseUrl',
  'collections',
  'collections[].create.body',
  'collections[].replace.body',
  'collections[].patch.body',
  'collections[].newId',
  'collections[].methods',
  'collections[].pagination.style',
  'collections[].pagination.maxLimit',
  'collections[].mark',
  'collections[].sorts',
  'collections[].filters',
  'collections[].personalised',
  'collections[].children',
  'collections[].children[].actions',
  'nodes',
  'secretEndpoints',
  'auth.apiKey',
  'auth.limited',
  'auth.session',
  'auth.mint',
  'plainHttpUrl',
  'safety.readOnly',
  'safety.destructive',
  'rateLimit',
  'rateLimit.credential',
  'rateLimit.otherCredential',
  'rateLimit.keyedBy',
  'rateLimit.limit',
  'rateLimit.budget',
  'version',
  'version.deprecated',
  'version.removed',
  'version.renames',
] as const;

export type ConfigKey = (typeof configKeys)[number];
