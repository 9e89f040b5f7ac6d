import { z } from './zod';

/**
 * JSON schema keywords strict tool use (grammar-constrained sampling) does not accept. Bounds
 * and lengths stay enforced by our zod validation and are stated in the field descriptions.
 */
const STRICT_UNSUPPORTED = new Set([
  '$schema',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
]);

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (STRICT_UNSUPPORTED.has(k)) continue;
    // Only minItems 0 or 1 are supported.
    if (k === 'minItems' && typeof v === 'number' && v > 1) continue;
    // properties' values are schemas keyed by field name: strip inside, keep the names.
    if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, strip(s)]));
      continue;
    }
    out[k] = strip(v);
  }
  return out;
}

export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: false;
  [k: string]: unknown;
}

/**
 * The tool's input JSON schema, derived from the zod schema that validates the input (so they
 * cannot drift). `strict: true` strips keywords strict tool use rejects; without it the schema
 * keeps every bound as a hint for the model. Input (not output) view: `.default()` fields stay
 * optional for the model.
 */
export function toolInputSchema(
  schema: z.ZodObject,
  opts: { strict?: boolean } = {},
): ToolInputSchema {
  const raw = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<
    string,
    unknown
  >;
  const json = (opts.strict ? strip(raw) : { ...raw }) as Record<string, unknown>;
  delete json.$schema;
  if (json.type !== 'object') throw new Error('o esquema de uma ferramenta deve ser um objeto');
  return {
    ...json,
    type: 'object',
    properties: (json.properties ?? {}) as Record<string, unknown>,
    required: (json.required ?? []) as string[],
    additionalProperties: false,
  };
}
