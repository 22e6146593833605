import type { ChildNode, ParentNode } from 'domhandler';
import { isComment, isDirective, isTag, isText, Text } from 'domhandler';
import { DraftElement } from './element.js';

/** What may stand before the body in a page written without <head> and <body> tags. */
const headContent: ReadonlySet<string> = new Set([
  'head',
  'title',
  'meta',
  'link',
  'style',
  'script',
  'base',
  'noscript',
  'template',
]);

export interface ImpliedBody {
  body: DraftElement;
  /** <body> and every element inside it, in pre-order. */
  bodyOrder: DraftElement[];
  /** Ids of the elements outside <body>, as written. */
  outsideIds: string[];
}

/**
 * A page written without a <body> tag still has a body in a browser: it starts at the first node
 * that cannot stand in the head (text, or an element other than head content). This makes that
 * body an element, so the page can be edited; serializing then writes the <body> tags, which
 * changes nothing a browser builds. A frameset document has no body: null.
 */
export function implyBody(root: ParentNode): ImpliedBody | null {
  const html = root.children.find((node) => isTag(node) && node.name === 'html');
  const container: ParentNode = html && isTag(html) ? html : root;
  const children = container.children;
  if (children.some((node) => isTag(node) && node.name === 'frameset')) return null;
  let start = children.findIndex((node) => !beforeBody(node));
  if (start < 0) start = children.length;
  splitLeadingSpace(children, start);
  if (start < children.length && isText(children[start]!) && beforeBody(children[start]!)) start++;

  const body = new DraftElement('body', {});
  const moved = children.splice(start);
  body.children = moved;
  for (const node of moved) node.parent = body;
  if (moved[0]) moved[0].prev = null;
  const last = children[children.length - 1] ?? null;
  body.prev = last;
  if (last) last.next = body;
  body.next = null;
  body.parent = container;
  children.push(body);

  const bodyOrder: DraftElement[] = [];
  const outsideIds: string[] = [];
  const walk = (nodes: readonly ChildNode[], inBody: boolean) => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      const inside = inBody || node === body;
      if (inside) bodyOrder.push(node as DraftElement);
      else if (node.attribs['id']) outsideIds.push(node.attribs['id']);
      walk(node.children, inside);
    }
  };
  walk(root.children, false);
  return { body, bodyOrder, outsideIds };
}

function beforeBody(node: ChildNode): boolean {
  if (isText(node)) return /^[\t\n\f\r ]*$/.test(node.data);
  if (isComment(node) || isDirective(node)) return true;
  return isTag(node) && headContent.has(node.name);
}

/**
 * The white space that opens the text starting the body stays in the head, as in a browser:
 * `\nHello` becomes `\n` before <body> and `Hello` inside it.
 */
function splitLeadingSpace(children: ChildNode[], index: number): void {
  const node = children[index];
  if (!node || !isText(node)) return;
  const space = /^[\t\n\f\r ]*/.exec(node.data)![0];
  if (space === '' || space === node.data) return;
  const head = new Text(space);
  node.data = node.data.slice(space.length);
  head.parent = node.parent;
  head.prev = node.prev;
  if (node.prev) node.prev.next = head;
  head.next = node;
  node.prev = head;
  children.splice(index, 0, head);
}
