import type { Translation } from '../../languages.ts';
import type en from '../../en/pages/errors.ts';

export default {
  NETWORK_ERROR: 'No se pudo conectar con el servidor. Revise su conexión e intente de nuevo.',
  UNEXPECTED_RESPONSE: 'Algo salió mal de nuestro lado. Intente de nuevo en unos minutos.',
  HTTP_ERROR: 'Algo salió mal de nuestro lado. Intente de nuevo en unos minutos.',
  VALIDATION_FAILED: 'Revise los datos que escribió e intente de nuevo.',
  REGISTER_FAILED: 'No se pudo hacer el registro',
  UNPROCESSABLE_IMAGE: 'No se pudo usar esta imagen. Pruebe con otra foto.',
  UNAUTHORIZED: 'Este enlace no es válido o ya venció.',
  FORBIDDEN: 'Esto no es posible con este boleto o pase.',
  ORDER_NOT_FOUND: 'No se encontró el pedido',
  NOT_FOUND: 'No se encontró lo que busca.',
  TOKEN_EXPIRED: 'Error temporal del servidor. Intente de nuevo.',
  CONFLICT: 'Esto cambió mientras tanto. Actualice la página e intente de nuevo.',
  PASS_NO_LONGER_SHARED: 'Este pase ya no está compartido',
  PAYLOAD_TOO_LARGE: 'El archivo es demasiado grande',
  UNSUPPORTED_MEDIA_TYPE: 'No se puede usar este tipo de archivo. Elija una foto.',
  TOO_MANY_ATTEMPTS: 'Demasiados intentos. Espere unos minutos e intente de nuevo.',
  INTERNAL: 'Algo salió mal de nuestro lado. Intente de nuevo en unos minutos.',
  DATABASE_UNAVAILABLE: 'Algo salió mal de nuestro lado. Intente de nuevo en unos minutos.',
  SERVICE_UNAVAILABLE: 'Algo salió mal de nuestro lado. Intente de nuevo en unos minutos.',
  alreadyInWallet: 'Este pase ya se agregó a una billetera. Para recibir ayuda, escriba a {supportEmail}.',
} as const satisfies Translation<typeof en>;
