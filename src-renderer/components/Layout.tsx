import { useEffect, useRef, type ReactNode } from 'react';

/** Page frame used by every area: a title row (with optional actions) and the content. */
export function Page({
  title,
  subtitle,
  actions,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A new page takes focus at its heading, so keyboard and screen-reader users follow along.
  useEffect(() => heading.current?.focus({ preventScroll: true }), []);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <div>
          <h1 id="page-title" tabIndex={-1} ref={heading}>
            {title}
          </h1>
          {subtitle ? <p className="page-subtitle">{subtitle}</p> : null}
        </div>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      <div className="page-body">{children}</div>
    </section>
  );
}
