import { schemaDefinitions, type SchemaDefinition, type SchemaKind } from './definitions.js';

export interface SchemaListing {
  readonly kind: SchemaKind;
  readonly version: number;
  readonly uri: string;
  readonly title: string;
}

/** `GET /schemas`: every schema with its address. */
export function listSchemas(): SchemaListing[] {
  return schemaDefinitions.map(({ kind, version, uri, schema }) => ({
    kind,
    version,
    uri,
    title: schema.title,
  }));
}

function findDefinition(
  test: (definition: SchemaDefinition) => boolean,
): SchemaDefinition | undefined {
  return schemaDefinitions.find(test);
}

/** `GET /schemas/{kind}/{version}`: the JSON Schema, or undefined when there is none. */
export function getSchema(kind: string, version: number | string): object | undefined {
  return findDefinition((d) => d.kind === kind && String(d.version) === String(version))?.schema;
}

/** The JSON Schema addressed by `svc://schemas/<kind>/<version>`, or undefined. */
export function schemaByUri(uri: string): object | undefined {
  return findDefinition((d) => d.uri === uri)?.schema;
}

/** Internal: the definition behind a URI (validator name included). */
export function definitionByUri(uri: string): SchemaDefinition | undefined {
  return findDefinition((d) => d.uri === uri);
}
