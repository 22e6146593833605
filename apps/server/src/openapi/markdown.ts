// Renders an OpenAPI document as a Markdown reference, so docs/ is generated from the very
// schemas that validate requests and cannot drift from the code.

type Json = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function asObject(value: unknown): Json {
  return value && typeof value === 'object' ? (value as Json) : {};
}

/** A one-line type summary of a JSON Schema: `{id: string, tags: string[]}`. */
export function schemaSummary(schema: unknown, depth = 0): string {
  const s = asObject(schema);
  if (typeof s.$ref === 'string') return s.$ref.split('/').pop() ?? 'object';
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key]))
      return (s[key] as unknown[]).map((x) => schemaSummary(x, depth)).join(' | ');
  }
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in s) return JSON.stringify(s.const);
  const type = Array.isArray(s.type) ? s.type.join(' | ') : s.type;
  if (type === 'array') return `${schemaSummary(s.items, depth)}[]`;
  if (type === 'object' || s.properties) {
    const properties = asObject(s.properties);
    const keys = Object.keys(properties);
    if (keys.length === 0) return 'object';
    if (depth >= 1) return '{…}';
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const fields = keys.map(
      (k) => `${k}${required.has(k) ? '' : '?'}: ${schemaSummary(properties[k], depth + 1)}`,
    );
    return `{${fields.join(', ')}}`;
  }
  return typeof type === 'string' ? type : 'any';
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function bodySummary(content: unknown): string {
  const entries = Object.entries(asObject(content));
  return entries
    .map(
      ([type, media]) =>
        `${type}${asObject(media).schema ? `: \`${cell(schemaSummary(asObject(media).schema))}\`` : ''}`,
    )
    .join('; ');
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
  ];
  for (const [path, item] of Object.entries(asObject(document.paths))) {
    for (const method of METHODS) {
      const op = asObject(asObject(item)[method]);
      if (!op.summary) continue;
      lines.push(`## ${method.toUpperCase()} ${path}`, '', text(op.summary), '');
      if (op.description) lines.push(text(op.description), '');
      const params = (op.parameters as Json[] | undefined) ?? [];
      if (params.length) {
        lines.push('| parameter | in | required | type |', '|---|---|---|---|');
        for (const p of params) {
          lines.push(
            `| ${cell(String(p.name))} | ${String(p.in)} | ${p.required ? 'yes' : 'no'} | \`${cell(schemaSummary(p.schema))}\` |`,
          );
        }
        lines.push('');
      }
      const body = asObject(op.requestBody);
      if (body.content) lines.push(`Request body: ${bodySummary(body.content)}`, '');
      lines.push('| status | meaning | headers | body |', '|---|---|---|---|');
      for (const [status, response] of Object.entries(asObject(op.responses))) {
        const r = asObject(response);
        const headers = Object.keys(asObject(r.headers))
          .map((name) => `\`${name}\``)
          .join(', ');
        lines.push(
          `| ${status} | ${cell(text(r.description))} | ${headers} | ${bodySummary(r.content)} |`,
        );
      }
      lines.push('');
    }
  }
  return lines.join('\n');
}
