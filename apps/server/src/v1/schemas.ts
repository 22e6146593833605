// Path parameters of the editing interface. A value that cannot be an id is a 404, like an id
// that names nothing (the ApiRouter answers 404 for invalid path parameters).
import { StoredNumber } from '@galley/core';
import { z } from 'zod';

const idOf = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{20}$`));

/** A number in the path (`1`, never `01`), no larger than the stores keep. */
const NumberParam = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/)
  .transform(Number)
  .pipe(StoredNumber);

export const ProjectId = idOf('prj');
export const PageId = idOf('pg');
export const ConfirmationId = idOf('cnf');

export const ProjectParams = z.object({ id: ProjectId });
export const PageParams = z.object({ page: PageId });
export const MemberParams = z.object({
  id: ProjectId,
  user: NumberParam,
});
export const VersionParams = z.object({
  id: ProjectId,
  version: NumberParam,
});
export const ConfirmationParams = z.object({ id: ProjectId, confirmation: ConfirmationId });
export const PageRevisionParams = z.object({ page: PageId, revision: NumberParam });
