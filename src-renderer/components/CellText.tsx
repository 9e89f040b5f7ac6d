/**
 * A table cell's text that must stay on one line (the virtual queue's rows): cut with an
 * ellipsis when the column is narrower, the whole text in its title (#40.3, #42.5).
 */
export function CellText({ text, className }: { text: string; className?: string }) {
  return (
    <span className={className ? `cell-clip ${className}` : 'cell-clip'} title={text}>
      {text}
    </span>
  );
}

/** Where an identifier may wrap: after a dot, @, underscore or slash, and at a timestamp's T. */
const BREAKS = /(?<=[.@_/])|(?<=\dT)(?=\d)/;

/** `text` in the pieces it may wrap between (joined, they are `text` again). */
export function wrapPoints(text: string): string[] {
  return text.split(BREAKS);
}

/**
 * An identifier (a login, an e-mail, a column name, a timestamp) that may wrap at its natural
 * joints instead of widening its column or breaking mid-word: "maria.fernanda." / "albuquerque",
 * "primeira_venda_" / "aprovada".
 */
export function BreakableText({ text }: { text: string }) {
  const parts = wrapPoints(text);
  return (
    <>
      {parts.map((p, i) => (
        <span key={i}>
          {p}
          {i < parts.length - 1 ? <wbr /> : null}
        </span>
      ))}
    </>
  );
}
