/**
 * An error message in a live region that is always in the page, so screen readers announce
 * each new message (a region inserted together with its text is often not announced).
 */
export function LiveAlert({ message, className }: { message: string | null | undefined; className?: string }) {
  return (
    <div role="alert" aria-atomic="true" className={className}>
      {message ? <div className="alert alert-danger mb-3">{message}</div> : null}
    </div>
  );
}
