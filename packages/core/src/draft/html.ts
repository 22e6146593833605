import render from 'dom-serializer';
import type { AnyNode, Element, ParentNode } from 'domhandler';
import { isTag } from 'domhandler';

/**
 * Raw mode: text and attribute values stay as written, entities included, so a round trip only
 * normalizes what lies inside tags (quoting, case, spacing) and a browser builds the same DOM from
 * the output. Decoding and re-encoding instead would turn `&#13;` into a bare CR (which a browser
 * reads as LF) and spell every non-ASCII character as a numeric reference.
 */
export const rawMode = { decodeEntities: false } as const;

export function serializeHtml(node: AnyNode | readonly AnyNode[]): string {
  return render(node, rawMode);
}

/** Elements without content or end tag (htmlparser2's list, which is also the serializer's). */
export const voidElements: ReadonlySet<string> = new Set(
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr'.split(
    ' ',
  ),
);

/** Elements whose content a browser reads as text, entities left undecoded. */
export const rawTextElements: ReadonlySet<string> = new Set(
  'script style xmp iframe noembed noframes'.split(' '),
);

/** Elements whose content a browser reads as text with entities decoded. */
export const escapableTextElements: ReadonlySet<string> = new Set(['textarea', 'title']);

/** Where SVG or MathML content hands back to HTML. */
const htmlIntegrationPoints: ReadonlySet<string> = new Set(
  'foreignObject desc title mi mo mn ms mtext annotation-xml'.split(' '),
);

/** How a fragment inserted into an element must be read. */
export type ContentModel =
  | { readonly kind: 'html' | 'svg' | 'math' }
  | { readonly kind: 'text'; readonly element: string }
  | { readonly kind: 'none' };

/** The content model of `parent`'s children, looking up no further than `root`. */
export function contentModel(parent: Element, root: ParentNode): ContentModel {
  const namespace = namespaceOf(parent, root);
  if (namespace !== 'html') {
    return htmlIntegrationPoints.has(parent.name) ? { kind: 'html' } : { kind: namespace };
  }
  const name = parent.name;
  if (rawTextElements.has(name) || escapableTextElements.has(name))
    return { kind: 'text', element: name };
  return voidElements.has(name) ? { kind: 'none' } : { kind: 'html' };
}

/** The namespace an element lives in: SVG and MathML reach down to their HTML integration points. */
function namespaceOf(element: Element, root: ParentNode): 'html' | 'svg' | 'math' {
  for (
    let node: ParentNode | null = element;
    node && node !== root && isTag(node);
    node = node.parent
  ) {
    if (node.name === 'svg' || node.name === 'math') return node.name;
    if (node !== element && htmlIntegrationPoints.has(node.name)) return 'html';
  }
  return 'html';
}
