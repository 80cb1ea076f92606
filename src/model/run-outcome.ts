/**
 * What a run produces besides its verdicts, as every report shows it: what it left behind,
 * damage it saw, and the checks it never started. The engine makes them; the report layer
 * reads them from here, not from the engine.
 */
import type { Section, Severity } from './section.js';

/** `certain`: an answer showed the item exists. `possible`: it may, and nothing has shown either way. */
export type Certainty = 'certain' | 'possible';

/** An item the run created and could not remove, for the reports. */
export interface Leftover {
  readonly url: string;
  readonly owner: string;
  readonly lastAnswer: string;
  /** `certain`: it exists; `possible`: it may (a create without an answer, a delete that could not be verified). Absent in reports before schema 4: certain. */
  readonly certainty?: Certainty;
}

/** What the target answered to the probe: one `GET path → status` per request. */
export type Health = readonly string[];

/** The run's finding when a check broke the target. */
export interface Damage {
  /** The check after which the target changed. */
  readonly after: string;
  readonly before: Health;
  readonly now: Health;
}

/** A selected check instance the run never started (it was interrupted first): what a report lists of it. */
export interface NotRun {
  readonly id: string;
  readonly section: Section;
  readonly title: string;
  readonly rule: string;
  readonly severity: Severity;
  /** The collection the instance is about, when it is about one. */
  readonly collection?: string;
}

/** What a run sent: every request (`total`), and those no check sent (`run`: the health phase and probes, cleanup of the run's own fixtures). */
export interface RequestCounts {
  readonly total: number;
  readonly run: number;
}
