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

/** Data files may name their own schema in a top-level `$schema` member. */
const selfReference = (kind: SchemaKind) => ({ const: schemaUri(kind, 1) });

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

export const projectSchema = {
  $schema: draft,
  $id: schemaUri('project', 1),
  title: 'Project folder (project.json)',
  description: 'The root file of a project folder: its title, medium and pages.',
  type: 'object',
  required: ['format', 'title', 'media', 'pages'],
  additionalProperties: false,
  properties: {
    $schema: selfReference('project'),
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
} as const;

export const productionSchema = {
  $schema: draft,
  $id: schemaUri('production', 1),
  title: 'Production (production.json)',
  description: 'The root file of a production asset: its title, declared medium and contract.',
  type: 'object',
  required: ['format', 'title', 'medium', 'media_contract'],
  additionalProperties: false,
  properties: {
    $schema: selfReference('production'),
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
} as const;

export const paletteSchema = {
  $schema: draft,
  $id: schemaUri('palette', 1),
  title: 'Palette',
  description: 'Named colours, as sRGB hex values (#rrggbb or #rrggbbaa).',
  type: 'object',
  required: ['colors'],
  additionalProperties: false,
  properties: {
    $schema: selfReference('palette'),
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
} as const;

export const copySchema = {
  $schema: draft,
  $id: schemaUri('copy', 1),
  title: 'Copy',
  description: 'Text blocks (headline, body, call to action…) for use in productions.',
  type: 'object',
  required: ['blocks'],
  additionalProperties: false,
  properties: {
    $schema: selfReference('copy'),
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
} as const;

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
