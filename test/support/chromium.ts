/**
 * Test support: headless Chromium (Debian's `chromium` package) driven over the DevTools
 * protocol on a pipe (`--remote-debugging-pipe`: messages on fds 3 and 4, each ended by a
 * NUL), so a test can load a page, read its DOM, click, and take a screenshot, with no
 * port, no WebSocket and no npm dependency. One browser per test file; a page per load.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** Where Chromium is: $CHROMIUM_PATH, else the Debian package's binary; undefined when absent. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
}

interface Message {
  id?: number;
  method?: string;
  sessionId?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** A page: evaluate script in it, and screenshot it. */
export interface Page {
  /** The value of `expression` (awaited when it is a promise), as JSON. */
  evaluate<T>(expression: string): Promise<T>;
  /** A PNG of the whole page, `width` wide, at most `maxHeight` tall. */
  screenshot(path: string, width?: number, maxHeight?: number): Promise<void>;
  /** Console errors and uncaught exceptions (a CSP violation is one). */
  readonly errors: readonly string[];
}

export interface Browser {
  /** Opens `url` in a new tab and waits for its load event; `scripts: false` loads it with JavaScript off. */
  open(url: string, options?: { scripts?: boolean }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Starts headless Chromium.
 *
 * @example
 * ```ts
 * const browser = await launchChromium();
 * const page = await browser.open(pathToFileURL('report.html').href);
 * await page.evaluate<number>('document.querySelectorAll("details").length');
 * await browser.close();
 * ```
 */
export async function launchChromium(binary = chromiumPath()): Promise<Browser> {
  if (binary === undefined) throw new Error('chromium not found: apt-get install -y chromium (or set CHROMIUM_PATH)');
  const profile = await mkdtemp(join(tmpdir(), 'restprobe-chromium-'));
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check', '--hide-scrollbars', '--mute-audio', `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank'];
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  let nextId = 1;
  const pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(m: Message) => void>();
  let buffered = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\0'); end !== -1; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as Message;
      buffered = buffered.slice(end + 1);
      if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error.message));
        else waiter?.resolve(message);
      } else {
        for (const listen of listeners) listen(message);
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('chromium exited'));
  });

  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: (m) => resolve(m.result ?? {}), reject });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId !== undefined && { sessionId }) })}\0`);
    });
  const next = (sessionId: string, method: string): Promise<Message> =>
    new Promise((resolve) => {
      const listen = (m: Message): void => {
        if (m.sessionId !== sessionId || m.method !== method) return;
        listeners.delete(listen);
        resolve(m);
      };
      listeners.add(listen);
    });

  await send('Browser.getVersion');
  return {
    async open(url, options = {}) {
      const { targetId } = (await send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
      const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
      const errors: string[] = [];
      listeners.add((m) => {
        if (m.sessionId !== sessionId) return;
        if (m.method === 'Runtime.exceptionThrown') errors.push(JSON.stringify(m.params?.['exceptionDetails']));
        if (m.method === 'Log.entryAdded') {
          const entry = m.params?.['entry'] as { level: string; text: string };
          if (entry.level === 'error') errors.push(entry.text);
        }
      });
      await Promise.all([send('Page.enable', {}, sessionId), send('Runtime.enable', {}, sessionId), send('Log.enable', {}, sessionId)]);
      if (options.scripts === false) await send('Emulation.setScriptExecutionDisabled', { value: true }, sessionId);
      const loaded = next(sessionId, 'Page.loadEventFired');
      await send('Page.navigate', { url }, sessionId);
      await loaded;
      return {
        errors,
        async evaluate<T>(expression: string): Promise<T> {
          const reply = (await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true, userGesture: true }, sessionId)) as {
            result: { value?: T };
            exceptionDetails?: { text: string; exception?: { description?: string } };
          };
          if (reply.exceptionDetails) throw new Error(`in the page: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`);
          return reply.result.value as T;
        },
        async screenshot(path, width = 1280, maxHeight = 6000) {
          await send('Emulation.setDeviceMetricsOverride', { width, height: 900, deviceScaleFactor: 1, mobile: false }, sessionId);
          const metrics = (await send('Page.getLayoutMetrics', {}, sessionId)) as { cssContentSize: { height: number } };
          const height = Math.min(maxHeight, Math.ceil(metrics.cssContentSize.height));
          const shot = (await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: { x: 0, y: 0, width, height, scale: 1 } }, sessionId)) as { data: string };
          await writeFile(path, Buffer.from(shot.data, 'base64'));
        },
      };
    },
    async close() {
      await send('Browser.close').catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      await rm(profile, { recursive: true, force: true });
    },
  };
}
