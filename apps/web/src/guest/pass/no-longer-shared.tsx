import { PageHeading } from '../../ui/page-heading.tsx';
import { passTexts } from '../ticket/pass-rules.ts';
import { StartOverActions } from '../ticket/start-over.tsx';

/** A share link whose share was stopped (the server answers 410). */
export function NoLongerShared({ onStartOver }: { onStartOver: () => void }) {
  return (
    <section className="panel panel--narrow" aria-labelledby="not-shared-heading">
      <PageHeading id="not-shared-heading">{passTexts.noLongerShared}</PageHeading>
      <p>
        The guest who shared this pass with you has stopped sharing it. Ask them to share it again, or find your own ticket with its order
        ID and barcode.
      </p>
      <StartOverActions variant="primary" onStartOver={onStartOver} />
    </section>
  );
}
