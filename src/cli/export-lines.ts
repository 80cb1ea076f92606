/**
 * The `export NAME=value` lines `restprobe serve` prints, so a second shell can paste them,
 * and their reading back by the scripts that start a server (`npm start`, the bench).
 */

/** A value as a shell word: bare when it is plainly safe, else single-quoted (the JWK's JSON). */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** One line a POSIX shell can paste: `export NAME=value`. */
export function exportLine(name: string, value: string): string {
  return `export ${name}=${shellWord(value)}`;
}

/**
 * The variables of every `export NAME=value` line in `text`, values as the shell would
 * set them (single quotes, and `'\''` inside them, undone).
 *
 * @example
 * ```ts
 * readExportLines(`# comment\nexport KEY='{"a":"it'\\''s"}'`); // { KEY: '{"a":"it\'s"}' }
 * ```
 */
export function readExportLines(text: string): Record<string, string> {
  const unquote = (v: string): string => (/^'.*'$/.test(v) ? v.slice(1, -1).replaceAll(`'\\''`, `'`) : v);
  return Object.fromEntries([...text.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, unquote(m[2]!)]));
}
