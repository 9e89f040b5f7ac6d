/**
 * Replay of recorded model responses without an API key (`balcao eval` with no key, or
 * `--gravadas`): a `fetch` for the real SDK that answers each Messages API request with the
 * recorded tool input (see `replayInput`), so the product's own tool loop, validation and
 * comparison run exactly as with the model. No network is used.
 */
import { randomUUID } from 'node:crypto';
import { replayInput, type Gravacao } from './runner';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'request-id': `req_${randomUUID()}` },
  });
}

async function bodyOf(input: string | URL | Request, init?: RequestInit): Promise<unknown> {
  const raw = init?.body ?? (input instanceof Request ? await input.text() : undefined);
  if (typeof raw !== 'string') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** A fetch that serves `gravacoes`; a request with no recording gets an HTTP 400 (pt-BR). */
export function replayFetch(gravacoes: readonly Gravacao[], ferramenta: string): typeof fetch {
  return async (input, init) => {
    const body = (await bodyOf(input, init)) as
      { model?: string; tool_choice?: { name?: string }; messages?: unknown } | undefined;
    const recorded = body
      ? replayInput(gravacoes, body as Parameters<typeof replayInput>[1])
      : undefined;
    if (recorded === undefined) {
      return json(400, {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: 'sem resposta gravada para este caso (grave com balcao eval --record)',
        },
      });
    }
    return json(200, {
      id: `msg_${randomUUID()}`,
      type: 'message',
      role: 'assistant',
      model: body?.model ?? 'gravado',
      content: [
        {
          type: 'tool_use',
          id: `toolu_${randomUUID().replaceAll('-', '')}`,
          name: body?.tool_choice?.name ?? ferramenta,
          input: recorded,
        },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 0,
        output_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
  };
}
