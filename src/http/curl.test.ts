import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Secret } from '../model/profile.js';
import { toCurl } from './curl.js';

const key = 'k3y-0123456789abcdef';
const secrets: Secret[] = [{ envName: 'API_KEY', value: key }];

/**
 * How bash splits a curl command into words: `curl` is replaced by a function that prints
 * each argument on its own line (NUL-separated), with API_KEY set in the environment.
 * Nothing in the command is run but printf.
 */
function shellWords(command: string, env: Record<string, string> = { API_KEY: key }): string[] {
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `curl() { printf '%s\\0' "$@"; }\n${command}`], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
    encoding: 'utf8',
    timeout: 5_000,
  });
  return out.split('\0').slice(0, -1);
}

describe('toCurl', () => {
  it('writes method, URL and headers, single-quoted', () => {
    const cmd = toCurl({ method: 'GET', url: 'http://127.0.0.1:8080/v2/projects?limit=5&sort=name', headers: { accept: 'application/json' } }, []);
    expect(cmd).toBe(`curl -sS -i -X GET 'http://127.0.0.1:8080/v2/projects?limit=5&sort=name' -H 'accept: application/json'`);
  });

  it('quotes single quotes in header values, URLs and bodies so the shell gives them back as they were', () => {
    const url = "http://127.0.0.1:8080/v2/it's?q=a'b";
    const headers = { 'x-name': "O'Brien", 'x-shell': '$HOME `id` $(id) "q" \\ !' };
    const body = JSON.stringify({ name: "it's", cmd: '$(touch /tmp/restprobe-pwned) `id`', nl: 'a\nb' });
    const cmd = toCurl({ method: 'POST', url, headers, body }, secrets);
    expect(cmd).toContain(`-H 'x-name: O'\\''Brien'`);
    expect(shellWords(cmd)).toEqual(['-sS', '-i', '-X', 'POST', url, '-H', "x-name: O'Brien", '-H', `x-shell: ${headers['x-shell']}`, '--data-binary', body]);
  });

  it('writes the configured key as $API_KEY, double-quoted so the shell expands it', () => {
    const cmd = toCurl({ method: 'GET', url: 'http://h/x', headers: { 'x-api-key': key } }, secrets, ['X-API-Key']);
    expect(cmd).toContain(`-H "x-api-key: $API_KEY"`);
    expect(cmd).not.toContain(key);
    expect(shellWords(cmd)).toContain(`x-api-key: ${key}`);
  });

  it('writes a bearer token as "authorization: Bearer $API_KEY"', () => {
    const cmd = toCurl({ method: 'GET', url: 'http://h/x', headers: { authorization: `Bearer ${key}` } }, secrets, ['Authorization']);
    expect(cmd).toContain(`-H "authorization: Bearer $API_KEY"`);
    expect(cmd).not.toContain(key);
    expect(shellWords(cmd)).toContain(`authorization: Bearer ${key}`);
  });

  it('shows a credential header that is not exactly a configured secret as <redacted>, never in part', () => {
    // A check that tampers with the key, and Basic credentials a token's pieces line up with.
    const tampered = toCurl({ method: 'GET', url: 'http://h/x', headers: { 'x-api-key': `${key}"\`id\`$(id)` } }, secrets, ['x-api-key']);
    expect(tampered).toContain(`-H 'x-api-key: <redacted>'`);
    const basic = `Basic ${Buffer.from(`client:${key}`).toString('base64')}`;
    const token = { envName: 'TOKEN', value: `xx${basic.slice(6, 20)}yy` };
    const cmd = toCurl({ method: 'POST', url: 'http://h/token', headers: { authorization: basic } }, [token]);
    expect(cmd).toBe(`curl -sS -i -X POST 'http://h/token' -H 'authorization: <redacted>'`);
  });

  it('redacts a credential header whose value is not a known secret', () => {
    const cmd = toCurl({ method: 'GET', url: 'http://h/x', headers: { cookie: 'sid=abc123', authorization: 'Bearer other-token', 'x-tenant': 't' } }, secrets, ['x-tenant']);
    expect(cmd).toContain(`-H 'cookie: <redacted>'`);
    expect(cmd).toContain(`-H 'authorization: <redacted>'`);
    expect(cmd).toContain(`-H 'x-tenant: <redacted>'`);
    expect(cmd).not.toContain('abc123');
    expect(cmd).not.toContain('other-token');
  });

  it('never prints a secret in the URL or the body', () => {
    const url = `http://h/x?api_key=${key}&k2=${encodeURIComponent(key)}`;
    const body = JSON.stringify({ key, nested: { note: `the key is ${key}` } });
    const cmd = toCurl({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body }, secrets);
    expect(cmd).not.toContain(key);
    expect(cmd).toContain('$API_KEY');
  });

  it('leaves out an empty body', () => {
    expect(toCurl({ method: 'DELETE', url: 'http://h/x', headers: {}, body: '' }, [])).toBe(`curl -sS -i -X DELETE 'http://h/x'`);
  });
});
