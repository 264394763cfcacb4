// The photo section of the pass page (choose, crop, confirm, then the photo on the pass):
// choose a file here; crop, face check, preview and upload in a chunk of their own
// (react-image-crop, and face-api behind it), fetched when the guest opens the file picker.
import { lazy, Suspense, useEffect, useRef, useState, type ChangeEvent } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslations } from 'use-intl';
import { MAX_PHOTO_BYTES } from '@boardwalk/contract/photo';
import type { PassOrder } from '@boardwalk/contract/pass';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { LoadingState } from '../../ui/loading-state.tsx';
import { preloadFaceApi } from './face-check.ts';
import { hasPhotoSection } from './photo-rules.ts';
import { usePhotoErrors, useReplacePhoto, useRequestPhotoReset } from './photo-api.ts';
import type { ChosenPhoto } from './photo-editor.tsx';
import './photo.css';

const loadPhotoEditor = () => import('./photo-editor.tsx');
const PhotoEditor = lazy(loadPhotoEditor);

/** What the section says after a change: the upload, the replacement (photo.uploaded, photo.replaced). */
type Notice = 'uploaded' | 'replaced';

/** The photo section, or nothing for an order that has none. */
export function PhotoSection({ order }: { order: PassOrder }) {
  const [chosen, setChosen] = useState<ChosenPhoto | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const t = useTranslations('photo');
  if (!hasPhotoSection(order)) return null;

  let body;
  if (order.passLocked && !order.photoUid) {
    // Erased, then locked: a new photo (and name) only at Guest Services.
    body = (
      <p className="alert alert-info mb-0" role="status">
        {t('passLocked')}
      </p>
    );
  } else if (order.photoUid) {
    body = <ExistingPhoto order={order} notice={notice} onReplaced={() => setNotice('replaced')} />;
  } else if (chosen) {
    body = (
      <Suspense fallback={<LoadingState label={t('loading')} />}>
        <PhotoEditor
          order={order}
          photo={chosen}
          onCancel={() => setChosen(null)}
          onUploaded={() => {
            setChosen(null);
            setNotice('uploaded');
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
    <section className="photo-section panel panel--wide" aria-labelledby="photo-heading">
      <h2 id="photo-heading" className="photo-section__heading">
        {t('heading')}
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
function ChoosePhoto({ notice, onChosen }: { notice: Notice | null; onChosen: (photo: ChosenPhoto) => void }) {
  const [error, setError] = useState<'fileTooLarge' | 'previewFailed' | null>(null);
  const t = useTranslations('photo');
  const errors = useTranslations('errors');
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
      setError('fileTooLarge');
      input.value = '';
      return;
    }
    preload();
    try {
      onChosen({ name: file.name, size: file.size, type: file.type, dataUrl: await readAsDataUrl(file) });
    } catch {
      setError('previewFailed');
      input.value = '';
    }
  };
  return (
    <div className="photo-step">
      {notice ? (
        <p className="alert alert-success" role="status">
          {t(notice)}
        </p>
      ) : null}
      <p className="photo-step__text">{t('instructions')}</p>
      <label htmlFor="photo-file" className="form-label">
        {t('chooseLabel')}
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
        {t('fileTypes')}
      </small>
      <LiveAlert message={error === 'fileTooLarge' ? errors('PAYLOAD_TOO_LARGE') : error && t(error)} />
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
function ExistingPhoto({ order, notice, onReplaced }: { order: PassOrder; notice: Notice | null; onReplaced: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const t = useTranslations('photo');
  const photoErrors = usePhotoErrors();
  const replace = useReplacePhoto(order);
  const reset = useRequestPhotoReset(order);

  if (order.isPassActivated) {
    return (
      <div className="photo-step">
        {reset.isSuccess ? (
          <p className="alert alert-success" role="status">
            {t('resetRequested')}
          </p>
        ) : (
          <>
            <p className="photo-step__text">{t('hasPhoto')}</p>
            {confirming ? (
              <div className="photo-confirm" role="group" aria-labelledby="reset-question">
                <Question id="reset-question">{t('resetQuestion')}</Question>
                <LiveAlert message={reset.isError ? photoErrors.reset(reset.error) : null} />
                <div className="actions mt-0">
                  <Button variant="outline-secondary" onClick={() => (setConfirming(false), reset.reset())}>
                    {t('cancel')}
                  </Button>
                  <BusyButton variant="primary" busy={reset.isPending} busyLabel={t('sending')} onClick={() => reset.mutate()}>
                    {t('sendRequest')}
                  </BusyButton>
                </div>
              </div>
            ) : (
              <Button variant="outline-primary" onClick={() => setConfirming(true)}>
                {t('resetRequest')}
              </Button>
            )}
          </>
        )}
      </div>
    );
  }
  return (
    <div className="photo-step">
      <p className="photo-step__text">{t(notice ?? 'hasPhoto')}</p>
      {confirming ? (
        <div className="photo-confirm" role="group" aria-labelledby="replace-question">
          <Question id="replace-question">{t('replaceQuestion')}</Question>
          <LiveAlert message={replace.isError ? photoErrors.replace(replace.error) : null} />
          <div className="actions mt-0">
            <Button variant="outline-secondary" onClick={() => (setConfirming(false), replace.reset())}>
              {t('cancel')}
            </Button>
            <BusyButton
              variant="primary"
              busy={replace.isPending}
              busyLabel={t('replacing')}
              onClick={() => replace.mutate(undefined, { onSuccess: onReplaced })}
            >
              {t('confirmReplace')}
            </BusyButton>
          </div>
        </div>
      ) : (
        <Button variant="outline-primary" onClick={() => setConfirming(true)}>
          {t('replace')}
        </Button>
      )}
    </div>
  );
}
