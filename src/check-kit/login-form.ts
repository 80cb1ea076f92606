/**
 * The one login form of an authorization server's page, read as a browser would submit
 * it: its action (resolved against the page), its method, and the values of its inputs.
 * A page is HTML of unknown make: no script runs, and a page without a form is reported.
 * Tags are matched up to the next `<` (`[^<>]*`), never past it: a hostile page of unclosed
 * tags then costs one pass, not one per tag (minutes for a megabyte, the event loop held).
 */

export interface LoginForm {
  /** Absolute URL the form submits to. */
  readonly action: string;
  readonly method: 'GET' | 'POST';
  /** Every named input with its value (hidden ones included), before the configured fields. */
  readonly fields: Record<string, string>;
  /** The form's first named submit button (`<input type=submit>` or `<button>`), as a click on it would send it. */
  readonly submit?: { readonly name: string; readonly value: string };
  /** Whether the form has a password field (a login form, not a consent page). */
  readonly asksPassword: boolean;
  /** The name of every control of the form (inputs of any type, textareas, selects, buttons): the fields a login can fill. */
  readonly controls: readonly string[];
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

/** Character references in attribute values and text (`&amp;`, `&#x2F;`, `&quot;`). */
export function decodeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return entities[ref.toLowerCase()] ?? whole;
  });
}

/** The attributes of one start tag, names lower-case, values decoded. */
function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  const inner = tag.replace(/^<[a-z]+/i, '').replace(/\/?>$/, '');
  for (const m of inner.matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    const name = m[1]!.toLowerCase();
    if (!out.has(name)) out.set(name, decodeHtml(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return out;
}

/** The input values a submission sends: named inputs, checked boxes only, no buttons. */
function inputValues(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [tag] of body.matchAll(/<input\b[^<>]*>/gi)) {
    const a = attributes(tag);
    const name = a.get('name');
    const type = (a.get('type') ?? 'text').toLowerCase();
    if (name === undefined || name === '' || ['submit', 'button', 'image', 'reset', 'file'].includes(type)) continue;
    if ((type === 'checkbox' || type === 'radio') && !a.has('checked')) continue;
    fields[name] = a.get('value') ?? (type === 'checkbox' || type === 'radio' ? 'on' : '');
  }
  for (const { tag, inner } of elements(body, 'textarea')) {
    const name = attributes(tag).get('name');
    if (name) fields[name] = decodeHtml(inner);
  }
  return fields;
}

/**
 * Each `name` element's start tag and content, paired in one pass: a start tag inside an
 * open one is content (browsers nest neither forms nor textareas). A lazy `<form>…</form>`
 * pattern would rescan the page once per unclosed start tag, and a hostile page of them
 * would hold the run for minutes.
 */
function elements(html: string, name: string): { tag: string; inner: string }[] {
  const out: { tag: string; inner: string }[] = [];
  let open: { tag: string; end: number } | undefined;
  for (const m of html.matchAll(new RegExp(`<${name}\\b[^<>]*>|</${name}\\s*>`, 'gi'))) {
    if (m[0][1] !== '/') open ??= { tag: m[0], end: m.index + m[0].length };
    else if (open !== undefined) {
      out.push({ tag: open.tag, inner: html.slice(open.end, m.index) });
      open = undefined;
    }
  }
  return out;
}

/**
 * The login form of `html` (the one with a password field when there are several), or a
 * sentence saying why there is none.
 */
export function parseLoginForm(html: string, pageUrl: string): LoginForm | string {
  const forms = elements(html, 'form');
  if (forms.length === 0) return 'the page holds no <form>';
  const withPassword = forms.filter((f) => hasPassword(f.inner));
  const chosen = withPassword.length === 1 ? withPassword[0]! : forms.length === 1 ? forms[0]! : undefined;
  if (chosen === undefined) return `the page holds ${forms.length} forms and ${withPassword.length === 0 ? 'none' : 'more than one'} with a password field: restprobe cannot tell which one logs in`;
  const a = attributes(chosen.tag);
  let action: string;
  try {
    action = new URL(a.get('action') || pageUrl, pageUrl).href;
  } catch {
    return `the form's action ${JSON.stringify(a.get('action'))} is not a URL`;
  }
  const submit = firstSubmit(chosen.inner);
  return { action, method: (a.get('method') ?? 'get').toLowerCase() === 'post' ? 'POST' : 'GET', fields: inputValues(chosen.inner), ...(submit && { submit }), asksPassword: hasPassword(chosen.inner), controls: controlNames(chosen.inner) };
}

/** The names of a form body's controls, once each, in order: only the name attribute is read, so a page of many tags costs one pass. */
function controlNames(formBody: string): string[] {
  const names = new Set<string>();
  for (const [tag] of formBody.matchAll(/<(?:input|textarea|select|button)\b[^<>]*>/gi)) {
    const m = /\sname\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i.exec(tag);
    const name = m === null ? '' : decodeHtml(m[1] ?? m[2] ?? m[3] ?? '');
    if (name !== '') names.add(name);
  }
  return [...names];
}

const hasPassword = (formBody: string): boolean => /<input\b[^<>]*type\s*=\s*["']?password/i.test(formBody);

/** The first submit control of a form body that has a name: what clicking it adds to the submission. */
function firstSubmit(formBody: string): { name: string; value: string } | undefined {
  for (const [tag] of formBody.matchAll(/<input\b[^<>]*>|<button\b[^<>]*>/gi)) {
    const a = attributes(tag);
    const type = (a.get('type') ?? (tag.toLowerCase().startsWith('<button') ? 'submit' : 'text')).toLowerCase();
    if (type !== 'submit' && type !== 'image') continue;
    // The first submit control is the one a user's Enter key would press; unnamed, it adds nothing.
    const name = a.get('name');
    return name ? { name, value: a.get('value') ?? '' } : undefined;
  }
  return undefined;
}
