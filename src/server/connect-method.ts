import { type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Node hands CONNECT requests to a 'connect' listener and resets the connection when there is none. Go's server
 * passes them to the handler like any other method: authenticated, authorized (verb "connect"), then refused by the
 * router. So they go through the same handler here, on a response bound to the raw socket, which closes after it.
 */
export function serveConnectLikeOtherMethods(server: Server, handler: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Parameters<ServerResponse['assignSocket']>[0]);
    res.on('finish', () => {
      res.detachSocket(socket as Parameters<ServerResponse['detachSocket']>[0]);
      socket.end();
    });
    socket.on('error', () => socket.destroy());
    handler(req, res);
  });
}
