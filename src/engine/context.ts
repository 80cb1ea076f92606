/**
 * The CheckContext a check runs with: a recording session behind the run's guards,
 * fixtures that create the check's own resources, and cleanup of everything it created.
 */
import { CheckFailure } from '../model/check.js';
import type { PropertyEvidence } from '../model/result.js';
import type { CheckContext, CreatedResource } from '../model/context.js';
import type { CollectionProfile, TargetProfile } from '../model/profile.js';
import { clientForProfile, type HttpClient } from '../http/client.js';
import { abortOn, guard, refuseWhenClosed, refuseWrites, type Guard } from '../http/guards.js';
import { RecordingSession, credentialHeaders, type Transport } from '../http/session.js';
import { createdItemUrl, targetOrigins } from '../check-kit/created-url.js';
import { setupError } from '../check-kit/setup.js';

export class RunContext implements CheckContext {
  readonly http: RecordingSession;
  readonly notes: string[] = [];
  propertyEvidence: PropertyEvidence | undefined;
  private readonly created: string[] = [];
  private readonly dedicated: HttpClient[] = [];
  /** Closed once cleanup has run: the guards then refuse every request. */
  private readonly state = { closed: false };
  private readonly guards: readonly Guard[];

  constructor(
    readonly profile: TargetProfile,
    private readonly client: HttpClient,
    readonly seed: number,
    readonly signal: AbortSignal,
  ) {
    this.guards = [refuseWhenClosed(this.state), refuseWrites(profile.safety.readOnly), abortOn(signal)];
    this.http = new RecordingSession(this.guarded(client), profile);
  }

  async create(collection: CollectionProfile, overrides: Record<string, unknown> = {}): Promise<CreatedResource> {
    const res = await this.http.send({ method: 'POST', path: collection.path, json: { ...collection.createBody, ...overrides } });
    if (res.status < 200 || res.status > 299) {
      throw setupError(res, `creating a ${collection.name} item for this check failed: POST ${collection.path} answered ${res.status}`);
    }
    const body = isObject(res.json) ? res.json : {};
    const id = body[collection.idField];
    const { url, reason } = createdItemUrl(this.profile, res, collection);
    if (reason) this.note(`POST ${collection.path}: ${reason}${url ? `; using ${url}` : ''}`);
    if (url === undefined) {
      // The item exists but cannot be found: a finding about the create, not a setup problem.
      throw new CheckFailure(`POST ${collection.path} answered ${res.status} with neither a usable Location nor "${collection.idField}": the item cannot be found or cleaned up`, 'a Location header or an id field', reason ?? 'neither', res.exchangeIndex);
    }
    this.created.push(url);
    return { collection, id: id === undefined ? '' : String(id), url, body, response: res };
  }

  track(url: string): void {
    this.created.push(url);
  }

  dedicatedHttp(): RecordingSession {
    const client = clientForProfile(this.profile, { connections: 1 });
    this.dedicated.push(client);
    return new RecordingSession(this.guarded(client), this.profile, this.http.exchanges, this.http.secrets);
  }

  treatAsSecret(value: string, label = 'MINTED_SECRET'): void {
    if (value.length > 0 && !this.http.secrets.some((s) => s.value === value)) this.http.secrets.push({ envName: label, value });
  }

  note(line: string): void {
    this.notes.push(line);
  }

  property(data: PropertyEvidence): void {
    this.propertyEvidence = data;
  }

  /** Deletes what the check created so far, newest first; failures become notes, never verdicts. */
  async cleanup(): Promise<void> {
    const headers = { accept: 'application/json', ...credentialHeaders(this.profile) };
    const origins = targetOrigins(this.profile);
    // Cleanup is not the check's to cancel: it goes past the check's signal, never past a closed session.
    const send = guard((req) => this.client.send(req), [refuseWhenClosed(this.state)]);
    for (const url of [...new Set(this.created)].reverse()) {
      if (!origins.has(new URL(url).origin)) {
        this.notes.push(`cleanup: not deleting ${url}, which is not on the target's origins`);
        continue;
      }
      try {
        // Outside the request budget: a spent budget must not leave the target dirty.
        const res = await send({ method: 'DELETE', url, headers, outsideBudget: true });
        if (res.status >= 300 && res.status !== 404) this.notes.push(`cleanup: DELETE ${url} answered ${res.status}`);
      } catch (err) {
        this.notes.push(`cleanup: DELETE ${url} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.created.length = 0;
  }

  /** Ends the check: cleanup, then the session closes (nothing more is sent), then dedicated connections close. */
  async finish(): Promise<void> {
    await this.cleanup();
    this.state.closed = true;
    await Promise.all(this.dedicated.splice(0).map((c) => c.close()));
  }

  private guarded(client: HttpClient): Transport {
    return { send: guard((req) => client.send(req), this.guards), protocolErrors: client.protocolErrors };
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
