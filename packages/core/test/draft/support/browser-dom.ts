// The oracle for fidelity: parse5 implements the HTML standard's tree construction, so the DOM it
// builds is the DOM a browser builds. A DOM is reduced to one line per node for comparison.
import { defaultTreeAdapter, parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];

/** The DOM a browser builds from `html`, one line per node, indented by depth. */
export function browserDom(html: string): string {
  const lines: string[] = [];
  describe(parse(html), 0, lines);
  return lines.join('\n');
}

function describe(node: Node, depth: number, lines: string[]): void {
  const pad = ' '.repeat(depth);
  const tree = defaultTreeAdapter;
  if (tree.isTextNode(node)) lines.push(`${pad}${JSON.stringify(node.value)}`);
  else if (tree.isCommentNode(node)) lines.push(`${pad}<!--${JSON.stringify(node.data)}-->`);
  else if (tree.isDocumentTypeNode(node)) {
    lines.push(`${pad}<!DOCTYPE ${JSON.stringify([node.name, node.publicId, node.systemId])}>`);
  } else if (tree.isElementNode(node)) {
    const attrs = node.attrs.map((a) => [a.namespace ?? '', a.name, a.value]);
    lines.push(`${pad}<${node.namespaceURI} ${node.tagName} ${JSON.stringify(attrs)}>`);
  } else if (node.nodeName === '#document')
    lines.push(`${pad}#document ${tree.getDocumentMode(node)}`);
  else lines.push(`${pad}#content`);
  if ('childNodes' in node) for (const child of node.childNodes) describe(child, depth + 1, lines);
  if ('content' in node) describe(node.content, depth + 1, lines);
}

/** The first line where two DOM descriptions differ, for a readable failure. */
export function firstDifference(a: string, b: string): string | null {
  const left = a.split('\n');
  const right = b.split('\n');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] !== right[i]) return `line ${i}: ${left[i] ?? '(none)'} ≠ ${right[i] ?? '(none)'}`;
  }
  return null;
}
