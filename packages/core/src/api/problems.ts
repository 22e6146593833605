// The shape of each refusal: Problem's members plus those its code adds (`lock` on `lock_held`,
// `current_revision` on `revision_conflict`, …), so the documents can give every error answer
// its members and clients can tell the refusals of one status apart by `code`.
import { z } from 'zod';
import { draftErrorCodes } from '../draft/errors.js';
import { CheckReport } from '../report/violation.js';
import { FieldErrors, Problem } from './common.js';
import { HeldLock } from './v1.js';
import { AssetState, InspectionViolation } from './v2.js';

const withErrors = { errors: FieldErrors };

/**
 * The draft engine's refusals of an operation: one shape, whatever the code. Undo and redo of a
 * whole draft answer `nothing_to_undo`/`nothing_to_redo` as conflicts (409) of their own.
 */
export const OPERATION_REFUSALS = Object.keys(draftErrorCodes).filter(
  (code) => !code.startsWith('nothing_to_'),
);

interface Shape {
  name: string;
  codes: readonly string[];
  members: z.ZodRawShape;
}

/** The refusals that say more than Problem does; every other code is a Problem with it. */
const SHAPES: readonly Shape[] = [
  { name: 'OperationRefusedProblem', codes: OPERATION_REFUSALS, members: withErrors },
  ...['validation_failed', 'unknown_account', 'last_owner', 'webhook_url_refused'].map((code) =>
    shape(code, withErrors),
  ),
  shape('lock_held', { lock: HeldLock }),
  shape('revision_conflict', { current_revision: z.number().int() }),
  shape('folder_check_failed', CheckReport.shape),
  shape('invalid_files', { errors: FieldErrors, violations: z.array(InspectionViolation) }),
  shape('state_conflict', { state: AssetState, allowed_from: z.array(AssetState) }),
  shape('not_in_trash', { state: AssetState }),
];

function shape(code: string, members: z.ZodRawShape = {}): Shape {
  const name = `${code.replace(/(?:^|_)([a-z])/g, (_, c: string) => c.toUpperCase())}Problem`;
  return { name, codes: [code], members };
}

export interface ProblemShape {
  /** Its name among the documents' schemas: `LockHeldProblem`. */
  name: string;
  schema: z.ZodType;
}

const shapesByCode = new Map<string, ProblemShape>();

/** The shape of the problem answered with `code`: the same object for every code it covers. */
export function problemShape(code: string): ProblemShape {
  const found = shapesByCode.get(code);
  if (found) return found;
  const { name, codes, members } = SHAPES.find((s) => s.codes.includes(code)) ?? shape(code);
  const [first, ...rest] = codes as [string, ...string[]];
  const problem: ProblemShape = {
    name,
    schema: z.intersection(
      Problem,
      z.looseObject({
        code: rest.length ? z.enum([first, ...rest]) : z.literal(first),
        ...members,
      }),
    ),
  };
  for (const each of codes) shapesByCode.set(each, problem);
  return problem;
}
