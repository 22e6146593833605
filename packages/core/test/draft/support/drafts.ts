import type { ChangeResult, Draft, DraftError, OperationResult } from '@galley/core';
import { Draft as DraftClass } from '@galley/core';

/** A draft on a whole page. */
export function draftOfPage(html: string): Draft {
  const opened = DraftClass.open(html);
  if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
  return opened.draft;
}

/** A draft on a small page whose <body> holds `body`. */
export function draftOf(body: string): Draft {
  return draftOfPage(
    `<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`,
  );
}

/** The inner HTML of <body>. */
export function bodyOf(draft: Draft): string {
  const html = draft.html();
  return html.slice(html.indexOf('<body>') + 6, html.lastIndexOf('</body>'));
}

export function accepted(answer: ChangeResult): OperationResult {
  if (!answer.ok) throw new Error(`refused: ${JSON.stringify(answer.errors)}`);
  return answer.result;
}

export function refusedWith(answer: ChangeResult): Pick<DraftError, 'code' | 'field'>[] {
  if (answer.ok) throw new Error(`accepted: ${JSON.stringify(answer.result)}`);
  return answer.errors.map(({ code, field }) => ({ code, field }));
}
