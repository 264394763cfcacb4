// Steps 2 and 3 of the photo section (after choosing a file, before the photo is on the pass):
// crop (react-image-crop) with the face check, then the server's preview to confirm and
// upload. Loaded on demand by photo-section.tsx.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { ReactCrop, type PercentCrop } from 'react-image-crop';
import 'react-image-crop/dist/ReactCrop.css';
import { useTranslations } from 'use-intl';
import { PHOTO_ASPECT_RATIO, type PhotoCrop, type PreviewAnswer } from '@boardwalk/contract/photo';
import type { PassOrder } from '@boardwalk/contract/pass';
import { BusyButton } from '../../ui/busy-button.tsx';
import { LiveAlert } from '../../ui/live-alert.tsx';
import { detectFaces, faceMessage } from './face-check.ts';
import { usePhotoErrors, usePreviewPhoto, useUploadPhoto } from './photo-api.ts';
import { initialCrop, type Box } from './photo-crop.ts';

/** The file the guest chose, read whole. */
export interface ChosenPhoto {
  name: string;
  size: number;
  type: string;
  dataUrl: string;
}

/** The crop library's keyboard-operable frame and handles, each labelled from photo.cropLabels. */
const CROP_HANDLES = [
  'cropArea',
  'nwDragHandle',
  'nDragHandle',
  'neDragHandle',
  'eDragHandle',
  'seDragHandle',
  'sDragHandle',
  'swDragHandle',
  'wDragHandle',
] as const;
type CropHandle = (typeof CROP_HANDLES)[number];

function toPercentCrop(box: Box, imageWidth: number, imageHeight: number): PercentCrop {
  return {
    unit: '%',
    x: (box.x / imageWidth) * 100,
    y: (box.y / imageHeight) * 100,
    width: (box.width / imageWidth) * 100,
    height: (box.height / imageHeight) * 100,
  };
}

/** The crop in the image's natural pixels, which the server applies to the file. */
function toNaturalCrop(crop: PercentCrop, image: HTMLImageElement): PhotoCrop {
  const { naturalWidth: w, naturalHeight: h } = image;
  return { x: (crop.x / 100) * w, y: (crop.y / 100) * h, width: (crop.width / 100) * w, height: (crop.height / 100) * h };
}

/** A step's heading, focused when the step appears. */
function StepHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h3 ref={ref} tabIndex={-1} className="photo-step__heading">
      {children}
    </h3>
  );
}

type FaceCheck = { state: 'checking' } | { state: 'done'; message: ReturnType<typeof faceMessage> };

interface PhotoEditorProps {
  order: PassOrder;
  photo: ChosenPhoto;
  onCancel: () => void;
  onUploaded: () => void;
}

export default function PhotoEditor({ order, photo, onCancel, onUploaded }: PhotoEditorProps) {
  const [crop, setCrop] = useState<PercentCrop>();
  const [faceCheck, setFaceCheck] = useState<FaceCheck>({ state: 'checking' });
  const [preview, setPreview] = useState<PreviewAnswer | null>(null);
  const [imageError, setImageError] = useState(false);
  const t = useTranslations('photo');
  const photoErrors = usePhotoErrors();
  const imageRef = useRef<HTMLImageElement>(null);
  const previewCall = usePreviewPhoto();
  const uploadCall = useUploadPhoto();

  const checkFaces = async (image: HTMLImageElement) => {
    const { naturalWidth: w, naturalHeight: h } = image;
    let faces: Box[] | null = null;
    try {
      faces = await detectFaces(image);
    } catch {
      // face-api could not load or run here: the guest crops from the 90% frame, unwarned.
    }
    if (!image.isConnected) return;
    setCrop((current) => current ?? toPercentCrop(initialCrop(faces ?? [], w, h), w, h));
    setFaceCheck({ state: 'done', message: faces ? faceMessage(faces.length) : null });
  };

  const canPreview = Boolean(crop && crop.width > 0 && crop.height > 0);
  const showPreview = () => {
    const image = imageRef.current;
    if (!crop || !image || !canPreview) return;
    previewCall.mutate(
      {
        filename: photo.name.slice(-255),
        filesize: photo.size,
        filetype: photo.type.slice(0, 255),
        data: photo.dataUrl,
        crop: toNaturalCrop(crop, image),
        orderId: order.orderId,
        barcode: order.barcode,
        uid: order.photoUid ?? '',
      },
      { onSuccess: setPreview },
    );
  };

  const upload = () => {
    if (!preview) return;
    uploadCall.mutate(
      {
        filename: photo.name.slice(-255),
        filesize: preview.size,
        filetype: 'image/bmp',
        data: preview.base64,
        orderId: order.orderId,
        barcode: order.barcode,
        uid: '',
      },
      { onSuccess: onUploaded },
    );
  };

  if (preview) {
    return (
      <div className="photo-step" data-step="confirm">
        <StepHeading>{t('confirmHeading')}</StepHeading>
        <figure className="photo-preview">
          <img src={`data:image/bmp;base64,${preview.base64}`} alt={t('previewAlt')} className="photo-preview__image" />
          <figcaption className="photo-preview__note">{t('blurry')}</figcaption>
        </figure>
        <p className="photo-step__text photo-step__text--strong">{t('guestServices')}</p>
        <LiveAlert message={uploadCall.isError ? photoErrors.upload(uploadCall.error) : null} />
        <div className="actions mt-0">
          <Button
            variant="outline-secondary"
            disabled={uploadCall.isPending}
            onClick={() => {
              uploadCall.reset();
              previewCall.reset();
              setPreview(null);
            }}
          >
            {t('tryAgain')}
          </Button>
          <BusyButton variant="primary" busy={uploadCall.isPending} busyLabel={t('uploading')} onClick={upload}>
            {t('upload')}
          </BusyButton>
        </div>
      </div>
    );
  }

  const message = faceCheck.state === 'done' ? faceCheck.message : null;
  return (
    <div className="photo-step" data-step="crop">
      <StepHeading>{t('cropHeading')}</StepHeading>
      <p className="photo-step__text">{t('cropHint')}</p>
      <div role="status" className="photo-step__status">
        {faceCheck.state === 'checking' ? <p className="photo-step__checking">{t('checking')}</p> : null}
        {message ? (
          <p className="alert alert-warning mb-3" data-testid="face-message">
            {t(message)}
          </p>
        ) : null}
      </div>
      <div className="photo-crop">
        <ReactCrop
          crop={crop}
          aspect={PHOTO_ASPECT_RATIO}
          keepSelection
          ruleOfThirds
          minWidth={24}
          ariaLabels={Object.fromEntries(CROP_HANDLES.map((key) => [key, t(`cropLabels.${key}`)])) as Record<CropHandle, string>}
          onChange={(_, percent) => setCrop(percent)}
        >
          <img
            ref={imageRef}
            src={photo.dataUrl}
            alt={t('imageAlt')}
            className="photo-crop__image"
            onLoad={(event) => void checkFaces(event.currentTarget)}
            onError={() => {
              setImageError(true);
              setFaceCheck({ state: 'done', message: null });
            }}
          />
        </ReactCrop>
      </div>
      <LiveAlert message={imageError ? t('previewFailed') : previewCall.isError ? photoErrors.preview(previewCall.error) : null} />
      <div className="actions mt-0">
        <Button variant="outline-secondary" onClick={onCancel} disabled={previewCall.isPending}>
          {t('cancel')}
        </Button>
        <BusyButton
          variant="primary"
          busy={previewCall.isPending}
          busyLabel={t('preparingPreview')}
          disabled={!canPreview || imageError}
          onClick={showPreview}
        >
          {t('preview')}
        </BusyButton>
      </div>
    </div>
  );
}
