/**
 * Every default the loaders apply, gathered from the sections (each section's loader holds
 * its own). `schema.test.ts` checks the schema's `default` annotations (what editors show)
 * against this object.
 */
import { authDefaults } from './sections/auth/load.js';
import { collectionDefaults } from './sections/collections/load.js';
import { oauthDefaults } from './sections/oauth/load.js';
import { rateLimitDefaults } from './sections/rate-limit/load.js';
import { runDefaults } from './sections/run/profile.js';
import { targetDefaults } from './sections/target/load.js';
import { versionDefaults } from './sections/version/load.js';
import { webhooksDefaults } from './sections/webhooks/load.js';

export const configDefaults = {
  ...runDefaults,
  ...targetDefaults,
  ...authDefaults,
  ...oauthDefaults,
  ...collectionDefaults,
  ...rateLimitDefaults,
  ...webhooksDefaults,
  ...versionDefaults,
} as const;
