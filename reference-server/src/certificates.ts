/**
 * A throwaway certificate authority and server certificate for `tls: true`, made at start
 * and never written anywhere but the CA's temporary file (conventions §5.11: HTTPS, with
 * verification on, so a client trusts this CA instead of turning verification off).
 *
 * @peculiar/x509 builds the certificates over Node's WebCrypto (no hand-written ASN.1,
 * no openssl binary). It needs a Reflect metadata polyfill, loaded here; this module is
 * imported only when TLS is asked for, so a plain server never loads either.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

/** PEM texts for an HTTPS listener and for the clients that must trust it. */
export interface TlsMaterial {
  /** The CA certificate: what clients add to their trust store (`--ca`). */
  readonly ca: string;
  /** The server certificate, issued by the CA for IP 127.0.0.1 and DNS localhost. */
  readonly cert: string;
  /** The server certificate's private key, PKCS #8. */
  readonly key: string;
}

/** ECDSA P-256 with SHA-256: small, fast to generate, accepted by every TLS stack. */
const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** Long enough for any `serve` session; the certificates die with the process anyway. */
const validityMs = 30 * 24 * 60 * 60 * 1000;

function pem(label: string, der: ArrayBuffer): string {
  const lines = Buffer.from(der).toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** Generates a fresh CA and a server certificate it signs. */
export async function generateTlsMaterial(): Promise<TlsMaterial> {
  const crypto = webcrypto;
  const subtle = webcrypto.subtle;
  // A minute of slack, so a client whose clock is a little behind still accepts it.
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + validityMs);

  const caKeys = (await subtle.generateKey(algorithm, false, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned(
    {
      name: 'CN=restprobe reference server test CA',
      notBefore,
      notAfter,
      keys: caKeys,
      signingAlgorithm: algorithm,
      extensions: [
        // A CA that may sign server certificates only, none of them CAs.
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
      ],
    },
    crypto,
  );

  const serverKeys = (await subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create(
    {
      subject: 'CN=localhost',
      issuer: ca.subject,
      notBefore,
      notAfter,
      publicKey: serverKeys.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: algorithm,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        // Clients match the URL's host against these, never against the CN (RFC 6125).
        new x509.SubjectAlternativeNameExtension([
          { type: 'ip', value: '127.0.0.1' },
          { type: 'dns', value: 'localhost' },
        ]),
        await x509.AuthorityKeyIdentifierExtension.create(ca, false, crypto),
      ],
    },
    crypto,
  );

  const key = await subtle.exportKey('pkcs8', serverKeys.privateKey);
  return { ca: ca.toString('pem'), cert: cert.toString('pem'), key: pem('PRIVATE KEY', key) };
}
