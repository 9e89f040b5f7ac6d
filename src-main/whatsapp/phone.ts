/**
 * Phone numbers of merchants' WhatsApp contacts: E.164 ("+" and 8–15 digits, no leading 0).
 * People type them in many ways ("+55 (11) 98765-4321"); WhatsApp names a sender by its wa_id
 * (the digits without "+"). Brazilian mobiles may reach us with or without the ninth digit
 * (older WhatsApp accounts keep the 8-digit form), so a number is looked up in both forms.
 */

export const E164 = /^\+[1-9][0-9]{7,14}$/;

/** The E.164 form of what a person typed, or a pt-BR reason. */
export function parseTelefone(
  input: string,
): { ok: true; telefone: string } | { ok: false; motivo: string } {
  const raw = input.trim();
  if (!raw)
    return { ok: false, motivo: 'Informe o telefone em formato E.164, ex.: +5511987654321.' };
  if (!raw.startsWith('+')) {
    return {
      ok: false,
      motivo: `Telefone inválido: "${raw}". Use o formato E.164, com + e o código do país, ex.: +5511987654321.`,
    };
  }
  if (/[^0-9+\s().-]/.test(raw) || raw.indexOf('+', 1) !== -1) {
    return {
      ok: false,
      motivo: `Telefone inválido: "${raw}". Só dígitos depois do +, ex.: +5511987654321.`,
    };
  }
  const telefone = `+${raw.slice(1).replace(/[\s().-]/g, '')}`;
  if (!E164.test(telefone)) {
    return {
      ok: false,
      motivo: `Telefone inválido: "${raw}". Em E.164 são de 8 a 15 dígitos depois do +, sem 0 no início, ex.: +5511987654321.`,
    };
  }
  if (telefone.startsWith('+55') && !/^\+55[1-9][1-9][0-9]{8,9}$/.test(telefone)) {
    return {
      ok: false,
      motivo: `Telefone brasileiro inválido: "${raw}". Use +55, o DDD e o número, ex.: +5511987654321.`,
    };
  }
  return { ok: true, telefone };
}

/** The E.164 form of a WhatsApp id (digits), or null when it is no phone number. */
export function telefoneFromWaId(waId: string): string | null {
  const t = `+${waId}`;
  return E164.test(t) ? t : null;
}

/**
 * The forms a number may take: itself and, for a Brazilian mobile, the form with or without
 * the ninth digit (+55 DD 9XXXX-XXXX ↔ +55 DD XXXX-XXXX).
 */
export function telefoneVariants(telefone: string): string[] {
  const m13 = /^\+55([1-9][1-9])9([0-9]{8})$/.exec(telefone);
  if (m13) return [telefone, `+55${m13[1]}${m13[2]}`];
  const m12 = /^\+55([1-9][1-9])([6-9][0-9]{7})$/.exec(telefone);
  if (m12) return [telefone, `+55${m12[1]}9${m12[2]}`];
  return [telefone];
}
