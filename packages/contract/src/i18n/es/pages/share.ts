import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/share.ts';

export default {
  heading: 'Administrar boletos compartidos',
  intro: 'Comparta esta tarjeta con familiares y amigos: cada visitante recibe por correo su propio enlace al pase.',
  loading: 'Cargando visitantes…',
  empty: 'Este boleto todavía no está compartido con nadie.',
  list: 'Visitantes con quienes se comparte este boleto',
  modify: 'Modificar',
  modifyWith: 'Modificar lo compartido con {name}',
  add: 'Compartir con un visitante',
  close: 'Cerrar',
  newTitle: 'Compartir el boleto',
  editTitle: 'Modificar el boleto compartido',
  newIntro: 'Le enviaremos al visitante por correo su propio enlace a este pase.',
  editIntro: 'Cambie los datos del visitante. Un correo nuevo recibe un enlace nuevo, y el enlace anterior deja de funcionar.',
  requiredNote: 'Los campos marcados con * son obligatorios.',
  start: 'Compartir',
  update: 'Actualizar datos',
  stop: 'Dejar de compartir',
  cancel: 'Cancelar',
  sharing: 'Compartiendo…',
  updating: 'Actualizando…',
  stopping: 'Deteniendo…',
  created: 'Boleto compartido',
  updated: 'Datos actualizados',
  deleted: 'Visitante eliminado',
  expired: 'La sesión para compartir este boleto venció. Actualice la página e intente de nuevo.',
  calls: {
    list: { failure: 'No se pudo obtener la lista de visitantes', networkError: 'Error al obtener la lista de visitantes' },
    create: { failure: 'No se pudo compartir con el visitante', networkError: 'Error al compartir con el visitante' },
    update: { failure: 'No se pudo actualizar', networkError: 'Error al actualizar' },
    delete: { failure: 'No se pudo dejar de compartir con el visitante', networkError: 'Error al dejar de compartir con el visitante' },
  },
  limitReached: 'Un boleto se puede compartir con {limit, plural, one {# visitante} other {# visitantes}} como máximo.',
  mailLimitReached:
    'Este boleto ya envió hoy {limit, plural, one {su # correo para compartir} other {sus # correos para compartir}}. Intente de nuevo después de las 2 a. m. (hora del parque).',
} as const satisfies Translation<typeof en>;
