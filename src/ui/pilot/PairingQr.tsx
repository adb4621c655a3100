import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** The QR code of `text` (the pairing link), an SVG image; nothing until it is made. */
export function PairingQr({ text, label }: { text: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } }).then(
      (svg) => {
        if (current) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      },
      () => {
        if (current) setSrc(null);
      },
    );
    return () => {
      current = false;
    };
  }, [text]);
  if (!src) return <div className="pilot-qr pilot-qr--empty" aria-hidden="true" />;
  return <img className="pilot-qr" src={src} alt={label} width={192} height={192} />;
}
