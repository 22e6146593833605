// A JSON Schema written as a TypeScript-like type, whole: every member and every member of a
// union, on one line when it fits and indented when it does not, so a reader sees each shape.

type Json = Record<string, unknown>;

/** Lines longer than this (indentation included) are broken. */
const WIDTH = 96;

function asObject(value: unknown): Json {
  return value && typeof value === 'object' ? (value as Json) : {};
}

/** The members of a union (`anyOf`/`oneOf`), or undefined. */
function unionOf(schema: Json): unknown[] | undefined {
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return schema[key] as unknown[];
  }
  return undefined;
}

/** `schema` as one line, however long. */
function flat(schema: unknown): string {
  return write(schema, '', true);
}

/** `schema` as a type: on one line when it fits after `indent`, else over several. */
export function schemaText(schema: unknown, indent = ''): string {
  // A union broken over lines starts on a line of its own, except at the top.
  return write(schema, indent, false).replace(/^\n/, '');
}

function write(schema: unknown, indent: string, oneLine: boolean): string {
  const s = asObject(schema);
  if (typeof s.$ref === 'string') return s.$ref.split('/').pop() ?? 'object';
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.map((part) => write(part, indent, oneLine));
    return parts.map((part) => (part.startsWith('\n') ? `(${part}\n${indent})` : part)).join(' & ');
  }
  const union = unionOf(s);
  if (union) return unionText(union, indent, oneLine);
  if (Array.isArray(s.enum)) return s.enum.map((value) => JSON.stringify(value)).join(' | ');
  if ('const' in s) return JSON.stringify(s.const);
  // Bytes (a file part, an upload) have no JSON type: OpenAPI 3.1 names their media type.
  if (s.format === 'binary' || s.contentMediaType) return 'file';
  const type = s.type;
  if (Array.isArray(type)) {
    return (type as unknown[]).map((t) => write({ ...s, type: t }, indent, oneLine)).join(' | ');
  }
  if (type === 'array') return arrayText(s.items, indent, oneLine);
  if (type === 'object' || s.properties) return objectText(s, indent, oneLine);
  return typeof type === 'string' ? type : 'any';
}

function unionText(members: unknown[], indent: string, oneLine: boolean): string {
  const line = members.map(flat).join(' | ');
  if (oneLine || indent.length + line.length <= WIDTH) return line;
  const inner = `${indent}  `;
  return members.map((member) => `\n${inner}| ${write(member, `${inner}  `, false)}`).join('');
}

function arrayText(items: unknown, indent: string, oneLine: boolean): string {
  const item = write(items, indent, oneLine);
  if (item.startsWith('\n')) return `Array<${item}\n${indent}>`;
  return unionOf(asObject(items)) || Array.isArray(asObject(items).enum)
    ? `(${item})[]`
    : `${item}[]`;
}

function objectText(s: Json, indent: string, oneLine: boolean): string {
  const properties = asObject(s.properties);
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const names = Object.keys(properties);
  const extra = asObject(s.additionalProperties);
  if (names.length === 0) {
    return Object.keys(extra).length
      ? `{[name: string]: ${write(extra, indent, oneLine)}}`
      : 'object';
  }
  const member = (name: string) =>
    `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}${required.has(name) ? '' : '?'}:`;
  const line = `{${names.map((name) => `${member(name)} ${flat(properties[name])}`).join(', ')}}`;
  if (oneLine || indent.length + line.length <= WIDTH) return line;
  const inner = `${indent}  `;
  const lines = names.map((name) => {
    const text = write(properties[name], inner, false);
    const about = asObject(properties[name]).description;
    const note = typeof about === 'string' && !text.includes('\n') ? ` // ${about}` : '';
    return `${inner}${member(name)}${text.startsWith('\n') ? '' : ' '}${text},${note}`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}
