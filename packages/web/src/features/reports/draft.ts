import type { ReportContent } from '@yyp/contracts';

/**
 * The editor's text against the server's (spec 000 §4, DESIGN.md "version-checked"): `base` is the
 * content the server holds at `baseVersion` as far as this editor knows, `draft` what is on screen.
 * Saves carry `baseVersion`; a save that lost a race comes back 409 and nothing typed is dropped.
 */
export interface DraftState {
  base: ReportContent;
  baseVersion: number;
  draft: ReportContent;
}

export function sameContent(a: ReportContent, b: ReportContent): boolean {
  return (
    a.findings === b.findings &&
    a.conclusion === b.conclusion &&
    a.positive === b.positive &&
    a.note === b.note &&
    a.bodyPartCount === b.bodyPartCount &&
    a.advice === b.advice &&
    sameValues(a.extensions, b.extensions)
  );
}

function sameValues(a: ReportContent['extensions'], b: ReportContent['extensions']): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

export function isDirty(state: DraftState): boolean {
  return !sameContent(state.draft, state.base);
}

export function initialDraft(content: ReportContent, version: number): DraftState {
  return { base: content, baseVersion: version, draft: content };
}

/**
 * A report came from the server (opened, locked, refreshed). Older than the base: ignored. Same
 * text as the base: only the version moves. Nothing typed yet: the screen takes the server's text.
 * Typed text over a text that changed on the server: kept, on its old version, so the next save
 * meets the conflict dialog.
 */
export function receiveServer(state: DraftState, content: ReportContent, version: number): DraftState {
  // An answer that left the server before our last save landed says nothing new.
  if (version < state.baseVersion) {
    return state;
  }
  if (sameContent(content, state.base)) {
    return { ...state, baseVersion: Math.max(version, state.baseVersion) };
  }
  if (!isDirty(state)) {
    return initialDraft(content, version);
  }
  return state;
}

/** A save (or another content action) of `sent` was stored as `version`; typing since then stays dirty. */
export function savedAs(state: DraftState, sent: ReportContent, version: number): DraftState {
  return { ...state, base: sent, baseVersion: version };
}

export function edit(state: DraftState, change: Partial<ReportContent>): DraftState {
  return { ...state, draft: { ...state.draft, ...change } };
}

/** Conflict resolved by taking the server's text. */
export function takeTheirs(current: ReportContent, currentVersion: number): DraftState {
  return initialDraft(current, currentVersion);
}

/** Conflict resolved by keeping the screen's text on top of the server's newest version (saved next). */
export function keepMine(state: DraftState, current: ReportContent, currentVersion: number): DraftState {
  return { base: current, baseVersion: currentVersion, draft: state.draft };
}
