import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/wallet.ts';

// "Agregar a Apple Wallet" y "Agregar a Google Wallet": las insignias oficiales en español de América Latina.
export default {
  appleSmall: 'Agregar a',
  appleLarge: 'Apple Wallet',
  google: 'Agregar a Google Wallet',
  printVoucher: 'Imprimir comprobante',
  hint: 'Use un dispositivo móvil para agregar el pase a su billetera digital',
  busy: 'Generando el pase. Espere, por favor...',
  viewPass: 'Ver su pase',
  networkError: 'No se pudo procesar su solicitud',
  loyaltyLink: {
    expired: 'Este enlace del pase venció. Vuelva a registrar una compra o pida un enlace nuevo en Atención al Visitante.',
    invalid: 'Este enlace del pase no es válido para ese correo.',
  },
} as const satisfies Translation<typeof en>;
