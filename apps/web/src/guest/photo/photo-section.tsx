// The photo section of the pass page (choose, crop, confirm, then the photo on the pass):
// choose a file here; crop, face check, preview and upload in a chunk of their own
// (react-image-crop, and face-api behind it), fetched when the guest opens the file picker.
import { lazy, Suspense, useEffect, useRef, useState, type ChangeEvent } from 'react';
import Button from 'react-bootstrap/Button';
import { MAX_PHOTO_BYTES, photoMessages } from '@boardwalk/contract/photo';
import type { PassOrder } from '@boardwalk/contract/pass';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { LoadingState } from '../../ui/loading-state.tsx';
import { preloadFaceApi } from './face-check.ts';
import { hasPhotoSection } from './photo-rules.ts';
import { replaceErrorMessage, resetErrorMessage, useReplacePhoto, useRequestPhotoReset } from './photo-api.ts';
import type { ChosenPhoto } from './photo-editor.tsx';
import './photo.css';

const loadPhotoEditor = () => import('./photo-editor.tsx');
const PhotoEditor = lazy(loadPhotoEditor);

export const photoTexts = {
  heading: 'Pass Photo',
  instructions:
    "Your season pass carries the passholder's photo: gate staff compare it with the guest at the gate. Choose a clear, recent photo of the passholder's face, looking at the camera.",
  fileTypes: 'JPG, PNG or GIF files are accepted, under 5 MB.',
  chooseLabel: 'Choose a photo',
  uploaded: 'Your photo has been uploaded to your pass.',
  hasPhoto: 'Your photo is on your pass.',
  replaceQuestion: 'Are you sure you want to replace your current photo?',
  resetQuestion:
    'Your pass has been activated, so our team will remove your current photo for you. Once it has been removed you can upload a new photo here. This can take up to 48 hours, and we will respond by email. Do you want to request a photo replacement?',
  fileUnreadable: photoMessages.previewFailed,
} as const;

/** The photo section, or nothing for an order that has none. */
export function PhotoSection({ order }: { order: PassOrder }) {
  const [chosen, setChosen] = useState<ChosenPhoto | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  if (!hasPhotoSection(order)) return null;

  let body;
  if (order.passLocked && !order.photoUid) {
    // Erased, then locked: a new photo (and name) only at Guest Services.
    body = (
      <p className="alert alert-info mb-0" role="status">
        {photoMessages.passLocked}
      </p>
    );
  } else if (order.photoUid) {
    body = <ExistingPhoto order={order} notice={notice} onReplaced={() => setNotice(photoMessages.replaced)} />;
  } else if (chosen) {
    body = (
      <Suspense fallback={<LoadingState label="Loading…" />}>
        <PhotoEditor
          order={order}
          photo={chosen}
          onCancel={() => setChosen(null)}
          onUploaded={() => {
            setChosen(null);
            setNotice(photoTexts.uploaded);
          }}
        />
      </Suspense>
    );
  } else {
    body = (
      <ChoosePhoto
        notice={notice}
        onChosen={(photo) => {
          setNotice(null);
          setChosen(photo);
        }}
      />
    );
  }
  return (
    <section className="photo-section panel" aria-labelledby="photo-heading">
      <h2 id="photo-heading" className="photo-section__heading">
        {photoTexts.heading}
      </h2>
      {body}
    </section>
  );
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('not read')));
    reader.onerror = () => reject(reader.error ?? new Error('not read'));
    reader.readAsDataURL(file);
  });
}

/** Step 1: the instructions and the file picker. */
function ChoosePhoto({ notice, onChosen }: { notice: string | null; onChosen: (photo: ChosenPhoto) => void }) {
  const [error, setError] = useState<string | null>(null);
  const preload = () => {
    void loadPhotoEditor();
    preloadFaceApi();
  };
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setError(null);
    if (file.size >= MAX_PHOTO_BYTES) {
      setError(photoMessages.fileTooLarge);
      input.value = '';
      return;
    }
    preload();
    try {
      onChosen({ name: file.name, size: file.size, type: file.type, dataUrl: await readAsDataUrl(file) });
    } catch {
      setError(photoTexts.fileUnreadable);
      input.value = '';
    }
  };
  return (
    <div className="photo-step">
      {notice ? (
        <p className="alert alert-success" role="status">
          {notice}
        </p>
      ) : null}
      <p className="photo-step__text">{photoTexts.instructions}</p>
      <label htmlFor="photo-file" className="form-label">
        {photoTexts.chooseLabel}
      </label>
      <input
        id="photo-file"
        type="file"
        accept="image/*"
        className="form-control"
        aria-describedby="photo-file-hint"
        onClick={preload}
        onChange={(event) => void choose(event)}
      />
      <small id="photo-file-hint" className="field-hint mt-1 mb-3">
        {photoTexts.fileTypes}
      </small>
      <LiveAlert message={error} />
    </div>
  );
}

/** A question that takes focus when it appears, so a screen reader reads it. */
function Question({ id, children }: { id: string; children: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <p ref={ref} id={id} tabIndex={-1} className="photo-confirm__question">
      {children}
    </p>
  );
}

/** Step 4: the photo is on the pass; Replace Photo before activation, Replace Photo Request after. */
function ExistingPhoto({ order, notice, onReplaced }: { order: PassOrder; notice: string | null; onReplaced: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const replace = useReplacePhoto(order);
  const reset = useRequestPhotoReset(order);

  if (order.isPassActivated) {
    return (
      <div className="photo-step">
        {reset.isSuccess ? (
          <p className="alert alert-success" role="status">
            {photoMessages.resetRequested}
          </p>
        ) : (
          <>
            <p className="photo-step__text">{photoTexts.hasPhoto}</p>
            {confirming ? (
              <div className="photo-confirm" role="group" aria-labelledby="reset-question">
                <Question id="reset-question">{photoTexts.resetQuestion}</Question>
                <LiveAlert message={reset.isError ? resetErrorMessage(reset.error) : null} />
                <div className="actions mt-0">
                  <Button variant="outline-secondary" onClick={() => (setConfirming(false), reset.reset())}>
                    Cancel
                  </Button>
                  <BusyButton variant="primary" busy={reset.isPending} busyLabel="Sending…" onClick={() => reset.mutate()}>
                    Send Request
                  </BusyButton>
                </div>
              </div>
            ) : (
              <Button variant="outline-primary" onClick={() => setConfirming(true)}>
                Replace Photo Request
              </Button>
            )}
          </>
        )}
      </div>
    );
  }
  return (
    <div className="photo-step">
      <p className="photo-step__text">{notice ?? photoTexts.hasPhoto}</p>
      {confirming ? (
        <div className="photo-confirm" role="group" aria-labelledby="replace-question">
          <Question id="replace-question">{photoTexts.replaceQuestion}</Question>
          <LiveAlert message={replace.isError ? replaceErrorMessage(replace.error) : null} />
          <div className="actions mt-0">
            <Button variant="outline-secondary" onClick={() => (setConfirming(false), replace.reset())}>
              Cancel
            </Button>
            <BusyButton
              variant="primary"
              busy={replace.isPending}
              busyLabel="Replacing…"
              onClick={() => replace.mutate(undefined, { onSuccess: onReplaced })}
            >
              Yes, Replace Photo
            </BusyButton>
          </div>
        </div>
      ) : (
        <Button variant="outline-primary" onClick={() => setConfirming(true)}>
          Replace Photo
        </Button>
      )}
    </div>
  );
}
