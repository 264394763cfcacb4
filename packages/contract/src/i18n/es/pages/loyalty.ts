import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/loyalty.ts';

export default {
  heading: 'Puntos Brownie',
  submit: 'Enviar',
  submitting: 'Enviando sus datos...',
  back: 'Volver',
  backHome: 'Volver a Puntos Brownie',
  startOver: 'Empezar de nuevo',
  downloadApp:
    'Descargue nuestra aplicación móvil y termine de configurar su cuenta con el mismo correo para ver y usar sus puntos Brownie.',
  failure: 'No se pudo enviar. Intente de nuevo más tarde. Si el problema continúa, escríbanos a {supportEmail} para recibir ayuda.',
  signIn: {
    intro:
      'Gane puntos Brownie con sus boletos del parque, sus alimentos y bebidas, y sus estancias en el hotel. Escriba su correo para empezar.',
    email: 'Correo',
    continue: 'Continuar',
    member: '¿Ya es socio? <link>Ver mis puntos</link>',
  },
  code: {
    heading: 'Revise su correo',
    intro:
      'Enviamos un código de 6 dígitos a <strong>{email}</strong>. Escríbalo para continuar. Es válido por {minutes, plural, one {# minuto} other {# minutos}}.',
    label: 'Código',
    hint: '6 dígitos, de nuestro correo',
    confirm: 'Confirmar',
    sendAgain: 'Enviar un código nuevo',
    sending: 'Enviando...',
    resent: 'Le enviamos un código nuevo. Solo funciona el más reciente.',
    wrongCode: 'Este código no es correcto. Revise el último correo que le enviamos e intente de nuevo.',
    expired: 'Este código venció o se intentó demasiadas veces. Pida un código nuevo.',
    proofRequired: 'Primero confirme su correo con el código que le enviamos.',
  },
  referral: {
    unknown: 'Este enlace de invitación no es válido.',
    self: 'No puede usar su propio enlace de invitación.',
    existing: 'Los enlaces de invitación son para socios nuevos: este correo ya tiene una cuenta.',
    capped: 'Este enlace de invitación ya se usó todas las veces posibles este mes.',
    noCampaign: 'Las invitaciones no están disponibles por ahora.',
  },
  join: {
    heading: 'Únase a Puntos Brownie',
    intro: 'No encontramos una cuenta para <strong>{email}</strong>. Díganos su nombre para unirse.',
    firstName: 'Nombre',
    lastName: 'Apellido',
    birthday: 'Cumpleaños (opcional)',
    birthMonth: 'Mes',
    birthDay: 'Día',
    birthdayHint: 'En su cumpleaños le regalamos puntos en su cuenta.',
    referred: 'Un socio lo invitó: cuando agregue su primera compra, ambos ganan puntos de bonificación.',
    withoutReferral: 'Unirse sin la invitación',
    conflict: 'No se pudo crear su perfil. Intente de nuevo más tarde...',
  },
  home: {
    intro: 'Inició sesión como <strong>{email}</strong>. ¿Qué desea agregar?',
    choices: 'Compras para agregar',
    statement: 'Mis puntos: saldo, historial y recompensas',
    passes: 'Agregar un boleto o pase a su billetera digital',
    logOut: 'Cerrar sesión',
  },
  claims: {
    tickets: {
      title: 'Compra de boletos en el parque',
      label: 'Número de pedido o de factura',
      hint: '8 dígitos, de su correo de confirmación',
      scan: 'Escanee el código de barras de su boleto',
    },
    purchase: {
      title: 'Compra de alimentos y bebidas',
      label: 'Número de ticket',
      hint: 'Impreso en su recibo',
      scan: 'Escanee el número de su ticket',
    },
    hotels: {
      title: 'Reservación de hotel',
      label: 'Número de reservación',
      hint: 'De la confirmación de su reservación',
    },
  },
  claim: {
    intro: 'Agregue una compra para ganar puntos Brownie. Cada compra se puede agregar una sola vez.',
    existingAccount:
      'Usted ya tiene una cuenta de socio. Para agregar una compra, escriba a {supportEmail} con su número de socio y su número de reservación, y nuestro equipo la agregará por usted.',
    alreadyClaimed:
      'Usted ya agregó una compra en línea. Para agregar más, escriba a {supportEmail} con su número de socio y su número de pedido, de ticket o de reservación.',
    membershipId: 'Número de socio: <strong>{userID}</strong>',
    candidates: 'Varios tickets tienen este número. ¿Cuál es el suyo?',
    terminal: 'Terminal {terminal}',
    add: 'Agregar',
    added: 'Agregado',
    scan: {
      button: 'Escanear código',
      hint: 'Mantenga el código de barras dentro del recuadro. También puede escribir el número.',
      close: 'Cerrar',
    },
  },
  refused: {
    unknownAccount: 'No encontramos esa cuenta de socio. Empiece de nuevo.',
    emailMismatch: 'Ese correo no corresponde a esta cuenta de socio. Empiece de nuevo.',
    notPublic:
      'Esta cuenta ya no puede agregar compras en línea. Escriba a {supportEmail} con su número de socio y su número de pedido, de ticket o de reservación.',
    alreadyClaimedOnline: 'Esta cuenta ya agregó una compra en línea. Para agregar más, escriba a {supportEmail} con su número de socio.',
    notYours: 'Esta compra no está a nombre de su correo. En Atención al Visitante se la pueden agregar.',
    scanReceipt: 'Escanee el código de barras de su recibo.',
    unknownOrder: 'No encontramos ese pedido.',
    unknownCheck: 'No encontramos ese ticket.',
    unknownReservation: 'No encontramos esa reservación.',
    refunded: 'Esta compra fue reembolsada y no puede ganar puntos.',
    cancelled: 'Esta reservación fue cancelada y no puede ganar puntos.',
    tooOld: 'Esta compra tiene más de {days, number} días y ya no puede ganar puntos.',
    claimed: 'Esta compra ya se agregó.',
    nothingToEarn: 'Esta compra no tiene un monto que gane puntos.',
    other: 'No se pudo agregar esta compra. Revise el número e intente de nuevo.',
  },
  earned: {
    heading: '¡Ganó puntos Brownie!',
    points: '+{points, number} puntos Brownie',
    balance: 'Sus puntos se sumaron a su cuenta. Su saldo ahora es de <strong>{balance, number}</strong> puntos Brownie.',
  },
  findPass: {
    heading: 'Agregar a su billetera digital',
    intro:
      'Agregue sus boletos y pases del parque a Apple Wallet o Google Wallet. Escriba el número de pedido y un código de barras de su correo de confirmación.',
    submit: 'Buscar mi pase',
    busy: 'Buscando sus datos...',
  },
  card: {
    heading: 'Su tarjeta de socio de Puntos Brownie',
    intro:
      'Agregue su tarjeta de socio de <strong>{email}</strong> a su billetera digital: muestra sus puntos Brownie y se actualiza cuando cambian.',
    incomplete: 'Este enlace no está completo. Abra el enlace completo de nuestro correo o escriba a {supportEmail} para pedir uno nuevo.',
  },
} as const satisfies Translation<typeof en>;
