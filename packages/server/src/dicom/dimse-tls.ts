/**
 * The DICOM port's transport: plain TCP, or TLS (PS3.15 Annex B.1, the Basic TLS Secure Transport
 * Connection profile) with the server's key and certificate and, optionally, client certificates
 * that must be signed by the configured CAs and name the calling AE title (subject CN).
 */
import net from 'node:net';
import tls from 'node:tls';

export interface DimseTls {
  key: string | Buffer;
  cert: string | Buffer;
  /** the CAs that sign client certificates (PEM) */
  ca?: string | Buffer;
  /** a client must present a certificate the CAs signed, whose subject CN is the AE title it calls with */
  requireClientCert?: boolean;
}

/** A listening server whose every (secured) connection is handed to `onSocket`. */
export function dimseServer(onSocket: (socket: net.Socket) => void, secure?: DimseTls): net.Server {
  if (!secure) return net.createServer(onSocket);
  const server = tls.createServer(
    {
      key: secure.key,
      cert: secure.cert,
      ...(secure.ca ? { ca: secure.ca } : {}),
      requestCert: secure.requireClientCert === true,
      rejectUnauthorized: secure.requireClientCert === true,
      minVersion: 'TLSv1.2',
    },
    onSocket,
  );
  // A client that fails the handshake (no certificate, an unknown CA) never reaches an association.
  server.on('tlsClientError', (_err, socket) => socket.destroy());
  return server;
}

/**
 * Whether the association's calling AE title is refused for its certificate: on a TLS port that
 * requires client certificates, the certificate's subject CN must be the calling AE title.
 */
export function certificateRefuses(socket: net.Socket, callingAe: string, secure?: DimseTls): boolean {
  if (!secure?.requireClientCert) return false;
  if (!(socket instanceof tls.TLSSocket) || !socket.authorized) return true;
  const cn = socket.getPeerCertificate().subject?.CN;
  return (Array.isArray(cn) ? cn[0] : cn) !== callingAe;
}
