import { Suspense, useEffect, useRef } from 'react';
import { AppInfoProvider } from './appInfo';
import { AREAS, DEFAULT_AREA } from './areas';
import { ErrorBoundary } from './components/ErrorBoundary';
import { HelpOverlay } from './components/HelpOverlay';
import { ShortcutsProvider, displayCombo, useShortcut } from './components/Shortcuts';
import { LoadingState } from './components/States';
import { StatusBar } from './components/StatusBar';
import { ToastProvider } from './components/Toast';
import { hrefFor, navigate, useRoute } from './router';

function AreaShortcut({ id, label, digit }: { id: string; label: string; digit: number }) {
  useShortcut(`Alt+${digit}`, () => navigate(id), {
    description: `Ir para ${label}`,
    group: 'Navegação',
  });
  return null;
}

function Shell() {
  const route = useRoute();
  const area = AREAS.find((a) => a.id === route.area);
  const mainRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!area) navigate(DEFAULT_AREA);
  }, [area]);

  return (
    <div className="app">
      <a
        className="skip-link"
        href="#conteudo"
        onClick={(e) => {
          e.preventDefault();
          mainRef.current?.focus();
        }}
      >
        Pular para o conteúdo
      </a>
      <nav className="sidebar" aria-label="Áreas">
        <div className="brand" aria-hidden="true">
          Balcão
        </div>
        <ul>
          {AREAS.map((a) => (
            <li key={a.id}>
              <a
                href={hrefFor(a.id)}
                aria-current={a.id === area?.id ? 'page' : undefined}
                title={`${a.label} (${displayCombo(`Alt+${a.digit}`)})`}
              >
                <span>{a.label}</span>
                <kbd aria-hidden="true">{displayCombo(`Alt+${a.digit}`)}</kbd>
              </a>
              <AreaShortcut id={a.id} label={a.label} digit={a.digit} />
            </li>
          ))}
        </ul>
      </nav>
      <main id="conteudo" className="content" ref={mainRef} tabIndex={-1}>
        <ErrorBoundary key={area?.id}>
          <Suspense fallback={<LoadingState label="Abrindo…" />}>
            {area ? area.render(route) : null}
          </Suspense>
        </ErrorBoundary>
      </main>
      <StatusBar />
      <HelpOverlay />
    </div>
  );
}

export function App() {
  return (
    <ShortcutsProvider>
      <ToastProvider>
        <AppInfoProvider>
          <Shell />
        </AppInfoProvider>
      </ToastProvider>
    </ShortcutsProvider>
  );
}
