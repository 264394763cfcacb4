// The detached PKCS#7 (CMS SignedData) signature of a pass's manifest.json, as Apple wants
// it: SHA-256, signed attributes (content type, signing time, message digest), the signer
// and WWDR certificates included, RSA (PKCS#1 v1.5) signed natively with node:crypto.
//
// The structure is built once with @peculiar/asn1-cms, with placeholder values of fixed
// size for the only three things that differ between passes: the signing time (a 13-byte
// UTCTime), the message digest (32 bytes) and the signature (as long as the RSA modulus).
// Each pass copies that DER and writes its own values over the placeholders: serializing
// the structure with the library for every pass cost several times the RSA signature.
import { createHash, sign, type KeyObject } from 'node:crypto';
import {
  Attribute,
  CertificateChoices,
  CertificateSet,
  ContentInfo,
  DigestAlgorithmIdentifiers,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  SignedData,
  SignerIdentifier,
  SignerInfo,
  SignerInfos,
  id_data,
  id_signedData,
} from '@peculiar/asn1-cms';
import { AsnArray, AsnConvert, AsnObjectIdentifierConverter, AsnType, AsnTypeTypes, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate, Time } from '@peculiar/asn1-x509';

const OID = {
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
};

/** SET OF Attribute: what the signature covers (RFC 5652, SignerInfo: signed DER-encoded as an explicit SET). */
class SignedAttributes extends AsnArray<Attribute> {}
AsnType({ type: AsnTypeTypes.Set, itemType: Attribute })(SignedAttributes);

const toBuffer = (ab: ArrayBuffer) => Buffer.from(ab);
const der = (obj: unknown) => toBuffer(AsnConvert.serialize(obj));

export interface ManifestSigner {
  /** The DER of a detached CMS signature over data (manifest.json). */
  sign(data: Buffer, signingTime?: Date): Buffer;
}

/** Finds the one place where needle occurs in haystack. */
function uniqueOffset(haystack: Buffer, needle: Buffer, what: string): number {
  const at = haystack.indexOf(needle);
  if (at < 0 || haystack.indexOf(needle, at + 1) >= 0) throw new Error(`CMS template: ${what} placeholder not found exactly once`);
  return at;
}

/** YYMMDDhhmmssZ: a UTCTime of fixed length (RFC 5652 wants UTCTime until 2049). */
function utcTime(date: Date): string {
  return date.toISOString().replace(/^\d\d(\d\d)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d).*$/, '$1$2$3$4$5$6Z');
}

export function createManifestSigner(options: { signerCertDer: Buffer; wwdrCertDer: Buffer; signerKey: KeyObject }): ManifestSigner {
  const { signerKey } = options;
  const modulusLength = signerKey.asymmetricKeyDetails?.modulusLength;
  if (signerKey.asymmetricKeyType !== 'rsa' || !modulusLength) throw new Error('Apple Wallet: the pass signing key must be an RSA key');
  const signerCert = AsnConvert.parse(options.signerCertDer, Certificate);
  const wwdrCert = AsnConvert.parse(options.wwdrCertDer, Certificate);
  const sha256 = new AlgorithmIdentifier({ algorithm: OID.sha256 });

  // Placeholders: a time no pass is signed at, and byte runs that cannot occur in the certificates.
  const placeholderTime = new Date(Date.UTC(2000, 0, 1));
  const placeholderDigest = Buffer.alloc(32, 0xd1);
  const placeholderSignature = Buffer.alloc(modulusLength / 8, 0x5e);
  const attributes = [
    // DER orders a SET OF by encoding; these three always encode shortest to longest in this order.
    new Attribute({ attrType: OID.contentType, attrValues: [AsnObjectIdentifierConverter.toASN(id_data).toBER(false)] }),
    new Attribute({ attrType: OID.signingTime, attrValues: [AsnConvert.serialize(new Time({ utcTime: placeholderTime }))] }),
    new Attribute({ attrType: OID.messageDigest, attrValues: [AsnConvert.serialize(new OctetString(placeholderDigest))] }),
  ];
  const signedData = new SignedData({
    version: 1,
    digestAlgorithms: new DigestAlgorithmIdentifiers([sha256]),
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: id_data }),
    certificates: new CertificateSet([
      new CertificateChoices({ certificate: signerCert }),
      new CertificateChoices({ certificate: wwdrCert }),
    ]),
    signerInfos: new SignerInfos([
      new SignerInfo({
        version: 1,
        sid: new SignerIdentifier({
          issuerAndSerialNumber: new IssuerAndSerialNumber({
            issuer: signerCert.tbsCertificate.issuer,
            serialNumber: signerCert.tbsCertificate.serialNumber,
          }),
        }),
        digestAlgorithm: sha256,
        signedAttrs: attributes,
        signatureAlgorithm: new AlgorithmIdentifier({ algorithm: OID.rsaEncryption, parameters: null }),
        signature: new OctetString(placeholderSignature),
      }),
    ]),
  });
  const template = der(new ContentInfo({ contentType: id_signedData, content: AsnConvert.serialize(signedData) }));
  // The signed attributes as signed: the same content under the SET tag instead of [0] IMPLICIT.
  const attributesSet = der(new SignedAttributes(attributes));
  const attributesInTemplate = Buffer.from(attributesSet);
  attributesInTemplate[0] = 0xa0;
  const attributesAt = uniqueOffset(template, attributesInTemplate, 'signed attributes');
  const timeText = Buffer.from(utcTime(placeholderTime), 'latin1');
  const timeInSet = uniqueOffset(attributesSet, timeText, 'signing time');
  const digestInSet = uniqueOffset(attributesSet, placeholderDigest, 'message digest');
  const signatureAt = uniqueOffset(template, placeholderSignature, 'signature');

  return {
    sign(data, signingTime = new Date()) {
      const signed = Buffer.from(attributesSet);
      signed.write(utcTime(signingTime), timeInSet, 'latin1');
      createHash('sha256').update(data).digest().copy(signed, digestInSet);
      const signature = sign('sha256', signed, signerKey);
      const out = Buffer.from(template);
      signed.copy(out, attributesAt + 1, 1);
      signature.copy(out, signatureAt);
      return out;
    },
  };
}
