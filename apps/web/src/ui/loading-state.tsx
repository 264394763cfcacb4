import Spinner from 'react-bootstrap/Spinner';

/** A page that is waiting for its content; its label is the page's heading meanwhile. */
export function LoadingState({ label }: { label: string }) {
  return (
    <div className="loading-state" role="status">
      <Spinner animation="border" aria-hidden="true" />
      <h1 className="loading-state__label">{label}</h1>
    </div>
  );
}
