/** A wide staff table scrolls sideways on a phone: the region takes keyboard focus so it can be scrolled without a pointer. */
export function ScrollRegion({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <div className={`table-responsive staff-scroll ${className ?? ''}`} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
