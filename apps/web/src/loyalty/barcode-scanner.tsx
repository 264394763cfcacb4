// The camera scanner overlay: the rear camera at 1080 x 1080 or more, EAN and Code 128, about
// 50 scans a second; a code of 16 or 18 characters is taken and the camera stops. Quagga2
// (maintained, self-contained: nothing loads from a content network) is fetched only when the
// overlay opens, so it never weighs on the guest pages' first load. Camera and scanner errors
// are only logged; the typed field always stays available.
import { useEffect, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { isScannedCode } from '@boardwalk/contract/loyalty';
import type { ScanTexts } from './claim-form.tsx';
import './barcode-scanner.css';

interface BarcodeScannerProps {
  /** Its words: the title ("Scan your check number"), the hint under the camera, Close. */
  texts: Pick<ScanTexts, 'title' | 'hint' | 'close'>;
  onCode: (code: string) => void;
  onClose: () => void;
}

export function BarcodeScanner({ texts, onCode, onClose }: BarcodeScannerProps) {
  const viewport = useRef<HTMLDivElement>(null);
  const onCodeRef = useRef(onCode);
  useEffect(() => {
    onCodeRef.current = onCode;
  });

  useEffect(() => {
    let stopped = false;
    let stop: () => Promise<void> = async () => undefined;
    void (async () => {
      try {
        const { default: Quagga } = await import('@ericblade/quagga2');
        if (stopped || !viewport.current) return;
        await Quagga.init({
          inputStream: {
            type: 'LiveStream',
            target: viewport.current,
            constraints: { facingMode: 'environment', width: { min: 1080 }, height: { min: 1080 } },
          },
          frequency: 50,
          numOfWorkers: 4,
          locate: true,
          decoder: { readers: ['ean_reader', 'code_128_reader'] },
        });
        stop = () => Quagga.stop();
        if (stopped) return void (await stop());
        Quagga.onDetected((result) => {
          const code = result.codeResult.code;
          if (stopped || !code || !isScannedCode(code)) return;
          stopped = true;
          void stop().finally(() => onCodeRef.current(code));
        });
        Quagga.start();
      } catch (error) {
        console.warn('barcode scanner:', error);
      }
    })();
    return () => {
      stopped = true;
      void stop().catch((error: unknown) => console.warn('barcode scanner:', error));
    };
  }, []);

  return (
    <Modal show fullscreen="sm-down" onHide={onClose} aria-labelledby="scanner-title">
      <Modal.Header>
        <Modal.Title id="scanner-title">{texts.title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <div ref={viewport} className="barcode-scanner__viewport" data-testid="scanner-viewport" />
        <p className="text-body-secondary mt-2 mb-0">{texts.hint}</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          {texts.close}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
