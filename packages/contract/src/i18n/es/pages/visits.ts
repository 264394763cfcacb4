// Las reservas de visita en la página del pase, en español latinoamericano y de usted (docs/i18n.md).
import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/visits.ts';

export default {
  heading: 'Reservas de visita',
  intro: 'Su pase necesita una reserva para cada visita. Reserve un horario de entrada y llegue dentro de él.',
  loading: 'Cargando horarios de entrada…',
  loadFailed: 'No se pudieron cargar los horarios de entrada. Inténtelo de nuevo.',
  retry: 'Intentar de nuevo',
  held: 'Tiene {upcoming, number} de un máximo de {limit, number} reservas próximas.',
  noDays: 'No hay horarios de entrada abiertos en los próximos días.',
  // Sin punto final tras {date}: la hora ya termina en «a.m.» o «p.m.».
  blocked: 'Las nuevas reservas están suspendidas por reservas no utilizadas hasta el {date}',
  dayBlocked: 'Día bloqueado: su pase no se puede usar este día.',
  opensAt: 'Se abre para reservar el {date}',
  window: '{start} a {end}',
  placesLeft: '{count, plural, one {Queda # lugar} other {Quedan # lugares}}',
  full: 'Lleno',
  booked: 'Reservado',
  waitlisted: 'En la lista de espera: número {position, number}',
  book: 'Reservar',
  move: 'Cambiar aquí',
  joinWaitlist: 'Unirse a la lista de espera',
  cancel: 'Cancelar reserva',
  leaveWaitlist: 'Salir de la lista de espera',
  actionLabel: '{action}: {day}, {window}',
  saving: 'Guardando…',
  // Sin punto final: la hora ya termina en «p.m.».
  bookedNotice: 'Reservado: {day}, {window}',
  waitlistedNotice: 'Está en la lista de espera para el {day}, {window}: si se libera un lugar, le reservaremos y le enviaremos un correo.',
  cancelledNotice: 'Cancelada.',
  refusedFull: 'Este horario de entrada se acaba de llenar. Únase a su lista de espera para reservar cuando se libere un lugar.',
  refusedNotFull: 'Este horario de entrada vuelve a tener lugares: resérvelo.',
  refusedNotOpen: 'Este día todavía no está abierto para reservar con su pase.',
  refusedBlockedDay: 'Este día está bloqueado para su pase.',
  refusedPast: 'Este horario de entrada ya terminó.',
  refusedLimit: 'Su pase ya tiene {limit, number} reservas próximas, el máximo permitido. Cancele una para reservar otra.',
  refusedNoShows: 'Las nuevas reservas están suspendidas por reservas no utilizadas hasta el {date}',
  refusedAlreadyHeld: 'Su pase ya tiene este horario de entrada.',
  failed: 'No se pudo guardar la reserva. Inténtelo de nuevo.',
  networkError: 'Error al guardar la reserva',
} as const satisfies Translation<typeof en>;
