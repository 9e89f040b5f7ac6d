/**
 * Reading a password for the CLI: from standard input when it is not a terminal (or with
 * --senha-stdin), otherwise typed at a prompt without echo. Never from an argument.
 */

/** The first line of standard input (without its line break). */
export async function readStdinLine(input: NodeJS.ReadStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) {
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    if (Buffer.concat(chunks).includes(0x0a)) break;
  }
  return (Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '').trimEnd();
}

/** Typed at the terminal with echo off; Ctrl-C or Ctrl-D cancels. */
export function promptHidden(
  prompt: string,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Promise<string> {
  return new Promise((resolve, reject) => {
    output.write(prompt);
    const wasRaw = input.isRaw;
    input.setRawMode(true);
    input.resume();
    let value = '';
    const done = (err?: Error) => {
      input.setRawMode(wasRaw);
      input.pause();
      input.removeListener('data', onData);
      output.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (buf: Buffer) => {
      for (const ch of buf.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003' || ch === '\u0004') return done(new Error('cancelado'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    input.on('data', onData);
  });
}
