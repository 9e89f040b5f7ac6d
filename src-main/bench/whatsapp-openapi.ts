/**
 * The request schema of `POST /{Version}/{Phone-Number-ID}/messages` as Meta publishes it, for the
 * fakes of the Graph API (the bench's and the tests'): every request Balcão sends is checked
 * against it, and a request it refuses is answered as Meta does (HTTP 400, error 100).
 *
 * Source: github.com/facebook/openapi, `business-messaging-api_v23.0.yaml`, commit
 * 231e184578bf86f5024149dd8d5ec234e340f6cb (MIT). The operation `sendMessage` takes
 * `#/components/schemas/Message`. Transcribed below, as JSON Schema, are the parts of it a
 * text or a template message reaches — field names, types, enums, `required` lists and
 * `additionalProperties` as published; descriptions and examples left out:
 *   Message (its discriminator on `type`), BaseMessageProperties, MessageContext, TextMessage,
 *   TemplateMessage, TemplateObject, LanguageObject, TemplateComponent, HeaderComponent,
 *   BodyComponent, ButtonComponent, ParameterObject, TextParameter, CurrencyParameter,
 *   DateTimeParameter, DocumentParameter, ImageParameter, VideoParameter, CurrencyObject,
 *   DateTimeObject, MediaObject, ButtonParameterObject, ButtonPayloadParameter,
 *   ButtonTextParameter.
 * The other message types (audio, image, interactive…) are only named: Balcão never sends them,
 * and a request of such a type is refused here as "not sent by Balcão".
 *
 * How the spec is read, where a literal reading would contradict the spec itself:
 * - `allOf` with `additionalProperties: false` in one branch (TextMessage) is read as "no
 *   property outside the union of the branches'": a literal JSON Schema reading refuses every
 *   text message, including the spec's own examples.
 * - ButtonComponent's `index` pattern `^[2-6, 11-14]$` is a character class that refuses the
 *   spec's own example '0'; it is not applied (Balcão sends no button).
 * Meta's reference pages (developers.facebook.com/docs/whatsapp/cloud-api/reference/messages)
 * add three rules this file of the spec does not carry; they are checked as extras, named:
 * - `biz_opaque_callback_data`: a string of at most 512 characters (the spec has it, with that
 *   limit, only on calls' CallRequestPayload);
 * - `text.body`: 1 to 4096 characters;
 * - a template's body text parameter: no new-line or tab, not more than 4 spaces in a row.
 */

type Schema = {
  $ref?: string;
  type?: 'object' | 'string' | 'boolean' | 'integer' | 'array';
  enum?: readonly string[];
  required?: readonly string[];
  properties?: Record<string, Schema>;
  additionalProperties?: false;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  maxLength?: number;
  allOf?: readonly Schema[];
  oneOf?: readonly Schema[];
  discriminator?: { propertyName: string; mapping: Record<string, string> };
};

const ref = (name: string): Schema => ({ $ref: name });

/** The schemas, by their names in `components.schemas`. */
export const MESSAGE_SCHEMAS: Record<string, Schema> = {
  Message: {
    discriminator: {
      propertyName: 'type',
      mapping: {
        text: 'TextMessage',
        audio: 'AudioMessage',
        document: 'DocumentMessage',
        image: 'ImageMessage',
        location: 'LocationMessage',
        video: 'VideoMessage',
        sticker: 'StickerMessage',
        reaction: 'ReactionMessage',
        interactive: 'InteractiveMessage',
        template: 'TemplateMessage',
        contacts: 'ContactsMessage',
      },
    },
  },
  BaseMessageProperties: {
    type: 'object',
    required: ['messaging_product', 'recipient_type', 'to', 'type'],
    properties: {
      messaging_product: { type: 'string' },
      recipient_type: { type: 'string', enum: ['individual', 'group'] },
      to: { type: 'string' },
      type: { type: 'string' },
      context: ref('MessageContext'),
    },
  },
  MessageContext: {
    type: 'object',
    properties: { message_id: { type: 'string' } },
  },
  TextMessage: {
    allOf: [
      ref('BaseMessageProperties'),
      {
        type: 'object',
        additionalProperties: false,
        required: ['text'],
        properties: {
          type: { type: 'string', enum: ['text'] },
          text: {
            type: 'object',
            additionalProperties: false,
            properties: { body: { type: 'string' }, preview_url: { type: 'boolean' } },
          },
        },
      },
    ],
  },
  TemplateMessage: {
    allOf: [
      ref('BaseMessageProperties'),
      {
        type: 'object',
        required: ['template'],
        properties: {
          type: { type: 'string', enum: ['template'] },
          template: ref('TemplateObject'),
        },
      },
    ],
  },
  TemplateObject: {
    type: 'object',
    required: ['name', 'language'],
    properties: {
      name: { type: 'string' },
      language: ref('LanguageObject'),
      components: { type: 'array', items: ref('TemplateComponent') },
    },
  },
  LanguageObject: {
    type: 'object',
    required: ['policy', 'code'],
    properties: {
      policy: { type: 'string', enum: ['deterministic'] },
      code: { type: 'string' },
    },
  },
  TemplateComponent: {
    type: 'object',
    required: ['type'],
    properties: {
      type: { type: 'string', enum: ['header', 'body', 'button'] },
      sub_type: { type: 'string', enum: ['quick_reply', 'url', 'catalog'] },
      parameters: { type: 'array' },
      index: { type: 'string' },
    },
    discriminator: {
      propertyName: 'type',
      mapping: { header: 'HeaderComponent', body: 'BodyComponent', button: 'ButtonComponent' },
    },
  },
  HeaderComponent: {
    allOf: [
      ref('TemplateComponent*'),
      {
        type: 'object',
        properties: {
          type: { enum: ['header'] },
          parameters: { type: 'array', minItems: 1, items: ref('ParameterObject') },
        },
      },
    ],
  },
  BodyComponent: {
    allOf: [
      ref('TemplateComponent*'),
      {
        type: 'object',
        properties: {
          type: { enum: ['body'] },
          parameters: { type: 'array', items: ref('ParameterObject') },
        },
      },
    ],
  },
  ButtonComponent: {
    allOf: [
      ref('TemplateComponent*'),
      {
        type: 'object',
        required: ['sub_type', 'index', 'parameters'],
        properties: {
          type: { enum: ['button'] },
          sub_type: { type: 'string', enum: ['quick_reply', 'url', 'catalog'] },
          index: { type: 'string' },
          parameters: { type: 'array', minItems: 1, items: ref('ButtonParameterObject') },
        },
      },
    ],
  },
  ParameterObject: {
    type: 'object',
    required: ['type'],
    properties: {
      type: {
        type: 'string',
        enum: ['currency', 'date_time', 'document', 'image', 'text', 'video'],
      },
    },
    discriminator: {
      propertyName: 'type',
      mapping: {
        currency: 'CurrencyParameter',
        date_time: 'DateTimeParameter',
        document: 'DocumentParameter',
        image: 'ImageParameter',
        text: 'TextParameter',
        video: 'VideoParameter',
      },
    },
  },
  TextParameter: {
    allOf: [
      ref('ParameterObject*'),
      {
        type: 'object',
        required: ['text'],
        properties: { type: { enum: ['text'] }, text: { type: 'string', maxLength: 32768 } },
      },
    ],
  },
  CurrencyParameter: {
    allOf: [
      ref('ParameterObject*'),
      {
        type: 'object',
        required: ['currency'],
        properties: { type: { enum: ['currency'] }, currency: ref('CurrencyObject') },
      },
    ],
  },
  DateTimeParameter: {
    allOf: [
      ref('ParameterObject*'),
      {
        type: 'object',
        required: ['date_time'],
        properties: { type: { enum: ['date_time'] }, date_time: ref('DateTimeObject') },
      },
    ],
  },
  DocumentParameter: {
    allOf: [
      ref('ParameterObject*'),
      {
        type: 'object',
        required: ['document'],
        properties: { type: { enum: ['document'] }, document: ref('MediaObject') },
      },
    ],
  },
  ImageParameter: {
    allOf: [
      ref('ParameterObject*'),
      {
        type: 'object',
        required: ['image'],
        properties: { type: { enum: ['image'] }, image: ref('MediaObject') },
      },
    ],
  },
  VideoParameter: {
    allOf: [
      ref('ParameterObject*'),
      {
        type: 'object',
        required: ['video'],
        properties: { type: { enum: ['video'] }, video: ref('MediaObject') },
      },
    ],
  },
  CurrencyObject: {
    type: 'object',
    required: ['fallback_value', 'code', 'amount_1000'],
    properties: {
      fallback_value: { type: 'string' },
      code: { type: 'string' },
      amount_1000: { type: 'integer' },
    },
  },
  DateTimeObject: {
    type: 'object',
    required: ['fallback_value'],
    properties: { fallback_value: { type: 'string' } },
  },
  MediaObject: {
    type: 'object',
    oneOf: [
      { required: ['id'], properties: { id: { type: 'string' } } },
      { required: ['link'], properties: { link: { type: 'string' } } },
    ],
  },
  ButtonParameterObject: {
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string', enum: ['payload', 'text'] } },
    discriminator: {
      propertyName: 'type',
      mapping: { payload: 'ButtonPayloadParameter', text: 'ButtonTextParameter' },
    },
  },
  ButtonPayloadParameter: {
    allOf: [
      ref('ButtonParameterObject*'),
      {
        type: 'object',
        required: ['payload'],
        properties: { type: { enum: ['payload'] }, payload: { type: 'string' } },
      },
    ],
  },
  ButtonTextParameter: {
    allOf: [
      ref('ButtonParameterObject*'),
      {
        type: 'object',
        required: ['text'],
        properties: { type: { enum: ['text'] }, text: { type: 'string' } },
      },
    ],
  },
};

// `Name*` is the schema without its discriminator: the base a subtype's allOf names (the
// discriminator of the base dispatches to the subtypes; inside one, it is already decided).
function resolve(r: string): Schema {
  const bare = r.endsWith('*');
  const name = bare ? r.slice(0, -1) : r;
  const s = MESSAGE_SCHEMAS[name];
  if (!s) throw new Error(`schema ${name} não transcrito`);
  if (!bare) return s;
  const { discriminator: _d, ...rest } = s;
  return rest;
}

/** Properties an object schema declares, through $ref and allOf (for additionalProperties). */
function declared(s: Schema): Set<string> {
  if (s.$ref) return declared(resolve(s.$ref));
  const out = new Set(Object.keys(s.properties ?? {}));
  for (const b of s.allOf ?? []) for (const k of declared(b)) out.add(k);
  return out;
}

const typeOf = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number' && Number.isInteger(v)
        ? 'integer'
        : typeof v;

function check(v: unknown, s: Schema, at: string, errs: string[], union?: Set<string>): void {
  if (s.$ref) return check(v, resolve(s.$ref), at, errs, union);
  if (s.discriminator) {
    const o = v as Record<string, unknown> | null;
    const key = typeof o === 'object' && o !== null ? o[s.discriminator.propertyName] : undefined;
    const target = typeof key === 'string' ? s.discriminator.mapping[key] : undefined;
    if (!target) {
      errs.push(`${at}.${s.discriminator.propertyName}: fora do enum`);
      return;
    }
    if (!MESSAGE_SCHEMAS[target]) {
      errs.push(`${at}.${s.discriminator.propertyName}: ${String(key)} não é enviado pelo Balcão`);
      return;
    }
    const { discriminator: _d, ...rest } = s;
    check(v, rest, at, errs, union);
    return check(v, resolve(target), at, errs, union);
  }
  if (s.allOf) {
    const all = declared(s);
    for (const b of s.allOf) check(v, b, at, errs, all);
  }
  if (s.type && typeOf(v) !== s.type) {
    errs.push(`${at}: deve ser ${s.type}`);
    return;
  }
  if (s.enum && !s.enum.includes(v as string)) errs.push(`${at}: fora do enum`);
  if (typeof v === 'string' && s.maxLength !== undefined && [...v].length > s.maxLength) {
    errs.push(`${at}: mais de ${s.maxLength} caracteres`);
  }
  if (Array.isArray(v)) {
    if (s.minItems !== undefined && v.length < s.minItems) errs.push(`${at}: itens de menos`);
    if (s.maxItems !== undefined && v.length > s.maxItems) errs.push(`${at}: itens demais`);
    if (s.items) v.forEach((x, i) => check(x, s.items as Schema, `${at}[${i}]`, errs));
  }
  if (typeOf(v) === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of s.required ?? []) if (!(k in o)) errs.push(`${at}.${k}: obrigatório`);
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      if (k in o) check(o[k], p, `${at}.${k}`, errs);
    }
    if (s.additionalProperties === false) {
      const allowed = union ?? new Set(Object.keys(s.properties ?? {}));
      for (const k of Object.keys(o))
        if (!allowed.has(k)) errs.push(`${at}.${k}: campo desconhecido`);
    }
  }
  if (s.oneOf) {
    const ok = s.oneOf.filter((b) => {
      const e: string[] = [];
      check(v, b, at, e);
      return e.length === 0;
    }).length;
    if (ok !== 1) errs.push(`${at}: deve casar com exatamente um dos esquemas (casou ${ok})`);
  }
}

/** Meta's reference rules this file of the spec does not carry (see the header). */
export const EXTRA_FIELDS = ['biz_opaque_callback_data'] as const;

/**
 * The problems of a send request's body against the published `Message` schema plus the
 * reference page's extras ([] when Meta would take it).
 */
export function checkMessageRequest(body: unknown): string[] {
  const errs: string[] = [];
  if (typeOf(body) !== 'object') return ['body: deve ser object'];
  const o = { ...(body as Record<string, unknown>) };
  const extra = o.biz_opaque_callback_data;
  if (extra !== undefined) {
    if (typeof extra !== 'string' || extra.length > 512) {
      errs.push('biz_opaque_callback_data: string de até 512 caracteres');
    }
    delete o.biz_opaque_callback_data;
  }
  check(o, MESSAGE_SCHEMAS.Message as Schema, 'body', errs);
  if (o.messaging_product !== 'whatsapp') errs.push('body.messaging_product: deve ser "whatsapp"');
  if (o.type === 'text') {
    const t = (o.text as { body?: unknown } | undefined)?.body;
    if (typeof t !== 'string') errs.push('body.text.body: obrigatório');
    else if (t.length < 1 || [...t].length > 4096) errs.push('body.text.body: 1 a 4096 caracteres');
  }
  if (o.type === 'template') {
    const comps = (o.template as { components?: unknown } | undefined)?.components;
    for (const c of Array.isArray(comps) ? comps : []) {
      const comp = c as { type?: unknown; parameters?: unknown } | null;
      if (comp?.type !== 'body' || !Array.isArray(comp.parameters)) continue;
      for (const p of comp.parameters as { type?: unknown; text?: unknown }[]) {
        if (p?.type === 'text' && typeof p.text === 'string') {
          if (!p.text) errs.push('parâmetro de texto do corpo vazio');
          else if (/[\n\t]| {5,}/.test(p.text)) {
            errs.push(
              'parâmetro de texto do corpo com quebra de linha, tabulação ou mais de 4 espaços seguidos',
            );
          }
        }
      }
    }
  }
  return errs;
}
