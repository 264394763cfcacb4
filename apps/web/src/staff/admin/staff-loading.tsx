import Spinner from 'react-bootstrap/Spinner';

/** A tab waiting for its content (a lazily loaded page, its first answer): a spinner and its words. */
export function StaffLoading({ label }: { label: string }) {
  return (
    <div role="status" className="d-flex align-items-center gap-2 py-4">
      <Spinner animation="border" size="sm" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
