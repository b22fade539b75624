import { bindingCalls, type MatchCandidate, type MatchResult } from '@yyp/contracts';
import { callApi } from './call';

/**
 * Image binding (spec 001 §7 "Exams" schedules and match; issue 22): the scheduled exams an
 * unscheduled exam's images can go to, matching (the desk) and binding (admins, confirmed by the
 * accession number typed).
 */

export function matchCandidates(examId: string, q: string, signal?: AbortSignal): Promise<MatchCandidate[]> {
  return callApi(bindingCalls.candidates, { params: { examId }, query: q ? { q } : {} }, { signal });
}

export function matchExam(examId: string, scheduledId: string): Promise<MatchResult> {
  return callApi(bindingCalls.match, { params: { examId, scheduledId } });
}

export function bindExam(examId: string, scheduledId: string, confirm: string): Promise<MatchResult> {
  return callApi(bindingCalls.bind, { params: { examId, scheduledId }, body: { confirm } });
}
