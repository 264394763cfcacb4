import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/pass.ts';

export default {
  heading: { own: 'Su pase', shared: 'Pase compartido' },
  editRegistration: 'Editar registro',
  loading: 'Cargando…',
  noLongerShared: {
    text: 'La persona que compartió este pase con usted dejó de compartirlo. Pídale que lo vuelva a compartir, o busque su propio boleto con su número de pedido y su código de barras.',
  },
  registration: {
    heading: 'Registre su pase',
    editHeading: 'Editar registro',
    intro: 'Díganos a quién pertenece este boleto. Todos los campos son obligatorios, salvo los marcados como opcionales.',
    optIns: 'Noticias y ofertas',
    submit: 'Registrar',
    busy: 'Registrando…',
    cancel: 'Cancelar',
    networkError: 'Error al registrar',
  },
  // El texto legal del consentimiento (TCPA): lo que el servidor guarda con un registro en español.
  consent: {
    us: 'nosotros',
    emailLabel: 'Sí, envíenme por correo noticias y anuncios de {brand}.',
    smsLabel: 'Sí, envíenme por mensaje de texto noticias y ofertas de {brand}.',
    smsDisclosure:
      'Al marcar esta casilla, usted acepta recibir de {brand} mensajes de texto promocionales automatizados y recurrentes en el número de celular indicado arriba. La frecuencia de los mensajes varía. Responda HELP para obtener ayuda y STOP para cancelar. Pueden aplicarse tarifas por mensajes y datos. Su consentimiento no es una condición de compra. Para obtener ayuda, envíe HELP al {shortCode}; para dejar de recibir mensajes, envíe STOP al {shortCode}.',
  },
} as const satisfies Translation<typeof en>;
