import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';

/** Procedure management (the organization tab): device groups, devices, procedures, the modality dictionary. */
export class ProceduresService {
  constructor(
    readonly db: Db,
    readonly clock: Clock,
  ) {}
}
