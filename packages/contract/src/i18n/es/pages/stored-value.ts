import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/stored-value.ts';

export default {
  heading: 'Tarjeta de saldo',
  loading: 'Cargando su tarjeta…',
  credits: 'Créditos',
  cash: 'Efectivo',
  todayHeading: 'Atracciones de hoy',
  time: 'Hora',
  attraction: 'Atracción',
  location: 'Lugar',
  empty: 'Todavía no ha visitado ninguna atracción con esta tarjeta hoy.',
  resets: 'El historial de atracciones abarca solo el día de operación en curso y se reinicia a las <nowrap>2:00 a.m.</nowrap>',
  failureHeading: 'No se pudieron obtener los datos de la tarjeta',
  failureText: 'Puede ser un problema de su tarjeta o de nuestros sistemas. Intente de nuevo más tarde.',
  tryAgain: 'Intentar de nuevo',
} as const satisfies Translation<typeof en>;
