// Los correos que recibe el visitante, en español latinoamericano y de usted (docs/i18n.md).
import type { Translation } from '../languages.ts';
import type en from '../en/mails.ts';

export default {
  personalLinkClosing: `El enlace funciona durante {hours, number} horas y es solo para usted: por favor, no lo reenvíe.
¿No lo pidió? Puede ignorar este correo. ¿Preguntas? Escriba a {supportEmail}.

{brand}`,
  share: {
    someone: 'Un visitante',
    greetingNamed: 'Hola, {firstName}:',
    greeting: 'Hola:',
    subject: '{who} compartió con usted un boleto de {brand}',
    text: `{greeting}

{who} compartió con usted su boleto de {brand} ({product}).

Abra su pase aquí:
{link}

Desde esa página puede agregar el pase a Apple Wallet o Google Wallet y mostrarlo en el parque.
Este enlace es solo para usted: por favor, no lo reenvíe. Si el boleto ya no se comparte con usted, el enlace se lo indicará.

¡Lo esperamos pronto!
{brand}`,
  },
  statement: {
    subject: 'Sus puntos Brownie de {brand}',
    text: `Hola, {firstName}:

Este es el enlace a sus puntos Brownie: su saldo, su nivel, cada movimiento con su motivo y las recompensas que puede canjear.
{link}

{closing}`,
    proveFirst: `Hola:

Usted pidió sus puntos Brownie. Primero confirme su correo: abra {loyaltyUrl}, ingrese este correo y el código que le enviaremos.
Después vuelva a pedir sus puntos y le enviaremos el enlace.

¿No lo pidió? Puede ignorar este correo. ¿Preguntas? Escriba a {supportEmail}.

{brand}`,
  },
  code: {
    subject: 'Su código de Brownie Points de {brand}',
    text: `Hola:

Su código para confirmar este correo en Brownie Points de {brand} es:

{code}

Ingréselo en la página de Brownie Points. Funciona durante {minutes, number} minutos. No lo comparta con nadie: nunca se lo pediremos.
¿No lo pidió? Puede ignorar este correo. ¿Preguntas? Escriba a {supportEmail}.

{brand}`,
  },
  privacy: {
    subject: 'Sus datos en {brand}',
    text: `Hola:

Usted pidió ver los datos que {brand} tiene sobre {email}. Este enlace los muestra todos y le permite descargarlos y eliminarlos:
{link}

{closing}`,
  },
  expiry: {
    subject: 'Sus puntos Brownie vencen el {date, date, long}',
    one: '{points, plural, one {# de sus puntos Brownie vence} other {# de sus puntos Brownie vencen}} el {date, date, long}.',
    several: '{points, number} de sus puntos Brownie vencen pronto:',
    lot: '- {points, number} el {date, date, long}',
    text: `Hola, {firstName}:

{lots}

Canjéelos por una recompensa en cualquiera de nuestras cajas antes de esa fecha: {loyaltyUrl}
¿Preguntas? Escriba a {supportEmail}.

{brand}`,
  },
  passLink: {
    subject: 'Su pase de lealtad de {brand}',
    greetingNamed: 'Hola, {firstName}:',
    greeting: 'Hola:',
    text: `{greeting}

Este es el enlace a su pase de lealtad de {brand} (número de socio {memberNumber}).
Ábralo en su teléfono para agregar el pase a Apple Wallet o Google Wallet:
{link}

El enlace funciona durante {hours, number} horas y es solo para usted: por favor, no lo reenvíe.
¿Preguntas? Escriba a {supportEmail}.

{brand}`,
  },
} as const satisfies Translation<typeof en>;
