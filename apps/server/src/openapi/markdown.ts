// Renders an OpenAPI document as a Markdown reference, so docs/ is generated from the very
// schemas that validate requests and cannot drift from the code.
import { schemaText } from './schema-text.js';

type Json = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function asObject(value: unknown): Json {
  return value && typeof value === 'object' ? (value as Json) : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** A type short enough for a table cell, or undefined when it needs a block of its own. */
function inlineType(schema: unknown): string | undefined {
  const type = schemaText(schema);
  return type.includes('\n') || type.length > 60 ? undefined : `\`${cell(type)}\``;
}

function typeBlock(schema: unknown): string[] {
  return ['```ts', schemaText(schema), '```', ''];
}

/** How callers prove who they are, from the document's security schemes. */
function credentialsText(document: Json): string[] {
  const schemes = asObject(asObject(document.components).securitySchemes);
  if (!Object.keys(schemes).length) return [];
  return [
    'Every operation needs credentials unless it says otherwise: an API token in the header ' +
      '`Authorization: Bearer glly_…` (issued on the screen or with `galley tokens issue`), or the ' +
      'screen’s session cookie (whose writes also carry its `X-CSRF-Token`).',
    '',
  ];
}

/** The parameters' table, with a column of meanings when some parameter has one. */
function parameterLines(params: Json[]): string[] {
  if (!params.length) return [];
  const meaning = params.some((p) => p.description) ? ' meaning |' : '';
  return [
    `| parameter | in | required | type |${meaning}`,
    `|---|---|---|---|${meaning && '---|'}`,
    ...params.map(
      (p) =>
        `| ${cell(String(p.name))} | ${String(p.in)} | ${p.required ? 'yes' : 'no'} | \`${cell(schemaText(p.schema))}\` |${meaning && ` ${cell(text(p.description))} |`}`,
    ),
    '',
  ];
}

/** The request body: each media type with its shape (a form as its fields), and its example. */
function requestBodyLines(requestBody: Json, shapes: Shapes): string[] {
  const content = Object.entries(asObject(requestBody.content));
  if (!content.length) return [];
  const about = text(requestBody.description);
  const optional = requestBody.required === false ? ' (may be left out)' : '';
  // One media type takes the description on its own line; several share it above them.
  const lines = content.length > 1 && about ? [`Request body: ${about}`, ''] : [];
  for (const [type, media] of content) {
    const schema = shapes.inline(asObject(media).schema);
    const intro = `Request body \`${type}\`${optional}`;
    const said = content.length === 1 && about ? `: ${about}` : '';
    if (!schema) {
      lines.push(`${intro}${said || '.'}`, '');
    } else if (type.startsWith('multipart/')) {
      lines.push(
        `${intro}${said}${said ? ' Fields:' : ', fields:'}`,
        '',
        ...formFields(asObject(schema)),
        '',
      );
    } else {
      lines.push(`${intro}${said}${said ? '' : ':'}`, '', ...typeBlock(schema));
    }
    lines.push(...exampleLines('Example:', asObject(media)));
  }
  return lines;
}

/** An example of a body, as JSON, when the document gives one. */
function exampleLines(title: string, media: Json): string[] {
  if (!('example' in media)) return [];
  return [title, '', '```json', JSON.stringify(media.example, null, 2), '```', ''];
}

function formFields(schema: Json): string[] {
  const properties = Object.entries(asObject(schema.properties));
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const about = (field: unknown) => cell(text(asObject(field).description));
  // A column of meanings only when some field has one.
  const meaning = properties.some(([, field]) => about(field)) ? ' meaning |' : '';
  return [
    `| field | required | type |${meaning}`,
    `|---|---|---|${meaning && '---|'}`,
    ...properties.map(
      ([name, field]) =>
        `| \`${name}\` | ${required.has(name) ? 'yes' : 'no'} | \`${cell(schemaText(field))}\` |${meaning && ` ${about(field)} |`}`,
    ),
  ];
}

/** The table of answers, then the shapes too long for it and the example of the answer. */
function responseLines(responses: Json, shapes: Shapes): string[] {
  const table = ['| status | meaning | headers | body |', '|---|---|---|---|'];
  const blocks: string[] = [];
  const examples: string[] = [];
  for (const [status, response] of Object.entries(responses)) {
    const r = asObject(response);
    const headers = Object.keys(asObject(r.headers))
      .map((name) => `\`${name}\``)
      .join(', ');
    const bodies = Object.entries(asObject(r.content)).map(([type, media]) => {
      const schema = shapes.inline(asObject(media).schema);
      examples.push(...exampleLines(`Example of the ${status} answer:`, asObject(media)));
      if (!schema) return `\`${type}\``;
      const inline = inlineType(schema);
      if (inline) return `\`${type}\`: ${inline}`;
      blocks.push(`${status} \`${type}\`:`, '', ...typeBlock(schema));
      return `\`${type}\`: below`;
    });
    table.push(`| ${status} | ${cell(text(r.description))} | ${headers} | ${bodies.join('; ')} |`);
  }
  return [...table, '', ...blocks, ...examples];
}

/** The Problem shape every refusal has, and each refusal's own, said once. */
function problemLines(shapes: Shapes): string[] {
  // Problem first, then the refusals that add to it.
  const problems = Object.keys(shapes.components)
    .filter(isProblem)
    .sort((a, b) => Number(b === 'Problem') - Number(a === 'Problem'));
  if (!problems.length) return [];
  const text = (name: string) => schemaText(shapes.inline(shapes.components[name]));
  return [
    'Every refusal is a `Problem`, whose `code` says which it is; a row names the ones its ' +
      'answer can be, and here is what each adds:',
    '',
    '```ts',
    ...problems.map((name) => `${name}: ${text(name)}`),
    '```',
    '',
  ];
}

/** The shapes of refusals, written once above the operations and by name in their rows. */
const isProblem = (name: string) => name.endsWith('Problem');

/** The document's named shapes: written out where they are used, except the refusals'. */
interface Shapes {
  components: Json;
  inline(schema: unknown): unknown;
}

function shapesOf(document: Json): Shapes {
  const components = asObject(asObject(document.components).schemas);
  const inline = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(inline);
    if (!schema || typeof schema !== 'object') return schema;
    const ref = (schema as Json).$ref;
    if (typeof ref === 'string') {
      const name = ref.split('/').pop()!;
      return isProblem(name) ? schema : inline(components[name]);
    }
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value)]));
  };
  return { components, inline };
}

export function openApiMarkdown(document: Json): string {
  const shapes = shapesOf(document);
  const info = asObject(document.info);
  const server = asObject((document.servers as unknown[] | undefined)?.[0]).url;
  const lines = [
    `# ${String(info.title)} (v${String(info.version)})`,
    '',
    'Generated from the OpenAPI document the server serves (`openapi.json`); do not edit by hand.',
    'Code generators take that document as it is: see [generated-clients.md](../generated-clients.md).',
    `Base URL in this rendering: \`${String(server)}\`.`,
    '',
    ...(info.description ? [text(info.description), ''] : []),
    ...credentialsText(document),
    ...problemLines(shapes),
  ];
  for (const [path, item] of Object.entries(asObject(document.paths))) {
    for (const method of METHODS) {
      const op = asObject(asObject(item)[method]);
      if (!op.summary) continue;
      lines.push(`## ${method.toUpperCase()} ${path}`, '', text(op.summary), '');
      if (op.description) lines.push(text(op.description), '');
      if (Array.isArray(op.security) && op.security.length === 0) {
        lines.push('No credentials needed.', '');
      }
      lines.push(...parameterLines((op.parameters as Json[] | undefined) ?? []));
      lines.push(...requestBodyLines(asObject(op.requestBody), shapes));
      lines.push(...responseLines(asObject(op.responses), shapes));
    }
  }
  while (lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}
