import { describe, expect, it } from 'vitest';
import { parseLoginForm } from './login-form.js';

describe('parseLoginForm', () => {
  it('reads action, method and hidden inputs, resolving a relative action against the page', () => {
    const html = `<html><form method="POST" action="/oauth/authorize?x=1&amp;y=2"><input type="hidden" name="request" value="a&quot;b">
      <input name=username><input type="password" name="password"><input type="checkbox" name="remember"><input type="submit" name="go" value="Log in"></form>`;
    expect(parseLoginForm(html, 'https://as.example/oauth/authorize?client_id=c')).toEqual({
      action: 'https://as.example/oauth/authorize?x=1&y=2',
      method: 'POST',
      fields: { request: 'a"b', username: '', password: '' },
      submit: { name: 'go', value: 'Log in' },
      asksPassword: true,
      controls: ['request', 'username', 'password', 'remember', 'go'],
    });
  });

  it('picks the form with a password field and defaults to the page URL and GET', () => {
    const html = `<form action="/search"><input name="q"></form><form><input type="password" name="pw"></form>`;
    expect(parseLoginForm(html, 'https://as.example/login')).toEqual({ action: 'https://as.example/login', method: 'GET', fields: { pw: '' }, asksPassword: true, controls: ['pw'] });
  });

  it('reads a consent page: no password, and the first submit control is the one a click on approve sends', () => {
    const keycloak = `<form action="/consent" method="post"><input type="hidden" name="code" value="k"><input name="accept" type="submit" value="Yes"><input name="cancel" type="submit" value="No"></form>`;
    expect(parseLoginForm(keycloak, 'https://as.example/x')).toMatchObject({ fields: { code: 'k' }, submit: { name: 'accept', value: 'Yes' }, asksPassword: false });
    const auth0 = `<form method="post"><button type="submit" name="action" value="accept">Accept</button><button type="submit" name="action" value="deny">Decline</button></form>`;
    expect(parseLoginForm(auth0, 'https://as.example/x')).toMatchObject({ submit: { name: 'action', value: 'accept' } });
    const oidcProvider = `<form method="post" action="/interaction/1/confirm"><button autofocus type="submit">Continue</button></form>`;
    expect(parseLoginForm(oidcProvider, 'https://as.example/x')).not.toHaveProperty('submit');
  });

  it('names every control a login can fill, selects, textareas and buttons too, once each', () => {
    const html = `<form method="post"><select name="tenant"><option>a</option></select><textarea name="note"></textarea><input type="password" name="pw"><input type="radio" name="pw"><button name="go">Go</button></form>`;
    expect(parseLoginForm(html, 'https://as.example/')).toMatchObject({ controls: ['tenant', 'note', 'pw', 'go'] });
  });

  it('says why when there is no form to fill', () => {
    expect(parseLoginForm('<p>hello</p>', 'https://as.example/')).toMatch(/no <form>/);
    expect(parseLoginForm('<form></form><form></form>', 'https://as.example/')).toMatch(/2 forms/);
  });

  it('reads a hostile megabyte of unclosed tags in one pass (each shape took minutes when patterns rescanned the page per tag)', () => {
    const mb = 1 << 20;
    for (const html of ['<form>'.repeat(mb / 6), '<form '.repeat(mb / 6), `<form>${'<input '.repeat(mb / 7)}</form>`, `${'<form><textarea>'.repeat(mb / 16)}</form>`]) {
      const started = Date.now();
      parseLoginForm(html, 'https://as.example/login');
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });
});
