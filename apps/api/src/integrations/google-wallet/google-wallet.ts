// Google Wallet, the outbound system: the "Save to Google Wallet" link (an RS256 JWT that
// carries the class and the object) and updates of objects already saved, through the
// Wallet REST API. One interface, one real adapter; a test double of Google's endpoints
// lives with the tests.
import { JWT } from 'google-auth-library';
import { createSigner } from 'fast-jwt';
import type { GoogleWalletCredentials } from './google-wallet-credentials.ts';

export const SAVE_URL_PREFIX = 'https://pay.google.com/gp/v/save/';
const WALLET_SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';
/** The token endpoint google-auth-library posts to whatever the key file says (see below). */
const LIBRARY_TOKEN_URL = 'https://oauth2.googleapis.com/token';

// The parts of Google's Wallet objects that Boardwalk fills
// (developers.google.com/wallet/reference/rest/v1/genericobject).
export interface LocalizedString {
  defaultValue: { language: string; value: string };
}
export interface GoogleImage {
  sourceUri: { uri: string };
  contentDescription?: LocalizedString;
}
export interface GenericClass {
  id: string;
  multipleDevicesAndHoldersAllowedStatus?: 'ONE_USER_ALL_DEVICES' | 'MULTIPLE_HOLDERS';
  classTemplateInfo?: unknown;
}
export interface GenericObject {
  id: string;
  classId: string;
  genericType: 'GENERIC_TYPE_UNSPECIFIED' | 'GENERIC_OTHER';
  state: 'ACTIVE' | 'COMPLETED' | 'EXPIRED' | 'INACTIVE';
  cardTitle: LocalizedString;
  header: LocalizedString;
  subheader?: LocalizedString;
  hexBackgroundColor: string;
  logo?: GoogleImage;
  barcode?: { type: 'CODE_128' | 'QR_CODE'; value: string; alternateText?: string };
  validTimeInterval?: { start?: { date: string }; end?: { date: string } };
  textModulesData?: { id: string; header: string; body: string }[];
  linksModuleData?: { uris: { id: string; uri: string; description: string }[] };
  imageModulesData?: { id: string; mainImage: GoogleImage }[];
}
// developers.google.com/wallet/reference/rest/v1/loyaltyclass and loyaltyobject: a member card.
export interface LoyaltyClass {
  id: string;
  issuerName: string;
  programName: string;
  programLogo: GoogleImage;
  reviewStatus: 'UNDER_REVIEW' | 'DRAFT';
  hexBackgroundColor?: string;
  multipleDevicesAndHoldersAllowedStatus?: 'ONE_USER_ALL_DEVICES' | 'MULTIPLE_HOLDERS';
}
export interface LoyaltyObject {
  id: string;
  classId: string;
  state: 'ACTIVE' | 'INACTIVE';
  accountId?: string;
  accountName?: string;
  /** `int` is 32 bits in Google's API: a larger balance goes as `string`. */
  loyaltyPoints?: { label: string; balance: { int: number } | { string: string } };
  barcode?: { type: 'CODE_128'; value: string; alternateText?: string };
  textModulesData?: { id: string; header: string; body: string }[];
}
export interface SaveToWalletPayload {
  genericClasses?: GenericClass[];
  genericObjects?: GenericObject[];
  loyaltyClasses?: LoyaltyClass[];
  loyaltyObjects?: LoyaltyObject[];
}
/** The REST collection of an object: a ticket's generic pass or a member's loyalty card. */
export type WalletObject = { kind: 'genericObject'; object: GenericObject } | { kind: 'loyaltyObject'; object: LoyaltyObject };

export interface GoogleWallet {
  /** Prefix of every class and object id (`${issuerId}.${suffix}`). */
  readonly issuerId: string;
  /** True when Google credentials are configured: saved objects are updated through the REST API. */
  readonly updatesObjects: boolean;
  /** The "Save to Google Wallet" link for these classes and objects. */
  saveUrl(payload: SaveToWalletPayload): Promise<string>;
  /** Replaces a saved object; 'not-saved' when Google has never seen it (no guest saved the link). */
  updateObject(target: WalletObject): Promise<'updated' | 'not-saved'>;
}

export class GoogleWalletApiError extends Error {
  /** Google refused the request itself (400, 403): trying again changes nothing. */
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

export interface GoogleWalletOptions {
  credentials: GoogleWalletCredentials;
  /** PUBLIC_URL: its origin is the one origin allowed to show the save button. */
  publicUrl: string;
  /** GOOGLE_WALLET_API_URL, e.g. https://walletobjects.googleapis.com/walletobjects/v1 */
  apiUrl: string;
  /** Milliseconds per REST call. */
  timeout?: number;
}

/**
 * The OAuth2 client of the service account. google-auth-library (v10) always posts to
 * Google's token URL and ignores the key file's token_uri; a key file naming another
 * endpoint (a private Google endpoint, or the tests' double) gets its requests redirected
 * there, so the library still signs the assertion, caches and refreshes the token.
 */
function oauthClient(credentials: GoogleWalletCredentials): JWT {
  const { key } = credentials;
  const client = new JWT({
    email: key.client_email,
    key: key.private_key,
    ...(key.private_key_id && { keyId: key.private_key_id }),
    scopes: [WALLET_SCOPE],
  });
  if (key.token_uri !== LIBRARY_TOKEN_URL) {
    const tokenUri = new URL(key.token_uri);
    client.transporter.interceptors.request.add({
      resolved: async (options) => {
        if (options.url.href === LIBRARY_TOKEN_URL) options.url = tokenUri;
        return options;
      },
    });
  }
  return client;
}

export async function createGoogleWallet(options: GoogleWalletOptions): Promise<GoogleWallet> {
  const { credentials } = options;
  // The save link's claims (developers.google.com/wallet/reference/rest/v1/jwt), signed with
  // the service account's RSA key; iat is the moment of signing.
  const sign = createSigner({
    key: credentials.key.private_key,
    algorithm: 'RS256',
    iss: credentials.key.client_email,
    aud: 'google',
    header: { alg: 'RS256', typ: 'JWT' },
  });
  const origin = new URL(options.publicUrl).origin;
  const client = credentials.development ? null : oauthClient(credentials);
  const timeout = options.timeout ?? 10_000;

  return {
    issuerId: credentials.issuerId,
    updatesObjects: client !== null,

    async saveUrl(payload) {
      return `${SAVE_URL_PREFIX}${sign({ typ: 'savetowallet', origins: [origin], payload })}`;
    },

    async updateObject({ kind, object }) {
      if (!client) throw new GoogleWalletApiError('Google Wallet credentials are not configured');
      try {
        await client.request({
          url: `${options.apiUrl}/${kind}/${encodeURIComponent(object.id)}`,
          method: 'PUT',
          data: object,
          timeout,
        });
        return 'updated';
      } catch (err) {
        const status = (err as { status?: number; response?: { status?: number } }).response?.status ?? (err as { status?: number }).status;
        if (status === 404) return 'not-saved';
        // A new error without the request: the library's error carries the object (and its barcode).
        throw new GoogleWalletApiError(
          status ? `Google Wallet API answered ${status} to the object update` : `Google Wallet API unreachable: ${(err as Error).message}`,
          status === 400 || status === 403,
        );
      }
    },
  };
}
