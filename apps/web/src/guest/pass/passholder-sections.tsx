// A passholder's own sections of the pass page, one chunk: their visit reservations (nothing
// shows for a pass that needs none) and their photo (nothing for a pass that takes none).
import type { PassOrder } from '@boardwalk/contract/pass';
import { PhotoSection } from '../photo/photo-section.tsx';
import { VisitsSection } from '../visits/visits-section.tsx';

export function PassholderSections({ order }: { order: PassOrder }) {
  return (
    <>
      <VisitsSection order={order} />
      <PhotoSection order={order} />
    </>
  );
}
