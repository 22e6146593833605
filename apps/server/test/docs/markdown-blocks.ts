// Reading a doc's fenced code blocks, so a test runs what the doc shows (and nothing else).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The bodies of the blocks fenced with three backticks and `language`, in order. */
export function fencedBlocks(markdown: string, language: string): string[] {
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  return [...markdown.matchAll(fence)].map((match) => match[1]!);
}

/** The text under `## heading`, up to the next `## `; undefined when there is no such heading. */
export function sectionOf(markdown: string, heading: string): string | undefined {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) return undefined;
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/**
 * The `export NAME=value` lines of a block that only names settings (`# …` comments allowed);
 * any other line is an error, so a command cannot hide in a block the test does not run.
 */
export function settingsOf(block: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of block.split('\n')) {
    if (!line.trim()) continue;
    const match = /^export ([A-Z_]+)=(\S+)\s*(?:#.*)?$/.exec(line);
    if (!match) throw new Error(`not a setting: ${line}`);
    settings[match[1]!] = match[2]!;
  }
  return settings;
}

/** Those of `commands` that are not on the PATH. */
export async function missingCommands(commands: string[]): Promise<string[]> {
  const found = await Promise.all(
    commands.map((name) =>
      promisify(execFile)('bash', ['-c', `command -v ${name}`]).then(
        () => true,
        () => false,
      ),
    ),
  );
  return commands.filter((_, i) => !found[i]);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as `-`. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The targets of the doc's relative links (`[text](path#anchor)`), as written. */
export function relativeLinks(markdown: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
  return links.filter((target) => !/^[a-z]+:/.test(target));
}
