// SPEC §2's 500 page, for a crash inside an island: the rest of the page keeps working.
import { Component, type ErrorInfo, type ReactNode } from 'react';

export function ErrorMessage({ message }: { message: string }) {
  return (
    <div role="alert" className="island-error">
      <p>
        <strong>Sorry, something went wrong.</strong>
      </p>
      <p>{message}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        Refresh Page
      </button>
    </div>
  );
}

export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Island crashed', error, info.componentStack);
  }

  override render() {
    return this.state.error ? <ErrorMessage message={this.state.error.message} /> : this.props.children;
  }
}
