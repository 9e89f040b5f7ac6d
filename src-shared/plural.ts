/** "1 item", "2 itens", "1.500 mensagens": a count with its word in the right number (pt-BR). */
export function contagem(n: number, um: string, varios: string): string {
  return `${n.toLocaleString('pt-BR')} ${n === 1 ? um : varios}`;
}
