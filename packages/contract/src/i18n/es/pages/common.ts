import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/common.ts';

export default {
  title: 'Su pase',
  description: 'Encuentre su boleto o pase y agréguelo a su billetera digital.',
  skipToContent: 'Ir al contenido',
  home: 'Inicio',
  help: '¿Necesita ayuda? Escríbanos a <email>{supportEmail}</email> o visite Atención al Visitante.',
  privacyLink: 'Sus datos y su privacidad',
  languages: { label: 'Idioma', en: 'English', es: 'Español' },
  loading: 'Cargando...',
  notFound: {
    heading: 'Página no encontrada',
    text: 'No hay nada en esta dirección. Revise el enlace o busque su boleto o pase desde la página de inicio.',
    home: 'Ir a la página de inicio',
  },
  formats: {
    credits: '{credits, plural, one {# crédito} other {# créditos}}',
    shownToday: 'a las {time}',
    shownBefore: 'el {day} a las {time}',
  },
  offline: 'Sin conexión: se muestra como estaba <when>{shownAt}</when>',
  emailLink: {
    email: 'Correo',
    submit: 'Enviarme un enlace',
    busy: 'Enviando...',
    sentHeading: 'Revise su correo',
    another: 'Usar otro correo',
  },
} as const satisfies Translation<typeof en>;
