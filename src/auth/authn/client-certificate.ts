import { createHash } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import type { Authenticator } from '../authenticator.js';
import type { UserInfo } from '../../api/user.js';
import { unauthorized } from './authenticate.js';

/** user.CredentialIDKey: lets audit and `kubectl auth whoami` tell one certificate from another. */
export const CREDENTIAL_ID_EXTRA = 'authentication.kubernetes.io/credential-id';

/** Node gives a subject attribute that occurs more than once as an array. */
type SubjectValue = string | readonly string[] | undefined;

function allValues(value: SubjectValue): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : [...value];
}

/**
 * X.509 client certificates, verified by the TLS layer against the cluster CA (the server listens with
 * `requestCert: true, rejectUnauthorized: false`). User = subject CN (the last one, as Go reads it),
 * groups = every subject O. A certificate that fails verification is refused; one without a CN, like no
 * certificate at all, is no credential.
 */
export function clientCertificateAuthenticator(): Authenticator {
  return (req) => {
    const socket = req.socket;
    if (!(socket instanceof TLSSocket)) return undefined;
    const certificate = socket.getPeerCertificate();
    // Node answers {} when the client sent no certificate.
    if (certificate === null || certificate.raw === undefined) return undefined;
    if (!socket.authorized) throw unauthorized();
    const subject = certificate.subject as unknown as Readonly<Record<string, SubjectValue>> | undefined;
    const name = allValues(subject?.CN).at(-1);
    if (name === undefined || name === '') return undefined;
    const fingerprint = createHash('sha256').update(certificate.raw).digest('hex');
    const user: UserInfo = {
      name,
      groups: allValues(subject?.O),
      extra: { [CREDENTIAL_ID_EXTRA]: [`X509SHA256=${fingerprint}`] },
    };
    return user;
  };
}
