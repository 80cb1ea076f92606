import { describe, expect, it } from 'vitest';
import { pkcePair, s256 } from './pkce.js';

describe('PKCE', () => {
  it('computes the S256 challenge of RFC 7636 Appendix B', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes verifiers of 43–128 unreserved characters, a fresh one each time', () => {
    const a = pkcePair();
    expect(a.verifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(a.challenge).toBe(s256(a.verifier));
    expect(pkcePair().verifier).not.toBe(a.verifier);
  });
});
