import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorState } from './States';

/**
 * A page that crashes while rendering shows a pt-BR error instead of a blank window; the rest
 * of the shell (navigation, status bar) keeps working. Keyed by area, so leaving resets it.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('erro ao desenhar a página', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <ErrorState
        title="Esta tela encontrou um erro"
        error={{ message: 'Tente de novo; se o erro continuar, reinicie o Balcão.' }}
        onRetry={() => this.setState({ failed: false })}
      />
    );
  }
}
