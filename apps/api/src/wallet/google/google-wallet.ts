// Google Wallet, the outbound system: the "Save to Google Wallet" link (an RS256 JWT that
// carries the class and the object) and updates of objects already saved, through the
// Wallet REST API; and the save and delete callbacks Google sends back, verified. One interface, one real adapter; a test double of Google's endpoints
// lives with the tests.
import { JWT } from 'google-auth-library';
import { createSigner } from 'fast-jwt';
import type { GoogleWalletCredentials } from './google-wallet-credentials.ts';
import type { RequestRate } from './google-rate.ts';
import { CallbackRefused, verifyCallback, type CallbackMessage, type RootKeys } from './google-wallet-callbacks.ts';

export const SAVE_URL_PREFIX = 'https://pay.google.com/gp/v/save/';
const WALLET_SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';
/** The token endpoint google-auth-library posts to whatever the key file says (see below). */
const LIBRARY_TOKEN_URL = 'https://oauth2.googleapis.com/token';

// The parts of Google's Wallet objects that Boardwalk fills
// (developers.google.com/wallet/reference/rest/v1/genericobject).
/** A text and its translations: Google shows the one of the phone's language, else the default. */
export interface LocalizedString {
  defaultValue: { language: string; value: string };
  translatedValues?: { language: string; value: string }[];
}
export interface GoogleImage {
  sourceUri: { uri: string };
  contentDescription?: LocalizedString;
}
/** A place where Google shows the pass nearby (at most 10 per class). */
export interface MerchantLocation {
  latitude: number;
  longitude: number;
}
export type ObjectState = 'ACTIVE' | 'COMPLETED' | 'EXPIRED' | 'INACTIVE';
export interface TimeInterval {
  start?: { date: string };
  end?: { date: string };
}
export interface TextModule {
  id: string;
  header: string;
  body: string;
  localizedHeader?: LocalizedString;
  localizedBody?: LocalizedString;
}
export interface LinksModule {
  uris: { id: string; uri: string; description: string }[];
}
/** Where Google posts the save and delete callbacks of the class's objects. */
export interface CallbackOptions {
  url: string;
}
/** A message of a class (developers.google.com/wallet/reference/rest/v1/Message): shown on every pass of it. */
export interface Message {
  id: string;
  header: string;
  body: string;
  localizedHeader?: LocalizedString;
  localizedBody?: LocalizedString;
  messageType?: 'TEXT' | 'TEXT_AND_NOTIFY';
}

export interface GenericClass {
  id: string;
  callbackOptions?: CallbackOptions;
  multipleDevicesAndHoldersAllowedStatus?: 'ONE_USER_ALL_DEVICES' | 'MULTIPLE_HOLDERS';
  classTemplateInfo?: unknown;
  merchantLocations?: MerchantLocation[];
  /** The park's notices (the same on every pass of the class). */
  messages?: Message[];
  /** Google Smart Tap (GOOGLE_WALLET_SMART_TAP_*): the class's passes tap, redeemed by these issuers. */
  enableSmartTap?: boolean;
  redemptionIssuers?: string[];
}
// developers.google.com/wallet/reference/rest/v1/eventticketclass and eventticketobject: a dated admission.
export interface EventTicketClass {
  id: string;
  callbackOptions?: CallbackOptions;
  issuerName: string;
  eventName: LocalizedString;
  reviewStatus: 'UNDER_REVIEW' | 'DRAFT';
  venue?: { name: LocalizedString; address: LocalizedString };
  hexBackgroundColor?: string;
  multipleDevicesAndHoldersAllowedStatus?: 'ONE_USER_ALL_DEVICES' | 'MULTIPLE_HOLDERS';
  merchantLocations?: MerchantLocation[];
  /** The park's notices (the same on every pass of the class). */
  messages?: Message[];
  /** Google Smart Tap (GOOGLE_WALLET_SMART_TAP_*): the class's passes tap, redeemed by these issuers. */
  enableSmartTap?: boolean;
  redemptionIssuers?: string[];
}
export interface EventTicketObject {
  id: string;
  classId: string;
  state: ObjectState;
  ticketHolderName?: string;
  ticketType?: LocalizedString;
  hexBackgroundColor?: string;
  barcode?: { type: 'CODE_128'; value: string; alternateText?: string };
  validTimeInterval?: TimeInterval;
  textModulesData?: TextModule[];
  linksModuleData?: LinksModule;
  /** Ask Google to notify the holder of this update (at most 3 per object in 24 hours). */
  notifyPreference?: 'notifyOnUpdate';
  /** What a Smart Tap terminal reads over NFC: the barcode's credential. */
  smartTapRedemptionValue?: string;
}
export interface GenericObject {
  id: string;
  classId: string;
  genericType: 'GENERIC_TYPE_UNSPECIFIED' | 'GENERIC_OTHER';
  state: ObjectState;
  cardTitle: LocalizedString;
  header: LocalizedString;
  subheader?: LocalizedString;
  hexBackgroundColor: string;
  logo?: GoogleImage;
  barcode?: { type: 'CODE_128' | 'QR_CODE'; value: string; alternateText?: string };
  validTimeInterval?: TimeInterval;
  textModulesData?: TextModule[];
  linksModuleData?: LinksModule;
  imageModulesData?: { id: string; mainImage: GoogleImage }[];
  notifyPreference?: EventTicketObject['notifyPreference'];
  smartTapRedemptionValue?: string;
}
// developers.google.com/wallet/reference/rest/v1/loyaltyclass and loyaltyobject: a member card.
export interface LoyaltyClass {
  id: string;
  callbackOptions?: CallbackOptions;
  issuerName: string;
  programName: string;
  localizedProgramName?: LocalizedString;
  programLogo: GoogleImage;
  reviewStatus: 'UNDER_REVIEW' | 'DRAFT';
  hexBackgroundColor?: string;
  multipleDevicesAndHoldersAllowedStatus?: 'ONE_USER_ALL_DEVICES' | 'MULTIPLE_HOLDERS';
  merchantLocations?: MerchantLocation[];
  /** The park's notices (the same on every pass of the class). */
  messages?: Message[];
  /** Google Smart Tap (GOOGLE_WALLET_SMART_TAP_*): the class's passes tap, redeemed by these issuers. */
  enableSmartTap?: boolean;
  redemptionIssuers?: string[];
}
export interface LoyaltyObject {
  id: string;
  classId: string;
  state: ObjectState;
  accountId?: string;
  accountName?: string;
  /** `int` is 32 bits in Google's API: a larger balance goes as `string`; credits (cents) as `double`. */
  loyaltyPoints?: {
    label: string;
    localizedLabel?: LocalizedString;
    balance: { int: number } | { string: string } | { double: number };
  };
  barcode?: { type: 'CODE_128'; value: string; alternateText?: string };
  validTimeInterval?: TimeInterval;
  textModulesData?: TextModule[];
  linksModuleData?: LinksModule;
  /** developers.google.com/wallet/reference/rest/v1/Message: TEXT_AND_NOTIFY also notifies the holder (at most 3 a day per object). */
  messages?: WalletMessage[];
  notifyPreference?: EventTicketObject['notifyPreference'];
  smartTapRedemptionValue?: string;
}
export interface WalletMessage {
  id: string;
  header: string;
  body: string;
  localizedHeader?: LocalizedString;
  localizedBody?: LocalizedString;
  messageType: 'TEXT' | 'TEXT_AND_NOTIFY';
}
export interface SaveToWalletPayload {
  genericClasses?: GenericClass[];
  genericObjects?: GenericObject[];
  eventTicketClasses?: EventTicketClass[];
  eventTicketObjects?: EventTicketObject[];
  loyaltyClasses?: LoyaltyClass[];
  loyaltyObjects?: LoyaltyObject[];
}
/** The REST collection of an object: a ticket's generic pass or event ticket, or a loyalty card (a member's, a Stored Value Card's). */
export type WalletObject =
  | { kind: 'genericObject'; object: GenericObject }
  | { kind: 'eventTicketObject'; object: EventTicketObject }
  | { kind: 'loyaltyObject'; object: LoyaltyObject };
/** The REST collection of a class. */
export type WalletClass =
  | { kind: 'genericClass'; class: GenericClass }
  | { kind: 'eventTicketClass'; class: EventTicketClass }
  | { kind: 'loyaltyClass'; class: LoyaltyClass };

export interface GoogleWallet {
  /** Prefix of every class and object id (`${issuerId}.${suffix}`). */
  readonly issuerId: string;
  /** True when Google credentials are configured: saved objects are updated through the REST API. */
  readonly updatesObjects: boolean;
  /** The "Save to Google Wallet" link for these classes and objects. */
  saveUrl(payload: SaveToWalletPayload): Promise<string>;
  /**
   * Replaces a saved object: the object's version Google answered (null when it named none),
   * or 'not-saved' when Google has never seen it (no guest saved the link).
   */
  updateObject(target: WalletObject): Promise<{ version: string | null } | 'not-saved'>;
  /** Replaces a class, or creates it when Google does not have it yet. */
  upsertClass(target: WalletClass): Promise<'updated' | 'created'>;
  /**
   * The message of a save or delete callback Google posted, once its signatures hold
   * (google-wallet-callbacks.ts); CallbackRefused for anything else.
   */
  verifyCallback(body: unknown): Promise<CallbackMessage>;
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
  /** Google's root keys (GOOGLE_WALLET_ROOT_KEYS); none: every callback is refused. */
  rootKeys?: RootKeys | undefined;
  /** Google's requests per second, shared by every process (none: unlimited, for tests of one request). */
  rate?: RequestRate | undefined;
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

interface Answer {
  /** 200 for any success, Google's status otherwise, null when Google was not reached. */
  status: number | null;
  message?: string;
  /** The resource Google answered with (on success). */
  data?: unknown;
  /** A 429's Retry-After, in seconds (null: none, or not one we read). */
  retryAfter?: number | null;
}

type Request = { url: string; method: 'PUT' | 'POST'; data: object; timeout: number };

/** Retry-After as seconds from now: a number of seconds or an HTTP date. */
export function retryAfterSeconds(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000);
}

async function sendOnce(client: JWT, request: Request): Promise<Answer> {
  try {
    const { data } = await client.request(request);
    return { status: 200, data };
  } catch (err) {
    const e = err as { status?: number; response?: { status?: number; headers?: Headers }; message: string };
    const status = e.response?.status ?? e.status ?? null;
    return {
      status,
      message: e.message,
      ...(status === 429 && { retryAfter: retryAfterSeconds(e.response?.headers?.get('retry-after')) }),
    };
  }
}

/** Tries of one request Google answers 429: each waits its Retry-After (or 1, 2, 4 ... s), then the job's retries take over. */
const RATE_LIMITED_TRIES = 5;
/** The longest Retry-After a request waits in hand (under a job's expiry); a longer one is left to the job's retry (the rate still holds every process back). */
const LONGEST_WAIT_SECONDS = 15;

/**
 * One request within Google's rate (every process's requests share it, google-rate.ts): a 429
 * holds every process back for its Retry-After, and the request is sent again after it.
 */
async function send(client: JWT, request: Request, rate: RequestRate | undefined): Promise<Answer> {
  for (let tries = 1; ; tries++) {
    // The rate taken far ahead (RateBusy) fails the try: the job is tried again later.
    await rate?.take();
    const answer = await sendOnce(client, request);
    if (answer.status !== 429 || tries >= RATE_LIMITED_TRIES) return answer;
    const seconds = answer.retryAfter ?? 2 ** (tries - 1);
    await rate?.pause(seconds);
    if (seconds > LONGEST_WAIT_SECONDS) return answer;
    if (!rate) await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/** A new error without the request: the library's error carries the object (and its barcode). */
const apiError = ({ status, message }: Answer, what: string) =>
  new GoogleWalletApiError(
    status ? `Google Wallet API answered ${status} to the ${what}` : `Google Wallet API unreachable: ${message}`,
    status === 400 || status === 403,
  );

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
      const answer = await send(
        client,
        {
          url: `${options.apiUrl}/${kind}/${encodeURIComponent(object.id)}`,
          method: 'PUT',
          data: object,
          timeout,
        },
        options.rate,
      );
      if (answer.status === 404) return 'not-saved';
      if (answer.status !== 200) throw apiError(answer, 'object update');
      // Google's objects carry their version as an int64 in a string.
      const version = (answer.data as { version?: unknown } | undefined)?.version;
      return { version: typeof version === 'string' || typeof version === 'number' ? String(version).slice(0, 40) : null };
    },

    async upsertClass({ kind, class: walletClass }) {
      if (!client) throw new GoogleWalletApiError('Google Wallet credentials are not configured');
      const url = `${options.apiUrl}/${kind}`;
      const updated = await send(
        client,
        {
          url: `${url}/${encodeURIComponent(walletClass.id)}`,
          method: 'PUT',
          data: walletClass,
          timeout,
        },
        options.rate,
      );
      if (updated.status === 200) return 'updated';
      if (updated.status !== 404) throw apiError(updated, 'class update');
      const created = await send(client, { url, method: 'POST', data: walletClass, timeout }, options.rate);
      if (created.status !== 200) throw apiError(created, 'class insert');
      return 'created';
    },

    async verifyCallback(body) {
      if (!options.rootKeys) throw new CallbackRefused('No Google root keys are configured (GOOGLE_WALLET_ROOT_KEYS)');
      return verifyCallback(body, { rootKeys: options.rootKeys, recipientId: credentials.issuerId });
    },
  };
}
