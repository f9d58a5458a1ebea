/*
 * Real X.509 certificates and precertificates for the CT tests and benchmark: a test CA (ECDSA P-256)
 * issues leaf certificates with chosen SAN dNSNames, CN, serial and validity; a precertificate carries
 * the critical CT poison extension (RFC 6962 §3.1). Built with the same @peculiar/asn1-x509 schemas
 * the parser reads, signed with node:crypto (ECDSA with SHA-256, DER signature), so OpenSSL
 * (node's X509Certificate) accepts and verifies them.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { AsnParser, AsnSerializer, OctetString } from '@peculiar/asn1-schema';
import {
  AccessDescription,
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  AuthorityInfoAccessSyntax,
  AuthorityKeyIdentifier,
  BasicConstraints,
  Certificate,
  CertificatePolicies,
  ExtendedKeyUsage,
  Extension,
  Extensions,
  GeneralName,
  id_ce_authorityKeyIdentifier,
  id_ce_basicConstraints,
  id_ce_certificatePolicies,
  id_ce_extKeyUsage,
  id_ce_subjectAltName,
  id_ce_subjectKeyIdentifier,
  id_kp_clientAuth,
  id_kp_serverAuth,
  id_pe_authorityInfoAccess,
  KeyIdentifier,
  Name,
  PolicyInformation,
  RelativeDistinguishedName,
  SubjectAlternativeName,
  SubjectKeyIdentifier,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';

export const CT_POISON_OID = '1.3.6.1.4.1.11129.2.4.3';
const ECDSA_SHA256 = '1.2.840.10045.4.3.2';
const OIDS = { CN: '2.5.4.3', O: '2.5.4.10', C: '2.5.4.6' } as const;

export interface TestCa {
  /** The CA certificate, DER. */
  der: Buffer;
  /** The CA's SubjectPublicKeyInfo, DER (its SHA-256 is a precert entry's issuer_key_hash). */
  spki: Buffer;
  key: KeyObject;
  name: Name;
  /** One key pair shared by the leaves this CA issues (only signatures are checked, not the leaves' keys). */
  leafSpki: SubjectPublicKeyInfo;
}

export interface TestCert {
  der: Buffer;
  precert: boolean;
  issuer: TestCa;
}

export interface CertOptions {
  /** SAN dNSNames, as written into the certificate (IA5String: ASCII, IDN as punycode). */
  sans?: string[];
  /** Subject CN (UTF8String: may be Unicode). */
  cn?: string;
  /** Hex, without sign bit (first digit 0–7). */
  serial?: string;
  notBefore?: Date;
  notAfter?: Date;
  precert?: boolean;
  /**
   * The extensions a public web certificate carries besides SAN (key usage, EKU, basic constraints,
   * key identifiers, AIA, policies, and for a final certificate an SCT list of three SCTs' size): the
   * benchmark parses what a real log holds, not a minimal certificate.
   */
  web?: boolean;
}

function dn(attrs: [keyof typeof OIDS, string][]): Name {
  return new Name(
    attrs.map(
      ([k, v]) =>
        new RelativeDistinguishedName([
          new AttributeTypeAndValue({
            type: OIDS[k],
            value: new AttributeValue(k === 'C' ? { printableString: v } : { utf8String: v }),
          }),
        ]),
    ),
  );
}

const ext = (id: string, critical: boolean, value: ArrayBuffer | Buffer) =>
  new Extension({ extnID: id, critical, extnValue: new OctetString(value) });

const spkiOf = (key: KeyObject) => key.export({ type: 'spki', format: 'der' });

function signTbs(tbs: TBSCertificate, key: KeyObject): Buffer {
  const tbsDer = Buffer.from(AsnSerializer.serialize(tbs));
  const signatureValue = sign('sha256', tbsDer, key); // DER ECDSA-Sig-Value for EC keys
  const cert = new Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 }),
    signatureValue: new Uint8Array(signatureValue).buffer,
  });
  return Buffer.from(AsnSerializer.serialize(cert));
}

const hexBytes = (hex: string) => {
  const b = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  return new Uint8Array(b).buffer;
};

export function createTestCa(subject: { cn: string; o?: string } = { cn: 'Forpost Test CA', o: 'Forpost' }): TestCa {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const leaf = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = dn([['C', 'RU'], ...(subject.o ? [['O', subject.o] as ['O', string]] : []), ['CN', subject.cn]]);
  const spki = spkiOf(publicKey);
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: hexBytes('01'),
    signature: new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 }),
    issuer: name,
    validity: new Validity({ notBefore: new Date('2025-01-01T00:00:00Z'), notAfter: new Date('2035-01-01T00:00:00Z') }),
    subject: name,
    subjectPublicKeyInfo: AsnParser.parse(spki, SubjectPublicKeyInfo),
    extensions: new Extensions([ext(id_ce_basicConstraints, true, AsnSerializer.serialize(new BasicConstraints({ cA: true })))]),
  });
  return {
    der: signTbs(tbs, privateKey),
    spki,
    key: privateKey,
    name,
    leafSpki: AsnParser.parse(spkiOf(leaf.publicKey), SubjectPublicKeyInfo),
  };
}

const SCT_LIST_OID = '1.3.6.1.4.1.11129.2.4.2';
const der = (hex: string) => Buffer.from(hex.replace(/\s+/g, ''), 'hex');

function webExtensions(ca: TestCa, withScts: boolean): Extension[] {
  const caKeyId = createHash('sha1').update(ca.spki).digest();
  const uri = (u: string) => new GeneralName({ uniformResourceIdentifier: u });
  const list = [
    ext('2.5.29.15', true, der('03 02 05 a0')), // keyUsage: digitalSignature, keyEncipherment
    ext(id_ce_extKeyUsage, false, AsnSerializer.serialize(new ExtendedKeyUsage([id_kp_serverAuth, id_kp_clientAuth]))),
    ext(id_ce_basicConstraints, true, AsnSerializer.serialize(new BasicConstraints({ cA: false }))),
    ext(id_ce_subjectKeyIdentifier, false, AsnSerializer.serialize(new SubjectKeyIdentifier(randomBytes(20)))),
    ext(
      id_ce_authorityKeyIdentifier,
      false,
      AsnSerializer.serialize(new AuthorityKeyIdentifier({ keyIdentifier: new KeyIdentifier(caKeyId) })),
    ),
    ext(
      id_pe_authorityInfoAccess,
      false,
      AsnSerializer.serialize(
        new AuthorityInfoAccessSyntax([
          new AccessDescription({ accessMethod: '1.3.6.1.5.5.7.48.1', accessLocation: uri('http://ocsp.test-ca.example') }),
          new AccessDescription({ accessMethod: '1.3.6.1.5.5.7.48.2', accessLocation: uri('http://crt.test-ca.example/ca.der') }),
        ]),
      ),
    ),
    ext(
      id_ce_certificatePolicies,
      false,
      AsnSerializer.serialize(new CertificatePolicies([new PolicyInformation({ policyIdentifier: '2.23.140.1.2.1' })])),
    ),
  ];
  // SignedCertificateTimestampList: an OCTET STRING of ~360 bytes (three SCTs); its content is not read.
  if (withScts) list.push(ext(SCT_LIST_OID, false, Buffer.concat([der('04 82 01 68'), randomBytes(0x168)])));
  return list;
}

let serialCounter = 0x1000;

/** A leaf certificate (or a precertificate with the poison extension) issued by the CA. */
export function issueCertificate(ca: TestCa, opts: CertOptions): TestCert {
  const extensions: Extension[] = [];
  if (opts.sans?.length) {
    const san = new SubjectAlternativeName(opts.sans.map((dNSName) => new GeneralName({ dNSName })));
    extensions.push(ext(id_ce_subjectAltName, false, AsnSerializer.serialize(san)));
  }
  if (opts.web) extensions.push(...webExtensions(ca, !opts.precert));
  if (opts.precert) extensions.push(ext(CT_POISON_OID, true, Buffer.from([0x05, 0x00]))); // ASN.1 NULL
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: hexBytes(opts.serial ?? (serialCounter++).toString(16)),
    signature: new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 }),
    issuer: ca.name,
    validity: new Validity({
      notBefore: opts.notBefore ?? new Date('2026-01-01T00:00:00Z'),
      notAfter: opts.notAfter ?? new Date('2026-04-01T00:00:00Z'),
    }),
    subject: opts.cn ? dn([['CN', opts.cn]]) : new Name(),
    subjectPublicKeyInfo: ca.leafSpki,
    extensions: extensions.length ? new Extensions(extensions) : undefined,
  });
  return { der: signTbs(tbs, ca.key), precert: !!opts.precert, issuer: ca };
}

/** What a log puts in a precert entry: the TBSCertificate without the poison extension, and the issuer key hash. */
export function precertLeafParts(cert: TestCert): { tbs: Buffer; issuerKeyHash: Buffer } {
  const tbs = AsnParser.parse(cert.der, Certificate).tbsCertificate;
  const rest = (tbs.extensions ?? []).filter((e) => e.extnID !== CT_POISON_OID);
  tbs.extensions = rest.length ? new Extensions(rest) : undefined;
  return {
    tbs: Buffer.from(AsnSerializer.serialize(tbs)),
    issuerKeyHash: createHash('sha256').update(cert.issuer.spki).digest(),
  };
}
