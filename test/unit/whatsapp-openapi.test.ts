import { describe, expect, it } from 'vitest';
import { checkMessageRequest } from '../../src-main/bench/whatsapp-openapi';
import { createWhatsAppClient } from '../../src-main/whatsapp/client';

/** What Balcão's client puts on the wire, captured without a network. */
async function wire(send: 'text' | 'template'): Promise<Record<string, unknown>> {
  let body: unknown;
  const client = createWhatsAppClient(
    { token: 't', phoneNumberId: '123', apiUrl: 'http://x/v23.0' },
    {
      fetch: (async (_url: string, init: { body: string }) => {
        body = JSON.parse(init.body);
        return new Response(JSON.stringify({ messages: [{ id: 'wamid.1' }] }), { status: 200 });
      }) as unknown as typeof fetch,
    },
  );
  if (send === 'text') {
    await client.sendText({
      to: '5511999990000',
      body: 'Qual o valor?',
      contextMessageId: 'wamid.x',
      callbackData: 'saida:1',
    });
  } else {
    await client.sendTemplate?.({
      to: '5511999990000',
      nome: 'aviso_balcao',
      idioma: 'pt_BR',
      parametro: 'Qual o valor?',
      callbackData: 'saida:1',
    });
  }
  return body as Record<string, unknown>;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe("the fake Graph API's check against Meta's published Message schema", () => {
  it("takes what Balcão's client sends, text and template", async () => {
    expect(checkMessageRequest(await wire('text'))).toEqual([]);
    expect(checkMessageRequest(await wire('template'))).toEqual([]);
  });

  it('refuses text messages the schema refuses', async () => {
    const ok = await wire('text');
    const cases: [string, (b: Record<string, unknown>) => void, RegExp][] = [
      [
        'without recipient_type (required)',
        (b) => delete b.recipient_type,
        /recipient_type: obrigatório/,
      ],
      ['without type (required)', (b) => delete b.type, /type/],
      [
        'an unknown top-level field',
        (b) => (b.previewUrl = true),
        /previewUrl: campo desconhecido/,
      ],
      [
        'an unknown field in text',
        (b) => ((b.text as Record<string, unknown>).url = 'x'),
        /text\.url: campo desconhecido/,
      ],
      [
        'preview_url not boolean',
        (b) => ((b.text as Record<string, unknown>).preview_url = 'false'),
        /preview_url: deve ser boolean/,
      ],
      [
        'context.message_id not a string',
        (b) => (b.context = { message_id: 1 }),
        /context\.message_id: deve ser string/,
      ],
      [
        'a recipient type outside the enum',
        (b) => (b.recipient_type = 'broadcast'),
        /recipient_type: fora do enum/,
      ],
      [
        'a callback over 512',
        (b) => (b.biz_opaque_callback_data = 'x'.repeat(513)),
        /biz_opaque_callback_data/,
      ],
      ['an empty body', (b) => ((b.text as Record<string, unknown>).body = ''), /1 a 4096/],
    ];
    for (const [nome, mutate, erro] of cases) {
      const b = clone(ok);
      mutate(b);
      expect(checkMessageRequest(b).join('; '), nome).toMatch(erro);
    }
  });

  it('refuses template payloads the schema refuses', async () => {
    const ok = await wire('template');
    type T = {
      template: Record<string, unknown> & {
        language: Record<string, unknown>;
        components: Record<string, unknown>[];
      };
    };
    const cases: [string, (b: T) => void, RegExp][] = [
      ['without template.name', (b) => delete b.template.name, /template\.name: obrigatório/],
      [
        'without language.policy (required by LanguageObject)',
        (b) => delete b.template.language.policy,
        /language\.policy: obrigatório/,
      ],
      [
        'a policy outside the enum',
        (b) => (b.template.language.policy = 'fallback'),
        /language\.policy: fora do enum/,
      ],
      [
        'language as a string',
        (b) => ((b.template as Record<string, unknown>).language = 'pt_BR'),
        /language: deve ser object/,
      ],
      [
        'a footer component (not in the enum)',
        (b) => (b.template.components[0]!.type = 'footer'),
        /components\[0\]\.type: fora do enum/,
      ],
      [
        'a button without sub_type, index, parameters',
        (b) => b.template.components.push({ type: 'button' }),
        /components\[1\]\.sub_type: obrigatório/,
      ],
      [
        'a text parameter without text',
        (b) =>
          ((b.template.components[0]!.parameters as Record<string, unknown>[])[0] = {
            type: 'text',
          }),
        /parameters\[0\]\.text: obrigatório/,
      ],
      [
        'a parameter of an unknown type',
        (b) =>
          ((b.template.components[0]!.parameters as Record<string, unknown>[])[0] = {
            type: 'emoji',
            text: 'x',
          }),
        /parameters\[0\]\.type: fora do enum/,
      ],
      [
        'a currency without amount_1000',
        (b) =>
          ((b.template.components[0]!.parameters as Record<string, unknown>[])[0] = {
            type: 'currency',
            currency: { fallback_value: 'R$ 1', code: 'BRL' },
          }),
        /amount_1000: obrigatório/,
      ],
      [
        'components not an array',
        (b) => ((b.template as Record<string, unknown>).components = { type: 'body' }),
        /components: deve ser array/,
      ],
      [
        'a line break in the body parameter',
        (b) =>
          ((b.template.components[0]!.parameters as Record<string, unknown>[])[0] = {
            type: 'text',
            text: 'a\nb',
          }),
        /quebra de linha/,
      ],
    ];
    for (const [nome, mutate, erro] of cases) {
      const b = clone(ok) as unknown as T;
      mutate(b);
      expect(checkMessageRequest(b).join('; '), nome).toMatch(erro);
    }
  });

  it('refuses a message type Balcão never sends', () => {
    const errs = checkMessageRequest({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '5511999990000',
      type: 'image',
      image: { link: 'https://x/y.jpg' },
    });
    expect(errs.join('; ')).toMatch(/não é enviado pelo Balcão/);
  });
});
