import { describe, expect, it } from 'vitest';
import { MSG_DB_UNREACHABLE, MSG_DB_UNREACHABLE_APP } from '../../src-main/db/errors';
import { ASK_ADMIN, forPeople, MISSING_SETUP } from '../../src-main/ipc/people-words';
import { NO_API_KEY_MESSAGE, NO_API_KEY_MESSAGE_APP } from '../../src-main/llm/client';

/** #42.6: what the window says when a service's message was written for operators. */
describe('error messages for people in the window', () => {
  it('known operator messages get their wording for people', () => {
    expect(forPeople(MSG_DB_UNREACHABLE)).toBe(MSG_DB_UNREACHABLE_APP);
    expect(forPeople(NO_API_KEY_MESSAGE)).toBe(NO_API_KEY_MESSAGE_APP);
    expect(MSG_DB_UNREACHABLE_APP).not.toMatch(/no ar/);
  });

  it('no environment variable or code in parentheses reaches people; they are told to ask', () => {
    expect(
      forPeople(
        'Não foi possível conectar à API da Anthropic. Verifique a rede e ANTHROPIC_BASE_URL.',
      ),
    ).toBe(`Não foi possível conectar à API da Anthropic. ${ASK_ADMIN}`);
    expect(
      forPeople(
        'A resposta do modelo foi cortada pelo limite de tokens (max_tokens = 1024). ' +
          'Isso é um problema de configuração: aumente BALCAO_MAX_TOKENS nas configurações.',
      ),
    ).toBe(`A resposta do modelo foi cortada pelo limite de tokens. ${ASK_ADMIN}`);
    expect(
      forPeople(
        'O modelo não respondeu em 60 s. Tente de novo ou aumente o tempo limite (BALCAO_REQUEST_TIMEOUT_MS).',
      ),
    ).toBe(`O modelo não respondeu em 60 s. ${ASK_ADMIN}`);
    expect(
      forPeople(
        'Defina BALCAO_EVALS_DIR com a pasta evals/ do projeto para gravar casos de avaliação.',
      ),
    ).toBe(MISSING_SETUP);
  });

  it('messages already for people are kept word for word', () => {
    const m = 'Outro agente está mexendo neste pedido; tente de novo.';
    expect(forPeople(m)).toBe(m);
  });
});
