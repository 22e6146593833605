// The JSON Schemas of one OpenAPI document, made from the route table's zod schemas: the shapes
// the core names (`namedSchemas`, the problem shapes) become `components.schemas` that others
// refer to by `$ref`, so generated clients name them; any other schema is written where it is
// used, as before.
import { documentedAs, namedSchemas } from '@galley/core';
import { z } from 'zod';

type Json = Record<string, unknown>;
export type Io = 'input' | 'output';

const COMPONENTS = '#/components/schemas/';
/** The ids of schemas written in place: registered only to be converted with the others. */
const IN_PLACE = '~';

const coreNames = new Map<z.ZodType, string>(
  Object.entries(namedSchemas).map(([name, schema]) => [schema, name]),
);

/** JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) of a zod schema, whole and in place. */
export function schemaOf(schema: z.ZodType, io: Io): Json {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json;
  delete json.$schema;
  return json;
}

/**
 * Collects the schemas a document uses (`use` answers an object filled in later), then converts
 * them all at once (`components`), so one named shape is written once and referred to.
 */
export class DocumentSchemas {
  readonly #used: Record<Io, Map<z.ZodType, Json[]>> = { input: new Map(), output: new Map() };
  readonly #names = new Map(coreNames);

  /** Where `schema` goes in the document: an object that `components()` fills. */
  use(schema: z.ZodType, io: Io): Json {
    const slot: Json = {};
    const slots = this.#used[io].get(schema) ?? [];
    this.#used[io].set(schema, [...slots, slot]);
    return slot;
  }

  /** Names `schema` among the components (a problem shape), and says where it goes. */
  useNamed(schema: z.ZodType, name: string, io: Io): Json {
    const known = this.#names.get(schema);
    if (known !== undefined && known !== name) throw new Error(`${name} is already ${known}`);
    this.#names.set(schema, name);
    return this.use(schema, io);
  }

  /** Fills every slot `use` gave, and answers the components they refer to, by name. */
  components(): Record<string, Json> {
    const components: Record<string, Json> = {};
    for (const io of ['output', 'input'] as const) {
      for (const [name, body] of Object.entries(this.#convert(io))) {
        const known = components[name];
        if (known && JSON.stringify(known) !== JSON.stringify(body)) {
          throw new Error(`the schema ${name} reads other than it answers: name each apart`);
        }
        components[name] = body;
      }
    }
    return Object.fromEntries(Object.entries(components).sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  /** Converts the schemas used as `io`; answers the components their slots now refer to. */
  #convert(io: Io): Record<string, Json> {
    const registry = z.registry<{ id: string }>();
    for (const [schema, id] of this.#names) registry.add(schema, { id });
    for (const [parsed, documented] of documentedAs) {
      const name = this.#names.get(parsed);
      if (name !== undefined) registry.add(documented, { id: `${IN_PLACE}${name}` });
    }
    const idOf = new Map<z.ZodType, string>();
    for (const schema of this.#used[io].keys()) {
      const id = this.#names.get(schema) ?? `${IN_PLACE}${idOf.size}`;
      if (!this.#names.has(schema)) registry.add(schema, { id });
      idOf.set(schema, id);
    }
    const { schemas } = z.toJSONSchema(registry, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      uri: (id) => `${COMPONENTS}${id}`,
      ...(io === 'input' ? { override: defaultSaid } : {}),
    }) as { schemas: Record<string, Json> };
    if (schemas.__shared) throw new Error('a schema refers to itself: name it');
    const bodies = new Map<string, Json>();
    for (const [id, json] of Object.entries(schemas)) {
      const { $schema: _dialect, $id: _id, ...body } = json;
      bodies.set(id, body);
    }
    for (const parsed of documentedAs.keys()) {
      const name = this.#names.get(parsed);
      if (name !== undefined) bodies.set(name, bodies.get(`${IN_PLACE}${name}`)!);
    }
    const resolve = (id: string): Json => inPlace(bodies.get(id)!, resolve);
    const named = new Set<string>();
    for (const [schema, slots] of this.#used[io]) {
      const id = idOf.get(schema)!;
      const json = id.startsWith(IN_PLACE) ? resolve(id) : { $ref: `${COMPONENTS}${id}` };
      for (const slot of slots) Object.assign(slot, structuredClone(json));
      refsOf(json, named);
    }
    const components: Record<string, Json> = {};
    for (const name of named) {
      components[name] = resolve(name);
      refsOf(components[name], named);
    }
    return components;
  }
}

/**
 * A request's member with a default is one the caller may leave out, but generators take a
 * `default` as a member always there (openapi-typescript makes it required): say it in words.
 */
function defaultSaid({ jsonSchema }: { jsonSchema: Json }): void {
  if (!('default' in jsonSchema)) return;
  const said = `Default: \`${JSON.stringify(jsonSchema.default)}\`.`;
  const about = jsonSchema.description;
  jsonSchema.description = typeof about === 'string' ? `${about} ${said}` : said;
  delete jsonSchema.default;
}

/** `json` with every reference to a schema written in place replaced by that schema. */
function inPlace(json: Json, resolve: (id: string) => Json): Json {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const ref = (value as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith(`${COMPONENTS}${IN_PLACE}`)) {
      return resolve(ref.slice(COMPONENTS.length));
    }
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, walk(v)]));
  };
  return walk(json) as Json;
}

/** Adds the names of the components `json` refers to (a set grows while it is walked). */
function refsOf(json: unknown, names: Set<string>): void {
  if (Array.isArray(json)) return json.forEach((item) => refsOf(item, names));
  if (!json || typeof json !== 'object') return;
  const ref = (json as Json).$ref;
  if (typeof ref === 'string') names.add(ref.slice(COMPONENTS.length));
  for (const value of Object.values(json)) refsOf(value, names);
}
