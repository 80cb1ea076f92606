import { describe, expect, it } from 'vitest';
import { wellKnownUrls } from './oauth-metadata.js';

describe('wellKnownUrls', () => {
  it('puts RFC 8414 suffix between host and path, and appends the OIDC one to the issuer', () => {
    expect(wellKnownUrls('https://as.example')).toEqual(['https://as.example/.well-known/oauth-authorization-server', 'https://as.example/.well-known/openid-configuration']);
    expect(wellKnownUrls('https://as.example/tenant/1/')).toEqual(['https://as.example/.well-known/oauth-authorization-server/tenant/1', 'https://as.example/tenant/1/.well-known/openid-configuration']);
  });
});
