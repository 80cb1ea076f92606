import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { exportLine, readExportLines } from './export-lines.js';

describe('export lines', () => {
  const values = { PLAIN: 'http://127.0.0.1:8080', JWK: '{"kty":"RSA","n":"x y","note":"it\'s $HOME `id`"}', EMPTY: '' };
  const text = ['# a comment', ...Object.entries(values).map(([k, v]) => exportLine(k, v))].join('\n');

  it('read back as they were written', () => {
    expect(readExportLines(text)).toEqual(values);
  });

  it('set in a POSIX shell what they say, nothing expanded', () => {
    const out = execFileSync('sh', ['-c', `${text}\nprintf '%s\\n' "$PLAIN" "$JWK"`], { encoding: 'utf8' });
    expect(out).toBe(`${values.PLAIN}\n${values.JWK}\n`);
  });
});
