import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/statement.ts';

export default {
  heading: 'Mis puntos',
  request: {
    intro:
      'Consulte su saldo, su nivel, cada movimiento con su motivo y las recompensas que puede canjear. Escriba el correo de su cuenta de socio y le enviaremos un enlace.',
    sent: 'Si <strong>{email}</strong> pertenece a un socio de Puntos Brownie, le enviamos un enlace a sus puntos. Es válido por {hours, plural, one {# hora} other {# horas}}.',
    sentHint: '¿No le llegó nada en unos minutos? Revise su carpeta de spam o asegúrese de haber usado el correo de su cuenta de socio.',
    back: 'Volver a Puntos Brownie',
  },
  refused: {
    expired: 'Este enlace venció: los enlaces a sus puntos son válidos por 24 horas. Escriba su correo y le enviaremos uno nuevo.',
    invalid:
      'Este enlace no es válido, o la cuenta de socio a la que correspondía se cerró. Escriba su correo y le enviaremos un enlace nuevo.',
    tokenRequired: 'Abra el enlace de nuestro correo para ver sus puntos.',
    unproven: 'Primero confirme su correo en la página de Puntos Brownie (le enviamos un código) y luego vuelva a pedir sus puntos.',
  },
  loading: 'Cargando sus puntos...',
  loadingMore: 'Cargando...',
  networkError: 'No pudimos conectar con Boardwalk. Revise su conexión e intente de nuevo.',
  failure: 'Por ahora no pudimos cargar sus puntos. Intente de nuevo; si el problema continúa, escriba a {supportEmail}.',
  tryAgain: 'Intentar de nuevo',
  newLink: 'Pedir un enlace nuevo',
  member: '{firstName} {lastName} · Número de socio <nowrap>{memberNumber}</nowrap>',
  points: '{count, plural, one {{amount} punto} other {{amount} puntos}}',
  balance: 'Saldo',
  expiring: 'Fecha de vencimiento de <strong>{points}</strong>: <strong>{date}</strong>. Canjee sus puntos antes de esa fecha.',
  negative:
    'Su saldo es negativo porque un reembolso descontó puntos que usted ya había usado. Las recompensas vuelven a estar disponibles cuando recupere esos puntos.',
  tier: {
    heading: 'Nivel: {tier}',
    none: 'Nivel: todavía ninguno',
    progress: 'Avance hacia {tier}',
    progressValue: '{earned} de {goal}',
    toGo: 'En los últimos 365 días ganó {earned}: {count, plural, one {le falta {toGo} punto} other {le faltan {toGo} puntos}} para llegar a <strong>{tier}</strong>.',
    top: 'En los últimos 365 días ganó {earned}: ya alcanzó nuestro nivel más alto.',
  },
  card: 'Su tarjeta de socio',
  rewards: {
    heading: 'Recompensas',
    none: 'Por ahora no hay recompensas disponibles.',
    howTo: 'Para canjear una recompensa, muestre su tarjeta en cualquier caja o en Atención al Visitante.',
    redeemable: 'Canjeable ahora',
  },
  referral: {
    heading: 'Invite a sus amigos',
    howTo: 'Comparta su enlace: cuando un amigo se una con él y agregue su primera compra, ambos ganan puntos de bonificación.',
    link: 'Su enlace de invitación',
    copy: 'Copiar',
    copied: 'Enlace copiado.',
    none: 'Nadie se ha unido con su enlace todavía.',
    pending: '{firstName}, se unió el {date}: esperando su primera compra',
    earned: '{firstName}, se unió el {date}: bonificación ganada',
  },
  challenges: {
    heading: 'Retos',
    progress: {
      days: '{progress, number} de {goalCount, plural, one {# día visitado} other {# días visitados}}',
      outlets: '{progress, number} de {goalCount, plural, one {# restaurante probado} other {# restaurantes probados}}',
      nights: '{progress, number} de {goalCount, plural, one {# noche de hotel} other {# noches de hotel}}',
    },
    reward: 'Complételo a más tardar el {date} para ganar {points, plural, one {# punto} other {# puntos}}.',
    completed: 'Completado: {points, plural, one {# punto ganado} other {# puntos ganados}}.',
  },
  history: {
    heading: 'Historial',
    empty: 'Todavía no tiene puntos. <link>Agregue una compra</link> para empezar a ganarlos.',
    more: 'Ver más',
    entry: {
      purchase: '{product}, {kind} {reference}',
      purchaseKinds: { ticket: 'pedido', 'food-and-beverage': 'ticket', hotel: 'reservación' },
      earn: 'Ganados: {purchase}',
      reversal: 'Descontados ({why}): {purchase}',
      causes: {
        refunded: 'reembolso',
        cancelled: 'cancelación',
        removed: 'compra retirada del sistema',
        removedByStaff: 'compra retirada por Atención al Visitante',
      },
      adjustment: 'Ajuste de Atención al Visitante: {note}',
      redemption: 'Canjeados: {reward}',
      redemptionReversal: 'Canje anulado: {reward}',
      expired: 'Vencidos: puntos ganados el {date}',
      bonus: 'Bonificación, {campaign}: {purchase}',
      campaignBonus: 'Bonificación: {campaign}',
      bonusReversal: 'Bonificación descontada ({why}), {campaign}: {purchase}',
      challengeTakenBack: 'Bonificación descontada, {campaign}: meta ya no cumplida',
      expiredGivenBack: 'Vencidos: puntos devueltos después de su fecha de vencimiento',
    },
  },
} as const satisfies Translation<typeof en>;
