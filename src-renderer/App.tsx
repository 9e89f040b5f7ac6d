import { Suspense, useEffect, useRef } from 'react';
import { AppInfoProvider } from './appInfo';
import { AREAS, DEFAULT_AREA } from './areas';
import { ErrorBoundary } from './components/ErrorBoundary';
import { CommandPalette } from './components/CommandPalette';
import { HelpOverlay } from './components/HelpOverlay';
import { ShortcutsProvider, displayCombo, useCommand, useShortcut } from './components/Shortcuts';
import { LoadingState } from './components/States';
import { StatusBar } from './components/StatusBar';
import { ToastProvider } from './components/Toast';
import { hrefFor, navigate, parseRoute, useRoute } from './router';
import { papeisLabel } from '@shared/permissions';
import { SessionProvider, usePermissions, useSession } from './session/session';

/** Who is signed in, and "Sair" where people sign in (not on the embedded default). */
function PersonBox() {
  const { view, signOut } = useSession();
  if (view.modo !== 'pessoal') return null;
  return (
    <div className="sidebar-person" aria-label="Pessoa conectada">
      <div>
        <strong>{view.login}</strong>
      </div>
      <div className="muted">{papeisLabel(view.papeis)}</div>
      {view.podeSair ? (
        <button type="button" onClick={() => void signOut()}>
          Sair
        </button>
      ) : null}
    </div>
  );
}

function AreaShortcut({ id, label, digit }: { id: string; label: string; digit: number }) {
  useShortcut(`Alt+${digit}`, () => navigate(id), {
    description: `Ir para ${label}`,
    group: 'Navegação',
  });
  return null;
}

/** The report tabs, from the command palette: only those the person may read. */
function ReportCommands() {
  const { can } = usePermissions();
  useCommand('Relatório: falhas de validação', () => navigate('relatorio'), {
    group: 'Navegação',
    enabled: can('fila'),
  });
  useCommand('Relatório: perguntas de vendas', () => navigate('relatorio', 'perguntas'), {
    group: 'Navegação',
    enabled: can('vendas'),
  });
  return null;
}

function Shell() {
  const route = useRoute();
  const { canAny } = usePermissions();
  // The UI shows only what the person may do (main refuses the rest anyway).
  const areas = AREAS.filter((a) => !a.requires || canAny(a.requires));
  const area = areas.find((a) => a.id === route.area);
  const mainRef = useRef<HTMLElement>(null);
  const fallback = areas.some((a) => a.id === DEFAULT_AREA) ? DEFAULT_AREA : areas[0]?.id;

  useEffect(() => {
    // Re-read the hash: it may have changed between this render and the effect.
    const current = parseRoute(window.location.hash).area;
    if (!areas.some((a) => a.id === current) && fallback) navigate(fallback);
  }, [area, areas, fallback]);

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
          {areas.map((a) => (
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
        <PersonBox />
        <ReportCommands />
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
      <CommandPalette />
    </div>
  );
}

export function App() {
  return (
    <ShortcutsProvider>
      <ToastProvider>
        <SessionProvider>
          <AppInfoProvider>
            <Shell />
          </AppInfoProvider>
        </SessionProvider>
      </ToastProvider>
    </ShortcutsProvider>
  );
}
