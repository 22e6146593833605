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

/** The request body: each media type with its shape (a form as its fields). */
function requestBodyLines(requestBody: Json): string[] {
  const content = Object.entries(asObject(requestBody.content));
  if (!content.length) return [];
  const about = text(requestBody.description);
  const optional = requestBody.required === false ? ' (may be left out)' : '';
  // One media type takes the description on its own line; several share it above them.
  const lines = content.length > 1 && about ? [`Request body: ${about}`, ''] : [];
  for (const [type, media] of content) {
    const schema = asObject(media).schema;
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
  }
  return lines;
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

/** The table of answers, then the shapes too long for it. */
function responseLines(responses: Json): string[] {
  const table = ['| status | meaning | headers | body |', '|---|---|---|---|'];
  const blocks: string[] = [];
  for (const [status, response] of Object.entries(responses)) {
    const r = asObject(response);
    const headers = Object.keys(asObject(r.headers))
      .map((name) => `\`${name}\``)
      .join(', ');
    const bodies = Object.entries(asObject(r.content)).map(([type, media]) => {
      const schema = asObject(media).schema;
      if (!schema) return `\`${type}\``;
      const inline = inlineType(schema);
      if (inline) return `\`${type}\`: ${inline}`;
      blocks.push(`${status} \`${type}\`:`, '', ...typeBlock(schema));
      return `\`${type}\`: below`;
    });
    table.push(`| ${status} | ${cell(text(r.description))} | ${headers} | ${bodies.join('; ')} |`);
  }
  return [...table, '', ...blocks];
}

/** The Problem shape every refusal has, said once. */
function problemLines(document: Json): string[] {
  const problem = asObject(asObject(asObject(document.components).schemas).Problem);
  if (!Object.keys(problem).length) return [];
  return [
    'Every refusal is a `Problem`, plus the members its row names:',
    '',
    ...typeBlock(problem),
  ];
}

export function openApiMarkdown(document: Json): string {
  const info = asObject(document.info);
  const server = asObject((document.servers as unknown[] | undefined)?.[0]).url;
  const lines = [
    `# ${String(info.title)} (v${String(info.version)})`,
    '',
    'Generated from the OpenAPI document the server serves (`openapi.json`); do not edit by hand.',
    `Base URL in this rendering: \`${String(server)}\`.`,
    '',
    ...(info.description ? [text(info.description), ''] : []),
    ...credentialsText(document),
    ...problemLines(document),
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
      lines.push(...requestBodyLines(asObject(op.requestBody)));
      lines.push(...responseLines(asObject(op.responses)));
    }
  }
  while (lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}
