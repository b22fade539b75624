import { NEW_EXAM_POLL_MS } from '@yyp/contracts';
import { isApiError } from '../../api/errors';

/** Spec 001 §4: polling for notifications stops when a call returns HTTP 401. */
export function pollInterval(error: unknown): number | false {
  return isApiError(error) && error.status === 401 ? false : NEW_EXAM_POLL_MS;
}
