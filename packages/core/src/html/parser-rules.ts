// htmlparser2 12's tree rules (src/Parser.ts), as data: the page scanner opens and closes
// elements exactly as htmlparser2's Parser does, whose DOM the editing outline numbers. Keep them
// in step with the htmlparser2 the core depends on; the scanner's tests compare the two readers.

const formTags = new Set([
  'input',
  'option',
  'optgroup',
  'select',
  'button',
  'datalist',
  'textarea',
]);
const pTag = new Set(['p']);
const headingTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const tableSectionTags = new Set(['thead', 'tbody']);
const ddtTags = new Set(['dd', 'dt']);
const rtpTags = new Set(['rt', 'rp']);

/** An element opened closes the open elements named here while one of them is innermost. */
export const openImpliesClose: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['a', new Set(['a'])],
  ['li', new Set(['li'])],
  ['p', pTag],
  ['h1', headingTags],
  ['h2', headingTags],
  ['h3', headingTags],
  ['h4', headingTags],
  ['h5', headingTags],
  ['h6', headingTags],
  ['select', formTags],
  ['input', formTags],
  ['output', formTags],
  ['button', formTags],
  ['datalist', formTags],
  ['textarea', formTags],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', ddtTags],
  ['dt', ddtTags],
  ['address', pTag],
  ['article', pTag],
  ['aside', pTag],
  ['blockquote', pTag],
  ['details', pTag],
  ['div', pTag],
  ['dl', pTag],
  ['fieldset', pTag],
  ['figcaption', pTag],
  ['figure', pTag],
  ['footer', pTag],
  ['form', pTag],
  ['header', pTag],
  ['hr', pTag],
  ['main', pTag],
  ['nav', pTag],
  ['ol', pTag],
  ['pre', pTag],
  ['section', pTag],
  ['table', pTag],
  ['ul', pTag],
  ['rt', rtpTags],
  ['rp', rtpTags],
  ['tbody', tableSectionTags],
  ['tfoot', tableSectionTags],
]);

/** Elements without content: closed as soon as they are opened; their end tags are ignored. */
export const voidElements: ReadonlySet<string> = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/**
 * Elements whose content is text up to their own end tag (raw text; RCDATA for `title` and
 * `textarea`, whose entities are decoded), as htmlparser2's Tokenizer recognises them.
 */
export const rawTextElements: ReadonlySet<string> = new Set([
  'iframe',
  'noembed',
  'noframes',
  'script',
  'style',
  'title',
  'textarea',
  'xmp',
]);
