/**
 * The two undici dispatchers the client uses, loaded on their own: undici's package index
 * also loads fetch, WebSocket, caches and more, about 55 ms of every `restprobe run`'s
 * start-up on the CI machine (docs/performance.md). The version is pinned, and a test
 * holds these to the classes the index exports.
 */
import { createRequire } from 'node:module';
import type { Agent as AgentClass, ProxyAgent as ProxyAgentClass } from 'undici';

const require = createRequire(import.meta.url);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof AgentClass;
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent.js') as typeof ProxyAgentClass;
