import { GalleyApiError } from '@galley/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ZodError } from 'zod';
import { ToolRefusal } from './session.js';

/** A tool's answer: JSON text (agents read it as is). */
export function answer(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

/**
 * A refusal as a tool error an agent can act on: the problem's `detail`, its code and status,
 * and its `errors` (or `violations`) as the service gave them.
 */
export function refusal(error: unknown, before = ''): CallToolResult {
  let text: string;
  if (error instanceof GalleyApiError) {
    const { problem } = error;
    const extra = Object.fromEntries(
      Object.entries(problem).filter(
        ([key]) => !['type', 'title', 'status', 'detail'].includes(key),
      ),
    );
    text = `${before}Refused (${error.status} ${problem.code ?? problem.title}): ${problem.detail ?? problem.title}\n${JSON.stringify(extra, null, 2)}`;
  } else if (error instanceof ZodError) {
    const errors: Record<string, string[]> = {};
    for (const issue of error.issues)
      (errors[issue.path.join('.') || '(body)'] ??= []).push(issue.message);
    text = `${before}Refused (invalid arguments): ${JSON.stringify({ errors }, null, 2)}`;
  } else if (error instanceof ToolRefusal) {
    text = `${before}${error.message}`;
  } else {
    throw error;
  }
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Runs a tool's work, answering refusals as tool errors. */
export async function attempt(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return refusal(error);
  }
}
