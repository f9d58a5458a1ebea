/*
 * Responses are written from their zod schemas (issue #18, goal 1): each route's response schema is
 * turned once into JSON Schema and compiled by fast-json-stringify (Fastify's own serializer), which
 * writes only the schema's properties in the schema's order — the same white list and the same bytes
 * as zod's encode + JSON.stringify, without copying every object first. A schema the compiler cannot
 * take faithfully (unions other than «X or null», transforms, recursion) keeps zod's path.
 *
 * What is lost is zod's check of the handler's output (a wrong type became a 500). With `check`
 * (RESPONSE_CHECK, on in the tests) every response is also encoded by zod, and the compiled writer's
 * text must equal zod's to the byte, or the response fails as before: the test suite proves the
 * two writers agree on every response it makes. docs/decisions.md, «Ответы: сериализация из схем».
 */
import fastJsonStringify from 'fast-json-stringify';
import { createSerializerCompiler, ResponseSerializationError } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

type Json = Record<string, unknown>;
type Serialize = (data: unknown) => string;

/** Keywords of the output JSON Schema the writer does not need (validation only). */
const VALIDATION_ONLY = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'propertyNames',
  'pattern',
  'format',
]);
/** Keywords whose presence sends a schema back to zod: the writer would have to validate to choose. */
const BRANCHING = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', 'const', 'discriminator'];

class Unsupported extends Error {}

/**
 * The schema as the writer takes it: `$ref`s inlined, «X or null» as `type: [X, 'null']`, validation
 * keywords dropped; throws Unsupported for anything else that branches.
 */
function plain(node: unknown, defs: Json, depth = 0): unknown {
  if (depth > 64) throw new Unsupported('recursive schema');
  if (Array.isArray(node)) return node.map((n) => plain(n, defs, depth + 1));
  if (!node || typeof node !== 'object') return node;
  let s = node as Json;
  if (typeof s.$ref === 'string') {
    const name = /^#\/\$defs\/(.+)$/.exec(s.$ref)?.[1];
    const target = name === undefined ? undefined : defs[decodeURIComponent(name)];
    if (!target) throw new Unsupported(`ref ${s.$ref}`);
    const { $ref: _, ...rest } = s;
    s = { ...(target as Json), ...rest };
  }
  if (Array.isArray(s.anyOf)) {
    const options = s.anyOf as Json[];
    const nonNull = options.filter((o) => o.type !== 'null' || Object.keys(o).length !== 1);
    if (options.length !== 2 || nonNull.length !== 1) throw new Unsupported('union');
    const { anyOf: _, ...rest } = s;
    const inner = plain(nonNull[0], defs, depth + 1) as Json;
    if (typeof inner.type !== 'string') throw new Unsupported('nullable without a type');
    return { ...inner, ...plainKeys(rest, defs, depth), type: [inner.type, 'null'] };
  }
  for (const k of BRANCHING) if (k in s) throw new Unsupported(k);
  return plainKeys(s, defs, depth);
}

function plainKeys(s: Json, defs: Json, depth: number): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$schema' || k === '$defs' || k === 'id' || VALIDATION_ONLY.has(k)) continue;
    if (k === 'properties') {
      const props: Json = {};
      for (const [p, ps] of Object.entries(v as Json)) props[p] = plain(ps, defs, depth + 1);
      out[k] = props;
    } else if (k === 'items' || k === 'additionalProperties') out[k] = typeof v === 'object' ? plain(v, defs, depth + 1) : v;
    else out[k] = v;
  }
  return out;
}

/**
 * Writers by schema: Fastify asks for one per route and status, and most share their schema (the
 * error shape of every 4xx, a module's card for get, create and patch) — compiled once each, start-up
 * compiled ~9 600 writers in 1.3 s without it.
 */
const writers = new WeakMap<ZodType, Serialize | null>();

/** A compiled writer for `schema`, or undefined when the schema needs zod. */
export function compileWriter(schema: ZodType): Serialize | undefined {
  let w = writers.get(schema);
  if (w === undefined) {
    try {
      const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw', cycles: 'throw' }) as Json;
      const body = plain(json, (json.$defs as Json | undefined) ?? {});
      w = fastJsonStringify(body as Parameters<typeof fastJsonStringify>[0]) as Serialize;
    } catch {
      w = null;
    }
    writers.set(schema, w);
  }
  return w ?? undefined;
}

const zodWriter = createSerializerCompiler({});

/**
 * Fastify's serializer compiler: the compiled writer where the schema allows it, zod's otherwise;
 * `check`: zod encodes every response too and the two texts must match (see the header).
 */
export function createResponseSerializer(opts: { check: boolean }) {
  return (route: Parameters<typeof zodWriter>[0]): Serialize => {
    const viaZod = zodWriter(route);
    const schema = (route.schema as { properties?: unknown }).properties ?? route.schema;
    const fast = schema instanceof z.ZodType ? compileWriter(schema) : undefined;
    if (!fast) return viaZod;
    if (!opts.check) return fast;
    return (data) => {
      const expected = viaZod(data);
      const written = fast(data);
      if (written !== expected) {
        throw new ResponseSerializationError(route.method, route.url, {
          cause: new z.ZodError([
            { code: 'custom', path: [], input: data, message: `compiled writer differs from zod:\n${written}\n${expected}` },
          ]),
        });
      }
      return written;
    };
  };
}
