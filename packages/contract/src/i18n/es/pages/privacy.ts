import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/privacy.ts';

export default {
  heading: 'Sus datos',
  networkError: 'No pudimos conectar con el servidor. Revise su conexión e intente de nuevo.',
  request: {
    intro:
      'Vea todo lo que {brand, select, none {tenemos} other {{brand} tiene}} sobre usted (boletos, registros, boletos compartidos, fotos, puntos Brownie, correos), descárguelo o elimínelo. Escriba su correo y le enviaremos un enlace.',
    sent: 'Si tenemos algún dato sobre <strong>{email}</strong>, ya le enviamos un enlace. Funciona durante {hours, number} horas.',
    sentHint:
      '¿No le llegó nada en unos minutos? Revise su carpeta de correo no deseado o pruebe con el correo que usó para sus boletos o su membresía.',
    failure: 'No pudimos enviar el enlace en este momento. Intente de nuevo o escriba a {supportEmail}.',
    failureNoSite: 'No pudimos enviar el enlace en este momento. Intente de nuevo.',
  },
  refused: {
    tokenRequired: 'Abra el enlace de su correo para ver sus datos.',
    expired: 'Este enlace venció: los enlaces funcionan durante 24 horas. Pida uno nuevo aquí abajo.',
    invalid: 'Este enlace no es válido. Pida uno nuevo aquí abajo.',
    spent: 'Este enlace se usó para eliminar sus datos y ya no funciona. Pida uno nuevo aquí abajo.',
  },
  loading: 'Cargando sus datos...',
  loadFailed: 'No pudimos cargar sus datos en este momento. Intente de nuevo; si el problema continúa, escriba a {supportEmail}.',
  tryAgain: 'Intentar de nuevo',
  intro: 'Lo que tenemos sobre <strong>{email}</strong>.',
  nothing: 'No tenemos ningún dato sobre este correo.',
  groups: {
    tickets: 'Boletos',
    consents: 'Consentimientos de marketing',
    sharesMade: 'Boletos que compartió',
    sharesReceived: 'Boletos compartidos con usted',
    photos: 'Fotos',
    wristbands: 'Pulseras',
    visitReservations: 'Reservas de visita',
    loyalty: 'Puntos Brownie',
    hotelReservations: 'Estancias en el hotel',
    mails: 'Correos que le enviamos',
    wallet: 'Pases en su billetera',
  },
  lines: {
    ticket: '{product}, pedido {orderId}, código de barras {barcode} ({roles})',
    roles: { purchaser: 'comprador', holder: 'titular', registrant: 'quien lo registró', none: 'suyo' },
    consent:
      '{channel, select, sms {Mensajes de texto} other {Noticias por correo}}: {given, select, yes {sí} other {no}} (boleto {barcode})',
    consentChange: '; {given, select, yes {otorgado} other {retirado}} el {date}',
    shareMade: '{barcode} con {name}',
    shareReceived: '{barcode}, desde el {date}{stopped, select, yes { (detenido)} other {}}',
    photo: 'Foto del pase de temporada {barcode}, {date}',
    wristband: '{wristband} en {barcode}',
    visitReservation:
      '{barcode}: {date}, {status, select, booked {reservada} waitlisted {en lista de espera} cancelled {cancelada} used {usada} other {no usada}}',
    loyalty:
      'Socio {memberNumber}: {points, plural, one {# punto} other {# puntos}}, {entries, plural, one {# movimiento} other {# movimientos}}',
    hotelReservation: 'Reservación {number}, del {arrival} al {departure}',
    mail: '{subject}, {date}',
    wallet:
      '{pass, select, member {Tarjeta de socio} other {Pase {barcode}}}: Apple Wallet en {devices, plural, one {# dispositivo} other {# dispositivos}}',
  },
  download: 'Descargar mis datos',
  delete: 'Eliminar mis datos',
  confirm: {
    heading: '¿Eliminar sus datos?',
    goes: 'Esto elimina sus nombres, correo, celular, fotos y consentimientos de marketing, y detiene los boletos compartidos con usted. No se puede deshacer.',
    kept: 'Se conservan: sus pedidos y boletos como registros de compra sin su nombre (un boleto que sigue vigente sigue funcionando) y sus puntos Brownie con su número de socio, que ya nadie podrá buscar con su correo.',
    keep: 'Conservar mis datos',
    yes: 'Sí, eliminar',
    busy: 'Eliminando...',
    close: 'Cerrar',
    failure: 'No pudimos eliminar sus datos en este momento. Intente de nuevo o escriba a {supportEmail}.',
  },
  deleted: {
    heading: 'Se eliminaron sus datos',
    text: 'Sus nombres, correo, celular, fotos y consentimientos de marketing ya no están, y se detuvieron los boletos compartidos con usted. Sus pedidos y boletos quedan como registros de compra sin su nombre; un boleto que sigue vigente sigue funcionando.',
    orders:
      'Sus boletos vienen de nuestro sistema de venta de boletos con el pedido {orders}. Si desea que también se borren allí, escriba a {supportEmail}.',
  },
} as const satisfies Translation<typeof en>;
