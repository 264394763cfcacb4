// Los correos que recibe el visitante, en español latinoamericano y de usted (docs/i18n.md).
import type { Translation } from '../languages.ts';
import type en from '../en/mails.ts';

export default {
  personalLinkClosing: `El enlace es válido por {hours, number} horas y es solo para usted: por favor, no lo reenvíe.
¿No solicitó este correo? Puede ignorarlo. ¿Tiene preguntas? Escríbanos a {supportEmail}.

{brand}`,
  share: {
    someone: 'Alguien',
    greetingNamed: 'Hola, {firstName}:',
    greeting: 'Hola:',
    subject: '{who} compartió con usted un boleto de {brand}',
    text: `{greeting}

{who} compartió con usted su boleto de {brand} ({product}).

Abra su pase aquí:
{link}

Desde esa página puede agregar el pase a Apple Wallet o Google Wallet y mostrarlo en el parque.
Este enlace es solo para usted: por favor, no lo reenvíe. Si el boleto deja de compartirse con usted, el enlace se lo indicará.

¡Hasta pronto!
{brand}`,
  },
  statement: {
    subject: 'Sus puntos Brownie de {brand}',
    text: `Hola, {firstName}:

Este es el enlace a sus puntos Brownie: su saldo, su nivel, cada movimiento con su motivo y las recompensas que puede canjear.
{link}

{closing}`,
    proveFirst: `Hola:

Solicitó el enlace a sus puntos Brownie. Primero confirme su correo: abra {loyaltyUrl}, ingrese este correo y el código que le enviaremos.
Después vuelva a solicitar el enlace y se lo enviaremos.

¿No solicitó este correo? Puede ignorarlo. ¿Tiene preguntas? Escríbanos a {supportEmail}.

{brand}`,
  },
  code: {
    subject: 'Su código para los puntos Brownie de {brand}',
    text: `Hola:

Su código para confirmar este correo en los puntos Brownie de {brand} es:

{code}

Ingréselo en la página de puntos Brownie. Es válido por {minutes, number} minutos. No lo comparta con nadie: nunca se lo pediremos.
¿No solicitó este correo? Puede ignorarlo. ¿Tiene preguntas? Escríbanos a {supportEmail}.

{brand}`,
  },
  privacy: {
    subject: 'Sus datos en {brand}',
    text: `Hola:

Solicitó ver los datos que {brand} tiene sobre {email}. Este enlace los muestra todos y le permite descargarlos y eliminarlos:
{link}

{closing}`,
  },
  expiry: {
    subject: 'Sus puntos Brownie vencen el {date, date, long}',
    one: '{points, plural, one {Tiene # punto Brownie que vence} other {Tiene # puntos Brownie que vencen}} el {date, date, long}.',
    several: 'Tiene {points, number} puntos Brownie que vencen pronto:',
    lot: '- {points, number} el {date, date, long}',
    text: `Hola, {firstName}:

{lots}

Canjéelos por una recompensa en cualquiera de nuestras cajas antes de que venzan: {loyaltyUrl}
¿Tiene preguntas? Escríbanos a {supportEmail}.

{brand}`,
  },
  passLink: {
    subject: 'Su tarjeta de socio de {brand}',
    greetingNamed: 'Hola, {firstName}:',
    greeting: 'Hola:',
    text: `{greeting}

Este es el enlace a su tarjeta de socio de {brand} (número de socio {memberNumber}).
Ábralo en su celular para agregar la tarjeta a Apple Wallet o Google Wallet:
{link}

El enlace es válido por {hours, number} horas y es solo para usted: por favor, no lo reenvíe.
¿Tiene preguntas? Escríbanos a {supportEmail}.

{brand}`,
  },
  visitPromoted: {
    subject: 'Tiene reserva para el {start, date, long}',
    greetingNamed: 'Hola, {firstName}:',
    greeting: 'Hola:',
    text: `{greeting}

Se liberó un lugar y su pase ya tiene reserva para el {start, date, full}, con entrada entre las {start, time, short} y las {end, time, short}
Su pase en la billetera muestra la reserva. Para verla o cancelarla, abra su pase:
{link}

¿Tiene preguntas? Escríbanos a {supportEmail}.

{brand}`,
  },
} as const satisfies Translation<typeof en>;
