import { z } from 'zod';

/**
 * A reference to an element of a draft: `#<id>` (the first element inside <body> with that id) or
 * `@<n>` (its number in the draft's outline; `@0` is <body>). An id holds no ASCII white space.
 */
export const ElementRef = z
  .string()
  .regex(/^(?:#[^\t\n\f\r ]+|@(?:0|[1-9][0-9]{0,14}))$/, 'a reference is #<id> or @<n>');
export type ElementRef = z.infer<typeof ElementRef>;

const Insert = z.strictObject({
  kind: z.literal('insert'),
  parent: ElementRef,
  html: z.string(),
  before: ElementRef.optional(),
});
const Move = z.strictObject({
  kind: z.literal('move'),
  target: ElementRef,
  parent: ElementRef,
  before: ElementRef.optional(),
});
const Remove = z.strictObject({ kind: z.literal('remove'), target: ElementRef });
const Duplicate = z.strictObject({ kind: z.literal('duplicate'), target: ElementRef });
const Replace = z.strictObject({
  kind: z.literal('replace'),
  target: ElementRef,
  html: z.string(),
});
const Swap = z.strictObject({ kind: z.literal('swap'), target: ElementRef, html: z.string() });

/** The body of one operation (decisions §3); unknown kinds and unknown fields are rejected. */
export const Operation = z.discriminatedUnion('kind', [
  Insert,
  Move,
  Remove,
  Duplicate,
  Replace,
  Swap,
]);
export type Operation = z.infer<typeof Operation>;
export type OperationKind = Operation['kind'];

/** POST /pages/{page}/operations. */
export const OperationRequest = z.strictObject({
  draft_token: z.string().min(1),
  operation: Operation,
  outline: z.boolean().optional(),
});
export type OperationRequest = z.infer<typeof OperationRequest>;

/** One element of the outline: pre-order inside <body>, numbered from 1 (decisions §8). */
export const OutlineEntry = z.strictObject({
  node: z.number().int().nonnegative(),
  tag: z.string(),
  id: z.string().nullable(),
  classes: z.array(z.string()),
  text: z.string().refine((text) => [...text].length <= 80, 'at most 80 characters'),
});
export type OutlineEntry = z.infer<typeof OutlineEntry>;

/** What an operation, an undo or a redo did: elements it created or moved, as `@n`, and their ids. */
export const OperationResult = z.strictObject({
  nodes: z.array(z.string().regex(/^@[0-9]+$/)),
  ids: z.array(z.string()),
});
export type OperationResult = z.infer<typeof OperationResult>;

/**
 * Everything a server must store, beside the base HTML, to rebuild a draft after a restart:
 * `operations` holds the applied operations (oldest first) followed by the undone ones (next
 * redo first); the first `applied` of them are in effect.
 */
export const DraftLog = z
  .strictObject({
    format: z.literal(1),
    operations: z.array(Operation),
    applied: z.number().int().nonnegative(),
    sequence: z.number().int().nonnegative(),
  })
  .refine((log) => log.applied <= log.operations.length, {
    message: '`applied` cannot exceed the number of operations',
    path: ['applied'],
  });
export type DraftLog = z.infer<typeof DraftLog>;
