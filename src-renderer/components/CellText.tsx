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

/**
 * An identifier (a login, an e-mail) that may wrap after its dots, @ and underscores instead of
 * widening its column or breaking mid-word: "maria.fernanda." / "albuquerque".
 */
export function BreakableText({ text }: { text: string }) {
  const parts = text.split(/(?<=[.@_])/);
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
