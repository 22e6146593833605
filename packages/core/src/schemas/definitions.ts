/**
 * The service's JSON Schemas (draft 2020-12), addressed as `svc://schemas/<kind>/<version>`.
 * Validation does not compile these at run time: scripts/generate-validators.mjs turns them into
 * generated/validators.ts (ajv standalone), so the browser build needs no `eval`.
 */
const draft = 'https://json-schema.org/draft/2020-12/schema';

export const schemaKinds = ['project', 'production', 'palette', 'copy'] as const;
export type SchemaKind = (typeof schemaKinds)[number];

export function schemaUri(kind: SchemaKind, version: number): string {
  return `svc://schemas/${kind}/${version}`;
}

/**
 * The schema of a kind's data file (version 1): a JSON object with only the members named in
 * `properties`, besides a top-level `$schema` by which the file may name this schema.
 */
function dataFileSchema<const Properties extends object>(
  kind: SchemaKind,
  about: { title: string; description: string; required: readonly string[] },
  properties: Properties,
) {
  return {
    $schema: draft,
    $id: schemaUri(kind, 1),
    title: about.title,
    description: about.description,
    type: 'object',
    required: about.required,
    additionalProperties: false,
    properties: { $schema: { const: schemaUri(kind, 1) }, ...properties },
  } as const;
}

const mediumRef = {
  type: 'object',
  required: ['id', 'version'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
    version: { type: 'integer', minimum: 1 },
  },
} as const;

const title = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const projectSchema = dataFileSchema(
  'project',
  {
    title: 'Project folder (project.json)',
    description: 'The root file of a project folder: its title, medium and pages.',
    required: ['format', 'title', 'media', 'pages'],
  },
  {
    format: { const: 1 },
    title,
    media: mediumRef,
    pages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['file', 'title', 'public_url'],
        additionalProperties: false,
        properties: {
          file: { type: 'string', pattern: '\\.html$' },
          title: { type: 'string', maxLength: 200 },
          public_url: { type: 'string', pattern: '^/' },
        },
      },
    },
  },
);

export const productionSchema = dataFileSchema(
  'production',
  {
    title: 'Production (production.json)',
    description: 'The root file of a production asset: its title, declared medium and contract.',
    required: ['format', 'title', 'medium', 'media_contract'],
  },
  {
    format: { const: 1 },
    title,
    medium: mediumRef,
    media_contract: {
      type: 'object',
      required: ['version'],
      additionalProperties: false,
      properties: { version: { const: '1.0' } },
    },
  },
);

export const paletteSchema = dataFileSchema(
  'palette',
  {
    title: 'Palette',
    description: 'Named colours, as sRGB hex values (#rrggbb or #rrggbbaa).',
    required: ['colors'],
  },
  {
    title,
    colors: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['name', 'value'],
        additionalProperties: false,
        properties: {
          name: title,
          value: { type: 'string', pattern: '^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$' },
        },
      },
    },
  },
);

export const copySchema = dataFileSchema(
  'copy',
  {
    title: 'Copy',
    description: 'Text blocks (headline, body, call to action…) for use in productions.',
    required: ['blocks'],
  },
  {
    title,
    language: { type: 'string', pattern: '^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$' },
    blocks: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['id', 'text'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$', maxLength: 64 },
          role: {
            enum: ['headline', 'subheadline', 'body', 'caption', 'call_to_action', 'legal'],
          },
          text: { type: 'string', maxLength: 100000 },
        },
      },
    },
  },
);

export interface SchemaDefinition {
  readonly kind: SchemaKind;
  readonly version: number;
  readonly uri: string;
  /** Export name of the compiled validator in generated/validators.ts. */
  readonly validatorName: string;
  readonly schema: { readonly $id: string; readonly title: string };
}

const define = (kind: SchemaKind, schema: SchemaDefinition['schema']): SchemaDefinition => ({
  kind,
  version: 1,
  uri: schema.$id,
  validatorName: `${kind}_1`,
  schema,
});

/** Every schema the service knows, in listing order. */
export const schemaDefinitions: readonly SchemaDefinition[] = [
  define('project', projectSchema),
  define('production', productionSchema),
  define('palette', paletteSchema),
  define('copy', copySchema),
];
