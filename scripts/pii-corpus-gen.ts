/**
 * Writes test/fixtures/pii-corpus.jsonl (#38): pt-BR merchant messages with personal data in
 * every common shape and near-misses that must stay as written. Deterministic (seeded), so the
 * committed file can be regenerated and reviewed:
 *
 *   npx tsx scripts/pii-corpus-gen.ts
 *
 * Each line: {texto, dados: [{tipo, valor}] (what must be masked, as written), preservar: [...]
 * (what must survive: amounts, dates, times, CEPs, order numbers failing check digits)}.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

let seed = 0x38_2026;
function rnd(): number {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
const digits = (n: number) => Array.from({ length: n }, () => String(int(0, 9))).join('');

function cpfDigits(): string {
  const b = digits(9);
  const dv = (s: string) => {
    let sum = 0;
    for (let i = 0; i < s.length; i++) sum += Number(s[i]) * (s.length + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = dv(b);
  return `${b}${d1}${dv(b + d1)}`;
}
function cnpjChars(alnum: boolean): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const base = alnum
    ? Array.from({ length: 12 }, () => alphabet[int(0, 35)]).join('')
    : `${digits(8)}0001`;
  const dv = (s: string) => {
    let sum = 0;
    let w = 2;
    for (let i = s.length - 1; i >= 0; i--) {
      sum += (s.charCodeAt(i) - 48) * w;
      w = w === 9 ? 2 : w + 1;
    }
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = dv(base);
  return `${base}${d1}${dv(base + d1)}`;
}
const fmtCpf = (d: string) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
const fmtCnpj = (c: string) =>
  `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;
const wrongLast = (s: string) => s.slice(0, -1) + String((Number(s.slice(-1)) + 1) % 10);

function luhnDigit(body: string): string {
  for (let d = 0; d <= 9; d++) {
    const s = body + d;
    let sum = 0;
    for (let i = 0; i < s.length; i++) {
      let n = Number(s[s.length - 1 - i]);
      if (i % 2) {
        n *= 2;
        if (n > 9) n -= 9;
      }
      sum += n;
    }
    if (sum % 10 === 0) return String(d);
  }
  return '0';
}

const DDDS = ['11', '21', '31', '41', '47', '48', '51', '61', '62', '71', '81', '85', '91', '98'];

const gen = {
  CPF(): string {
    const d = cpfDigits();
    return pick([fmtCpf(d), fmtCpf(d), d, `${d.slice(0, 9)}-${d.slice(9)}`]);
  },
  CNPJ(): string {
    const c = cnpjChars(rnd() < 0.4);
    return pick([fmtCnpj(c), fmtCnpj(c), c]);
  },
  TELEFONE(): string {
    const ddd = pick(DDDS);
    const cel = `9${digits(8)}`;
    const fixo = `${int(2, 5)}${digits(7)}`;
    const c1 = cel.slice(0, 5);
    const c2 = cel.slice(5);
    return pick([
      `(${ddd}) ${c1}-${c2}`,
      `(${ddd}) ${c1}-${c2}`,
      `${ddd} ${c1}-${c2}`,
      `${ddd}${cel}`,
      `+55 ${ddd} ${c1}-${c2}`,
      `+55${ddd}${cel}`,
      `+55 (${ddd}) ${c1}-${c2}`,
      `(${ddd})${c1}-${c2}`,
      `0${ddd} ${c1} ${c2}`,
      `${ddd} 9 ${cel.slice(1, 5)}-${c2}`,
      `(${ddd}) ${fixo.slice(0, 4)}-${fixo.slice(4)}`,
      `${ddd} ${fixo.slice(0, 4)}-${fixo.slice(4)}`,
      `${c1}-${c2}`,
    ]);
  },
  EMAIL(): string {
    const user = pick(['joao', 'maria.souza', 'ana_paula', 'carlos.lima', 'fer.costa', 'zeca88']);
    const dom = pick(['gmail.com', 'hotmail.com', 'empresa.com.br', 'outlook.com', 'uol.com.br']);
    const e = `${user}${pick(['', String(int(1, 99)), '+pix'])}@${dom}`;
    return rnd() < 0.15 ? e.toUpperCase() : e;
  },
  CARTAO(): string {
    const brand = pick(['visa', 'master', 'amex', 'elo', 'visa13', 'hiper']);
    const len = brand === 'amex' ? 15 : brand === 'visa13' ? 13 : brand === 'hiper' ? 19 : 16;
    const prefix =
      brand === 'visa' || brand === 'visa13'
        ? '4'
        : brand === 'master'
          ? pick(['51', '52', '53', '54', '55'])
          : brand === 'amex'
            ? pick(['34', '37'])
            : brand === 'elo'
              ? pick(['636368', '504175', '650031'])
              : '6062';
    const body = prefix + digits(len - prefix.length - 1);
    const n = body + luhnDigit(body);
    if (len === 15) {
      return pick([`${n.slice(0, 4)} ${n.slice(4, 10)} ${n.slice(10)}`, n]);
    }
    if (len === 16) {
      const g = n.match(/.{4}/g)!;
      return pick([g.join(' '), g.join(' '), g.join('-'), n]);
    }
    return pick([n, n.match(/.{1,4}/g)!.join(' ')]);
  },
  CHAVE_PIX(): string {
    const h = (n: number) => Array.from({ length: n }, () => int(0, 15).toString(16)).join('');
    const u = `${h(8)}-${h(4)}-4${h(3)}-${pick(['8', '9', 'a', 'b'])}${h(3)}-${h(12)}`;
    return rnd() < 0.2 ? u.toUpperCase() : u;
  },
};
type Tipo = keyof typeof gen;

const near = {
  valor: () =>
    pick([
      `R$ ${int(1, 9)}.${digits(3)},${pick(['00', '50', '90'])}`,
      `R$ ${int(10, 999)},${pick(['00', '90', '99'])}`,
      `R$${int(10, 999)}`,
      `${int(20, 900)} reais`,
      `${int(2, 9)} mil reais`,
    ]),
  data: () =>
    pick([
      `${String(int(1, 28)).padStart(2, '0')}/${String(int(1, 12)).padStart(2, '0')}`,
      `${String(int(1, 28)).padStart(2, '0')}/${String(int(1, 12)).padStart(2, '0')}/2026`,
      `2026-${String(int(1, 12)).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')}`,
      `dia ${int(1, 28)}`,
    ]),
  hora: () => `${String(int(8, 20)).padStart(2, '0')}:${pick(['00', '15', '30', '45'])}`,
  pedido: () =>
    pick([
      // Eleven digits failing the CPF check; not 9 third (a mobile with DDD looks just like it).
      (() => {
        let d = wrongLast(cpfDigits());
        while (d[2] === '9') d = wrongLast(cpfDigits());
        return d;
      })(),
      fmtCpf(wrongLast(cpfDigits())),
      wrongLast(cnpjChars(false)),
      fmtCnpj(wrongLast(cnpjChars(true))),
      `#${int(1000, 999999)}`,
      `${int(100000, 9999999)}`,
    ]),
  cartaoInvalido: () => {
    const body = `4${digits(14)}`;
    const ok = luhnDigit(body);
    const bad = String((Number(ok) + int(1, 9)) % 10);
    const n = body + bad;
    return n.match(/.{4}/g)!.join(' ');
  },
  cep: () => pick([`0${int(1000, 9999)}-${digits(3)}`, `${int(10, 99)}${digits(3)}-${digits(3)}`]),
};
type Near = keyof typeof near;

const NOMES = ['João Silva', 'Maria Souza', 'Ana Paula', 'Carlos Lima', 'Fernanda', 'Zé', 'Lúcia'];

/** {slot} in a template: a personal datum (upper case) or a near-miss (lower case). */
const TEMPLATES = [
  'manda um link de {valor} pro {nome} no cartão em 3x, vence {data}. CPF dele: {CPF}',
  'boleto de {valor} pra {nome}, CPF {CPF}, vencimento {data}. O zap dela é {TELEFONE}',
  'pix de {valor} pro {nome}, a chave dele é {CHAVE_PIX}',
  'cobra {valor} da empresa do {nome}, CNPJ {CNPJ}, boleto vence {data}',
  'o cliente passou o cartão {CARTAO} validade 08/29, pode passar {valor} em 2x?',
  'manda a cobrança pro e-mail {EMAIL}, {valor} no pix, pedido {pedido}',
  '{nome} pediu pra cobrar {valor}, tel {TELEFONE}, email {EMAIL}, CEP {cep}',
  'oi, tudo bem? preciso de um boleto de {valor} pro CNPJ {CNPJ} com vencimento {data}, nota {pedido}',
  'cartão do cliente: {CARTAO}. cobra {valor} à vista, ele passa às {hora}',
  'faz um link de {valor} pra {nome} ({EMAIL}), cpf {CPF}, vence {data}',
  'pedido {pedido} — {valor} no boleto pro {nome}, documento {CPF}, telefone {TELEFONE}',
  'pix {valor} pro {nome}, chave pix {CHAVE_PIX}, qualquer coisa liga {TELEFONE}',
  'o número do cartão que ele mandou foi {CARTAO}, é pra {valor} em 10x',
  'cobrar a loja {CNPJ} em {valor}, contato {EMAIL} ou {TELEFONE}',
  '{valor} em 3x de cartão pro {nome}, entrega no CEP {cep} dia {data} às {hora}',
  'ele disse que o cartão é {CARTAO} e o cpf {CPF}, cobra {valor}',
  'boleto pro CNPJ {CNPJ}, {valor}, vence {data}, protocolo {pedido}',
  'manda no whats dele {TELEFONE} o link de {valor}, pedido {pedido}',
  'cliente {nome}, e-mail {EMAIL}, cpf {CPF}, {valor} no pix até {data}',
  'o pagamento de {valor} é pra chave {CHAVE_PIX}, vence {data}',
  'refaz a cobrança de {valor}, o cartão {cartaoInvalido} deu erro, tenta de novo {data}',
  'cobra {valor} do {nome} no boleto, vence {data}, pedido {pedido}, CEP {cep}',
  'liga pra {nome} no {TELEFONE} antes das {hora}, é {valor} em 2x',
];

const out: string[] = [];
let i = 0;
while (out.length < 320) {
  const tpl = TEMPLATES[i++ % TEMPLATES.length]!;
  const dados: { tipo: Tipo; valor: string }[] = [];
  const preservar: string[] = [];
  const texto = tpl.replace(/\{(\w+)\}/g, (_m, slot: string) => {
    if (slot === 'nome') return pick(NOMES);
    if (slot in gen) {
      const valor = gen[slot as Tipo]();
      dados.push({ tipo: slot as Tipo, valor });
      return valor;
    }
    const v = near[slot as Near]();
    preservar.push(v);
    return v;
  });
  out.push(JSON.stringify({ texto, dados, preservar }));
}
const file = resolve(import.meta.dirname, '../test/fixtures/pii-corpus.jsonl');
writeFileSync(file, `${out.join('\n')}\n`);
console.log(`${out.length} mensagens em ${file}`);
