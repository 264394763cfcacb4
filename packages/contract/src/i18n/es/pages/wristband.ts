import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/wristband.ts';

export default {
  heading: 'Active su pulsera',
  intro: 'Escriba el número de pedido y el código de barras del boleto de su pulsera, que aparecen en su correo de confirmación.',
  form: 'Activación de la pulsera',
  codeLabel: 'Código de la pulsera',
  codeHint: 'Las 16 letras y números impresos en su pulsera',
  codeInvalid: 'El código de la pulsera debe tener 16 letras o números',
  activate: 'Activar',
  activating: 'Activando…',
  active: 'Su pulsera está activa.',
  lost: '¿Perdió su pulsera? Visite Atención al Visitante para recibir una nueva.',
  validThrough: 'Válida hasta el {date}',
  validForever: 'Válida sin fecha de vencimiento',
  redeemed: 'Este boleto ya se utilizó. Intente de nuevo o visite Atención al Visitante para recibir ayuda.',
  notWristband: 'Este boleto no es para una pulsera. Intente de nuevo o visite Atención al Visitante para recibir ayuda.',
  alreadyActivatedThrough: 'Esta pulsera ya se activó y se puede usar hasta el {date}. Deséchela y tome una nueva.',
  alreadyActivatedForever: 'Esta pulsera ya se activó y se puede usar sin fecha de vencimiento. Deséchela y tome una nueva.',
  deactivated: 'Esta pulsera se desactivó y ya no se puede usar. Deséchela y tome una nueva.',
  unauthorized: 'No puede activar esta pulsera usted mismo. Visite Atención al Visitante para recibir ayuda.',
  expired: 'El intento de activación venció. Actualice la página e intente de nuevo.',
  failed: 'No se pudo activar esta pulsera. Visite Atención al Visitante para recibir ayuda.',
  networkError: 'Error al activar la pulsera',
} as const satisfies Translation<typeof en>;
