export {
  schemaKinds,
  schemaUri,
  projectSchema,
  productionSchema,
  paletteSchema,
  copySchema,
  type SchemaKind,
} from './definitions.js';
export { listSchemas, getSchema, schemaByUri, type SchemaListing } from './registry.js';
export { validateJson, type JsonValidation, type JsonSchemaError } from './validate.js';
