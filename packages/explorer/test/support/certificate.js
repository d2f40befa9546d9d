// A self-signed certificate for 127.0.0.1, for the tests' stand-in HTTPS endpoints.
import selfsigned from 'selfsigned';

/**
 * @returns {Promise<{ private: string, cert: string }>} PEM key and certificate, valid for the IP 127.0.0.1
 */
export function loopbackCertificate() {
  return selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
}
